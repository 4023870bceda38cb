"""A hinge turned about the body origin instead of its anchor."""

LOSES = {
    "forward_kinematics_hinges_about_anchors",
}

EDITS = {
    "forward_kinematics": [
        (
            "            pos = pos + quat_to_matrix(quat) @ anchor - quat_to_matrix(turned) @ anchor\n",
            "",
        ),
    ],
}
