"""The accelerometer read in the world's frame: the site's orientation ignored."""

SAYS = {"accelerometer_reading": "frame"}  # what its visible check says

LOSES = {"accelerometer_reading_matches_mujoco"}

EDITS = {
    "accelerometer_reading": [
        (
            "    return rotation.T @ (np.asarray(site_linear_acceleration) - np.asarray(gravity))",
            "    return np.asarray(site_linear_acceleration) - np.asarray(gravity)",
        ),
    ],
}
