"""Semi-implicit Euler where explicit Euler is asked: the position moves with the new velocity."""

LOSES = {
    "explicit_euler_matches_mujoco_pieces",
}

EDITS = {
    "explicit_euler": [
        (
            '    """One explicit Euler step: both updates use the state at the start of the step.\n\n    x, v: positions and velocities (rad or m, rad/s or m/s), floats or NumPy arrays of the\n        same shape.\n    accel: a function accel(x, v) returning the acceleration at a state, every force\n        included.\n    h: timestep, s.\n    Returns (x_new, v_new).\n    """\n    return x + h * v, v + h * accel(x, v)',
            '    """One explicit Euler step: both updates use the state at the start of the step."""\n    v_new = v + h * accel(x, v)\n    return x + h * v_new, v_new',
        ),
    ],
}
