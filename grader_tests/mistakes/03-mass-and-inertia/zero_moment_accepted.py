"""Only the triangle inequality checked, so a zero moment passes."""

# A negative moment still fails the inequality, but (0, a, a) satisfies it.
LOSES = {
    "inertia_is_physical_matches_mujoco",
}

EDITS = {
    "inertia_is_physical": [
        (
            "    return a > 0 and b > 0 and c > 0 and a + b >= c and a + c >= b and b + c >= a",
            "    return a + b >= c and a + c >= b and b + c >= a",
        ),
    ],
}
