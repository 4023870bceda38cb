"""The learner's package holds no solution: no line of any lesson's solution is in course/.

What to look for is derived from the source notebooks themselves: every line between
`### BEGIN SOLUTION` and `### END SOLUTION` of every lesson that says something (not a comment,
a docstring line, or a line too short to be a formula), compared without spaces and comments
with every line of every module of course/. A new lesson is covered without editing this file.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from classroom.nbgrader_ext import notebooks

COURSE = Path(__file__).resolve().parents[2] / "course"
MIN_CHARS = 18  # shorter lines ("return low", "x, v = 1.0, 0.0") say nothing about a method
COMMENT = re.compile(r"\s+#.*$")
# Lines that are the shape of any code, not of a method: they are common in course/ too.
PLUMBING = ("except", "try:", "with ", "import ", "from ", "print(", "def ", "class ", "raise ")


def squeezed(line: str) -> str:
    """A line without its comment and without any white space."""
    return re.sub(r"\s+", "", COMMENT.sub("", line))


def solution_lines(source) -> set[str]:
    """The telling lines of every solution region of a source notebook, squeezed."""
    begin, end = notebooks.SOLUTION_DELIMITERS
    found = set()
    for cell in source.cells:
        inside = False
        for line in cell.source.split("\n"):
            if begin in line:
                inside = True
            elif end in line:
                inside = False
            elif inside:
                text = line.strip()
                if not text or text.startswith(("#", '"', "'", *PLUMBING)):
                    continue
                if len(squeezed(text)) >= MIN_CHARS:
                    found.add(squeezed(text))
    return found


def leaks(lines: set[str], package: Path) -> list[str]:
    """'path:line: text' for each line of package's modules that is one of `lines`."""
    found = []
    for path in sorted(package.rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if squeezed(line) in lines:
                found.append(f"{path.relative_to(package.parent)}:{number}: {line.strip()}")
    return found


def test_no_solution_line_is_in_the_learners_package(lesson):
    lines = solution_lines(notebooks.read_lesson(lesson))
    assert len(lines) >= 5, f"{lesson}: too few solution lines to check ({len(lines)})"
    found = leaks(lines, COURSE)
    assert not found, f"{lesson}'s solution is in the learner's package:\n" + "\n".join(found)


@pytest.mark.parametrize("spacing", ["same", "respaced"])
def test_a_planted_solution_line_is_found(tmp_path, spacing):
    """The check can fail: a solution line copied into a module, respaced, is reported."""
    lesson = notebooks.discover_lessons()[0]
    line = sorted(solution_lines(notebooks.read_lesson(lesson)), key=len)[-1]
    package = tmp_path / "course"
    package.mkdir()
    planted = line if spacing == "same" else " ".join(line)  # spaces everywhere
    (package / "helper.py").write_text(f"def f():\n    {planted}  # copied\n", encoding="utf-8")
    assert leaks(solution_lines(notebooks.read_lesson(lesson)), package)
