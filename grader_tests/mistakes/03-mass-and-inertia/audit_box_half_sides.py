"""The equivalent box taken with half sides, so it is compared with the wrong extent."""

LOSES = {
    "audit_inertias_finds_planted_bodies",
}

EDITS = {
    "audit_inertias": [
        (
            "        sides = np.sqrt(np.maximum(6 / mass * (moments.sum() - 2 * moments), 0.0))",
            "        sides = np.sqrt(np.maximum(6 / mass * (moments.sum() - 2 * moments), 0.0)) / 2",
        ),
    ],
}
