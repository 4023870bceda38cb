"""A lesson nbgrader cannot generate is named with the reason in one line."""

from __future__ import annotations

from classroom.grading import staging

LOG_WITH_SUBMISSIONS = """Converting notebook source/03/03.ipynb
Traceback (most recent call last):
  File "savecells.py", line 36, in _create_notebook
RuntimeError: Cannot add or remove cells for notebook '03' because there are submissions
There was an error processing assignment '03' for student '.'
"""


def test_changed_lesson_with_submissions_says_what_to_do():
    line = staging._reason("03", LOG_WITH_SUBMISSIONS)
    assert "\n" not in line
    assert "changed after submissions" in line and "new gradebook" in line


def test_other_failures_quote_nbgrader_s_error():
    log = "Traceback (most recent call last):\nValueError: duplicate grade id 'setup'\n"
    assert (
        staging._reason("01", log) == "nbgrader could not generate 01: duplicate grade id 'setup'"
    )
