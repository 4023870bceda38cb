"""Predictions that assume a childclass reaches only the body it is written on."""

LOSES = {
    "defaults_predictions_match_mujoco",
}

EDITS = {
    "predicted_defaults": [
        (
            '    "hand_pad": (0.3, "grey"),  # childclass metal reaches nested bodies too',
            '    "hand_pad": (0.8, "grey"),  # the hand has no childclass: the top level',
        ),
        (
            '    "wrist": (2.0, 0.01),  # damping written on the joint, armature from metal',
            '    "wrist": (2.0, 0.0),  # damping written on the joint',
        ),
    ],
}
