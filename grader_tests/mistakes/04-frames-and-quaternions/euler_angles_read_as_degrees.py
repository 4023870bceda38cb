"""Euler angles converted from degrees though they are radians already."""

LOSES = {
    "euler_to_quat_matches_compiled_body_quat",
}

EDITS = {
    "euler_to_quat": [
        (
            "    for letter, angle in zip(seq, angles, strict=True):",
            "    for letter, angle in zip(seq, np.radians(angles), strict=True):",
        ),
    ],
}
