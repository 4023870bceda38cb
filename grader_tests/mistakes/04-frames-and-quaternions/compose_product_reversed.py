"""Two orientations composed in the wrong order: child times parent."""

# forward_kinematics places every body with compose_pose, so each of its tests inherits it.
LOSES = {
    "compose_pose_matches_mj_kinematics",
    "forward_kinematics_composes_the_tree",
    "forward_kinematics_slides",
    "forward_kinematics_hinges_about_anchors",
}

EDITS = {
    "compose_pose": [
        (
            "quat_multiply(parent_quat, child_quat)",
            "quat_multiply(child_quat, parent_quat)",
        ),
    ],
}
