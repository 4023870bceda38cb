"""Box sizes used as full side lengths instead of MJCF half-lengths."""

# The drop loop weighs its cubes with solid_inertia, so the drops inherit the slip.
LOSES = {
    "solid_inertia_box_matches_mujoco",
    "drop_heights_matches_mj_step",
    "delay_table_matches_mujoco",
    "delay_variant_matches_mj_step",
}

EDITS = {
    "solid_inertia": [
        (
            "        a, b, c = 2 * np.asarray(size, dtype=float)  # MJCF sizes are half-lengths",
            "        a, b, c = np.asarray(size, dtype=float)",
        ),
    ],
}
