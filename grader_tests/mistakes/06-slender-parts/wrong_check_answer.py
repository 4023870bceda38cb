"""A wrong letter in one check-yourself answer: the armature read only from the MJCF file."""

LOSES = {"check_set_const_answer"}

EDITS = {
    "check_set_const": [
        (
            'check_set_const = None  # "A", "B" or "C"\ncheck_set_const = "C"',
            'check_set_const = "A"',
        ),
    ],
}
