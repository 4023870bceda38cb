"""Fixtures the lessons' own tests share."""

import pytest

from course import expect


@pytest.fixture
def strict():
    """Checks as the grader runs them (expect.grading) for one test: an unwritten function
    fails instead of printing one line; the learner's notebook mode is restored after."""
    expect.grading(True)
    yield
    expect.grading(False)
