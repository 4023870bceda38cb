"""Only the triangle inequality checked, so a zero moment passes."""

# A negative moment still fails the inequality, but (0, a, a) satisfies it.
LOSES = {
    "inertia_is_physical_matches_mujoco",
}

CELLS = {
    "inertia_is_physical": '''\
def inertia_is_physical(diaginertia):
    """Whether three principal moments (kg m^2) can belong to a real rigid body, as MuJoCo's
    compiler decides for a moving body's <inertial diaginertia=...>: every moment positive,
    and every two of them adding up to at least the third. Returns True or False."""
    a, b, c = (float(v) for v in diaginertia)
    return a + b >= c and a + c >= b and b + c >= a
''',
}
