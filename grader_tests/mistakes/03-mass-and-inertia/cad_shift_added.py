"""The parallel-axis term added to the CAD inertia instead of taken off."""

LOSES = {
    "fullinertia_from_origin_matches_mujoco",
}

EDITS = {
    "fullinertia_from_origin": [
        (
            "    about_com = np.asarray(inertia_about_origin, dtype=float) - mass * (",
            "    about_com = np.asarray(inertia_about_origin, dtype=float) + mass * (",
        ),
    ],
}
