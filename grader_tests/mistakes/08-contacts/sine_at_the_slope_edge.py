"""The edge between holding and sliding taken as sin(slope) <= mu instead of tan(slope)."""

SAYS = {"slope_acceleration": "edge between holding"}  # what its visible check says

LOSES = {"slope_acceleration_matches_mujoco"}

EDITS = {
    "slope_acceleration": [
        ("    if np.tan(slope) <= mu:", "    if np.sin(slope) <= mu:"),
    ],
}
