"""register_missing, Autograde's pre-convert hook: a lesson the gradebook lacks is registered
from source/ (as `nbgrader generate_assignment` would, the committed release/ untouched) with
one line saying so; a registered lesson is left alone; one that cannot be generated is named in
one error line, and grading goes on to say what it says.

The fixture is a course built here: the course's nbgrader_config.py, the toy lesson's
fixtures/source.ipynb as source/toy/toy.ipynb, an empty gradebook, no release/.
"""

from __future__ import annotations

import logging
import shutil
from contextlib import contextmanager
from pathlib import Path

import pytest
from nbgrader.api import Gradebook

from classroom import build
from classroom.nbgrader_ext import notebooks
from classroom.nbgrader_ext.preprocessors.lesson_registration import register_missing

LOGGER = "classroom.lesson_registration"  # its lines, with no nbgrader app running


@contextmanager
def printed():
    """The log records that reach the root logger's handlers (what a console shows; caplog
    also listens on loggers that do not propagate)."""
    seen: list[logging.LogRecord] = []
    handler = logging.Handler(logging.INFO)
    handler.emit = seen.append
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield seen
    finally:
        root.removeHandler(handler)


@pytest.fixture
def fresh_clone(tmp_path, read_nb) -> Path:
    root = tmp_path / "course"
    root.mkdir()
    shutil.copyfile(build.REPO_ROOT / build.CONFIG_FILE, root / build.CONFIG_FILE)
    notebooks.write(read_nb("source"), root / "source" / "toy" / "toy.ipynb")
    build.seed_gradebook(root)
    return root


def _lessons(root: Path) -> dict[str, float]:
    """{lesson: its points} of the course's gradebook."""
    config = build.load_nbgrader_config(root)
    with Gradebook(f"sqlite:///{root / 'gradebook.db'}", config.CourseDirectory.course_id) as gb:
        return {a.name: a.max_score for a in gb.assignments}


@pytest.mark.timeout(120)
def test_a_missing_lesson_is_registered_from_source_release_untouched(fresh_clone, caplog):
    with caplog.at_level(logging.INFO, logger=LOGGER):
        register_missing(build.load_nbgrader_config(fresh_clone), assignment="toy")

    assert list(_lessons(fresh_clone)) == ["toy"] and _lessons(fresh_clone)["toy"] > 0
    assert not (fresh_clone / "release").exists(), "registering wrote release/"
    assert [r.getMessage() for r in caplog.records] == [
        "toy was not in the gradebook: registered it from source/ (as `nbgrader "
        "generate_assignment toy --force` does) before grading"
    ]


@pytest.mark.timeout(120)
def test_the_lesson_is_read_from_the_submission_s_path(fresh_clone):
    """nbgrader hands the hook the submission's paths, .../<student>/<lesson>/<nb>.ipynb."""
    handed_in = fresh_clone / "submitted" / "ada" / "toy" / "toy.ipynb"
    register_missing(build.load_nbgrader_config(fresh_clone), assignment="*", notebooks=[handed_in])

    assert list(_lessons(fresh_clone)) == ["toy"]


@pytest.mark.timeout(120)
def test_a_registered_lesson_is_left_alone(fresh_clone, caplog):
    """Once registered, the hook neither regenerates it (source/ is gone: it would fail)
    nor says anything."""
    config = build.load_nbgrader_config(fresh_clone)
    register_missing(config, assignment="toy")
    shutil.rmtree(fresh_clone / "source")
    caplog.clear()
    with caplog.at_level(logging.INFO, logger=LOGGER):
        register_missing(config, assignment="toy")

    assert caplog.records == []
    assert list(_lessons(fresh_clone)) == ["toy"]


@pytest.mark.timeout(120)
def test_a_lesson_that_cannot_be_generated_is_named_in_one_error_line(fresh_clone):
    with printed() as records:
        register_missing(build.load_nbgrader_config(fresh_clone), assignment="ghost")

    (record,) = records  # nbgrader's own lines kept back
    assert record.name == LOGGER and record.levelno == logging.ERROR
    assert record.getMessage().startswith(
        "ghost is not in the gradebook and could not be registered: No notebooks were matched"
    )
    assert list(_lessons(fresh_clone)) == []


@pytest.mark.timeout(120)
def test_a_broken_source_is_named_with_nbgrader_s_cause(fresh_clone):
    """nbgrader's exception only says "see the error log above"; the one line names the
    cause from that log (here two cells with one grade id)."""
    path = fresh_clone / "source" / "toy" / "toy.ipynb"
    nb = notebooks.read(path)
    graded = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id")]
    graded[1].metadata.nbgrader.grade_id = graded[0].metadata.nbgrader.grade_id
    notebooks.write(nb, path)
    with printed() as records:
        register_missing(build.load_nbgrader_config(fresh_clone), assignment="toy")

    (record,) = records
    message = record.getMessage()
    assert message.startswith("toy is not in the gradebook and could not be registered: ")
    assert "see the error log" not in message.lower()
    assert "duplicate" in message.lower() and graded[0].metadata.nbgrader.grade_id in message
    assert list(_lessons(fresh_clone)) == []
