"""A wrong letter in one check-yourself answer: CAD numbers copied as they are."""

LOSES = {
    "quiz_cad_inertia_answer",
}

CELLS = {
    "quiz_cad_inertia": """\
quiz_cad_inertia = "A"
""",
}
