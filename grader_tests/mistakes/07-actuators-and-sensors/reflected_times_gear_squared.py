"""The gear applied the wrong way round: the inertia multiplied by gear^2 instead of divided."""

SAYS = {"reflected_inertia": "scale"}  # what its visible check says

LOSES = {"reflected_inertia_matches_mujoco"}

EDITS = {
    "reflected_inertia": [
        (
            "    return (body_inertia_about_axis + armature) / gear**2",
            "    return (body_inertia_about_axis + armature) * gear**2",
        ),
    ],
}
