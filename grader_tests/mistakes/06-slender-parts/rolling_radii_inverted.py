"""The rolling law with R^2 / r_g^2 in place of r_g^2 / R^2."""

SAYS = {"rolling_acceleration": "which\nway round|which way round"}  # what its visible check says

LOSES = {"rolling_acceleration_matches_mj_step"}

EDITS = {
    "rolling_acceleration": [
        (
            "    return g * np.sin(slope) / (1 + r_g**2 / R**2)",
            "    return g * np.sin(slope) / (1 + R**2 / r_g**2)",
        ),
    ],
}
