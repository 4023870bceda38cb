"""The armature set to the floor m r0^2 itself instead of what is missing up to it."""

SAYS = {"floor_armature": "what is missing"}  # what its visible check says

# apply_inertia_floor writes floor_armature's value, so it inherits the slip.
LOSES = {
    "floor_armature_brings_the_smallest_moment_to_m_r0_squared",
    "apply_inertia_floor_matches_mujoco",
}

EDITS = {"floor_armature": [("mass * r0**2 - np.min(principal_inertia)", "mass * r0**2")]}
