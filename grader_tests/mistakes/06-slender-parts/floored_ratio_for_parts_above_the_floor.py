"""The floored ratio applied to a part already above the floor, which is never raised."""

# The lesson's cases (the marker, the 9 mm rod) are raised; only a part whose r_g is already
# at least r0 (the hidden tube) shows the missing case, with a ratio above 1.
LOSES = {"floored_rolling_ratio_matches_mj_step"}

EDITS = {
    "floored_rolling_ratio": [
        (
            "    if r_g >= r0:\n        return 1.0\n",
            "",
        ),
    ],
}
