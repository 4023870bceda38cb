"""The angle between two orientations taken without folding q and -q: answers above pi."""

LOSES = {
    "rotation_angle_between_matches_mujoco",
}

EDITS = {
    "rotation_angle_between": [
        (
            "    cosine = abs(float(np.dot(q1, q2)))  # q2 and -q2 are one orientation",
            "    cosine = float(np.dot(q1, q2))",
        ),
        (
            "    return float(2 * np.arccos(min(cosine, 1.0)))",
            "    return float(2 * np.arccos(np.clip(cosine, -1.0, 1.0)))",
        ),
    ],
}
