"""The load ignored: the servo believed to stop at its target whatever the torque on it."""

SAYS = {"servo_settling": "cancel"}  # what its visible check says

LOSES = {"servo_settling_matches_mj_step"}

EDITS = {
    "servo_settling": [
        (
            "    final_angle = target + torque_load / kp",
            "    final_angle = target",
        ),
    ],
}
