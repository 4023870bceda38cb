"""What the grading command writes in a course directory, as its tests (test_grade_command.py,
test_hostile.py) read it: a student's section of grading_report.txt, the gradebook's rows,
and the hidden-test lines that no output a learner sees may show."""

from __future__ import annotations

import sqlite3
from pathlib import Path


def report_section(root: Path, student: str, lesson: str) -> str:
    """The lines of root/grading_report.txt about one student's submission of lesson: the
    line that opens with "<student> (<lesson>):" and the "  - " items under it, joined by
    newlines; "" when the report says nothing about it (an ordinary submission)."""
    lines = (root / "grading_report.txt").read_text(encoding="utf-8").splitlines()
    head = f"{student} ({lesson}):"
    for index, line in enumerate(lines):
        if line.startswith(head):
            section = [line]
            for following in lines[index + 1 :]:
                if not following.startswith("  - "):
                    break
                section.append(following)
            return "\n".join(section)
    return ""


def hidden_lines(source, package: Path) -> set[str]:
    """The secret lines of a source notebook: stripped lines over 12 characters inside its
    "### BEGIN/END HIDDEN TESTS" regions that appear nowhere public, neither outside those
    regions nor in the .py files of `package` (the course package, whose source a traceback
    may quote)."""
    hidden, shown = set(), set()
    for cell in source.cells:
        inside = False
        for line in cell.source.split("\n"):
            if "BEGIN HIDDEN TESTS" in line:
                inside = True
            elif "END HIDDEN TESTS" in line:
                inside = False
            elif inside and len(line.strip()) > 12:
                hidden.add(line.strip())
            else:
                shown.add(line.strip())
    public = "\n".join(p.read_text(encoding="utf-8") for p in package.rglob("*.py"))
    return {line for line in hidden - shown if line not in public}


def gradebook_rows(root: Path) -> tuple[str, dict[str, int], int]:
    """What root/gradebook.db holds, read with sqlite3 alone: SQLite's integrity check ("ok"
    when the file is whole), {student id: submissions} and the number of grades."""
    with sqlite3.connect(root / "gradebook.db") as db:
        integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
        subs = db.execute(
            "SELECT student.id, COUNT(*) FROM submitted_assignment "
            "JOIN student ON student.id = submitted_assignment.student_id GROUP BY student.id"
        ).fetchall()
        grades = db.execute("SELECT COUNT(*) FROM grade").fetchone()[0]
    return integrity, dict(subs), grades
