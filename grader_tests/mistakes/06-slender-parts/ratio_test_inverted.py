"""The slenderness test inverted: smallest / largest compared with the ratio."""

# floor_armature asks needs_inertia_floor whether the part is raised, and apply_inertia_floor
# asks floor_armature for the armature, so both inherit the slip: no part is ever raised.
LOSES = {
    "needs_inertia_floor_follows_the_rule",
    "floor_armature_brings_the_smallest_moment_to_m_r0_squared",
    "apply_inertia_floor_matches_mujoco",
}

EDITS = {
    "needs_inertia_floor": [
        (
            "    return bool(largest >= ratio * smallest and smallest < mass * r0**2)",
            "    return bool(smallest / largest >= ratio and smallest < mass * r0**2)",
        ),
    ],
}
