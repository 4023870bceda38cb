"""Drag written as +1/2 rho A v^2: right for a falling body, wrong for any other motion."""

LOSES = {
    "quadratic_drag_matches_qfrc_fluid",
}

EDITS = {
    "quadratic_drag": [
        (
            "    return -0.5 * rho * area * np.abs(v) * v",
            "    return 0.5 * rho * area * v**2",
        ),
    ],
}
