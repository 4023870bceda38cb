"""The three rpy angles read in reverse order, as yaw, pitch, roll."""

LOSES = {
    "rpy_to_quat_matches_mujoco",
}

EDITS = {
    "rpy_to_quat": [
        (
            "    roll, pitch, yaw = rpy",
            "    yaw, pitch, roll = rpy",
        ),
    ],
}
