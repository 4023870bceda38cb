"""A course directory made from this repository for a test: the course's nbgrader_config.py
and the lessons' source/ and release/ (nothing graded, no gradebook yet)."""

from __future__ import annotations

import shutil
from pathlib import Path

from classroom.nbgrader_ext import notebooks

REPO_ROOT = Path(__file__).resolve().parents[2]


def course_copy(folder: Path, *lessons: str) -> Path:
    """`folder` made a course directory holding `lessons`; returns it. The folder must not
    exist yet (a test's own)."""
    folder.mkdir(parents=True)
    shutil.copyfile(REPO_ROOT / "nbgrader_config.py", folder / "nbgrader_config.py")
    ignore = shutil.ignore_patterns(*notebooks.IGNORED)
    for lesson in lessons:
        for step in ("source", "release"):
            shutil.copytree(REPO_ROOT / step / lesson, folder / step / lesson, ignore=ignore)
    return folder
