"""Damping left explicit: c_implicit is accepted but ignored."""

# Without damping c_implicit is 0, so only the damped test can tell.
LOSES = {
    "semi_implicit_euler_implicit_damping",
}

CELLS = {
    "semi_implicit_euler": '''\
def semi_implicit_euler(x, v, accel, h, c_implicit=0.0):
    """One step of MuJoCo's Euler integrator: velocity first, then position."""
    v_new = v + h * accel(x, v)
    return x + h * v_new, v_new
''',
}
