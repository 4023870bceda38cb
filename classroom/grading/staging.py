"""The staging course directory of a grading run, and the lessons registered in gradebooks.

Each run generates its lessons with nbgrader into a staging course directory: its gradebook is
the template every worker copies, and the lessons are registered in the course's gradebook too
(their due dates copied to the template, so late penalties come out as nbgrader computes them).
"""

from __future__ import annotations

import io
import logging
from pathlib import Path

from classroom import build
from classroom.nbgrader_ext import nbgrader_log


class GradeError(RuntimeError):
    """The run cannot go on (a lesson that does not build, a missing shard, ...)."""


def _quiet_logger(buffer: io.StringIO) -> logging.Logger:
    logger = logging.getLogger("classroom.grade.nbgrader")
    logger.handlers = [logging.StreamHandler(buffer)]
    logger.setLevel(logging.INFO)
    logger.propagate = False
    return logger


def register(staging: Path, lesson: str, db_url: str) -> None:
    """nbgrader's GenerateAssignment for lesson, from staging/source, into db_url."""
    from nbgrader.converters import GenerateAssignment
    from nbgrader.coursedir import CourseDirectory

    config = build.load_nbgrader_config(staging)
    config.CourseDirectory.db_url = db_url
    coursedir = CourseDirectory(config=config)
    coursedir.assignment_id = lesson
    buffer = io.StringIO()
    converter = GenerateAssignment(coursedir=coursedir, config=config, log=_quiet_logger(buffer))
    converter.force = True
    try:
        converter.start()
    except Exception as exc:
        log = buffer.getvalue()
        raise GradeError(f"{_reason(lesson, log)}\n{log}") from exc


def _reason(lesson: str, log: str) -> str:
    """One line saying why nbgrader could not generate lesson, read from its log."""
    errors = nbgrader_log.error_lines(log.splitlines())
    if any("because there are submissions" in line for line in errors):
        return (
            f"{lesson}'s test cells changed after submissions were graded in this gradebook; "
            "grade them into a new gradebook, or remove the lesson's submissions from it first "
            "(nbgrader db assignment remove --force)"
        )
    why = nbgrader_log.message(errors[0]) if errors else "see the log below"
    return f"nbgrader could not generate {lesson}: {why}"


def lesson_cells(db_url: str, lesson: str, course_id: str) -> tuple | None:
    """What GenerateAssignment writes of a lesson into a gradebook: for each notebook, its
    source, grade, solution and task cells (name, kind, locked, source, checksum, points).
    None when the gradebook does not have the lesson."""
    from nbgrader.api import Gradebook, MissingEntry

    with Gradebook(db_url, course_id) as gb:
        try:
            assignment = gb.find_assignment(lesson)
        except MissingEntry:
            return None
        return tuple(
            (
                nb.name,
                sorted(
                    (c.name, c.cell_type, c.locked, c.source, c.checksum) for c in nb.source_cells
                ),
                sorted((c.name, c.cell_type, c.max_score) for c in nb.grade_cells),
                sorted(c.name for c in nb.solution_cells),
                sorted((c.name, c.max_score) for c in nb.task_cells),
            )
            for nb in sorted(assignment.notebooks, key=lambda nb: nb.name)
        )


def _copy_due_date(lesson: str, template: str, due_from: str | None, course_id: str) -> float:
    """Copy the lesson's due date from the gradebook due_from to the template; its max score."""
    from nbgrader.api import Gradebook, MissingEntry

    due = None
    if due_from:
        with Gradebook(due_from, course_id) as gb:
            try:
                due = gb.find_assignment(lesson).duedate
            except MissingEntry:
                due = None
    with Gradebook(template, course_id) as gb:
        assignment = gb.find_assignment(lesson)
        if due is not None:
            assignment.duedate = due
            gb.db.commit()
        return float(assignment.max_score)


def prepare(
    root: Path, staging: Path, lessons: list[str], main_db: str | None, due_db: str | None = None
) -> tuple[dict, dict]:
    """Generate each lesson into staging and, unless main_db is None, register it in the
    course's gradebook (a shard, which writes no gradebook, reads due dates from due_db).

    Returns ({lesson: max score}, {lesson: why nbgrader could not generate it}); a lesson that
    fails does not stop the others."""
    build.ensure_scripts_on_path()
    failed = {}
    for lesson in lessons:
        try:
            build.make_course_dir(lesson, staging, root=root)
        except build.BuildError as exc:
            failed[lesson] = str(exc)
    build.seed_gradebook(staging)
    template = f"sqlite:///{staging / 'gradebook.db'}"
    course_id = build.load_nbgrader_config(staging).CourseDirectory.course_id
    maxima = {}
    for lesson in [lesson for lesson in lessons if lesson not in failed]:
        try:
            register(staging, lesson, template)
            # Generating the lesson again into the course's gradebook would change nothing
            # when it holds these very cells (the lesson as released): 0.4 s saved a lesson.
            if main_db is not None and lesson_cells(main_db, lesson, course_id) != lesson_cells(
                template, lesson, course_id
            ):
                register(staging, lesson, main_db)
        except GradeError as exc:
            failed[lesson] = str(exc)
            continue
        maxima[lesson] = _copy_due_date(lesson, template, main_db or due_db, course_id)
    return maxima, failed


def course_db(root: Path, config) -> str:
    """The course gradebook's URL (created empty when it is the default sqlite file)."""
    from nbgrader.coursedir import CourseDirectory

    build.seed_gradebook(root)
    return CourseDirectory(config=config).db_url
