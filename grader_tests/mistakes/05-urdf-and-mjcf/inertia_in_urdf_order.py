"""URDF's inertia order (ixx ixy ixz iyy iyz izz) kept for MJCF's fullinertia."""

LOSES = {
    "urdf_inertia_order_matches_mujoco",
}

EDITS = {
    "urdf_inertia_to_fullinertia": [
        (
            "    return [ixx, iyy, izz, ixy, ixz, iyz]",
            "    return [ixx, ixy, ixz, iyy, iyz, izz]",
        ),
    ],
}
