"""RK4 with the four slopes weighted 1, 1, 1, 1 (divided by 4) instead of 1, 2, 2, 1 over 6."""

LOSES = {
    "rk4_matches_mj_step",
}

EDITS = {
    "rk4": [
        (
            '    """One step of the classic fourth-order Runge-Kutta method on the pair (x, v).\n\n    x, v: positions and velocities, floats or NumPy arrays of the same shape.\n    accel: a function accel(x, v) returning the acceleration at a state, every force\n        included; it is called four times per step.\n    h: timestep, s.\n    Returns (x_new, v_new).\n    """',
            '    """One step of the classic fourth-order Runge-Kutta method on the pair (x, v)."""',
        ),
        (
            "    x_new = x + h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)\n    v_new = v + h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)\n    return x_new, v_new",
            "    return x + h / 4 * (k1x + k2x + k3x + k4x), v + h / 4 * (k1v + k2v + k3v + k4v)",
        ),
    ],
}
