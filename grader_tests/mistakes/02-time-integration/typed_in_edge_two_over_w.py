"""Euler's edge 2/w typed in from the lesson instead of found by stepping the given step."""

# Right for MuJoCo's Euler, but the function ignores `step`, so RK4's edge is wrong.
LOSES = {
    "stable_timestep_matches_mujoco_rk4",
}

CELLS = {
    "largest_stable_timestep": '''\
def largest_stable_timestep(step, w, n_steps=1000, bound=100.0):
    """Largest timestep (s) at which `step` keeps an undamped spring bounded."""
    return 2 / w
''',
}
