"""What every LMS module declares (`Lms`), and the pieces its export writer shares.

An LMS module (canvas.py, moodle.py, ...) ends with `LMS = Lms(...)`: how its download names
files, the grade files it imports, and the command-line options only it has. The registry
(`classroom.grading.lms`) finds it there; nothing else in classroom/ names an LMS.
"""

from __future__ import annotations

import argparse
import csv
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from classroom.grading.records import Book, BookRow
from classroom.grading.results import GRADED, GRADED_WITH_NOTES, LATE, Result

EXPORTS = "exports"  # the folder of the course (or demo) the exports are written into
COPIES_NOTE = "copies"  # the note intake gives a student's second notebook of a lesson
SCORED = (GRADED, GRADED_WITH_NOTES, LATE)  # the statuses whose score an LMS may take


@dataclass(frozen=True)
class Handed:
    """One file of an LMS download, as the LMS named it."""

    path: Path  # the file on disk
    relative: str  # its path in the download, "/" separated
    lms: str  # the name of the LMS whose naming it follows (Lms.name)
    student: str  # the LMS's id for the student
    name: str  # the student's name as the LMS writes it ("Alice Smith")
    file: str  # the file's own name, the LMS's prefix and resubmission suffix removed
    late: bool = False
    order: int = 0  # newer files have larger numbers (Canvas attachment ids)


@dataclass(frozen=True)
class Written:
    """What an LMS's export wrote: its files, and the one line saying what it left out and
    how to have it (None when nothing was left out)."""

    paths: list[Path]
    refused: str | None = None


def _no_options(parser: argparse.ArgumentParser) -> None:
    """An LMS without command-line options of its own."""


def _no_setting(args: argparse.Namespace) -> None:
    """An LMS whose options give nothing (it has none)."""


def _asks_nothing(setting: object, lessons: list[str], root: Path) -> bool:
    return False


@dataclass(frozen=True)
class Lms:
    """One LMS, as its module declares it.

    name: its name on the command line (`--export NAME`) and in the report ("canvas");
    title: its name in sentences ("Canvas");
    read(relative, path, lessons): one file of its download read by its naming, or None;
    write(book, results, root, given): its grade files, written into root/exports/; `given`
        is its setting for this call (Canvas: {lesson: assignment id}), or None for what the
        course at `root` keeps;
    wrote_before(folder, students): whether folder holds its export for any of `students`
        (an export once asked for is rewritten by every later run);
    options(parser): adds its own command-line options;
    setting(args): what those options say, read once when the command's plan is built (None
        when they say nothing): the only place an LMS reads the command line;
    asked(setting, lessons, root): checks that setting (a GradeError for a bad one), keeps
        what it gives in the course at `root`, and says whether it asks for its export.
    """

    name: str
    title: str
    read: Callable[[str, Path, list[str]], Handed | None]
    write: Callable[[Book, list[Result], Path, object], Written]
    wrote_before: Callable[[Path, set[str]], bool]
    options: Callable[[argparse.ArgumentParser], None] = _no_options
    setting: Callable[[argparse.Namespace], object] = _no_setting
    asked: Callable[[object, list[str], Path], bool] = _asks_nothing


def listed(path: Path, column: str, prefix: str = "") -> set[str]:
    """The student ids in one column of an LMS file (`prefix` removed)."""
    with open(path, newline="", encoding="utf-8") as handle:
        return {row.get(column, "").removeprefix(prefix) for row in csv.DictReader(handle)}


def copies(results: list[Result]) -> set[tuple[str, str]]:
    """(lesson, student) of the extra copies a `--copies all` run graded: no LMS takes them."""
    return {r.key for r in results if any(n.kind == COPIES_NOTE for n in r.notes)}


def lms_rows(book: Book, results: list[Result], lesson: str) -> list[BookRow]:
    """The gradebook's rows of `lesson` an LMS takes: handed in, and not an extra copy."""
    extra = copies(results)
    return [r for r in book.of(lesson) if r.submitted and (lesson, r.student) not in extra]


def lms_grade(row: BookRow, result: Result | None) -> str:
    """The points an LMS gets for a row, or "" when it needs a human (or nothing was
    handed in): never a 0 that looks like a grade."""
    if result is not None and result.status not in SCORED:
        return ""
    return f"{row.score:g}" if row.submitted else ""
