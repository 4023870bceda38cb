"""kv = dampratio * sqrt(kp I): the 2 of critical damping left out."""

SAYS = {"servo_kv": "is the 2 there"}  # what its visible check says

LOSES = {
    "servo_kv_matches_mujoco",
    "reflected_inertia_matches_mujoco",
}

EDITS = {"servo_kv": [("return 2.0 * dampratio", "return dampratio")]}
