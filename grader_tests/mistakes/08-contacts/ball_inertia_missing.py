"""The rolling ball's spin left out of its energy: the inertia factor 2/5 m r^2 missing."""

SAYS = {"rolling_stop_distance": "2/5 m r"}  # what its visible check says

LOSES = {"rolling_stop_distance_matches_mujoco"}

EDITS = {
    "rolling_stop_distance": [
        (
            "deceleration = mu_roll * g / radius / (1 + 2 / 5)",
            "deceleration = mu_roll * g / radius",
        ),
    ],
}
