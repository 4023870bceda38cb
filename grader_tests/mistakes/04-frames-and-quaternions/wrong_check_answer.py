"""A wrong letter in one check-yourself answer: xpos and xipos taken to be the same point."""

LOSES = {
    "quiz_origin_and_com_answer",
}

EDITS = {
    "quiz_origin_and_com": [
        (
            'quiz_origin_and_com = None  # "A", "B" or "C"\nquiz_origin_and_com = "B"',
            'quiz_origin_and_com = "A"',
        ),
    ],
}
