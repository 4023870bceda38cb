"""The fitted acceleration missing its factor 2: the coefficient of t^2 returned as a."""

SAYS = {"fitted_acceleration": "coefficient of t"}  # what its visible check says

LOSES = {"fitted_acceleration_matches_mj_step"}

EDITS = {
    "fitted_acceleration": [
        (
            "    design = np.column_stack([np.ones_like(t), t, t**2 / 2])",
            "    design = np.column_stack([np.ones_like(t), t, t**2])",
        ),
    ],
}
