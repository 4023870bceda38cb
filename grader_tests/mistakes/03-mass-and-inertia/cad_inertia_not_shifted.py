"""The CAD inertia about the body origin copied into fullinertia without the parallel-axis term."""

LOSES = {
    "fullinertia_from_origin_matches_mujoco",
}

EDITS = {
    "fullinertia_from_origin": [
        (
            "    about_com = np.asarray(inertia_about_origin, dtype=float) - mass * (\n        c @ c * np.eye(3) - np.outer(c, c)\n    )",
            "    about_com = np.asarray(inertia_about_origin, dtype=float)",
        ),
    ],
}
