"""The stability edge taken as 1/w (one radian per step) instead of searched for."""

# MuJoCo's Euler is stable up to 2/w and its RK4 up to about 2.83/w: both tests fail.
LOSES = {
    "stable_timestep_matches_mujoco_euler",
    "stable_timestep_matches_mujoco_rk4",
}

CELLS = {
    "largest_stable_timestep": '''\
def largest_stable_timestep(step, w, n_steps=1000, bound=100.0):
    """Largest timestep (s) at which `step` keeps an undamped spring bounded."""
    return 1 / w
''',
}
