"""RK4 with the four slopes weighted 1, 1, 1, 1 (divided by 4) instead of 1, 2, 2, 1 over 6."""

LOSES = {
    "rk4_matches_mj_step",
}

CELLS = {
    "rk4": '''\
def rk4(x, v, accel, h):
    """One step of the classic fourth-order Runge-Kutta method on the pair (x, v)."""
    k1x, k1v = v, accel(x, v)
    k2x = v + h / 2 * k1v
    k2v = accel(x + h / 2 * k1x, k2x)
    k3x = v + h / 2 * k2v
    k3v = accel(x + h / 2 * k2x, k3x)
    k4x = v + h * k3v
    k4v = accel(x + h * k3x, k4x)
    return x + h / 4 * (k1x + k2x + k3x + k4x), v + h / 4 * (k1v + k2v + k3v + k4v)
''',
}
