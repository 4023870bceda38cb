"""Position first, with the old velocity, then the velocity from the moved position."""

# The other order of the two updates (also area-preserving, but not MuJoCo's Euler): the
# position moves by h times the velocity the step was given. Both semi-implicit tests fail,
# and each names the old velocity; the damped one must not blame c_implicit, which this step
# uses correctly.
LOSES = {
    "semi_implicit_euler_matches_mj_step",
    "semi_implicit_euler_implicit_damping",
}

CELLS = {
    "semi_implicit_euler": '''\
def semi_implicit_euler(x, v, accel, h, c_implicit=0.0):
    """One step of MuJoCo's Euler integrator: velocity first, then position."""
    x_new = x + h * v
    v_new = v + h * accel(x_new, v) / (1 + h * c_implicit)
    return x_new, v_new
''',
}
