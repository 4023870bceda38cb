"""Semi-implicit Euler where explicit Euler is asked: the position moves with the new velocity."""

LOSES = {
    "explicit_euler_matches_mujoco_pieces",
}

CELLS = {
    "explicit_euler": '''\
def explicit_euler(x, v, accel, h):
    """One explicit Euler step: both updates use the state at the start of the step."""
    v_new = v + h * accel(x, v)
    return x + h * v_new, v_new
''',
}
