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
        quiet = logging.getLogger("classroom.lesson_registration.nbgrader")
        quiet.setLevel(logging.ERROR)
        generator = GenerateAssignment(coursedir=generator_dir, config=wanted, log=quiet)
        generator.force = True
        try:
            generator.start()
        except Exception as exc:  # nbgrader would only log it at debug level, then stop
            _app_log().error("%s is not in the gradebook and could not be registered: %s",
                             lesson, exc)  # fmt: skip
            return
    _app_log().warning(
        "%s was not in the gradebook: registered it from source/ (as `nbgrader "
        "generate_assignment %s --force` does) before grading",
        lesson,
        lesson,
    )


def _app_log() -> logging.Logger:
    """The running nbgrader app's log (its lines look like nbgrader's own), or this module's."""
    from traitlets.config import Application

    return Application.instance().log if Application.initialized() else log
