"""The normal force taken from the part of the weight along the slope, m g sin(slope)."""

SAYS = {"normal_force": "points into it"}  # what its visible check says

LOSES = {"normal_force_matches_mj_contact_force"}

EDITS = {
    "normal_force": [
        ("return float(mass * g * np.cos(slope))", "return float(mass * g * np.sin(slope))"),
    ],
}
