"""URDF box sides kept as MJCF sizes: full lengths where MJCF wants half-lengths."""

LOSES = {
    "urdf_geometry_box_matches_mujoco",
}

EDITS = {
    "urdf_geometry_to_mjcf": [
        (
            '        return "box", [side / 2 for side in dims]  # half-sides',
            '        return "box", dims',
        ),
    ],
}
