"""ctrlrange ignored: the force computed from the control as sent, only the force clamped."""

SAYS = {"actuator_force": "clamps the control"}  # what its visible check says

LOSES = {"actuator_force_matches_mujoco"}

EDITS = {
    "actuator_force": [
        (
            "    if ctrlrange is not None:\n        ctrl = min(max(ctrl, ctrlrange[0]), ctrlrange[1])\n",
            "",
        ),
    ],
}
