"""Explicit Euler: the position moves with the old velocity."""

# The drop loop steps with semi_implicit_euler, so the heights inherit the slip. The delays
# do not: in a straight fall the velocity never depends on the position, so explicit Euler
# gives every cube the same heights one step late, and a difference of landing times
# cancels the lag exactly.
LOSES = {
    "semi_implicit_euler_matches_mj_step",
    "semi_implicit_euler_implicit_damping",
    "drop_heights_matches_mj_step",
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
    v_new = v + h * accel(x, v) / (1 + h * c_implicit)
    return x + h * v, v_new
''',
}
