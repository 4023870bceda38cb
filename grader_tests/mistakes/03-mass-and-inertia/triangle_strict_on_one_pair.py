"""The triangle inequality checked with a strict > on one pair, refusing flat bodies."""

# Off the boundary > and >= agree. The visible flat disk (0.01, 0.01, 0.02) has the sum on
# this very pair; the hidden cases put it on each of the three pairs.
LOSES = {
    "inertia_is_physical_on_the_boundary",
}

EDITS = {
    "inertia_is_physical": [
        (
            "    return a > 0 and b > 0 and c > 0 and a + b >= c and a + c >= b and b + c >= a",
            "    return a > 0 and b > 0 and c > 0 and a + b > c and a + c >= b and b + c >= a",
        ),
    ],
}
