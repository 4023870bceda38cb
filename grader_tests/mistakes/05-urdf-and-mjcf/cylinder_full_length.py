"""A URDF cylinder's full length kept as MJCF's second size number, its half-length."""

LOSES = {
    "urdf_geometry_cylinder_and_sphere_match_mujoco",
}

EDITS = {
    "urdf_geometry_to_mjcf": [
        (
            '        return "cylinder", [radius, length / 2]  # radius, then half the length',
            '        return "cylinder", [radius, length]',
        ),
    ],
}
