"""A wrong letter in one check-yourself answer: CAD numbers copied as they are."""

LOSES = {
    "quiz_cad_inertia_answer",
}

EDITS = {
    "quiz_cad_inertia": [
        (
            'quiz_cad_inertia = None  # "A", "B" or "C"\nquiz_cad_inertia = "C"',
            'quiz_cad_inertia = "A"',
        ),
    ],
}
