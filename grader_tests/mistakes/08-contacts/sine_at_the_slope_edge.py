"""The edge between holding and sliding taken as sin(slope) <= mu instead of tan(slope)."""

LOSES = {
    "slope_acceleration_matches_mujoco",
}

EDITS = {
    "slope_acceleration": [
        ("    if np.tan(slope) <= mu:", "    if np.sin(slope) <= mu:"),
    ],
}
