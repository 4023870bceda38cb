"""A hinge's turn multiplied on the wrong side: about the parent's axes, not the moved body's."""

LOSES = {
    "forward_kinematics_hinges_about_anchors",
}

EDITS = {
    "forward_kinematics": [
        (
            "            turned = quat_multiply(quat, quat_from_axis_angle(axis, q))",
            "            turned = quat_multiply(quat_from_axis_angle(axis, q), quat)",
        ),
    ],
}
