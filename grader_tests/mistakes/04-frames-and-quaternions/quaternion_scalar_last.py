"""A quaternion built scalar last, (x, y, z, w), as some other libraries write it."""

# forward_kinematics turns its hinges with quat_from_axis_angle, so its hinge test inherits
# the slip; its tests without hinges never call it.
LOSES = {
    "quat_from_axis_angle_matches_mujoco",
    "forward_kinematics_hinges_about_anchors",
}

EDITS = {
    "quat_from_axis_angle": [
        (
            "    return np.concatenate([[np.cos(angle / 2)], np.sin(angle / 2) * direction])",
            "    return np.concatenate([np.sin(angle / 2) * direction, [np.cos(angle / 2)]])",
        ),
    ],
}
