"""rpy composed about moving axes (MJCF's default eulerseq xyz) instead of URDF's fixed axes."""

LOSES = {
    "rpy_to_quat_matches_mujoco",
}

EDITS = {
    "rpy_to_quat": [
        (
            "    return quat_multiply(about_z, quat_multiply(about_y, about_x))  # roll first, yaw last",
            "    return quat_multiply(about_x, quat_multiply(about_y, about_z))",
        ),
    ],
}
