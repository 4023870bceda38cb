"""ReleaseFeedbackOnExchange: `nbgrader release_feedback` releases the feedback of every
student who submitted on the exchange, and names in one line those who did not (their page
goes back through the LMS) instead of stopping on the first with a traceback.

The fixture is a small course built here: feedback/<student>/toy/toy.html for ada and cy,
who submitted on the exchange (a submission_secret.txt beside the page), and for bob and
dee, whose notebooks came from an LMS download (no secret).
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from nbgrader.coursedir import CourseDirectory
from nbgrader.utils import notebook_hash
from traitlets.config import Config

from classroom.nbgrader_ext.preprocessors.exchange_feedback import ReleaseFeedbackOnExchange

COURSE_ID = "mujoco-physics"
SECRETS = {"ada": "secret-of-ada", "bob": None, "cy": "secret-of-cy", "dee": None}


@pytest.fixture
def course(tmp_path) -> Path:
    root = tmp_path / "course"
    for student, secret in SECRETS.items():
        folder = root / "feedback" / student / "toy"
        folder.mkdir(parents=True)
        (folder / "toy.html").write_text(f"<p>{student}'s page</p>", encoding="utf-8")
        (folder / "timestamp.txt").write_text("2026-01-05 10:00:00", encoding="utf-8")
        if secret:
            (folder / "submission_secret.txt").write_text(secret, encoding="utf-8")
    return root


def _release(course: Path, exclude: str = "") -> tuple[Path, ReleaseFeedbackOnExchange]:
    """Run release_feedback of lesson toy on an exchange beside the course."""
    config = Config()
    config.CourseDirectory.root = str(course)
    config.CourseDirectory.course_id = COURSE_ID
    config.Exchange.root = str(course.parent / "exchange")
    (course.parent / "exchange").mkdir(exist_ok=True)  # the hub's shared folder exists
    coursedir = CourseDirectory(config=config)
    coursedir.assignment_id = "toy"
    coursedir.student_id_exclude = exclude
    log = logging.getLogger(f"exchange-feedback.{course.parent.name}")
    release = ReleaseFeedbackOnExchange(coursedir=coursedir, config=config, log=log)
    release.start()
    return course.parent / "exchange" / COURSE_ID / "feedback", release


def _page(student: str) -> str:
    return f"{notebook_hash(secret=SECRETS[student], notebook_id='toy')}.html"


@pytest.mark.timeout(30)
def test_everyone_who_submitted_on_the_exchange_gets_their_page(course):
    released, _ = _release(course)

    assert sorted(p.name for p in released.iterdir()) == sorted([_page("ada"), _page("cy")])
    assert (released / _page("cy")).read_text(encoding="utf-8") == "<p>cy's page</p>"


@pytest.mark.timeout(30)
def test_those_who_did_not_are_named_in_one_line(course, caplog):
    with caplog.at_level(logging.WARNING):
        _release(course)

    (line,) = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert line == (
        "Feedback not released for 2 student(s) who did not submit on the exchange "
        "(bob, dee): hand theirs back through the LMS (feedback/<student>/toy/)"
    )


@pytest.mark.timeout(30)
def test_students_excluded_on_the_command_line_stay_excluded(course):
    released, release = _release(course, exclude="cy")

    assert [p.name for p in released.iterdir()] == [_page("ada")]
    assert set(release.coursedir.student_id_exclude.split(",")) == {"bob", "cy", "dee"}
