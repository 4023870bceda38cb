"""nbgrader's own route, command by command, as docs/instructors.md gives it, on a copy of the
course: generate_assignment, release_assignment, a learner's fetch_assignment and submit,
collect, autograde, generate_feedback, release_feedback, the learner's fetch_feedback,
export; and zip_collect for an LMS download. The verdicts and the hiding of hidden tests are
the course's on this route too (nbgrader_config.py puts its preprocessors in the chains)."""

from __future__ import annotations

import csv
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from classroom.isolation.sandbox import probe
from classroom.nbgrader_ext import notebooks

ROOT = notebooks.ROOT
LESSON = "01-world-as-text"
COURSE_ID = "mujoco-physics"


def nbgrader(cwd: Path, *args: str, exchange: Path | None = None) -> subprocess.CompletedProcess:
    """Run `nbgrader ARGS` in cwd the way an instructor or a learner would, from a shell."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT)  # what an instructor's editable install gives
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    for variable, folder in (("JUPYTER_CONFIG_DIR", "jc"), ("IPYTHONDIR", "ip")):
        env[variable] = str(cwd / f".{folder}")
    if exchange is not None:  # the course reads NBGRADER_EXCHANGE; a hub sets a learner's
        env["NBGRADER_EXCHANGE"] = str(exchange)
        args = (*args, f"--Exchange.root={exchange}")
    command = [sys.executable, "-m", "nbgrader", *args]
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


def ok(run: subprocess.CompletedProcess) -> subprocess.CompletedProcess:
    assert run.returncode == 0, (run.args, run.stdout[-2000:], run.stderr[-3000:])
    return run


def hidden_lines(lesson: str) -> set[str]:
    """Lines of the lesson's hidden tests that say something and appear nowhere else."""
    source = notebooks.read_lesson(lesson)
    hidden, shown = set(), set()
    for cell in source.cells:
        visible, numbers = notebooks.split_hidden(cell.source)
        lines = cell.source.split("\n")
        hidden |= {lines[n - 1].strip() for n in numbers if len(lines[n - 1].strip()) > 15}
        shown |= {line.strip() for line in visible}
    return {line for line in hidden - shown if "HIDDEN TESTS" not in line}


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> Path:
    """A course directory: nbgrader_config.py and the lesson's source, nothing generated."""
    if probe() is not None and os.environ.get("CI"):
        pytest.fail(f"the sandbox cannot run here: {probe()}")
    course = tmp_path_factory.mktemp("course")
    shutil.copy(ROOT / "nbgrader_config.py", course / "nbgrader_config.py")
    shutil.copytree(ROOT / "source" / LESSON, course / "source" / LESSON)
    return course


@pytest.mark.timeout(900)
def test_the_exchange_route_works_as_written(course, tmp_path):
    exchange, learner = tmp_path / "exchange", tmp_path / "learner"
    exchange.mkdir()
    learner.mkdir()
    ok(nbgrader(course, "generate_assignment", LESSON))
    ok(nbgrader(course, "release_assignment", LESSON, exchange=exchange))
    ok(nbgrader(learner, "fetch_assignment", LESSON, "--course", COURSE_ID, exchange=exchange))
    fetched = learner / LESSON / f"{LESSON}.ipynb"
    source = notebooks.read_lesson(LESSON)
    notebooks.write(notebooks.fill_release(notebooks.read(fetched), source), fetched)
    ok(nbgrader(learner, "submit", LESSON, "--course", COURSE_ID, exchange=exchange))
    ok(nbgrader(course, "collect", LESSON, exchange=exchange))
    ok(nbgrader(course, "autograde", LESSON))
    ok(nbgrader(course, "generate_feedback", LESSON))
    ok(nbgrader(course, "release_feedback", LESSON, exchange=exchange))
    ok(nbgrader(learner, "fetch_feedback", LESSON, "--course", COURSE_ID, exchange=exchange))
    ok(nbgrader(course, "export"))
    with open(course / "grades.csv", newline="", encoding="utf-8") as handle:
        (row,) = [r for r in csv.DictReader(handle) if r["assignment"] == LESSON]
    assert float(row["score"]) == float(row["max_score"]) > 0, row
    pages = list((learner / LESSON / "feedback").rglob("*.html"))
    assert pages, "fetch_feedback brought no feedback page"
    text = pages[0].read_text(encoding="utf-8")
    leaked = [line for line in hidden_lines(LESSON) if line in text]
    assert not leaked, f"the released feedback shows hidden tests: {leaked[:3]}"
    assert "Hidden tests: passed" in text and "Your tests" in text


@pytest.mark.timeout(900)
def test_zip_collect_reads_an_lms_download_as_written(course, tmp_path):
    ok(nbgrader(course, "generate_assignment", LESSON, "--force"))
    archive = course / "downloaded" / LESSON / "archive"
    archive.mkdir(parents=True)
    blank = notebooks.read_lesson(LESSON, "release", ROOT)
    notebooks.write(blank, archive / f"smith_alice_12345_67890_{LESSON}.ipynb")
    regexp = r".*_(?P<student_id>\d+)_\d+_(?P<file_id>.*)"
    ok(nbgrader(course, "zip_collect", LESSON, f"--FileNameCollectorPlugin.named_regexp={regexp}"))
    assert (course / "submitted" / "12345" / LESSON / f"{LESSON}.ipynb").is_file()
    ok(nbgrader(course, "autograde", LESSON, "--student", "12345"))
    ok(nbgrader(course, "export"))
    with open(course / "grades.csv", newline="", encoding="utf-8") as handle:
        rows = {r["student_id"]: r for r in csv.DictReader(handle) if r["assignment"] == LESSON}
    assert float(rows["12345"]["score"]) == 0.0, "a blank release scores nothing"


# What plain nbgrader printed on every run before issue 28: a warning per test cell with
# hidden tests (the release stamps it without them), SQLAlchemy's about nbgrader's gradebook,
# and traitlets' about the feedback preprocessors' display_data_priority.
NOISE = ("checksum", "has changed", "SAWarning", "not in session", "display_data_priority")


@pytest.mark.timeout(600)
def test_autograde_on_a_fresh_clone_works_as_written_and_quietly(tmp_path):
    """A fresh clone has source/ and the committed release/ but no gradebook.db: the README's
    `nbgrader autograde LESSON` registers the lesson itself (in one line, release/ left as
    committed), grades a blank and a complete notebook, and neither it nor
    generate_feedback prints nbgrader's noise."""
    if probe() is not None and os.environ.get("CI"):
        pytest.fail(f"the sandbox cannot run here: {probe()}")
    course = tmp_path / "clone"
    course.mkdir()
    shutil.copy(ROOT / "nbgrader_config.py", course / "nbgrader_config.py")
    for folder in ("source", "release"):
        shutil.copytree(ROOT / folder / LESSON, course / folder / LESSON)
    for student, kind in (("blank", "release"), ("complete", "solution")):
        handed = course / "submitted" / student / LESSON
        handed.mkdir(parents=True)
        shutil.copy(ROOT / kind / LESSON / f"{LESSON}.ipynb", handed)
    released = (course / "release" / LESSON / f"{LESSON}.ipynb").read_bytes()

    graded = ok(nbgrader(course, "autograde", LESSON))
    said = [ln for ln in graded.stderr.splitlines() if "WARNING" in ln or "ERROR" in ln]
    assert len(said) == 1 and f"{LESSON} was not in the gradebook: registered" in said[0], said
    assert (course / "release" / LESSON / f"{LESSON}.ipynb").read_bytes() == released
    feedback = ok(nbgrader(course, "generate_feedback", LESSON))
    ok(nbgrader(course, "export"))
    for run in (graded, feedback):
        noise = [ln for ln in run.stderr.splitlines() if any(n in ln for n in NOISE)]
        assert not noise, noise[:5]
    with open(course / "grades.csv", newline="", encoding="utf-8") as handle:
        rows = {r["student_id"]: r for r in csv.DictReader(handle)}
    assert float(rows["blank"]["score"]) == 0.0, rows["blank"]
    assert float(rows["complete"]["score"]) == float(rows["complete"]["max_score"]) > 0
    again = ok(nbgrader(course, "autograde", LESSON, "--force"))
    assert "registered" not in again.stderr, "a registered lesson is registered again"


@pytest.mark.timeout(900)
def test_zip_collect_grades_the_newest_attempt(course, tmp_path):
    """Canvas keeps every attempt in its download, a resubmission named `<lesson>-1.ipynb`:
    zip_collect (with the guide's regular expression) collects the newest under the
    lesson's name, says in one line which older one it skipped, and autograde grades it."""
    # The module's course without what other tests collected and graded in it.
    earlier = shutil.ignore_patterns("downloaded", "submitted", "autograded", "feedback")
    course = Path(shutil.copytree(course, tmp_path / "course", ignore=earlier))
    ok(nbgrader(course, "generate_assignment", LESSON, "--force"))
    archive = course / "downloaded" / LESSON / "archive"
    archive.mkdir(parents=True)
    blank = notebooks.read_lesson(LESSON, "release", ROOT)
    complete = notebooks.fill_release(blank, notebooks.read_lesson(LESSON))
    first = f"jones_bob_LATE_22345_67892_{LESSON}.ipynb"
    notebooks.write(blank, archive / first)
    notebooks.write(complete, archive / f"jones_bob_LATE_22345_67899_{LESSON}-1.ipynb")
    notebooks.write(blank, archive / f"kim_ivan_22346_67894_{LESSON}.ipynb")
    regexp = r".*_(?P<student_id>\d+)_\d+_(?P<file_id>.*)"
    run = ok(
        nbgrader(course, "zip_collect", LESSON, f"--FileNameCollectorPlugin.named_regexp={regexp}")
    )
    skipped = [line for line in run.stderr.splitlines() if "Not collected" in line]
    assert len(skipped) == 1 and first in skipped[0] and f"{LESSON}-1.ipynb" in skipped[0]
    assert "no match information" not in run.stderr, "nbgrader's misleading line is back"
    collected = course / "submitted" / "22345" / LESSON
    assert sorted(p.name for p in collected.iterdir()) == [f"{LESSON}.ipynb"]
    assert (course / "submitted" / "22346" / LESSON / f"{LESSON}.ipynb").is_file()
    ok(nbgrader(course, "autograde", LESSON, "--student", "22345"))
    ok(nbgrader(course, "export"))
    with open(course / "grades.csv", newline="", encoding="utf-8") as handle:
        rows = {r["student_id"]: r for r in csv.DictReader(handle) if r["assignment"] == LESSON}
    assert float(rows["22345"]["score"]) == float(rows["22345"]["max_score"]) > 0, rows
