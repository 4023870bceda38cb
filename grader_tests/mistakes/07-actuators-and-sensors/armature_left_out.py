"""The armature left out of the reflected inertia: only the body's inertia through the gear."""

SAYS = {"reflected_inertia": "armature"}  # what its visible check says

LOSES = {"reflected_inertia_matches_mujoco"}

EDITS = {
    "reflected_inertia": [
        (
            "    return (body_inertia_about_axis + armature) / gear**2",
            "    return body_inertia_about_axis / gear**2",
        ),
    ],
}
