"""A wrong letter in one multiple-choice answer: the drag area taken from the geom."""

LOSES = {
    "check_drag_area_answer",
}

CELLS = {
    "check_drag_area": """\
check_drag_area = "A"
""",
}
