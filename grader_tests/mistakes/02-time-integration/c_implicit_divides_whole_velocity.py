"""The implicit-damping factor divides the whole new velocity, not only this step's change."""

# With c_implicit = 0 the factor is 1, so the undamped test keeps its points.
LOSES = {
    "semi_implicit_euler_implicit_damping",
}

EDITS = {
    "semi_implicit_euler": [
        (
            '    """One step of MuJoCo\'s Euler integrator: velocity first, then position.\n\n    x, v: positions and velocities, floats or NumPy arrays of the same shape.\n    accel: a function accel(x, v) returning the acceleration at a state, damping included.\n    h: timestep, s.\n    c_implicit: damping rate treated implicitly (damping / joint inertia, 1/s); 0 means\n        none. A float, or an array like v with one rate per joint, which is MuJoCo\'s step\n        only when the joint-space inertia is diagonal (joints that do not couple).\n    Returns (x_new, v_new).\n    """\n    v_new = v + h * accel(x, v) / (1 + h * c_implicit)',
            '    """One step of MuJoCo\'s Euler integrator: velocity first, then position."""\n    v_new = (v + h * accel(x, v)) / (1 + h * c_implicit)',
        ),
    ],
}
