"""A wrong letter in one multiple-choice answer: the drag area taken from the geom."""

LOSES = {
    "check_drag_area_answer",
}

EDITS = {
    "check_drag_area": [
        (
            'check_drag_area = None  # "A", "B" or "C"\ncheck_drag_area = "C"',
            'check_drag_area = "A"',
        ),
    ],
}
