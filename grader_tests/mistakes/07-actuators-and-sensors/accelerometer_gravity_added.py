"""Gravity added instead of subtracted: at rest the reading points down."""

SAYS = {"accelerometer_reading": "rest"}  # what its visible check says

LOSES = {"accelerometer_reading_matches_mujoco"}

EDITS = {
    "accelerometer_reading": [
        (
            "np.asarray(site_linear_acceleration) - np.asarray(gravity)",
            "np.asarray(site_linear_acceleration) + np.asarray(gravity)",
        ),
    ],
}
