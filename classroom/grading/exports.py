"""Grade files an LMS imports, and one file of points per question: views of the gradebook.

Written into exports/ in the course directory with grades.csv, from the gradebook read once
(records.read_book), so each holds every lesson the gradebook has, whatever the run graded:
- `canvas.csv`: Canvas's gradebook columns (Student, ID, SIS User ID, SIS Login ID, Section)
  and one column per lesson, headed "<lesson> (<assignment id>)" so that Canvas updates that
  assignment, with Canvas's "Points Possible" row; import it in Canvas with Grades > Import
  (Canvas matches rows by ID, the Canvas user id the download's file names carry). The ids
  are kept in `canvas_assignments.csv` at the course root (lesson,canvas_assignment_id; keep
  it under version control), written when `--canvas-assignment LESSON=ID` is given. A lesson
  without an id is left out of canvas.csv, with one line saying how to give it: Canvas would
  import such a column as a new, duplicate assignment;
- `moodle-<lesson>.csv`: the lesson's Moodle offline grading worksheet (the assignment's
  View all submissions > Grading action: Upload grading worksheet), one per lesson since
  Moodle's participant ids ("Participant 12345", what its downloads carry) belong to one
  assignment; the columns are those Moodle's importer requires (MOODLE_COLUMNS);
- `questions-<lesson>.csv`: one row per student, one column per test cell (its points).

A cell of a row that needs a human, or of a student who handed nothing in, is left empty in
the LMS files (never 0: both LMSs skip an empty grade), and the Moodle worksheet's feedback
says why. An LMS holds one grade per student: the second notebook of a student graded with
`--copies all` ("<id>-copy2") is in the per-question file but not in the LMS files (the
report names it). An LMS file once asked for is rewritten by every later run.
"""

from __future__ import annotations

import csv
import os
import re
import time
from pathlib import Path

from classroom.grading.records import Book, BookRow
from classroom.grading.results import GRADED, GRADED_WITH_NOTES, LATE, NOT_SUBMITTED, Result

EXPORTS = "exports"
CANVAS_IDS = "canvas_assignments.csv"  # at the course root: lesson,canvas_assignment_id
COPIES_NOTE = "copies"  # the note intake gives a student's second notebook of a lesson
SCORED = (GRADED, GRADED_WITH_NOTES, LATE)  # the statuses whose score an LMS may take
CANVAS_COLUMNS = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
CANVAS_ASSIGNMENT = re.compile(r"^(?P<lesson>.+) \((?P<id>\d+)\)$")  # "01-world-as-text (123)"
# Moodle's offline grading worksheet, as mod/assign/feedback/offline/importgradeslib.php
# (init) reads it: the columns are found by their (English) titles; "Identifier" (a
# "Participant <id>"), "Grade" and "Last modified (grade)" are required, or the upload fails
# ("invalidgradeimport"); "Feedback comments" is matched by the comments plugin's name. The
# others are what Moodle's own worksheet has, for the instructor's eye; the importer ignores
# them.
MOODLE_COLUMNS = [
    "Identifier",
    "Full name",
    "Email address",
    "Status",
    "Grade",
    "Maximum Grade",
    "Last modified (grade)",
    "Feedback comments",
]


def _write(path: Path, header: list[str], rows: list[list]) -> Path:
    """A CSV file written beside and renamed, so it is never seen half written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    with open(partial, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows(rows)
    os.replace(partial, path)
    return path


def _sortable(name: str, student: str) -> str:
    """Canvas's "Last, First" for a name ("Alice Smith" -> "Smith, Alice")."""
    if not name:
        return student
    first, _, last = name.strip().rpartition(" ")
    return f"{last}, {first}" if first else last


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


# --------------------------------------------------------------------------------------------
# Canvas assignment ids, kept in the course


def canvas_ids_of(root: Path) -> dict[str, str]:
    """{lesson: Canvas assignment id} from canvas_assignments.csv at the course root (or,
    for a course from before that file, the lesson columns of its exports/canvas.csv)."""
    path = Path(root) / CANVAS_IDS
    if path.is_file():
        with open(path, newline="", encoding="utf-8") as handle:
            return {r["lesson"]: r["canvas_assignment_id"] for r in csv.DictReader(handle)}
    old = Path(root) / EXPORTS / "canvas.csv"
    if not old.is_file():
        return {}
    with open(old, newline="", encoding="utf-8") as handle:
        header = next(csv.reader(handle), [])
    found = (CANVAS_ASSIGNMENT.match(column) for column in header[len(CANVAS_COLUMNS) :])
    return {m["lesson"]: m["id"] for m in found if m}


def keep_canvas_ids(root: Path, ids: dict[str, str]) -> Path:
    """Add `ids` ({lesson: id}, given with --canvas-assignment) to canvas_assignments.csv
    (a given id replaces the lesson's old one); the file's path."""
    kept = {**canvas_ids_of(root), **ids}
    rows = [[lesson, kept[lesson]] for lesson in sorted(kept)]
    return _write(Path(root) / CANVAS_IDS, ["lesson", "canvas_assignment_id"], rows)


def canvas_refusal(lessons: list[str]) -> str | None:
    """The one line said when lessons are left out of canvas.csv for want of an id."""
    if not lessons:
        return None
    example = lessons[0]
    return (
        f"canvas.csv: left out {', '.join(lessons)}: no Canvas assignment id (Canvas would "
        f"import the column as a new assignment); give --canvas-assignment {example}=ID once "
        f"(ID: the number in the assignment's web address, .../assignments/ID), kept in "
        f"{CANVAS_IDS}"
    )


def canvas(book: Book, results: list[Result], folder: Path, ids: dict[str, str]) -> list[str]:
    """Write exports/canvas.csv: a row per student, a column per lesson that has a Canvas
    assignment id in `ids`; the lessons left out for want of one."""
    lessons = [lesson for lesson in book.lessons if lesson in ids]
    by_key = {r.key: r for r in results}
    names: dict[str, str] = {}
    cells: dict[str, dict[str, str]] = {}
    maxima = {lesson: 0.0 for lesson in lessons}
    for lesson in lessons:
        for row in lms_rows(book, results, lesson):
            names[row.student] = names.get(row.student) or row.name
            cells.setdefault(row.student, {})[lesson] = lms_grade(row, by_key.get(row.key))
            maxima[lesson] = max(maxima[lesson], row.max_score)
    possible = ["    Points Possible", "", "", "", ""] + [f"{maxima[x]:g}" for x in lessons]
    rows = [possible]
    for student in sorted(cells):
        scores = [cells[student].get(lesson, "") for lesson in lessons]
        rows.append([_sortable(names[student], student), student, "", "", "", *scores])
    header = CANVAS_COLUMNS + [f"{x} ({ids[x]})" for x in lessons]
    _write(folder / "canvas.csv", header, rows)
    return [lesson for lesson in book.lessons if lesson not in ids]


# --------------------------------------------------------------------------------------------
# Moodle and the per-question files


def _feedback(row: BookRow, result: Result | None) -> str:
    """The worksheet's feedback comment: the score and the tests lost, or why no grade."""
    score = f"{row.score:g}/{row.max_score:g}"
    if result is None:
        return f"{score}."
    if result.status == NOT_SUBMITTED:
        return f"Nothing handed in for {row.lesson}."
    if result.status not in SCORED:
        return f"No grade yet: your submission needs the instructor's look ({result.reason})."
    lost = ", ".join(sorted(result.failures)) or "none"
    late = f" {result.lateness[:1].upper()}{result.lateness[1:]}." if result.lateness else ""
    return f"{score}. Tests not passed: {lost}.{late}"


def moodle(book: Book, results: list[Result], lesson: str, folder: Path) -> Path:
    """exports/moodle-<lesson>.csv: Moodle's offline grading worksheet for one lesson.
    "Last modified (grade)" is the time of writing: Moodle skips a participant whose grade
    it holds was changed after it, unless the upload ticks "Allow updating records that
    have been modified more recently in Moodle than in the spreadsheet"."""
    now = time.strftime("%Y-%m-%dT%H:%M:%S%z")  # what PHP's strtotime reads
    by_key = {r.key: r for r in results}
    rows = []
    for row in lms_rows(book, results, lesson):
        result = by_key.get(row.key)
        status = result.status if result else GRADED
        grade = lms_grade(row, result)
        identifier = f"Participant {row.student}"
        full_name = row.name or row.student
        maximum, comment = f"{row.max_score:g}", _feedback(row, result)
        rows.append([identifier, full_name, row.email, status, grade, maximum, now, comment])
    return _write(folder / f"moodle-{lesson}.csv", MOODLE_COLUMNS, rows)


def questions(results: list[Result], lesson: str, folder: Path) -> Path:
    """exports/questions-<lesson>.csv: each student's points on each test cell."""
    mine = sorted((r for r in results if r.lesson == lesson), key=lambda r: r.student)
    names = list(dict.fromkeys(g.name for r in mine for g in r.grades))
    rows = []
    for result in mine:
        points = {g.name: g.auto_score for g in result.grades}
        cells = ["" if points.get(n) is None else f"{float(points[n]):g}" for n in names]
        rows.append([result.student, result.name or "", *cells, f"{result.totals()[0]:g}"])
    return _write(folder / f"questions-{lesson}.csv", ["student", "name", *names, "total"], rows)


def _listed(path: Path, column: str, prefix: str = "") -> set[str]:
    """The student ids in one column of an LMS file (`prefix` removed)."""
    with open(path, newline="", encoding="utf-8") as handle:
        return {row.get(column, "").removeprefix(prefix) for row in csv.DictReader(handle)}


def asked_before(folder: Path, results: list[Result]) -> set[str]:
    """The LMS files ("canvas", "moodle") an earlier run wrote into folder for this class:
    files that list a student of `results` (the demo class, say, leaves them alone)."""
    students = {r.student for r in results}
    kinds = set()
    if (folder / "canvas.csv").is_file() and _listed(folder / "canvas.csv", "ID") & students:
        kinds.add("canvas")
    for path in folder.glob("moodle-*.csv"):
        if _listed(path, MOODLE_COLUMNS[0], "Participant ") & students:
            kinds.add("moodle")
    return kinds


def write_all(
    root: Path, book: Book, results: list[Result], kinds=(), canvas_ids=None
) -> tuple[list[Path], str | None]:
    """The per-question files, and the LMS files of `kinds` ("canvas", "moodle") and of the
    kinds an earlier run wrote for this class, for every lesson of the gradebook `book`;
    canvas_ids: {lesson: Canvas assignment id}. (The files written, the line saying which
    lessons canvas.csv leaves out, or None.)"""
    folder = Path(root) / EXPORTS
    kinds = set(kinds) | asked_before(folder, results)
    written = [questions(results, lesson, folder) for lesson in book.lessons]
    refused = None
    if "canvas" in kinds:
        refused = canvas_refusal(canvas(book, results, folder, canvas_ids or {}))
        written.append(folder / "canvas.csv")
    if "moodle" in kinds:
        written += [moodle(book, results, lesson, folder) for lesson in book.lessons]
    return written, refused
