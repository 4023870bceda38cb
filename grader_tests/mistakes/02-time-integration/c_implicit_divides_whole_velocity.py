"""The implicit-damping factor divides the whole new velocity, not only this step's change."""

# With c_implicit = 0 the factor is 1, so the undamped test keeps its points.
LOSES = {
    "semi_implicit_euler_implicit_damping",
}

CELLS = {
    "semi_implicit_euler": '''\
def semi_implicit_euler(x, v, accel, h, c_implicit=0.0):
    """One step of MuJoCo's Euler integrator: velocity first, then position."""
    v_new = (v + h * accel(x, v)) / (1 + h * c_implicit)
    return x + h * v_new, v_new
''',
}
