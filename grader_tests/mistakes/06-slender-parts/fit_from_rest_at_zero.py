"""The fit d = a t^2 / 2 alone, as if every trajectory started at rest at t = 0."""

SAYS = {"fitted_acceleration": "need not start at rest"}  # what its visible check says

LOSES = {"fitted_acceleration_matches_mj_step"}

EDITS = {
    "fitted_acceleration": [
        (
            "    design = np.column_stack([np.ones_like(t), t, t**2 / 2])",
            "    design = np.column_stack([t**2 / 2])",
        ),
        (
            "    return float(coefficients[2])",
            "    return float(coefficients[0])",
        ),
    ],
}
