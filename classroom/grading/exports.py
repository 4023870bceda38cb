"""Grade files an LMS imports, and one file of points per question: views of the gradebook.

Written into exports/ in the course directory with grades.csv, from the gradebook read once
(records.read_book), so each holds every lesson the gradebook has, whatever the run graded:
- each LMS's grade files, written by its module in `classroom.grading.lms` (which files, and
  how its importer reads them, is said there), when `--export NAME` asks for them or its own
  options do;
- `questions-<lesson>.csv`: one row per student, one column per test cell (its points).

A cell of a row that needs a human, or of a student who handed nothing in, is left empty in
the LMS files (never 0: an LMS skips an empty grade). An LMS holds one grade per student: the
second notebook of a student graded with `--copies all` ("<id>-copy2") is in the per-question
file but not in the LMS files (the report names it). An LMS file once asked for is rewritten
by every later run.
"""

from __future__ import annotations

from pathlib import Path

from classroom.grading import lms
from classroom.grading.lms.base import EXPORTS
from classroom.grading.records import Book, write_csv
from classroom.grading.results import Result


def questions(results: list[Result], lesson: str, folder: Path) -> Path:
    """exports/questions-<lesson>.csv: each student's points on each test cell."""
    mine = sorted((r for r in results if r.lesson == lesson), key=lambda r: r.student)
    names = list(dict.fromkeys(g.name for r in mine for g in r.grades))
    rows = []
    for result in mine:
        points = {g.name: g.auto_score for g in result.grades}
        cells = ["" if points.get(n) is None else f"{float(points[n]):g}" for n in names]
        rows.append([result.student, result.name or "", *cells, f"{result.totals()[0]:g}"])
    header = ["student", "name", *names, "total"]
    return write_csv(folder / f"questions-{lesson}.csv", header, rows)


def asked_before(folder: Path, results: list[Result]) -> set[str]:
    """The LMSs (their names) whose files an earlier run wrote into folder for this class:
    files that list a student of `results` (the demo class, say, leaves them alone)."""
    students = {r.student for r in results}
    return {name for name, it in lms.REGISTRY.items() if it.wrote_before(folder, students)}


def write_all(
    root: Path, book: Book, results: list[Result], kinds=(), given=None
) -> tuple[list[Path], str | None]:
    """The per-question files, and the files of the LMSs named in `kinds` and of those an
    earlier run wrote for this class, for every lesson of the gradebook `book`; given:
    {LMS name: its setting for this call} (Canvas: {lesson: assignment id}), an LMS not in
    it using what the course at `root` keeps. (The files written, the lines saying what the
    LMS files left out, or None.)"""
    folder = Path(root) / EXPORTS
    kinds = set(kinds) | asked_before(folder, results)
    written = [questions(results, lesson, folder) for lesson in book.lessons]
    refused = []
    for name, declared in lms.REGISTRY.items():  # in the registry's order
        if name in kinds:
            out = declared.write(book, results, root, (given or {}).get(name))
            written += out.paths
            refused += filter(None, [out.refused])
    return written, "\n".join(refused) or None
