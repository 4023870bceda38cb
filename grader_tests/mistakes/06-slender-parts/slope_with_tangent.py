"""The pull along the slope taken as g tan(slope) instead of g sin(slope)."""

SAYS = {"rolling_acceleration": "along it"}  # what its visible check says

LOSES = {"rolling_acceleration_matches_mj_step"}

EDITS = {
    "rolling_acceleration": [
        (
            "    return g * np.sin(slope) / (1 + r_g**2 / R**2)",
            "    return g * np.tan(slope) / (1 + r_g**2 / R**2)",
        ),
    ],
}
