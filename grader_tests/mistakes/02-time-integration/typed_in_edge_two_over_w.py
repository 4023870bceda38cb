"""Euler's edge 2/w typed in from the lesson instead of found by stepping the given step."""

# Right for the lesson's undamped spring under MuJoCo's Euler, so the visible Euler check
# passes; but the function ignores `step`, so RK4's edge is wrong, and so are the edges of the
# hidden Euler steps (a damped spring, a cart carrying a block).
LOSES = {
    "stable_timestep_matches_mujoco_euler",
    "stable_timestep_matches_mujoco_rk4",
}

EDITS = {
    "largest_stable_timestep": [
        (
            '    """Largest timestep (s) at which `step` keeps an undamped spring bounded, by bisection.\n\n    step: a step function step(x, v, accel, h) -> (x_new, v_new), like the three above.\n    w: the spring\'s angular frequency, rad/s; its acceleration is accel(x, v) = -w**2 * x.\n    A timestep h is stable when the spring, released at x = 1 with v = 0, keeps\n    |x| <= bound at every one of n_steps steps. Start from the bracket [0, 10 / w] (0 counts\n    as stable, 10 / w as unstable) and halve it until it is narrower than 1e-4 / w.\n    Returns the lower end of the final bracket: the largest timestep found stable.\n    """\n\n    def spring_accel(x, v):\n        return -(w**2) * x\n\n    def stable(h):\n        x, v = 1.0, 0.0\n        for _ in range(n_steps):\n            x, v = step(x, v, spring_accel, h)\n            if not abs(x) <= bound:  # also catches nan\n                return False\n        return True\n\n    low, high = 0.0, 10.0 / w\n    while high - low > 1e-4 / w:\n        middle = (low + high) / 2\n        if stable(middle):\n            low = middle\n        else:\n            high = middle\n    return low',
            '    """Largest timestep (s) at which `step` keeps an undamped spring bounded."""\n    return 2 / w',
        ),
    ],
}
