"""The full angle in place of the half angle in an axis-angle quaternion."""

# forward_kinematics turns its hinges with quat_from_axis_angle, so its hinge test inherits
# the slip; its tests without hinges never call it.
LOSES = {
    "quat_from_axis_angle_matches_mujoco",
    "forward_kinematics_hinges_about_anchors",
}

EDITS = {
    "quat_from_axis_angle": [
        ("np.cos(angle / 2)], np.sin(angle / 2)", "np.cos(angle)], np.sin(angle)"),
    ],
}
