"""kv = dampratio * sqrt(kp I): the 2 of critical damping left out."""

LOSES = {
    "servo_kv_matches_mujoco",
    "reflected_inertia_matches_mujoco",
}

EDITS = {
    "servo_kv": [
        (
            "    return 2.0 * dampratio * np.sqrt(kp * reflected_inertia)",
            "    return dampratio * np.sqrt(kp * reflected_inertia)",
        ),
    ],
}
