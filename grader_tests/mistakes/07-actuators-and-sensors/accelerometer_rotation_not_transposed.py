"""site_xmat applied as it is: the vector turned site into world, not world into site."""

SAYS = {"accelerometer_reading": "world into site"}  # what its visible check says

LOSES = {"accelerometer_reading_matches_mujoco"}

EDITS = {
    "accelerometer_reading": [
        (
            "    return rotation.T @ (np.asarray(site_linear_acceleration) - np.asarray(gravity))",
            "    return rotation @ (np.asarray(site_linear_acceleration) - np.asarray(gravity))",
        ),
    ],
}
