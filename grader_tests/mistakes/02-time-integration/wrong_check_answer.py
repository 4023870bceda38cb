"""A wrong letter in one check-yourself answer: implicitfast chosen to cure a stiff spring."""

LOSES = {
    "quiz_stiff_fix_answer",
}

EDITS = {
    "quiz_stiff_fix": [
        (
            'quiz_stiff_fix = None  # "A", "B" or "C"\nquiz_stiff_fix = "C"',
            'quiz_stiff_fix = "A"',
        ),
    ],
}
