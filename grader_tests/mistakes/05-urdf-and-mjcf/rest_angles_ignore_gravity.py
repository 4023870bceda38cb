"""Rest angles that ignore gravity: the servos' targets returned as they are."""

LOSES = {
    "servo_rest_angles_match_long_simulation",
}

EDITS = {
    "servo_rest_angles": [
        (
            "        q_next = targets + np.asarray(gravity_torque(q), dtype=float) / kp",
            "        q_next = targets",
        ),
    ],
}
