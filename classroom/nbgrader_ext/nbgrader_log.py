"""Reading nbgrader's log for the line that says why it stopped.

nbgrader's own exceptions often say only "see the error log above"; the cause is in the log,
as a line naming an exception ("ValueError: duplicate grade id 'setup'"). nbgrader logs each
exception again as it wraps it, so the first such line is the cause and the later ones are
its wrappers. Both places that turn a failed `generate_assignment` into one line (the grading
command's staging, and plain nbgrader's lesson-registration hook) read it here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_ERROR_LINE = re.compile(r"[\w.]*(Error|Exception): ")


def error_lines(lines: Iterable[str]) -> list[str]:
    """The log's lines that state an exception ("Name: message"), stripped, in the order
    logged: the first is the cause."""
    stripped = (line.strip() for line in lines)
    return [line for line in stripped if _ERROR_LINE.match(line)]


def message(line: str) -> str:
    """An error line's message without the exception's name."""
    return line.split(": ", 1)[-1].strip()
