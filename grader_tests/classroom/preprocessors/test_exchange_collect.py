"""CollectRegularFiles: `nbgrader collect` copies what a student handed in, and never what a
symbolic link in the exchange points at.

The fixture is an exchange built here, as a student who writes into the inbound folder
directly (not through `nbgrader submit`) can leave it: mallory's submission holds a link to
the instructor's grades, a link to the instructor's private folder and a named pipe, beside
her notebook and a data file; erin's is an honest one; oscar's submission folder is itself a
link to the course's source/ (the instructor's notebook, solutions and hidden tests).
nbgrader's own collect is run on the same exchange as the control: it copies the secrets."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest
from nbgrader.coursedir import CourseDirectory
from nbgrader.exchange.default import ExchangeCollect
from traitlets.config import Config

from classroom import build
from classroom.grading import records
from classroom.nbgrader_ext.preprocessors.exchange_collect import CollectRegularFiles

COURSE_ID = "mujoco-physics"
LESSON = "toy"
SECRET = "the instructor's gradebook: every student's grades"
STAMP = "2026-03-01 09:00:00.000000 UTC"


@pytest.fixture
def exchange(tmp_path) -> Path:
    """The course (tmp_path/course) and its exchange, with the three submissions."""
    course = tmp_path / "course"
    (course / "source" / LESSON).mkdir(parents=True)
    (course / "source" / LESSON / f"{LESSON}.ipynb").write_text("### BEGIN HIDDEN TESTS")
    (course / "private").mkdir()  # what only the instructor may read (nbgrader opens
    (course / "private" / "grades.csv").write_text(SECRET)  # gradebook.db: not that one)
    inbound = tmp_path / "exchange" / COURSE_ID / "inbound"
    inbound.mkdir(parents=True)
    for student in ("erin", "mallory"):
        folder = inbound / f"{student}+{LESSON}+{STAMP}+a1b2"
        (folder / "data").mkdir(parents=True)
        (folder / f"{LESSON}.ipynb").write_text(f"{student}'s notebook")
        (folder / "data" / "points.csv").write_text("1,2\n")
        (folder / "timestamp.txt").write_text(STAMP)
    mallory = inbound / f"mallory+{LESSON}+{STAMP}+a1b2"
    (mallory / "data" / "grades.csv").symlink_to(course / "private" / "grades.csv")
    (mallory / "private").symlink_to(course / "private")
    os.mkfifo(mallory / "pipe")
    (mallory / "two\nlines").symlink_to(course / "private" / "grades.csv")
    (inbound / f"oscar+{LESSON}+{STAMP}+a1b2").symlink_to(course / "source" / LESSON)
    return tmp_path


def collect(base: Path, kind=CollectRegularFiles) -> ExchangeCollect:
    """nbgrader's collect of LESSON (kind: its class), into base/course/submitted."""
    records.read_alembic_head_in_process()  # collect makes the gradebook: no `alembic` needed
    config = Config()
    config.CourseDirectory.root = str(base / "course")
    config.CourseDirectory.course_id = COURSE_ID
    config.Exchange.root = str(base / "exchange")
    coursedir = CourseDirectory(config=config)
    coursedir.assignment_id = LESSON
    log = logging.getLogger(f"exchange-collect.{base.name}.{kind.__name__}")
    collector = kind(coursedir=coursedir, config=config, log=log)
    collector.check_owner = False  # the test's files are all root's
    collector.update = True  # a newer submission replaces the collected one, as --exchange does
    collector.start()
    return collector


def submitted(base: Path, student: str) -> dict[str, str]:
    """{relative path: "link" or the text} of everything collected for the student."""
    folder = base / "course" / "submitted" / student / LESSON
    found = {}
    for path in sorted(folder.rglob("*")):
        if path.is_symlink() or path.is_file():
            text = "link" if path.is_symlink() else path.read_text(errors="replace")
            found[path.relative_to(folder).as_posix()] = text
    return found


def test_nbgraders_own_collect_follows_the_links(exchange):
    """The control: the fixture's links do carry the course's secrets with stock collect
    (the pipe is left out of the exchange here, or stock collect stops on it)."""
    os.unlink(
        exchange / "exchange" / COURSE_ID / "inbound" / f"mallory+{LESSON}+{STAMP}+a1b2" / "pipe"
    )
    collect(exchange, ExchangeCollect)
    taken = submitted(exchange, "mallory")
    assert taken["data/grades.csv"] == SECRET
    assert taken["private/grades.csv"] == SECRET
    assert submitted(exchange, "oscar") == {f"{LESSON}.ipynb": "### BEGIN HIDDEN TESTS"}


def test_only_what_the_student_handed_in_is_collected(exchange):
    collect(exchange)
    honest = {
        f"{LESSON}.ipynb": "erin's notebook",
        "data/points.csv": "1,2\n",
        "timestamp.txt": STAMP,
    }
    assert submitted(exchange, "erin") == honest
    assert submitted(exchange, "mallory") == {**honest, f"{LESSON}.ipynb": "mallory's notebook"}
    assert submitted(exchange, "oscar") == {}
    every = "".join(
        p.read_text(errors="replace")
        for p in exchange.joinpath("course", "submitted").rglob("*")
        if p.is_file()
    )
    assert SECRET not in every and "HIDDEN TESTS" not in every


def test_what_was_problems_is_named_in_one_line_a_submission(exchange, caplog):
    with caplog.at_level(logging.WARNING):
        collector = collect(exchange)
    assert len(collector.problems) == 2, collector.problems
    mallory, oscar = sorted(collector.problems)
    assert mallory.startswith(f"mallory's {LESSON}: left out at collect, not graded: ")
    for named in (
        "private (a symbolic link)",
        "data/grades.csv (a symbolic link)",
        "pipe (not a regular file)",
        "two\\nlines (a symbolic link)",
    ):
        assert named in mallory, mallory
    assert oscar.startswith(f"oscar's {LESSON}:") and "folder itself is a symbolic link" in oscar
    assert not [line for line in collector.problems if "\n" in line]
    assert sorted(r.getMessage() for r in caplog.records if r.levelno == logging.WARNING) == sorted(
        collector.problems
    )


def test_the_course_configuration_collects_with_it():
    """`nbgrader collect` from the course directory uses this class (nbgrader_config.py)."""
    from nbgrader.exchange import ExchangeFactory

    config = build.load_nbgrader_config(Path(__file__).resolve().parents[3])
    assert ExchangeFactory(config=config).collect is CollectRegularFiles


def owned_by(path: Path, uid: int) -> None:
    """Give path another owner (root only: fail under CI without it, skip elsewhere)."""
    if os.geteuid() != 0:
        if os.environ.get("CI"):
            pytest.fail("giving the exchange's folders their learners' owners needs root")
        pytest.skip("giving the exchange's folders their learners' owners needs root")
    os.lchown(path, uid, uid)


def test_an_account_that_submitted_as_two_students_is_said(exchange):
    """erin's and mallory's folders owned by their own accounts; then a folder named for erin,
    newer, owned by mallory's: collected as nbgrader collects it, and said in one line."""
    inbound = exchange / "exchange" / COURSE_ID / "inbound"
    erin, mallory = 47001, 47002  # no such users here: said by number
    owned_by(inbound / f"erin+{LESSON}+{STAMP}+a1b2", erin)
    owned_by(inbound / f"mallory+{LESSON}+{STAMP}+a1b2", mallory)
    assert collect(exchange).problems[:1] != [], "fixture: mallory's left-out files are said"
    assert not [line for line in collect(exchange).problems if "account" in line]
    later = "2026-03-02 09:00:00.000000 UTC"
    forged = inbound / f"erin+{LESSON}+{later}+c3d4"
    forged.mkdir()
    (forged / f"{LESSON}.ipynb").write_text("mallory's notebook, as erin's")
    (forged / "timestamp.txt").write_text(later)
    owned_by(forged, mallory)
    said = [line for line in collect(exchange).problems if "account" in line]
    assert said == [
        f"{LESSON}: the exchange account uid {mallory} submitted as erin and mallory: one of "
        "them is not theirs; check before releasing these grades"
    ]
    assert submitted(exchange, "erin")[f"{LESSON}.ipynb"] == "mallory's notebook, as erin's"


def test_one_account_for_everyone_tells_nothing_apart(exchange):
    """A hub whose learners all run as one account (the fixture: root): no line."""
    assert not [line for line in collect(exchange).problems if "account" in line]
