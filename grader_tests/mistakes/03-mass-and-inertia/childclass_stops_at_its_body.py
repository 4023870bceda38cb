"""A childclass taken to reach only the body it is written on, not the bodies nested in it."""

# The arm's hand_pad and wrist (in the hand, inside the arm's childclass metal) already show it.
LOSES = {
    "resolve_attribute_matches_mujoco",
}

EDITS = {
    "resolve_attribute": [
        (
            "    around = [name for name in childclasses if name is not None]",
            "    around = [name for name in childclasses[:1] if name is not None]",
        ),
    ],
}
