"""The triangle inequality checked with a strict > on one pair, refusing flat bodies."""

# Off the boundary > and >= agree. The visible flat disk (0.01, 0.01, 0.02) has the sum on
# this very pair; the hidden cases put it on each of the three pairs.
LOSES = {
    "inertia_is_physical_on_the_boundary",
}

CELLS = {
    "inertia_is_physical": '''\
def inertia_is_physical(diaginertia):
    """Whether three principal moments (kg m^2) can belong to a real rigid body, as MuJoCo's
    compiler decides for a moving body's <inertial diaginertia=...>: every moment positive,
    and every two of them adding up to at least the third. Returns True or False."""
    a, b, c = (float(v) for v in diaginertia)
    return a > 0 and b > 0 and c > 0 and a + b > c and a + c >= b and b + c >= a
''',
}
