"""RK4 whose middle stages look a full step ahead instead of half a step."""

LOSES = {
    "rk4_matches_mj_step",
}

CELLS = {
    "rk4": '''\
def rk4(x, v, accel, h):
    """One step of the classic fourth-order Runge-Kutta method on the pair (x, v)."""
    k1x, k1v = v, accel(x, v)
    k2x = v + h * k1v
    k2v = accel(x + h * k1x, k2x)
    k3x = v + h * k2v
    k3v = accel(x + h * k2x, k3x)
    k4x = v + h * k3v
    k4v = accel(x + h * k3x, k4x)
    return (
        x + h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x),
        v + h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v),
    )
''',
}
