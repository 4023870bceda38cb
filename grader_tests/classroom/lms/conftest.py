"""What the LMS modules' tests share: a gradebook of one lesson and two students."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from classroom.grading.records import Book, BookRow
from classroom.grading.results import GRADED, NEEDS_HUMAN, Result

LESSON = "04-x"


@dataclass(frozen=True)
class Graded:
    """The gradebook as an export reads it, and the run's results: 1001 scored 4 of 5,
    1002's submission needs a human."""

    book: Book
    results: list[Result]


@pytest.fixture
def graded() -> Graded:
    rows = tuple(
        BookRow(LESSON, student, "Zoë", "Smith", "z@x.org", "", "", raw, 0.0, 5.0, True)
        for student, raw in (("1001", 4.0), ("1002", 1.0))
    )
    results = [
        Result(0, "1001", LESSON, GRADED),
        Result(1, "1002", LESSON, NEEDS_HUMAN, "a human"),
    ]
    return Graded(Book((LESSON,), rows), results)
