"""A lesson registered in the gradebook before plain `nbgrader autograde` grades it.

nbgrader's autograde needs the lesson in gradebook.db, which only `generate_assignment` puts
there. The course commits release/, so on a fresh clone nothing has run generate_assignment
and `nbgrader autograde LESSON` stopped with "There was an error processing assignment".
nbgrader_config.py makes `register_missing` Autograde's pre-convert hook (nbgrader calls it
before each submission): a lesson the gradebook lacks is generated from source/ into it, as
`nbgrader generate_assignment` would (its release written to a scratch folder, so the
committed release/ stays as the build wrote it), and one line says so. A lesson already
registered is left alone: its due date and grades stay. The grading command registers its
lessons itself and turns the hook off.
"""

from __future__ import annotations

import copy
import logging
import tempfile
from pathlib import Path

from classroom.nbgrader_ext import nbgrader_log

log = logging.getLogger("classroom.lesson_registration")


def register_missing(config, *, assignment=None, student=None, notebooks=()) -> None:
    """Register the lesson of the submission about to be graded, if the gradebook lacks it.

    `config` is the course's nbgrader configuration (nbgrader_config.py binds it);
    `notebooks` are the submission's paths, .../<student>/<lesson>/<notebook>.ipynb, nbgrader's
    directory structure; `assignment` is the lesson asked for on the command line."""
    from nbgrader.api import Gradebook, MissingEntry
    from nbgrader.converters import GenerateAssignment
    from nbgrader.coursedir import CourseDirectory

    lesson = Path(notebooks[0]).parent.name if notebooks else assignment
    coursedir = CourseDirectory(config=config)
    with Gradebook(coursedir.db_url, coursedir.course_id) as gb:
        try:
            gb.find_assignment(lesson)
            return
        except MissingEntry:
            pass
    with tempfile.TemporaryDirectory(prefix="register-") as scratch:
        wanted = copy.deepcopy(config)
        wanted.CourseDirectory.release_directory = scratch  # absolute: release/ untouched
        generator_dir = CourseDirectory(config=wanted)
        generator_dir.assignment_id = lesson
        with _KeptErrors() as kept:
            generator = GenerateAssignment(coursedir=generator_dir, config=wanted, log=kept.log)
            generator.force = True
            try:
                generator.start()
            except Exception as exc:  # nbgrader would only log it at debug level, then stop
                _forget(coursedir, lesson)
                _app_log().error("%s is not in the gradebook and could not be registered: %s",
                                 lesson, kept.cause(exc))  # fmt: skip
                return
    _app_log().warning(
        "%s was not in the gradebook: registered it from source/ (as `nbgrader "
        "generate_assignment %s --force` does) before grading",
        lesson,
        lesson,
    )


def _forget(coursedir, lesson: str) -> None:
    """Remove what a failed registration left of `lesson` in the gradebook (nbgrader adds
    the assignment before it reads the notebooks): absent, it is registered again next time,
    rather than found and graded against no notebooks."""
    from nbgrader.api import Gradebook, MissingEntry

    with Gradebook(coursedir.db_url, coursedir.course_id) as gb:
        try:
            gb.remove_assignment(lesson)
        except MissingEntry:
            pass


class _KeptErrors(logging.Handler):
    """nbgrader's log while it registers a lesson: kept, not printed (the refusal is one
    line), so that the line can name the cause when nbgrader's exception does not."""

    def __init__(self):
        super().__init__(logging.ERROR)
        self.lines: list[str] = []
        self.log = logging.getLogger("classroom.lesson_registration.nbgrader")
        self.log.propagate = False

    def __enter__(self) -> _KeptErrors:
        self.log.addHandler(self)
        return self

    def __exit__(self, *_) -> None:
        self.log.removeHandler(self)

    def emit(self, record: logging.LogRecord) -> None:
        self.lines += [line.strip() for line in record.getMessage().splitlines() if line.strip()]

    def cause(self, exc: Exception) -> str:
        """The exception's words, or, when they only point at the log ("Please see the
        error log above"), the first error the log names (the cause: nbgrader logs each
        exception again as it wraps it)."""
        said = str(exc).strip()
        if said and "see the" not in said.lower():
            return said
        errors = nbgrader_log.error_lines(self.lines)
        return (errors or self.lines or [said or type(exc).__name__])[0]


def _app_log() -> logging.Logger:
    """The running nbgrader app's log (its lines look like nbgrader's own), or this module's."""
    from traitlets.config import Application

    return Application.instance().log if Application.initialized() else log
