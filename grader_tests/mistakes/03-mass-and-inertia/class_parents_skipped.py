"""A class that does not set the attribute sends it straight to main, past its own parents."""

# In the arm, arm_badge's class painted sets no friction: it comes from metal, not from main.
LOSES = {
    "resolve_attribute_matches_mujoco",
}

EDITS = {
    "resolve_attribute": [
        (
            "    while classes[name][1] is None:  # not set here: ask the class it is nested in\n        name = classes[name][0]",
            '    if classes[name][1] is None:  # not set here: the top level\n        name = "main"',
        ),
    ],
}
