"""Damping left explicit: c_implicit ignored."""

LOSES = {
    "semi_implicit_euler_implicit_damping",
}

CELLS = {
    "semi_implicit_euler": '''\
def semi_implicit_euler(x, v, accel, h, c_implicit=0.0):
    """One step of MuJoCo's Euler integrator: velocity first, then position.

    x, v: position (m) and velocity (m/s), floats or NumPy arrays of the same shape.
    accel: a function accel(x, v) returning the acceleration (m/s^2) at the current state,
        damping included.
    h: timestep, s.
    c_implicit: damping rate treated implicitly (damping / inertia, 1/s); 0 means none.
    Returns (x_new, v_new).
    """
    v_new = v + h * accel(x, v)
    return x + h * v_new, v_new
''',
}
