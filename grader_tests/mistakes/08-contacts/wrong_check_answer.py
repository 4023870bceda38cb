"""A wrong letter in one check-yourself answer: priority ignored, the larger condim taken."""

LOSES = {"check_priority_answer"}

EDITS = {
    "check_priority": [
        (
            'check_priority = None  # "A", "B" or "C"\ncheck_priority = "B"',
            'check_priority = "A"',
        ),
    ],
}
