"""Canvas: how its download names files, its gradebook import, and --canvas-assignment.

Its download (ContentZipper in Canvas's source) is one flat folder of files named `<name>
[_LATE]_<user id>_<attachment id>_<file name>`. The name is the sortable name ("García,
María") lower-cased with every character that is not a word character removed ("garcíamaría",
"李雷"; Unicode letters stay); older downloads kept an underscore ("smith_alice"). `_LATE`
(upper case, as Canvas writes it) marks a file handed in after the due date, and a resubmitted
file's name has `-1`, `-2`... added before its extension. The student is the numeric user id
(two Smiths stay two students); the newest file (the highest attachment id) of a student and
lesson is the submission. An online text entry or web address is `<name>[_LATE]_<user id>_
text.html` (`_link.html`). With anonymous grading a file is `[LATE_]anon_<5 characters>_
<attachment id>_<file name>` and the student "anon_<5 characters>", Canvas's anonymous id (not
the user id its grade import matches on).

Its export, exports/canvas.csv: Canvas's gradebook columns (Student, ID, SIS User ID, SIS Login
ID, Section) and one column per lesson, headed "<lesson> (<assignment id>)" so that Canvas
updates that assignment, with Canvas's "Points Possible" row; import it in Canvas with Grades >
Import (Canvas matches rows by ID, the Canvas user id the download's file names carry). The
ids are kept in `canvas_assignments.csv` at the course root (lesson,canvas_assignment_id; keep
it under version control), written when `--canvas-assignment LESSON=ID` is given. A lesson
without an id is left out of canvas.csv, with one line saying how to give it: Canvas would
import such a column as a new, duplicate assignment.
"""

from __future__ import annotations

import argparse
import csv
import re
from pathlib import Path

from classroom.grading.lms import base
from classroom.grading.lms.base import Handed, Lms, Written
from classroom.grading.records import Book, write_csv
from classroom.grading.results import Result
from classroom.grading.staging import GradeError

NAME = "canvas"
IDS_FILE = "canvas_assignments.csv"  # at the course root: lesson,canvas_assignment_id
FILE = "canvas.csv"  # its export, in exports/
COLUMNS = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
ASSIGNMENT = re.compile(r"^(?P<lesson>.+) \((?P<id>\d+)\)$")  # "01-world-as-text (123)"

NAMED = re.compile(  # \w is Unicode-aware: "garcíamaría", "zoë", "李雷"
    r"^(?P<name>\w+?)(?P<late>_LATE)?_(?P<id>\d+)_(?P<order>\d+)_(?P<file>[^/]+)$"
)
ANONYMOUS = re.compile(  # anonymous grading: "anon_" and 5 base58 characters
    r"^(?P<late>LATE_)?(?P<id>anon_[1-9A-HJ-NP-Za-km-z]{5})_(?P<order>\d+)_(?P<file>[^/]+)$"
)
ONLINE = re.compile(  # a text entry or a web address: no attachment id
    r"^(?P<name>\w+?)(?P<late>_LATE)?_(?P<id>\d+)_(?P<file>text\.html|link\.html)$"
)
RESUBMITTED = re.compile(r"^(?P<stem>.+?)-(?P<n>\d+)(?P<ext>\.[A-Za-z0-9]+)$")


# --------------------------------------------------------------------------------------------
# The download


def person_name(sortable: str) -> str:
    """A Canvas sortable name ("smith_alice") as a person's name ("Alice Smith")."""
    parts = [p for p in re.split(r"[_\s]+", sortable) if p]
    if len(parts) >= 2:
        parts = parts[1:] + parts[:1]
    return " ".join(part.capitalize() for part in parts)


def _without_suffix(file: str) -> tuple[str, int]:
    """("01-x.ipynb", 2) for "01-x-2.ipynb"; a lesson's own "-NN" names are kept apart by
    the caller, which compares with the lesson names."""
    match = RESUBMITTED.match(file)
    if match is None:
        return file, 0
    return match["stem"] + match["ext"], int(match["n"])


def read(relative: str, path: Path, lessons: list[str]) -> Handed | None:
    """One file of a download (`relative`: NFC, "/" separated) read by Canvas's naming, or
    None when it does not follow it."""
    match = ANONYMOUS.match(relative) or NAMED.match(relative)
    if match is not None:
        file, version = _without_suffix(match["file"])
        if Path(match["file"]).stem in lessons:  # the lesson's own name ended in -NN
            file, version = match["file"], 0
        order = int(match["order"]) * 1000 + version
        name = person_name(match["name"]) if "name" in match.groupdict() else ""
        late = bool(match["late"])
        return Handed(path, relative, NAME, match["id"], name, file, late, order)
    match = ONLINE.match(relative)
    if match is not None:
        name, late = person_name(match["name"]), bool(match["late"])
        return Handed(path, relative, NAME, match["id"], name, match["file"], late)
    return None


# --------------------------------------------------------------------------------------------
# Assignment ids, kept in the course


def ids_of(root: Path) -> dict[str, str]:
    """{lesson: Canvas assignment id} from canvas_assignments.csv at the course root (or,
    for a course from before that file, the lesson columns of its exports/canvas.csv)."""
    path = Path(root) / IDS_FILE
    if path.is_file():
        with open(path, newline="", encoding="utf-8") as handle:
            return {r["lesson"]: r["canvas_assignment_id"] for r in csv.DictReader(handle)}
    old = Path(root) / base.EXPORTS / FILE
    if not old.is_file():
        return {}
    with open(old, newline="", encoding="utf-8") as handle:
        header = next(csv.reader(handle), [])
    found = (ASSIGNMENT.match(column) for column in header[len(COLUMNS) :])
    return {m["lesson"]: m["id"] for m in found if m}


def keep_ids(root: Path, ids: dict[str, str]) -> Path:
    """Add `ids` ({lesson: id}, given with --canvas-assignment) to canvas_assignments.csv
    (a given id replaces the lesson's old one); the file's path."""
    kept = {**ids_of(root), **ids}
    rows = [[lesson, kept[lesson]] for lesson in sorted(kept)]
    return write_csv(Path(root) / IDS_FILE, ["lesson", "canvas_assignment_id"], rows)


def assignment_ids(pairs, lessons: list[str]) -> dict[str, str]:
    """{lesson: Canvas assignment id} from --canvas-assignment LESSON=ID; GradeError for a
    malformed pair or a lesson not among `lessons` (the course's)."""
    ids = {}
    for pair in pairs or []:
        lesson, _, number = pair.partition("=")
        if not number.isdigit():
            raise GradeError(
                f"--canvas-assignment {pair}: give LESSON=ID, ID being the number in the "
                "Canvas assignment's web address (.../assignments/ID)"
            )
        if lesson not in lessons:
            raise GradeError(
                f"--canvas-assignment {pair}: {lesson!r} is not a lesson of the course "
                f"({', '.join(lessons)})"
            )
        ids[lesson] = number
    return ids


def options(parser: argparse.ArgumentParser) -> None:
    """--canvas-assignment LESSON=ID."""
    parser.add_argument(
        "--canvas-assignment",
        action="append",
        metavar="LESSON=ID",
        help="the Canvas assignment a lesson's column of canvas.csv updates (repeatable; kept "
        "in canvas_assignments.csv for later runs); a lesson without one is left out of "
        "canvas.csv, which would otherwise create a new assignment on import",
    )


def setting(args: argparse.Namespace) -> tuple[str, ...] | None:
    """The LESSON=ID pairs --canvas-assignment gives, as typed (None: none given)."""
    return tuple(args.canvas_assignment or ()) or None


def asked(pairs: tuple[str, ...] | None, lessons: list[str], root: Path) -> bool:
    """Keep the ids the LESSON=ID `pairs` give in the course at `root`; ids given ask for
    canvas.csv."""
    given = assignment_ids(pairs, lessons)
    if given:
        keep_ids(root, given)
    return bool(given)


# --------------------------------------------------------------------------------------------
# The export


def _sortable(name: str, student: str) -> str:
    """Canvas's "Last, First" for a name ("Alice Smith" -> "Smith, Alice")."""
    if not name:
        return student
    first, _, last = name.strip().rpartition(" ")
    return f"{last}, {first}" if first else last


def refusal(lessons: list[str]) -> str | None:
    """The one line said when lessons are left out of canvas.csv for want of an id."""
    if not lessons:
        return None
    example = lessons[0]
    return (
        f"canvas.csv: left out {', '.join(lessons)}: no Canvas assignment id (Canvas would "
        f"import the column as a new assignment); give --canvas-assignment {example}=ID once "
        f"(ID: the number in the assignment's web address, .../assignments/ID), kept in "
        f"{IDS_FILE}"
    )


def gradebook(book: Book, results: list[Result], folder: Path, ids: dict[str, str]) -> list[str]:
    """Write folder/canvas.csv: a row per student, a column per lesson that has a Canvas
    assignment id in `ids`; the lessons left out for want of one."""
    lessons = [lesson for lesson in book.lessons if lesson in ids]
    by_key = {r.key: r for r in results}
    names: dict[str, str] = {}
    cells: dict[str, dict[str, str]] = {}
    maxima = {lesson: 0.0 for lesson in lessons}
    for lesson in lessons:
        for row in base.lms_rows(book, results, lesson):
            names[row.student] = names.get(row.student) or row.name
            cells.setdefault(row.student, {})[lesson] = base.lms_grade(row, by_key.get(row.key))
            maxima[lesson] = max(maxima[lesson], row.max_score)
    possible = ["    Points Possible", "", "", "", ""] + [f"{maxima[x]:g}" for x in lessons]
    rows = [possible]
    for student in sorted(cells):
        scores = [cells[student].get(lesson, "") for lesson in lessons]
        rows.append([_sortable(names[student], student), student, "", "", "", *scores])
    header = COLUMNS + [f"{x} ({ids[x]})" for x in lessons]
    write_csv(folder / FILE, header, rows)
    return [lesson for lesson in book.lessons if lesson not in ids]


def write(book: Book, results: list[Result], root: Path, given=None) -> Written:
    """exports/canvas.csv, with the ids `given` ({lesson: id}) or, None, the course's."""
    ids = ids_of(root) if given is None else given
    folder = Path(root) / base.EXPORTS
    left_out = gradebook(book, results, folder, ids)
    return Written([folder / FILE], refusal(left_out))


def wrote_before(folder: Path, students: set[str]) -> bool:
    """Whether folder's canvas.csv lists one of `students`."""
    path = folder / FILE
    return path.is_file() and bool(base.listed(path, "ID") & students)


LMS = Lms(NAME, "Canvas", read, write, wrote_before, options, setting, asked)
