"""The course gradebook and grades.csv: one writer, nbgrader's API and export.

Workers grade against private copies of the gradebook; the parent process applies each
finished submission here, one at a time and in one transaction, with nbgrader's Gradebook
API (the same fields SaveAutoGrades and AssignLatePenalties set), so there is no lost or
duplicate row and no "database is locked". A submission that could not be graded still gets
its row: every test cell 0, flagged for a human when there was something to look at.

grades.csv is nbgrader's own CSV export (CsvExportPlugin) of the lessons graded, with two
columns added: the status of each row in this run and the reason when it is not "graded".
"""

from __future__ import annotations

import csv
import os
import tempfile
from pathlib import Path

from classroom.grading.results import NO_NOTEBOOK, Note, Result


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


def gradebook_note(problem: str) -> Note:
    """The note a result gets when its grades could not be written to the gradebook."""
    return Note("gradebook", problem)


def record(gb, result: Result) -> None:
    """Write one submission's grades (from a worker, or a failure) to an open nbgrader
    Gradebook."""
    from nbgrader.utils import parse_utc

    lesson, student = result.lesson, result.student
    gb.update_or_create_student(student, **person(result.name))
    kwargs = {}
    if result.timestamp:
        try:
            kwargs["timestamp"] = parse_utc(result.timestamp)
        except (ValueError, OverflowError):
            pass
    submission = gb.update_or_create_submission(lesson, student, **kwargs)
    try:
        if result.grades:
            _record_grades(submission, result)
        else:
            # Nothing graded: 0 everywhere; a human should look unless nothing was handed in.
            look = result.status != NO_NOTEBOOK
            for notebook in submission.notebooks:
                for grade in notebook.grades:
                    grade.auto_score = 0
                    grade.needs_manual_grade = look
        gb.db.commit()
    except Exception:
        gb.db.rollback()
        raise


def _record_grades(submission, result: Result) -> None:
    """The worker's scores, comments and late penalties onto the submission's rows, each found
    by notebook and cell name among the rows the submission holds (read once, not one query
    per cell as Gradebook.find_grade makes: a third of the parent's time per result)."""
    from nbgrader.api import MissingEntry

    notebooks = {notebook.name: notebook for notebook in submission.notebooks}
    grades = {(n.name, g.name): g for n in notebooks.values() for g in n.grades}
    comments = {(n.name, c.name): c for n in notebooks.values() for c in n.comments}

    def row(rows: dict, key, what: str):
        if key not in rows:
            raise MissingEntry(f"no {what} {key} in {submission.assignment.name}")
        return rows[key]

    for entry in result.grades:
        grade = row(grades, (entry.notebook, entry.name), "grade cell")
        grade.auto_score = entry.auto_score
        grade.needs_manual_grade = bool(entry.needs_manual_grade or grade.manual_score is not None)
    for entry in result.comments:
        comment = row(comments, (entry["notebook"], entry["name"]), "comment cell")
        comment.auto_comment = entry["auto_comment"]
    for name, penalty in (result.late_penalties or {}).items():
        row(notebooks, name, "notebook").late_submission_penalty = penalty


def export_csv(
    db_url: str, course_id: str, lessons: list[str], results: list[Result], target: Path | str
) -> Path:
    """nbgrader's CSV export of `lessons` plus status and reason columns, its rows in the
    order of `lessons`, then by student id (nbgrader's own order is the gradebook's)."""
    from nbgrader.api import Gradebook, MissingEntry
    from nbgrader.plugins.export import CsvExportPlugin

    target = Path(target)
    by_key = {r.key: r for r in results}
    with tempfile.TemporaryDirectory(prefix="export-") as tmp:
        plain = Path(tmp) / "grades.csv"
        with Gradebook(db_url, course_id) as gb:
            CsvExportPlugin(to=str(plain), assignment=list(lessons)).export(gb)
            submitted = set()
            for lesson in lessons:
                try:
                    assignment = gb.find_assignment(lesson)
                except MissingEntry:
                    continue
                submitted.update((lesson, s.student.id) for s in assignment.submissions)
        with open(plain, newline="", encoding="utf-8") as handle:
            rows = list(csv.DictReader(handle))
    order = {lesson: number for number, lesson in enumerate(lessons)}
    rows.sort(key=lambda r: (order.get(r.get("assignment"), len(order)), r.get("student_id", "")))
    fields = list(rows[0].keys()) if rows else ["assignment", "student_id", "score", "max_score"]
    partial = target.with_name(target.name + ".partial")
    with open(partial, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=fields + ["status", "reason"])
        writer.writeheader()
        for row in rows:
            key = (row.get("assignment"), row.get("student_id"))
            result = by_key.get(key)
            if result is not None:
                row["status"], row["reason"] = result.status, result.reason or ""
            elif key in submitted:
                row["status"], row["reason"] = "graded earlier", ""
            else:
                row["status"], row["reason"] = "no submission", ""
            writer.writerow(row)
    os.replace(partial, target)  # whole or not at all, even if the run is killed now
    return target
