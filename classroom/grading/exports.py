"""Grade files an LMS imports, and one file of points per question, from a run's results.

Written into exports/ in the course directory after every run:
- `canvas.csv`: Canvas's gradebook columns (Student, ID, SIS User ID, SIS Login ID, Section)
  and one column per lesson, its points, with Canvas's "Points Possible" row; import it in
  Canvas with Grades > Import (Canvas matches rows by ID, the Canvas user id the download's
  file names carry). A lesson column headed "<lesson> (<assignment id>)" updates that Canvas
  assignment; one without an id makes Canvas create a new assignment. The ids come from
  `--canvas-assignment LESSON=ID` and are kept in the file's header for later runs;
- `moodle-<lesson>.csv`: Moodle's offline grading worksheet (Identifier, Full name, Email
  address, Grade, Maximum Grade, Feedback comments); in Moodle, open the assignment, View all
  submissions > Grading action: Upload grading worksheet (enable "Offline grading worksheet"
  in the assignment's feedback types first);
- `questions-<lesson>.csv`: one row per student, one column per test cell (its points).

An LMS holds one grade per student: the second notebook of a student graded with `--copies
all` ("<id>-copy2") is in the per-question file but not in the LMS files (the report names
it; the instructor chooses). An LMS file once asked for is kept up to date by every later
run (a `--student` run included), so exports/ never holds a grade the gradebook has changed.
"""

from __future__ import annotations

import csv
import os
import re
from pathlib import Path

from classroom.grading.results import NO_NOTEBOOK, Result

EXPORTS = "exports"
COPIES_NOTE = "copies"  # the note intake gives a student's second notebook of a lesson
CANVAS_COLUMNS = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
CANVAS_ASSIGNMENT = re.compile(r"^(?P<lesson>.+) \((?P<id>\d+)\)$")  # "01-world-as-text (123)"
MOODLE_COLUMNS = [
    "Identifier",
    "Full name",
    "Email address",
    "Grade",
    "Maximum Grade",
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


def _sortable(name: str | None, student: str) -> str:
    """Canvas's "Last, First" for a name ("Alice Smith" -> "Smith, Alice")."""
    if not name:
        return student
    first, _, last = name.strip().rpartition(" ")
    return f"{last}, {first}" if first else last


def for_lms(results: list[Result]) -> list[Result]:
    """The results an LMS takes: all but the extra copies a `--copies all` run graded."""
    return [r for r in results if not any(n.kind == COPIES_NOTE for n in r.notes)]


def canvas_ids_before(path: Path) -> dict[str, str]:
    """{lesson: Canvas assignment id} from the header of a canvas.csv an earlier run wrote."""
    if not path.is_file():
        return {}
    with open(path, newline="", encoding="utf-8") as handle:
        header = next(csv.reader(handle), [])
    found = (CANVAS_ASSIGNMENT.match(column) for column in header[len(CANVAS_COLUMNS) :])
    return {m["lesson"]: m["id"] for m in found if m}


def canvas_header(lessons: list[str], ids: dict[str, str]) -> list[str]:
    """Canvas's columns, each lesson's headed "<lesson> (<id>)" when its id is known."""
    return CANVAS_COLUMNS + [f"{x} ({ids[x]})" if x in ids else x for x in lessons]


def canvas(
    results: list[Result], lessons: list[str], folder: Path, ids: dict[str, str] | None = None
) -> Path:
    """exports/canvas.csv: a row per student, a column per lesson; `ids` ({lesson: Canvas
    assignment id}) over those the file already had."""
    ids = {**canvas_ids_before(folder / "canvas.csv"), **(ids or {})}
    by_student: dict[str, dict] = {}
    maxima = {lesson: 0.0 for lesson in lessons}
    for result in for_lms(results):
        row = by_student.setdefault(result.student, {"name": result.name})
        row["name"] = row["name"] or result.name
        row[result.lesson] = result.totals()[0]
        maxima[result.lesson] = max(maxima.get(result.lesson, 0.0), result.totals()[1])
    possible = ["    Points Possible", "", "", "", ""] + [f"{maxima[x]:g}" for x in lessons]
    rows = [possible]
    for student in sorted(by_student):
        row = by_student[student]
        scores = [f"{row[x]:g}" if x in row else "" for x in lessons]
        rows.append([_sortable(row["name"], student), student, "", "", "", *scores])
    return _write(folder / "canvas.csv", canvas_header(lessons, ids), rows)


def canvas_note(path: Path, lessons: list[str]) -> str | None:
    """One line when the canvas.csv at path has lesson columns without an assignment id."""
    ids = canvas_ids_before(path)
    missing = [lesson for lesson in lessons if lesson not in ids]
    if not missing:
        return None
    return (
        f"note: {path.name} has no Canvas assignment id for {', '.join(missing)}: on import "
        "Canvas creates a new assignment for each; to update yours instead, give "
        "--canvas-assignment LESSON=ID (the number in the assignment's web address)"
    )


def _comment(result: Result) -> str:
    score, maximum = result.totals()
    lost = ", ".join(sorted(result.failures)) or "none"
    late = f" {result.lateness[:1].upper()}{result.lateness[1:]}." if result.lateness else ""
    if result.status == NO_NOTEBOOK or result.reason:
        return f"{score:g}/{maximum:g}: {result.reason or result.status}.{late}"
    return f"{score:g}/{maximum:g}. Tests not passed: {lost}.{late}"


def moodle(results: list[Result], lesson: str, folder: Path) -> Path:
    """exports/moodle-<lesson>.csv: Moodle's offline grading worksheet for one lesson."""
    rows = []
    mine = (r for r in for_lms(results) if r.lesson == lesson)
    for result in sorted(mine, key=lambda r: r.student):
        score, maximum = result.totals()
        identifier = f"Participant {result.student}"
        full_name = result.name or result.student
        rows.append([identifier, full_name, "", f"{score:g}", f"{maximum:g}", _comment(result)])
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
    root: Path, results: list[Result], lessons: list[str], kinds=(), canvas_ids=None
) -> list[Path]:
    """The per-question files, and the LMS files of `kinds` ("canvas", "moodle") and of the
    kinds an earlier run wrote for this class (so none keeps a grade the gradebook changed);
    canvas_ids: {lesson: Canvas assignment id}, given on this run."""
    folder = Path(root) / EXPORTS
    kinds = set(kinds) | asked_before(folder, results)
    written = [questions(results, lesson, folder) for lesson in lessons]
    if "canvas" in kinds:
        written.append(canvas(results, lessons, folder, canvas_ids))
    if "moodle" in kinds:
        written += [moodle(results, lesson, folder) for lesson in lessons]
    return written
