"""The body's childclass preferred to the element's own class attribute."""

# Prediction 2's first answer; in the arm, arm_badge and arm_grip have a class of their own.
LOSES = {
    "resolve_attribute_matches_mujoco",
}

EDITS = {
    "resolve_attribute": [
        (
            '    name = own_class or (around[0] if around else "main")',
            '    name = (around[0] if around else None) or own_class or "main"',
        ),
    ],
}
