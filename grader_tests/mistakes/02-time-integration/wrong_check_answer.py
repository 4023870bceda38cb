"""A wrong letter in one check-yourself answer: implicitfast chosen to cure a stiff spring."""

LOSES = {
    "quiz_stiff_fix_answer",
}

CELLS = {
    "quiz_stiff_fix": """\
quiz_stiff_fix = "A"
""",
}
