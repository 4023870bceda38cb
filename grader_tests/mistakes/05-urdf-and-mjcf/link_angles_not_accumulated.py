"""Each link drawn along its own joint's angle, not the sum of the angles down the chain."""

LOSES = {
    "planar_arm_tip_matches_site_xpos",
}

EDITS = {
    "planar_arm_tip": [
        (
            "    angles = np.cumsum(q)  # a link points along its joint's angle plus all the earlier ones",
            "    angles = np.asarray(q, dtype=float)",
        ),
    ],
}
