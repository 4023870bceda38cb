"""Explicit Euler where semi-implicit is asked: the position moves with the old velocity."""

# Both semi-implicit tests step the same function, so the damped one fails too. The stability
# tests search with MuJoCo's own step, not with this one, and keep their points.
LOSES = {
    "semi_implicit_euler_matches_mj_step",
    "semi_implicit_euler_implicit_damping",
}

CELLS = {
    "semi_implicit_euler": '''\
def semi_implicit_euler(x, v, accel, h, c_implicit=0.0):
    """One step of MuJoCo's Euler integrator: velocity first, then position."""
    v_new = v + h * accel(x, v) / (1 + h * c_implicit)
    return x + h * v, v_new
''',
}
