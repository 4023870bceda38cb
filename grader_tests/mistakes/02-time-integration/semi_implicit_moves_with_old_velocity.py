"""Explicit Euler where semi-implicit is asked: the position moves with the old velocity."""

# Both semi-implicit tests step the same function, so the damped one fails too, and each names
# the old velocity (the damped one must not blame c_implicit, which this step uses correctly).
# The stability tests search with MuJoCo's own step, not with this one, and keep their points.
LOSES = {
    "semi_implicit_euler_matches_mj_step",
    "semi_implicit_euler_implicit_damping",
}

EDITS = {
    "semi_implicit_euler": [
        (
            '    """One step of MuJoCo\'s Euler integrator: velocity first, then position.\n\n    x, v: positions and velocities, floats or NumPy arrays of the same shape.\n    accel: a function accel(x, v) returning the acceleration at a state, damping included.\n    h: timestep, s.\n    c_implicit: damping rate treated implicitly (damping / joint inertia, 1/s); 0 means\n        none. A float, or an array like v with one rate per joint, which is MuJoCo\'s step\n        only when the joint-space inertia is diagonal (joints that do not couple).\n    Returns (x_new, v_new).\n    """',
            '    """One step of MuJoCo\'s Euler integrator: velocity first, then position."""',
        ),
        (
            "    return x + h * v_new, v_new",
            "    return x + h * v, v_new",
        ),
    ],
}
