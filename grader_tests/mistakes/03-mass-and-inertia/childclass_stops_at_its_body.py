"""Predictions that assume a childclass reaches only the body it is written on."""

LOSES = {
    "defaults_predictions_match_mujoco",
}

CELLS = {
    "predicted_defaults": """\
# (sliding friction, colour) for each geom, colour "grey", "red" or "black";
# (damping, armature) for each joint.
predicted_defaults = {
    "floor": (None, None),
    "arm_shell": (None, None),
    "arm_badge": (None, None),
    "arm_grip": (None, None),
    "arm_label": (None, None),
    "hand_pad": (None, None),
    "shoulder": (None, None),
    "wrist": (None, None),
    "wrist_roll": (None, None),
}
predicted_defaults = {
    "floor": (0.8, "grey"),  # outside every body: the top-level default
    "arm_shell": (0.3, "grey"),  # childclass metal, colour inherited from main
    "arm_badge": (0.3, "red"),  # painted, friction inherited from metal
    "arm_grip": (1.5, "black"),  # its own class wins over the childclass
    "arm_label": (1.0, "red"),  # its own attribute wins over its class
    "hand_pad": (0.8, "grey"),  # the hand has no childclass: the top level
    "shoulder": (0.5, 0.01),
    "wrist": (2.0, 0.0),  # damping written on the joint
    "wrist_roll": (0.1, 0.0),  # class="main" goes back to the top level
}
""",
}
