"""The slenderness test inverted: smallest / largest compared with the ratio."""

SAYS = {"needs_inertia_floor": "which way round"}  # what its visible check says

# floor_armature asks needs_inertia_floor whether the part is raised, and apply_inertia_floor
# asks floor_armature for the armature, so both inherit the slip: no part is ever raised.
LOSES = {
    "needs_inertia_floor_follows_the_rule",
    "floor_armature_brings_the_smallest_moment_to_m_r0_squared",
    "apply_inertia_floor_matches_mujoco",
}

EDITS = {
    "needs_inertia_floor": [
        ("largest >= ratio * smallest", "smallest / largest >= ratio"),
    ],
}
