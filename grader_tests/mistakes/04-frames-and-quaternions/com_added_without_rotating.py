"""The centre of mass offset added to the origin without turning it into the world frame."""

LOSES = {
    "com_in_world_matches_xipos",
}

EDITS = {
    "com_in_world": [
        (
            "    return np.asarray(xpos, dtype=float) + rotation @ np.asarray(body_ipos, dtype=float)",
            "    return np.asarray(xpos, dtype=float) + np.asarray(body_ipos, dtype=float)",
        ),
    ],
}
