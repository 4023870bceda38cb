"""The course gradebook and grades.csv: one writer, nbgrader's API and export.

Workers grade against private copies of the gradebook; the parent process applies the
finished submissions here, a batch at a time in one transaction (`record_many`), with
nbgrader's Gradebook API (the same fields SaveAutoGrades and AssignLatePenalties set), so
there is no lost or duplicate row and no "database is locked". A submission that could not
be graded still gets its row: every test cell 0, flagged for a human when there was
something to look at.

The gradebook is read back once per save (`read_book`): grades.csv and the LMS files
(exports.py) are views of it, so they hold every lesson it has, whatever this run graded.
grades.csv has the columns of nbgrader's own CSV export (CsvExportPlugin), with two added:
each row's one status (results.STATUSES) and its reason.
"""

from __future__ import annotations

import csv
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from classroom.grading.results import GRADED, NEEDS_HUMAN, NOT_SUBMITTED, Result
from classroom.nbgrader_ext.notes import Note


def read_alembic_head_in_process() -> None:
    """Make nbgrader read its gradebook schema revision with alembic's Python API.

    nbgrader runs `alembic heads` in a subprocess (about 3 s) each time it creates a gradebook,
    only to read a constant; this run creates two (the course's and the staging template).
    """
    import nbgrader.api
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    config = Config()
    config.set_main_option("script_location", str(Path(nbgrader.api.__file__).parent / "alembic"))
    try:
        head = ScriptDirectory.from_config(config).get_current_head()
    except Exception:  # keep nbgrader's own way
        return
    if head:
        nbgrader.api.get_alembic_version = lambda: head


def fast_disposable_gradebooks(folder: str | Path) -> None:
    """Let SQLite skip waiting for the disk on gradebooks inside `folder` (the run's staging
    folder: the template and the workers' copies are thrown away at the end). The course's
    gradebook keeps SQLite's default, safe settings."""
    import sqlite3

    from sqlalchemy import event
    from sqlalchemy.engine import Engine

    folder = str(Path(folder).resolve())

    @event.listens_for(Engine, "connect")
    def _pragmas(connection, _record):
        if not isinstance(connection, sqlite3.Connection):
            return
        cursor = connection.cursor()
        files = [row[2] for row in cursor.execute("PRAGMA database_list") if row[1] == "main"]
        if files and files[0] and str(Path(files[0]).resolve()).startswith(folder):
            cursor.execute("PRAGMA synchronous=OFF")
            cursor.execute("PRAGMA journal_mode=MEMORY")
        cursor.close()


def person(name: str | None) -> dict:
    """nbgrader's first_name and last_name of a full name ("Alice Smith"); {} when unknown."""
    if not name:
        return {}
    first, _, last = name.strip().rpartition(" ")
    return {"first_name": first or last, "last_name": last if first else ""}


def said_refused(refused: list[tuple[Result, Exception]], problems: list[str]) -> set:
    """Say each result the gradebook refused (as `record_many` returns them): a line in the
    run's `problems` and the same as a note on the result. Returns their (lesson, student)."""
    for result, exc in refused:
        problem = f"{result.student} ({result.lesson}) could not be written to the gradebook: {exc}"
        problems.append(problem)
        result.notes.append(Note("gradebook", problem))
    return {result.key for result, _ in refused}


def record(gb, result: Result) -> None:
    """Write one submission's grades (from a worker, or a failure) to an open nbgrader
    Gradebook with nbgrader's own calls, committed (or rolled back, and the error raised).
    The runs write through `record_many`; this is the reference its rows are checked
    against (grader_tests/classroom/test_recorder.py)."""
    gb.update_or_create_student(result.student, **person(result.name))
    _record_submission(gb, result)


def _record_submission(gb, result: Result) -> None:
    """`record` but for the student, who must be in the gradebook."""
    from nbgrader.utils import parse_utc

    kwargs = {}
    if result.timestamp:
        try:
            kwargs["timestamp"] = parse_utc(result.timestamp)
        except (ValueError, OverflowError):
            pass
    submission = gb.update_or_create_submission(result.lesson, result.student, **kwargs)
    try:
        if result.grades:
            _record_grades(submission, result)
        else:
            # Nothing graded: 0 everywhere; a human should look unless nothing was handed in.
            look = result.status != NOT_SUBMITTED
            for notebook in submission.notebooks:
                for grade in notebook.grades:
                    grade.auto_score = 0
                    grade.needs_manual_grade = look
        gb.db.commit()
    except Exception:
        gb.db.rollback()
        raise


@contextmanager
def one_transaction(gb) -> Iterator[None]:
    """Make every nbgrader Gradebook call inside the block one transaction, committed once at
    its end (or, if anything in it raises, rolled back whole and the exception raised).

    nbgrader's Gradebook methods (update_or_create_student, update_or_create_submission, ...)
    each commit; a commit costs SQLite a sync to disk and SQLAlchemy a reload of every row the
    session holds (they expire on commit): 20 ms of a new submission's 27 ms. Inside the
    block their commits do nothing: the rows reach SQLite when the session flushes (before a
    query when autoflush is on, at an explicit flush, at the block's one commit), and the
    transaction stays open. This is the one place nbgrader's commit is deferred: the
    session's `commit` is shadowed by a no-op for the block's length, on this Gradebook's
    session only."""
    session = gb.db  # a scoped_session: an instance attribute shadows its commit method
    session.commit = lambda: None
    try:
        yield
    except BaseException:
        del session.commit
        session.rollback()
        raise
    del session.commit
    try:
        session.commit()
    except BaseException:
        session.rollback()
        raise


def record_many(gb, results: list[Result]) -> list[tuple[Result, Exception]]:
    """Write the results' grades (as `record` does) to an open Gradebook in one transaction.

    When the gradebook refuses one result's rows, nothing of the batch is half written: the
    transaction is rolled back and the batch written again one result (one transaction) at a
    time, so every other result is written. Returns the refused ones, each with its error
    ([] when all were written)."""
    if not results:
        return []
    try:
        _write_in_one_transaction(gb, results)
        return []
    except Exception:  # rolled back: found out below, one at a time, which one it was
        pass
    refused = []
    for result in results:
        try:
            _write_in_one_transaction(gb, [result])  # all its rows, or none
        except Exception as exc:
            refused.append((result, exc))
    return refused


def _write_in_one_transaction(gb, results: list[Result]) -> None:
    """`_write_batch` in one transaction, the session's autoflush off (the rows are sent
    when `_write_batch` flushes, and at the commit)."""
    with one_transaction(gb), gb.db.no_autoflush:
        _write_batch(gb, results)


def _write_batch(gb, results: list[Result]) -> None:
    """`record` each result, in the open transaction: the batch's students at once; each
    submission the gradebook does not have yet with its rows (`_insert_new`); the others
    with nbgrader's API. A batch holding a submission twice is all written with the API,
    in order (the rows sent before the second is looked up, or it would be made twice)."""
    _students(gb, results)
    if len({r.key for r in results}) == len(results):
        existing = _existing(gb, results)
        _insert_new(gb, [r for r in results if r.key not in existing])
        results = [r for r in results if r.key in existing]
    made: set[tuple[str, str]] = set()
    for result in results:
        if result.key in made:
            gb.db.flush()
            made.clear()
        _record_submission(gb, result)
        made.add(result.key)


def _existing(gb, results: list[Result], chunk: int = 500) -> set[tuple[str, str]]:
    """The (lesson, student) of `results` that have a submission in the gradebook."""
    from nbgrader.api import Assignment, SubmittedAssignment

    lessons = sorted({r.lesson for r in results})
    students = sorted({r.student for r in results})
    found = set()
    for n in range(0, len(students), chunk):  # SQLite takes a bounded number of parameters
        query = (
            gb.db.query(Assignment.name, SubmittedAssignment.student_id)
            .join(Assignment, Assignment.id == SubmittedAssignment.assignment_id)
            .filter(Assignment.name.in_(lessons))
            .filter(SubmittedAssignment.student_id.in_(students[n : n + chunk]))
        )
        found.update((lesson, student) for lesson, student in query)
    return found


def _insert_new(gb, results: list[Result]) -> None:
    """Write submissions the gradebook does not have with one INSERT a table for the batch:
    the rows nbgrader's add_submission makes (a notebook row per notebook of the lesson, a
    grade per grade and task cell, a comment per solution and task cell), holding what
    `_record_grades` would then write in them. Through nbgrader's API, making and then
    filling 30 rows a submission cost its ORM 3 ms; these are plain rows, sent at once.
    MissingEntry for a lesson it does not have, or a grade naming a cell the lesson lacks."""
    from nbgrader.api import Comment, Grade, SubmittedAssignment, SubmittedNotebook
    from sqlalchemy import insert

    rows: dict = {SubmittedAssignment: [], SubmittedNotebook: [], Grade: [], Comment: []}
    lessons: dict = {}
    for result in results:
        if result.lesson not in lessons:
            lessons[result.lesson] = gb.find_assignment(result.lesson)
        _new_rows(lessons[result.lesson], result, rows)
    for table, values in rows.items():
        if values:
            gb.db.execute(insert(table.__table__), values)


def _new_rows(assignment, result: Result, rows: dict) -> None:
    """Append to `rows` (by nbgrader class) the rows of `result`'s new submission."""
    from nbgrader.api import (
        Comment,
        Grade,
        MissingEntry,
        SubmittedAssignment,
        SubmittedNotebook,
        new_uuid,
    )

    graded = bool(result.grades)
    grades = {(g.notebook, g.name): g for g in result.grades}
    comments = {(c["notebook"], c["name"]): c for c in result.comments}
    penalties = dict(result.late_penalties or {}) if graded else {}
    look = result.status == NEEDS_HUMAN if graded else result.status != NOT_SUBMITTED
    submission = new_uuid()
    rows[SubmittedAssignment].append(
        {"id": submission, "assignment_id": assignment.id, "student_id": result.student}
        | {"timestamp": _timestamp(result), "extension": None}
    )
    for notebook in assignment.notebooks:
        name, row = notebook.name, new_uuid()
        rows[SubmittedNotebook].append(
            {"id": row, "assignment_id": submission, "notebook_id": notebook.id}
            | {"flagged": False, "late_submission_penalty": penalties.pop(name, None)}
        )
        for cell in notebook.grade_cells + notebook.task_cells:
            entry = grades.pop((name, cell.name), None)
            if not graded:  # 0 everywhere, as `_record_submission` writes it
                score, manual = 0, look
            elif entry is not None:
                score, manual = entry.auto_score, look or entry.needs_manual_grade
            else:  # a cell the worker did not score: nbgrader's defaults
                score, manual = None, True
            rows[Grade].append(
                {"id": new_uuid(), "notebook_id": row, "cell_id": cell.id, "auto_score": score}
                | {"manual_score": None, "extra_credit": None, "needs_manual_grade": bool(manual)}
            )
        for cell in notebook.solution_cells + notebook.task_cells:
            entry = comments.pop((name, cell.name), None)
            rows[Comment].append(
                {"id": new_uuid(), "notebook_id": row, "cell_id": cell.id, "manual_comment": None}
                | {"auto_comment": entry["auto_comment"] if entry else None}
            )
    left = list(grades) + list(comments) + list(penalties)
    if left:  # as `_record_grades` says it
        raise MissingEntry(f"no cell or notebook {left[0]} in {assignment.name}")


def _timestamp(result: Result):
    """The submission's time as nbgrader stores it (naive UTC), or None."""
    from nbgrader.utils import parse_utc

    try:
        return parse_utc(result.timestamp) if result.timestamp else None
    except (ValueError, OverflowError):
        return None


def _students(gb, results: list[Result], chunk: int = 500) -> None:
    """What update_or_create_student does for each result's student (named as in the
    result), with one query for the whole batch; the new students sent to the database."""
    from nbgrader.api import Student

    names = {r.student: r.name for r in results}
    ids = list(names)
    known = {}
    for n in range(0, len(ids), chunk):  # SQLite takes a bounded number of parameters
        known.update(
            (s.id, s) for s in gb.db.query(Student).filter(Student.id.in_(ids[n : n + chunk]))
        )
    for student in ids:
        if student in known:
            for attr, value in person(names[student]).items():
                setattr(known[student], attr, value)
        else:
            gb.add_student(student, **person(names[student]))
    gb.db.flush()


def _record_grades(submission, result: Result) -> None:
    """The worker's scores, comments and late penalties onto the submission's rows, each found
    by notebook and cell name among the rows the submission holds (read once, not one query
    per cell as Gradebook.find_grade makes: a third of the parent's time per result)."""
    from nbgrader.api import MissingEntry

    notebooks = {notebook.name: notebook for notebook in submission.notebooks}
    # Rows found by their cell's id: a row nbgrader has just made (not yet sent, inside
    # one_transaction) has its cell's id but not yet its cell, nor so its name.
    cells = {
        cell.id: cell.name
        for n in notebooks.values()
        for cell in n.notebook.grade_cells + n.notebook.solution_cells + n.notebook.task_cells
    }
    grades = {(n.name, cells.get(g.cell_id)): g for n in notebooks.values() for g in n.grades}
    comments = {(n.name, cells.get(c.cell_id)): c for n in notebooks.values() for c in n.comments}

    def row(rows: dict, key, what: str):
        if key not in rows:
            raise MissingEntry(f"no {what} {key} in {submission.assignment.name}")
        return rows[key]

    look = result.status == NEEDS_HUMAN  # graded, but maybe not this lesson's notebook
    for entry in result.grades:
        grade = row(grades, (entry.notebook, entry.name), "grade cell")
        grade.auto_score = entry.auto_score
        grade.needs_manual_grade = bool(
            look or entry.needs_manual_grade or grade.manual_score is not None
        )
    for entry in result.comments:
        comment = row(comments, (entry["notebook"], entry["name"]), "comment cell")
        comment.auto_comment = entry["auto_comment"]
    for name, penalty in (result.late_penalties or {}).items():
        row(notebooks, name, "notebook").late_submission_penalty = penalty


@dataclass(frozen=True)
class BookRow:
    """One (lesson, student) of the gradebook: their submission's points, or none.

    Scores are points as nbgrader counts them; `penalty` is the late penalty (points) already
    taken off `score`; `duedate` and `timestamp` are nbgrader's, as text ("" when unset)."""

    lesson: str
    student: str
    first_name: str
    last_name: str
    email: str
    duedate: str
    timestamp: str
    raw_score: float
    penalty: float
    max_score: float
    submitted: bool

    @property
    def score(self) -> float:
        return max(0.0, self.raw_score - self.penalty)

    @property
    def name(self) -> str:
        return " ".join(p for p in (self.first_name, self.last_name) if p)

    @property
    def key(self) -> tuple[str, str]:
        return (self.lesson, self.student)


@dataclass(frozen=True)
class Book:
    """What the gradebook holds, read once: every lesson with a submission (in name order,
    which is the course's order) and a row per lesson and student."""

    lessons: tuple[str, ...]
    rows: tuple[BookRow, ...]

    def of(self, lesson: str) -> list[BookRow]:
        return [row for row in self.rows if row.lesson == lesson]


def _text(value) -> str:
    return "" if value is None else str(value)


def read_book(db_url: str, course_id: str) -> Book:
    """The gradebook's lessons and rows in three queries: students, lessons, and every
    submission with its score and late penalty (nbgrader defers those two, which costs two
    queries per submission, as its CsvExportPlugin pays them, when read one by one)."""
    from nbgrader.api import Gradebook, SubmittedAssignment
    from sqlalchemy.orm import undefer

    rows = []
    with Gradebook(db_url, course_id) as gb:
        students = sorted(gb.students, key=lambda s: s.id)
        query = gb.db.query(SubmittedAssignment).options(
            undefer(SubmittedAssignment.score),
            undefer(SubmittedAssignment.late_submission_penalty),
        )
        handed = {(s.assignment_id, s.student_id): s for s in query}
        for assignment in sorted(gb.assignments, key=lambda a: a.name):
            if not any(key[0] == assignment.id for key in handed):
                continue  # a lesson released but never graded is not a column anywhere
            for student in students:
                sub = handed.get((assignment.id, student.id))
                rows.append(
                    BookRow(
                        assignment.name,
                        student.id,
                        student.first_name or "",
                        student.last_name or "",
                        student.email or "",
                        _text(assignment.duedate),
                        _text(sub.timestamp) if sub else "",
                        float(sub.score or 0) if sub else 0.0,
                        float(sub.late_submission_penalty or 0) if sub else 0.0,
                        float(assignment.max_score or 0),
                        sub is not None,
                    )
                )
    return Book(tuple(dict.fromkeys(r.lesson for r in rows)), tuple(rows))


GRADES_COLUMNS = [  # nbgrader's CsvExportPlugin's columns, then the row's status and reason
    "assignment",
    "duedate",
    "timestamp",
    "student_id",
    "last_name",
    "first_name",
    "email",
    "raw_score",
    "late_submission_penalty",
    "score",
    "max_score",
    "status",
    "reason",
]


def standing(row: BookRow, result: Result | None) -> tuple[str, str]:
    """(status, reason) of a gradebook row: its result's, or for a row no result of the
    grading command has (graded with plain nbgrader, or nothing handed in) the gradebook's."""
    if result is not None:
        return result.status, result.reason or ""
    if row.submitted:
        return GRADED, "in the gradebook (graded outside the grading command)"
    return NOT_SUBMITTED, f"nothing handed in for {row.lesson}"


def export_csv(book: Book, results: list[Result], target: Path | str) -> Path:
    """grades.csv: every row of the gradebook (every lesson it has, whatever this run
    graded) in nbgrader's CSV export's columns, plus its status and reason; in lesson order,
    then by student id. Written beside and renamed: whole or not at all."""
    by_key = {r.key: r for r in results}
    rows = []
    for row in book.rows:
        status, reason = standing(row, by_key.get((row.lesson, row.student)))
        rows.append(
            [row.lesson, row.duedate, row.timestamp, row.student, row.last_name]
            + [row.first_name, row.email, row.raw_score, row.penalty, row.score]
            + [row.max_score, status, reason]
        )
    return write_csv(Path(target), GRADES_COLUMNS, rows)


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")  # what a spreadsheet reads as a formula


def spreadsheet_cell(value):
    """value as a CSV cell an instructor can open in a spreadsheet: text that a spreadsheet
    would run as a formula (a learner's name "=HYPERLINK(...)", a file name "@SUM(...)") gets
    a leading apostrophe, which spreadsheets show as text; numbers, "-0.5" too, are kept."""
    if not isinstance(value, str) or not value.startswith(FORMULA_STARTS):
        return value
    try:
        float(value)
        return value
    except ValueError:
        return "'" + value


def write_csv(path: Path, header: list[str], rows: list[list]) -> Path:
    """A CSV file of grades, written beside and renamed so that it is never seen half
    written (even if the run is killed), each cell a `spreadsheet_cell`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    with open(partial, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows([spreadsheet_cell(value) for value in row] for row in rows)
    os.replace(partial, path)
    return path
