"""The rolling friction coefficient taken as dimensionless, like a sliding one: no radius."""

SAYS = {"rolling_stop_distance": "is a length"}  # what its visible check says

LOSES = {"rolling_stop_distance_matches_mujoco"}

EDITS = {
    "rolling_stop_distance": [
        (
            "deceleration = mu_roll * g / radius / (1 + 2 / 5)",
            "deceleration = mu_roll * g / (1 + 2 / 5)",
        ),
    ],
}
