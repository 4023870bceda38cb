"""An instructor's whole term (issue 12), driven the way an instructor drives it.

Every test here runs the real commands in a subprocess from the course directory, as typed in
a shell (`python -m classroom.grade`, `nbgrader ...`), on a toy course built at test time
(grader_tests/support/lms_downloads.py), with downloads named exactly as Canvas and Moodle
name them, and opens what an instructor reads (class_report.html, a feedback page, the
formgrader) in Debian's chromium; screenshots go to grader_tests/artefacts/term-*.png.

Issue 12's numbered items, and the tests that show each fixed:

1. hidden tests on nbgrader's own route: `test_nbgrader_generate_feedback_hides_hidden_tests`,
   `test_formgrader_generate_feedback_hides_hidden_tests` (the button's API call), and
   test_nbgrader_route.py::test_the_exchange_route_works_as_written (lesson 01, end to end);
2. Canvas and Moodle downloads: `test_canvas_download_keeps_every_student`,
   `test_dry_run_prints_file_student_lesson_and_grades_nothing`,
   `test_moodle_download_maps_participants`, `test_moodle_flat_download_is_recognised`,
   `test_two_notebooks_of_one_lesson_stop_the_run`, `test_copies_all_grades_both`,
   `test_other_lms_pattern_works_as_documented`;
3. `nbgrader release_feedback` on the command's feedback:
   `test_release_feedback_delivers_the_commands_feedback`;
4. the guide's nbgrader route: test_nbgrader_route.py (generate, release, fetch, submit,
   collect, autograde, generate_feedback, release_feedback, fetch_feedback, export, and
   zip_collect), `test_zip_collect_as_documented` (the guide's regular expression on real
   Canvas names, the newest attempt collected), test_instructors_guide.py (every command of
   the guide, as written, in a fresh clone) and the `hub` fixture (due date set with the guide's
   `nbgrader db assignment add --duedate`, late policy in nbgrader_config.py);
5. grade files an LMS imports: `test_canvas_export_matches_the_gradebook` (and test_exports.py),
   `test_moodle_export_matches_the_gradebook`, `test_question_export_matches_the_gradebook`,
   `test_grades_csv_is_sorted_and_named`;
6. the class report: `test_class_report_says_what_to_teach_again` and, in chromium,
   `test_class_report_in_chromium`;
7. noise and silence: `test_exchange_submission_has_no_housekeeping_notes`,
   `test_lateness_in_table_report_and_feedback`,
   `test_student_regrade_keeps_every_other_row`;
8. one-line errors: `test_misconfigurations_fail_in_one_line`;
9. feedback that shows its point: `test_feedback_box_comes_first_and_hides_hidden_tests`
   and, in chromium, `test_feedback_page_in_chromium`;
10. the formgrader's notes: `test_formgrader_shows_the_graders_notes` (the formgrader's own
    comments API) and, in chromium, `test_formgrader_notes_in_chromium`.

And the demo: `test_demo_never_touches_the_course_gradebook`.

Graded classes are small and shared at module scope: one Canvas run, one Moodle run, one
JupyterHub exchange (three learners submitting with `nbgrader submit`), one formgrader
server. Needs the sandbox (bubblewrap) and, for the browser tests, /usr/bin/chromium; each is
skipped when missing, except under CI=true, where it fails.
"""

from __future__ import annotations

import csv
import html
import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

import pytest
from chromium import launch, unavailable
from lms_downloads import (
    CANVAS_NAMES,
    CANVAS_PREDICTIONS,
    CANVAS_SCORES,
    COURSE_ID,
    HIDDEN_LINES,
    HINT,
    RIGHT,
    TOY,
    canvas_download,
    canvas_name,
    copy_course,
    grade_cli,
    handed_in,
    moodle_download,
    nbgrader_cli,
    saved_by_jupyterlab,
    submit_from,
    toy_course,
    write_zip,
)

from classroom import demo
from classroom.grading.lms import moodle as moodle_sheet
from classroom.isolation.sandbox import probe

REPO_ROOT = Path(__file__).resolve().parents[2]
ARTEFACTS = REPO_ROOT / "grader_tests" / "artefacts"
GUIDE = REPO_ROOT / "docs" / "instructors.md"
LATE_POLICY = '\nc.LateSubmissionPlugin.penalty_method = "zero"\n'
RUN_LIMIT = 900

pytestmark = pytest.mark.timeout(RUN_LIMIT)


def ok(run: subprocess.CompletedProcess) -> subprocess.CompletedProcess:
    assert run.returncode == 0, (run.args, run.stdout[-3000:], run.stderr[-3000:])
    return run


def rows_of(path: Path, key=("assignment", "student_id")) -> dict:
    with open(path, newline="", encoding="utf-8") as handle:
        return {tuple(r[k] for k in key): r for r in csv.DictReader(handle)}


def gradebook(course: Path) -> dict[str, dict]:
    """{student: {"score" (before any late penalty), "first", "last", "late" (seconds),
    "penalty", "cells": {grade_id: score}, "comments": [auto comments]}} of the toy lesson,
    read with nbgrader's Gradebook API."""
    from nbgrader.api import Gradebook

    found = {}
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}", COURSE_ID) as gb:
        for sub in gb.find_assignment(TOY).submissions:
            (notebook,) = sub.notebooks
            found[sub.student.id] = {
                "score": float(sub.score),
                "first": sub.student.first_name or "",
                "last": sub.student.last_name or "",
                "late": float(sub.total_seconds_late or 0),
                "penalty": float(notebook.late_submission_penalty or 0),
                "cells": {g.name: float(g.score) for g in notebook.grades},
                "comments": [c.auto_comment for c in notebook.comments if c.auto_comment],
            }
    return found


def students_in(db: Path) -> set[str]:
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{db}", COURSE_ID) as gb:
        return {s.id for s in gb.students}


def page_text(path: Path) -> str:
    """What a reader of an HTML page sees: tags and styles removed, entities decoded."""
    text = re.sub(r"<style.*?</style>", "", path.read_text(encoding="utf-8"), flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", text))


def feedback_page(course: Path, student: str) -> Path:
    return course / "feedback" / student / TOY / f"{TOY}.html"


def report_lines(course: Path, student: str) -> list[str]:
    """The lines of grading_report.txt about one student: its table row and its section."""
    lines = (course / "grading_report.txt").read_text(encoding="utf-8").splitlines()
    mine = [line for line in lines if re.match(rf"^{TOY}\s+{re.escape(student)}\s", line)]
    for index, line in enumerate(lines):
        if line.startswith(f"{student} ({TOY}):"):
            mine.append(line)
            for following in lines[index + 1 :]:
                if not following.startswith("  - "):
                    break
                mine.append(following)
    return mine


def guide_command(start: str) -> list[str]:
    """The arguments of the first command of docs/instructors.md that starts with `start`,
    for the toy lesson instead of lesson 01 (its shell comment left out)."""
    for line in GUIDE.read_text(encoding="utf-8").splitlines():
        line = line.strip().strip("`")
        if line.startswith(start):
            words = shlex.split(line.split("  #")[0])
            return [TOY if word == "01-world-as-text" else word for word in words]
    raise AssertionError(f"the guide has no command {start!r}")


def assert_no_hidden_tests(path: Path) -> None:
    text = page_text(path)
    leaked = [line for line in HIDDEN_LINES if line in text]
    assert not leaked, f"{path} shows hidden tests: {leaked}"
    assert "BEGIN HIDDEN TESTS" not in text and "Hidden tests run here" in text, path


# --------------------------------------------------------------------------------------------
# The classes, graded once per module


@pytest.fixture(scope="module")
def toy(tmp_path_factory) -> Path:
    """The toy course, built once (release/, solution/); each class grades a copy."""
    reason = probe()
    if reason is not None:
        unavailable(f"the sandbox cannot run here: {reason}")
    return toy_course(tmp_path_factory.mktemp("toy") / "course")


CANVAS_ASSIGNMENT = "4321"  # the Canvas assignment the toy lesson's column updates


@pytest.fixture(scope="module")
def canvas(toy, tmp_path_factory) -> dict:
    """The Canvas class (lms_downloads.canvas_download), graded with both LMS exports."""
    base = tmp_path_factory.mktemp("canvas")
    course = copy_course(toy, base / "course")
    download = canvas_download(course, base / "submissions.zip")
    run = ok(
        grade_cli(
            course, "--zip", str(download), "--export", "canvas", "--export", "moodle",
            "--canvas-assignment", f"{TOY}={CANVAS_ASSIGNMENT}", "--workers", "2", "--quiet",
        )
    )  # fmt: skip
    return {"course": course, "zip": download, "run": run, "base": base}


@pytest.fixture(scope="module")
def moodle(toy, tmp_path_factory) -> dict:
    """The Moodle class: first run as it comes (Erin's two notebooks stop it), then looked
    at with --dry-run, then graded with --copies all and the Moodle export."""
    base = tmp_path_factory.mktemp("moodle")
    course = copy_course(toy, base / "course")
    download = moodle_download(course, base / "moodle.zip")
    stopped = grade_cli(course, "--zip", str(download), "--quiet")
    stopped_students = students_in(course / "gradebook.db")
    dry = grade_cli(course, "--zip", str(download), "--dry-run")
    dry_students = students_in(course / "gradebook.db")
    graded = ok(
        grade_cli(course, "--zip", str(download), "--copies", "all", "--export", "moodle",
                  "--workers", "2", "--quiet")
    )  # fmt: skip
    return {
        "course": course,
        "stopped": stopped,
        "stopped_students": stopped_students,
        "dry": dry,
        "dry_students": dry_students,
        "graded": graded,
    }


def _learner(base: Path, who: str, exchange: Path) -> Path:
    home = base / who
    home.mkdir()
    ok(nbgrader_cli(home, "fetch_assignment", TOY, "--course", COURSE_ID, exchange=exchange))
    return home


@pytest.fixture(scope="module")
def hub(toy, tmp_path_factory) -> dict:
    """A JupyterHub term on nbgrader's exchange, as the guide gives it: the late policy in
    nbgrader_config.py, generate_assignment, release_assignment; three learners fetch and
    `nbgrader submit` (erin: complete, saved by JupyterLab; gus: complete but saved by Colab
    as "Copy of 00-toy.ipynb"; finn: complete, after the due date set with
    `nbgrader db assignment add --duedate`); then `python -m classroom.grade --exchange`."""
    base = tmp_path_factory.mktemp("hub")
    course = copy_course(toy, base / "course")
    with open(course / "nbgrader_config.py", "a", encoding="utf-8") as config:
        config.write(LATE_POLICY)
    exchange = base / "exchange"
    exchange.mkdir()
    ok(nbgrader_cli(course, *guide_command("nbgrader generate_assignment")[1:]))
    ok(nbgrader_cli(course, "release_assignment", TOY, exchange=exchange))
    homes = {who: _learner(base, who, exchange) for who in ("erin", "gus", "finn")}
    complete = handed_in(course)
    ok(submit_from(homes["erin"], "erin", saved_by_jupyterlab(complete), exchange))
    colab = demo.colab_copy(complete)
    ok(submit_from(homes["gus"], "gus", colab, exchange, name=f"Copy of {TOY}.ipynb"))
    time.sleep(1.0)
    due = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S.%f UTC")
    time.sleep(1.0)
    ok(submit_from(homes["finn"], "finn", complete, exchange))
    add = guide_command("nbgrader db assignment add")[1:]
    ok(nbgrader_cli(course, *[w for w in add if not w.startswith("--duedate")], f"--duedate={due}"))
    run = ok(grade_cli(course, "--exchange", TOY, "--workers", "2", "--quiet", exchange=exchange))
    return {"course": course, "exchange": exchange, "homes": homes, "run": run, "base": base}


# --------------------------------------------------------------------------------------------
# 4. The guide's nbgrader commands, as written


def test_generate_assignment_as_documented_registers_the_lesson(toy, tmp_path):
    """release/ is committed (the toy course has it built, as the repository does): the
    guide's generate_assignment still registers the lesson, its notebook and test cells."""
    from nbgrader.api import Gradebook

    course = copy_course(toy, tmp_path / "course")
    command = guide_command("nbgrader generate_assignment")
    assert command[:3] == ["nbgrader", "generate_assignment", TOY], command
    ok(nbgrader_cli(course, *command[1:]))
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}", COURSE_ID) as gb:
        (notebook,) = gb.find_assignment(TOY).notebooks
        assert sorted(cell.name for cell in notebook.grade_cells) == [
            "answer_is_b",
            "double_doubles",
        ]


# --------------------------------------------------------------------------------------------
# 2. Canvas and Moodle downloads


def test_canvas_download_keeps_every_student(canvas):
    """Canvas's own names: two Smiths stay two students under their numeric Canvas ids, the
    late resubmission is graded (its newest file) and the report says which file won."""
    course = canvas["course"]
    rows = rows_of(course / "grades.csv")
    assert {s for _, s in rows} == set(CANVAS_SCORES), sorted(rows)
    for student, score in CANVAS_SCORES.items():
        row = rows[(TOY, student)]
        assert float(row["score"]) == score, row
        assert (row["first_name"], row["last_name"]) == CANVAS_NAMES[student], row
    assert rows[(TOY, "12347")]["status"] == "late"
    bob = "\n".join(report_lines(course, "12347"))
    newest = canvas_name("jones", "bob", 12347, 67899, f"{TOY}-1.ipynb", late=True)
    older = canvas_name("jones", "bob", 12347, 67892, f"{TOY}.ipynb", late=True)
    assert f"graded the newest version, {newest} (not {older})" in bob, bob
    assert "late (marked by the LMS)" in bob, bob


def test_dry_run_prints_file_student_lesson_and_grades_nothing(canvas):
    course = canvas["course"]
    before = [(course / name).read_bytes() for name in ("gradebook.db", "grades.csv")]
    stagings = sorted((course / ".grading").glob("staging-*"))
    run = ok(grade_cli(course, "--zip", str(canvas["zip"]), "--dry-run"))
    assert sorted((course / ".grading").glob("staging-*")) == stagings, "a dry run left staging"
    lines = run.stdout.splitlines()
    assert lines[0] == "read as: canvas", lines
    alice = canvas_name("smith", "alice", 12345, 67890, f"{TOY}.ipynb")
    assert f"{alice} -> 12345 (Alice Smith) -> {TOY}" in lines, lines
    older = canvas_name("jones", "bob", 12347, 67892, f"{TOY}.ipynb", late=True)
    assert any(ln.startswith(f"{older} -> 12347") and "not graded" in ln for ln in lines)
    assert len(lines) == 1 + 6, lines
    after = [(course / name).read_bytes() for name in ("gradebook.db", "grades.csv")]
    assert after == before, "a dry run changed the gradebook or grades.csv"


def test_moodle_download_maps_participants(moodle):
    """Moodle's folders: the participant id is the student, the folder's name is kept."""
    rows = rows_of(moodle["course"] / "grades.csv")
    assert {s for _, s in rows} == {"12345", "12346", "12350", "12350-copy2"}, sorted(rows)
    assert (rows[(TOY, "12345")]["first_name"], rows[(TOY, "12345")]["last_name"]) == (
        "Alice",
        "Smith",
    )
    assert float(rows[(TOY, "12346")]["score"]) == 1.0


def test_moodle_flat_download_is_recognised(toy, tmp_path):
    """'Download submissions in folders' unticked: the prefix glued to each file's name."""
    course = copy_course(toy, tmp_path / "course")
    download = moodle_download(course, tmp_path / "flat.zip", folders=False)
    run = grade_cli(course, "--zip", str(download), "--dry-run")
    lines = run.stdout.splitlines()
    assert lines[0] == "read as: moodle", lines
    # Erin's two notebooks would stop the real run: the dry run says so and exits as it would.
    assert run.returncode == 1 and "student 12350 handed in 2 different" in run.stderr
    assert any(f"-> 12345 (Alice Smith) -> {TOY}" in line for line in lines), lines
    assert not any("no student" in line for line in lines), lines


def test_two_notebooks_of_one_lesson_stop_the_run(moodle):
    run = moodle["stopped"]
    assert run.returncode != 0
    message = run.stderr.strip()
    assert len(message.splitlines()) == 1 and "Traceback" not in run.stderr + run.stdout
    assert "12350" in message and "--copies all" in message, message
    assert f"Erin Ng_12350_assignsubmission_file_/{TOY}.ipynb" in message, message
    assert f"Erin Ng_12350_assignsubmission_file_/Copy of {TOY}.ipynb" in message, message
    assert moodle["stopped_students"] == set(), "students were graded before the stop"
    dry = moodle["dry"]
    assert f"Copy of {TOY}.ipynb -> 12350 (Erin Ng) -> {TOY}" in dry.stdout, dry.stdout
    # The dry run says what would stop the real run, in the same line, and exits as it would.
    said = [ln for ln in dry.stderr.strip().splitlines() if not ln.startswith("note: ")]
    assert said == [message], (said, message)
    assert dry.returncode == run.returncode
    assert moodle["dry_students"] == set(), "the dry run graded something"


def test_copies_all_grades_both(moodle):
    course = moodle["course"]
    rows = rows_of(course / "grades.csv")
    assert float(rows[(TOY, "12350")]["score"]) == 3.0, "the first notebook, complete"
    assert float(rows[(TOY, "12350-copy2")]["score"]) == 1.0, "the copy: double is x + 2"
    section = "\n".join(report_lines(course, "12350-copy2"))
    assert "a second notebook for this lesson, graded on its own" in section, section


def test_other_lms_pattern_works_as_documented(toy, tmp_path):
    """The guide's --pattern, copied from docs/instructors.md, on a folder-per-student zip."""
    pattern = re.search(r"--pattern '([^']+)'", GUIDE.read_text(encoding="utf-8")).group(1)
    course = copy_course(toy, tmp_path / "course")
    download = write_zip(
        tmp_path / "other.zip",
        {f"alice/{TOY}.ipynb": handed_in(course), f"bob/{TOY}.ipynb": handed_in(course)},
    )
    run = ok(grade_cli(course, "--zip", str(download), "--pattern", pattern, "--dry-run"))
    assert f"alice/{TOY}.ipynb -> alice -> {TOY}" in run.stdout, run.stdout
    assert f"bob/{TOY}.ipynb -> bob -> {TOY}" in run.stdout, run.stdout


def test_zip_collect_as_documented(canvas, tmp_path):
    """nbgrader's zip_collect with the guide's regular expression, on Canvas's names: the
    numeric Canvas id is the student, so the two Smiths stay two students."""
    guide = GUIDE.read_text(encoding="utf-8")
    regexp = re.search(r"named_regexp='([^']+)'", guide).group(1)
    course = copy_course(canvas["course"], tmp_path / "course")
    archive = course / "downloaded" / TOY / "archive"
    archive.mkdir(parents=True)
    (archive / "submissions.zip").write_bytes(canvas["zip"].read_bytes())
    ok(nbgrader_cli(course, "zip_collect", TOY, f"--FileNameCollectorPlugin.named_regexp={regexp}"))
    for student in CANVAS_SCORES:
        assert (course / "submitted" / student / TOY / f"{TOY}.ipynb").is_file(), student
    assert "-1" in guide[guide.find("zip_collect") :], "the guide says what Canvas's -1 means"
    # Bob's newest attempt (-1, predicting "A") under the lesson's name, his first not at all.
    bob = course / "submitted" / "12347" / TOY
    assert sorted(p.name for p in bob.iterdir()) == [f"{TOY}.ipynb"], list(bob.iterdir())
    assert "predict_double = 'A'" in (bob / f"{TOY}.ipynb").read_text(encoding="utf-8")


# --------------------------------------------------------------------------------------------
# 1 and 3. nbgrader's own feedback route, and release_feedback on the command's feedback


def test_nbgrader_generate_feedback_hides_hidden_tests(canvas, tmp_path):
    """`nbgrader generate_feedback` after the grading command: nbgrader_config.py's chain."""
    course = copy_course(canvas["course"], tmp_path / "course")
    for page in course.glob(f"feedback/*/{TOY}/{TOY}.html"):
        page.unlink()
    ok(nbgrader_cli(course, "generate_feedback", TOY, "--force"))
    for student in CANVAS_SCORES:
        page = feedback_page(course, student)
        assert_no_hidden_tests(page)
        assert "Your tests" in page_text(page), page


def _fetched(home: Path) -> list[Path]:
    """The feedback pages fetch_feedback put in a learner's lesson folder."""
    return sorted((home / TOY / "feedback").glob("*/*.html"))


def _fetch_feedback(hub, who: str) -> list[Path]:
    """The learner's `nbgrader fetch_feedback`, and the pages it brought."""
    args = ("fetch_feedback", TOY, "--course", COURSE_ID, f"--student={who}")
    ok(nbgrader_cli(hub["homes"][who], *args, exchange=hub["exchange"]))
    return _fetched(hub["homes"][who])


@pytest.fixture(scope="module")
def released(hub):
    """`nbgrader release_feedback` of what the grading command wrote."""
    return ok(nbgrader_cli(hub["course"], "release_feedback", TOY, exchange=hub["exchange"]))


def test_release_feedback_delivers_the_commands_feedback(hub, released):
    """The command's feedback/ is where nbgrader expects it: release_feedback, then each
    learner's fetch_feedback, bring each learner their own page."""
    for who in ("erin", "finn"):
        (page,) = _fetch_feedback(hub, who)
        assert_no_hidden_tests(page)
        assert page.read_bytes() == feedback_page(hub["course"], who).read_bytes(), who
    assert "handed in late by" in page_text(_fetched(hub["homes"]["finn"])[0])


def test_release_feedback_reaches_a_learner_who_renamed_the_notebook(hub, released):
    """A learner who handed in "Copy of 00-toy.ipynb" fetches feedback under that name."""
    (page,) = _fetch_feedback(hub, "gus")
    assert_no_hidden_tests(page)


# --------------------------------------------------------------------------------------------
# The formgrader, as `jupyter lab` serves it to the instructor


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe_socket:
        probe_socket.bind(("127.0.0.1", 0))
        return probe_socket.getsockname()[1]


def _stop(process: subprocess.Popen) -> None:
    """Stop the server started here and its children (its own process group)."""
    for sig, wait in ((signal.SIGTERM, 15), (signal.SIGKILL, 5)):
        if process.poll() is not None:
            return
        os.killpg(process.pid, sig)
        try:
            process.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            continue


class Formgrader:
    """A Jupyter Server with nbgrader's formgrader over a course, spoken to as the
    formgrader's pages speak to it (token, XSRF cookie)."""

    def __init__(self, course: Path, port: int, token: str):
        import http.cookiejar

        self.course, self.token = course, token
        self.url = f"http://127.0.0.1:{port}"
        jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        self.jar = jar

    def address(self, path: str) -> str:
        return f"{self.url}{path}{'&' if '?' in path else '?'}token={self.token}"

    def get(self, path: str):
        with self.opener.open(self.address(path), timeout=60) as answer:
            return json.loads(answer.read())

    def post(self, path: str, timeout: float = 300):
        self.opener.open(self.address("/formgrader/manage_assignments"), timeout=60).read()
        xsrf = next(c.value for c in self.jar if c.name == "_xsrf")
        request = urllib.request.Request(
            self.address(path), data=b"", method="POST", headers={"X-XSRFToken": xsrf}
        )
        with self.opener.open(request, timeout=timeout) as answer:
            return json.loads(answer.read())

    def notebook_ids(self) -> dict[str, str]:
        """{student: the id the formgrader gives their submitted notebook}."""
        found = self.get(f"/formgrader/api/submitted_notebooks/{TOY}/{TOY}")
        return {entry["student"]: entry["id"] for entry in found}


@pytest.fixture(scope="module")
def formgrader(hub, tmp_path_factory):
    """The formgrader (Jupyter Server with nbgrader's extensions, as installed) over a copy of
    the graded hub course."""
    from lms_downloads import shell_env

    base = tmp_path_factory.mktemp("formgrader")
    course = copy_course(hub["course"], base / "course")
    port, token = _free_port(), os.urandom(16).hex()
    command = [
        sys.executable, "-m", "jupyter_server", "--no-browser", "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={course}",
    ] + (["--allow-root"] if os.geteuid() == 0 else [])  # fmt: skip
    log = base / "server.log"
    with open(log, "w") as handle:
        process = subprocess.Popen(
            command, cwd=course, env=shell_env(course, hub["exchange"]), stdout=handle,
            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip
    server = Formgrader(course, port, token)
    try:
        deadline = time.monotonic() + 90
        while True:
            assert process.poll() is None, f"the server exited:\n{log.read_text()}"
            try:
                server.get("/formgrader/api/assignments")
                break
            except OSError:
                assert time.monotonic() < deadline, f"no formgrader in 90 s:\n{log.read_text()}"
                time.sleep(0.5)
        yield server
    finally:
        _stop(process)


def test_formgrader_generate_feedback_hides_hidden_tests(formgrader, hub, tmp_path):
    """The formgrader's "Generate Feedback" (its API call, nbgrader's GenerateFeedback with
    nbgrader_config.py's chain), then release_feedback from what it wrote."""
    course = formgrader.course
    for page in course.glob(f"feedback/*/{TOY}/{TOY}.html"):
        page.unlink()
    answer = formgrader.post(f"/formgrader/api/assignment/{TOY}/generate_feedback")
    assert answer["success"], answer.get("error") or answer.get("log")
    for who in hub["homes"]:
        assert_no_hidden_tests(feedback_page(course, who))
    exchange = copy_course(hub["exchange"], tmp_path / "exchange")
    shutil.rmtree(exchange / COURSE_ID / "feedback", ignore_errors=True)  # released before
    ok(nbgrader_cli(course, "release_feedback", TOY, exchange=exchange))
    released = list((exchange / COURSE_ID / "feedback").glob("*.html"))
    assert len(released) == len(hub["homes"]), released
    for page in released:
        assert_no_hidden_tests(page)


# --------------------------------------------------------------------------------------------
# 10. The grader's notes in the formgrader


def test_formgrader_shows_the_graders_notes(formgrader, canvas):
    """What the formgrader shows under each answer cell: the comments its API returns."""
    ids = formgrader.notebook_ids()
    comments = {
        who: [
            c["auto_comment"] or ""
            for c in formgrader.get(f"/formgrader/api/comments?submission_id={i}")
        ]
        for who, i in ids.items()
    }
    gus = "\n".join(comments["gus"])
    assert f'Grader: notebook handed in as "Copy of {TOY}.ipynb"' in gus, comments["gus"]
    assert "Grader: nbgrader metadata missing on" in gus, comments["gus"]
    assert not any("Grader:" in c for c in comments["erin"]), comments["erin"]
    bob = "\n".join(gradebook(canvas["course"])["12347"]["comments"])
    assert "Grader: graded the newest version" in bob, bob


# --------------------------------------------------------------------------------------------
# 5. Grade files an LMS imports


def test_canvas_export_matches_the_gradebook(canvas):
    """exports/canvas.csv, Canvas's gradebook columns (Grades > Import)."""
    with open(canvas["course"] / "exports" / "canvas.csv", newline="", encoding="utf-8") as f:
        header, possible, *rows = list(csv.reader(f))
    lesson_column = f"{TOY} ({CANVAS_ASSIGNMENT})"  # Canvas updates that assignment
    assert header == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", lesson_column]
    assert "no Canvas assignment id" not in canvas["run"].stderr
    assert possible[0].strip() == "Points Possible" and possible[5] == "3", possible
    book = gradebook(canvas["course"])
    assert sorted(row[1] for row in rows) == sorted(book)
    for name, student, sis_user, sis_login, section, score in rows:
        assert float(score) == book[student]["score"], (student, score)
        first, last = CANVAS_NAMES[student]
        assert name == (f"{last}, {first}" if last else first), name
        assert (sis_user, sis_login, section) == ("", "", "")


@pytest.mark.parametrize(
    "pair, says",
    [("01-a=12x", "give LESSON=ID"), ("01-a", "give LESSON=ID"), ("09-z=12", "not a lesson")],
)
def test_a_bad_canvas_assignment_is_refused_in_one_line(pair, says):
    from classroom.grading.lms.canvas import assignment_ids as canvas_ids
    from classroom.grading.staging import GradeError

    assert canvas_ids(["01-a=12", "02-b=13"], ["01-a", "02-b"]) == {"01-a": "12", "02-b": "13"}
    with pytest.raises(GradeError, match=says):
        canvas_ids([pair], ["01-a", "02-b"])


def test_moodle_export_matches_the_gradebook(moodle):
    """exports/moodle-00-toy.csv, Moodle's offline grading worksheet; an LMS holds one
    grade per participant, so Erin's second notebook is left to the instructor."""
    path = moodle["course"] / "exports" / f"moodle-{TOY}.csv"
    with open(path, newline="", encoding="utf-8") as handle:
        header, *rows = list(csv.reader(handle))
    assert header == moodle_sheet.COLUMNS  # what Moodle's importer needs: test_exports.py
    book = gradebook(moodle["course"])
    names = {"12345": "Alice Smith", "12346": "Carol Smith", "12350": "Erin Ng"}
    assert [row[0] for row in rows] == [f"Participant {s}" for s in sorted(names)], rows
    for identifier, full_name, _, _, grade, maximum, _, comment in rows:
        student = identifier.removeprefix("Participant ")
        assert full_name == names[student]
        assert float(grade) == book[student]["score"] and maximum == "3", (student, grade)
        assert comment.startswith(f"{float(grade):g}/3"), comment


def test_question_export_matches_the_gradebook(canvas):
    path = canvas["course"] / "exports" / f"questions-{TOY}.csv"
    rows = rows_of(path, key=("student",))
    book = gradebook(canvas["course"])
    assert sorted(s for (s,) in rows) == sorted(book)
    for (student,), row in rows.items():
        cells = book[student]["cells"]
        assert {g: float(row[g]) for g in cells} == cells, (student, row)
        assert float(row["total"]) == book[student]["score"]


def test_grades_csv_is_sorted_and_named(canvas):
    with open(canvas["course"] / "grades.csv", newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert [r["student_id"] for r in rows] == sorted(CANVAS_SCORES), "rows sorted by id"
    for row in rows:
        assert (row["first_name"], row["last_name"]) == CANVAS_NAMES[row["student_id"]]


# --------------------------------------------------------------------------------------------
# 6. The class report


def test_class_report_says_what_to_teach_again(canvas):
    page = (canvas["course"] / "class_report.html").read_text(encoding="utf-8")
    text = re.sub(r"\s+", " ", page_text(canvas["course"] / "class_report.html"))
    assert "5 notebooks graded; 2 with full marks; 1 late" in text, text[:400]
    assert re.search(
        r'<img alt="[^"]*" src="data:image/svg\+xml;base64,[A-Za-z0-9+/=]{400,}"', page
    )
    assert "double_doubles 2 2/5 40%" in text and "answer_is_b 1 4/5 80%" in text, text
    assert f"2 double_doubles double(2) = 8, but MuJoCo gives 4. {HINT}" in text, text
    counts = " ".join(f"{letter}: {n}" for letter, n in sorted(CANVAS_PREDICTIONS.items()))
    assert f"predict_double {RIGHT} {counts} —: 1" in text, text
    assert re.search(rf"<td class='n right'>{RIGHT}: 2</td>", page), "the right answer marked"


# --------------------------------------------------------------------------------------------
# 7. Noise and silence


def test_exchange_submission_has_no_housekeeping_notes(hub):
    """An exchange submission (submission_secret.txt, timestamp.txt) saved by JupyterLab
    (execution timings in every cell) is "graded", and neither the report, the formgrader's
    comments nor the learner's feedback say a word about housekeeping."""
    course = hub["course"]
    rows = rows_of(course / "grades.csv")
    assert rows[(TOY, "erin")]["status"] == "graded", rows[(TOY, "erin")]
    assert float(rows[(TOY, "erin")]["score"]) == 3.0
    (line,) = report_lines(course, "erin")
    assert line.rstrip().endswith("graded"), line
    assert gradebook(course)["erin"]["comments"] == []
    text = page_text(feedback_page(course, "erin"))
    for word in ("Notes from the grader", "submission_secret", "timestamp", "execution"):
        assert word not in text, f"erin's feedback says {word!r}"
    assert (course / "feedback" / "erin" / TOY / "submission_secret.txt").is_file()
    assert rows[(TOY, "gus")]["status"] == "graded with notes"
    assert "Copy of" in page_text(feedback_page(course, "gus"))


def test_lateness_in_table_report_and_feedback(hub, canvas):
    """nbgrader's late penalty (due date in the gradebook, "zero" policy) and Canvas's
    _LATE_ mark, each said in the table, the report, the feedback and the class report."""
    course = hub["course"]
    book = gradebook(course)
    assert book["finn"]["late"] > 0 and book["finn"]["penalty"] == 3.0, book["finn"]
    assert book["erin"]["late"] == 0 and book["gus"]["late"] == 0
    row = rows_of(course / "grades.csv")[(TOY, "finn")]
    assert float(row["late_submission_penalty"]) == 3.0 and float(row["score"]) == 0.0, row
    late = re.search(r"late by \d+ s", hub["run"].stdout)
    said = rf"finn\s+0/3\s+late: handed in {late.group(0)}; penalty 3"
    assert late and re.search(said, hub["run"].stdout), hub["run"].stdout
    assert row["status"] == "late" and row["reason"] == f"handed in {late.group(0)}; penalty 3"
    section = "\n".join(report_lines(course, "finn"))
    assert f"graded 0/3; {late.group(0)}, late penalty 3" in section, section
    assert f"handed in {late.group(0)}; penalty 3" in page_text(feedback_page(course, "finn"))
    assert "1 late" in page_text(course / "class_report.html")
    bob = canvas["course"]
    assert "late: handed in late (marked by the LMS); penalty 0" in canvas["run"].stdout
    assert "handed in late (marked by the LMS)" in page_text(feedback_page(bob, "12347"))


def test_student_regrade_keeps_every_other_row(canvas, tmp_path):
    """Carol resubmits; `--student 12346` grades her again, and grades.csv, the report, the
    gradebook and the Canvas export keep everyone else as they were."""
    course = copy_course(canvas["course"], tmp_path / "course")
    before_rows = rows_of(course / "grades.csv")
    before_report = {s: report_lines(course, s) for s in CANVAS_SCORES}
    before_book = gradebook(course)
    fixed = canvas_name("smith", "carol", 12346, 67901, f"{TOY}-1.ipynb")
    download = write_zip(tmp_path / "again.zip", {fixed: handed_in(course)})
    ok(grade_cli(course, "--zip", str(download), "--student", "12346", "--quiet"))
    rows, book = rows_of(course / "grades.csv"), gradebook(course)
    assert float(rows[(TOY, "12346")]["score"]) == 3.0 and book["12346"]["score"] == 3.0
    for student in set(CANVAS_SCORES) - {"12346"}:
        assert rows[(TOY, student)] == before_rows[(TOY, student)], student
        assert report_lines(course, student) == before_report[student], student
        assert book[student] == before_book[student], student
    export = {r[1]: r for r in csv.reader(open(course / "exports" / "canvas.csv"))}
    assert export["12346"][5] == "3" and export["12345"][5] == "3", export


# --------------------------------------------------------------------------------------------
# 8. One-line errors


def test_misconfigurations_fail_in_one_line(toy, tmp_path):
    """Each misconfiguration ends the command with one line saying what to do, and a
    non-zero exit code; none prints a traceback."""
    (tmp_path / "empty-folder").mkdir()
    (tmp_path / "empty-exchange").mkdir()
    (tmp_path / "not-a-course").mkdir()
    (tmp_path / "grades.zip").write_text("Student,ID\n", encoding="utf-8")
    cases = {
        "an empty exchange": (["--exchange"], "nothing was collected from"),
        "a missing zip": (["--zip", str(tmp_path / "missing.zip")], "no such download"),
        "an empty folder": (["--zip", str(tmp_path / "empty-folder")], "holds no files"),
        "a file that is not a zip": (["--zip", str(tmp_path / "grades.zip")], "not a zip file"),
        "no nbgrader_config.py": (["--zip", str(tmp_path / "grades.zip")], "nbgrader_config.py"),
        "an unknown lesson": (["no-such-lesson"], "no such lesson in source/: no-such-lesson"),
        "no submissions folder": (["--submitted", str(tmp_path / "nowhere")], "no submissions"),
    }

    def run(case: str):
        args, _ = cases[case]
        where = tmp_path / "not-a-course"
        if case != "no nbgrader_config.py":
            where = copy_course(toy, tmp_path / re.sub(r"\W+", "-", case))
        empty = tmp_path / "empty-exchange"
        return grade_cli(where, *args, "--workers", "1", "--quiet", exchange=empty)

    with ThreadPoolExecutor(max_workers=2) as pool:  # the machine's two cores
        runs = dict(zip(cases, pool.map(run, cases), strict=True))
    for case, done in runs.items():
        said = [ln for ln in done.stderr.strip().splitlines() if not ln.startswith("note: ")]
        assert done.returncode != 0, f"{case}: exit code 0"
        assert "Traceback" not in done.stdout + done.stderr, f"{case}:\n{done.stderr}"
        assert len(said) == 1 and said[0].startswith("error: "), f"{case}: {said}"
        assert cases[case][1] in said[0], f"{case}: {said[0]}"


def test_a_course_directory_that_is_not_one_is_said_as_it_is(tmp_path, monkeypatch, capsys):
    """The error names what is wrong: a --root that was passed is not answered with "pass
    --root" (issue 28), and each case says which folder it looked at."""
    from classroom import grade

    (tmp_path / "plain").mkdir()
    (tmp_path / "a-file").write_text("", encoding="utf-8")
    monkeypatch.chdir(tmp_path / "plain")
    cases = {
        (): "the current folder (" + str(tmp_path / "plain") + ") has no nbgrader_config.py",
        ("--root", str(tmp_path / "plain")): "is not a course directory",
        ("--root", str(tmp_path / "missing")): "no such folder",
        ("--root", str(tmp_path / "a-file")): "not a folder",
    }
    for args, says in cases.items():
        assert grade.main([*args, "--quiet"]) == 2, args
        (line,) = capsys.readouterr().err.strip().splitlines()
        assert line.startswith("error: ") and says in line, (args, line)
        assert ("pass --root" in line) == (not args), (args, line)


def test_input_that_is_not_there_is_said_before_any_worker_starts(toy, tmp_path, monkeypatch):
    """A typo in a lesson's name or a path is said at once: no worker is started (each
    loads nbgrader and its sandbox's kernels, seconds of waiting) before the error."""
    from classroom import grade
    from classroom.grading import pool

    def no_workers(*args, **kwargs):
        raise AssertionError("workers were started for input that is not there")

    monkeypatch.setattr(pool, "Pool", no_workers)
    course = copy_course(toy, tmp_path / "course")
    for args in (["no-such-lesson"], ["--zip", str(tmp_path / "missing.zip")]):
        assert grade.main([*args, "--root", str(course), "--quiet"]) == 1, args


# --------------------------------------------------------------------------------------------
# 9. Feedback that shows its point


def test_feedback_box_comes_first_and_hides_hidden_tests(canvas):
    course = canvas["course"]
    for student in CANVAS_SCORES:
        assert_no_hidden_tests(feedback_page(course, student))
    page = feedback_page(course, "12346").read_text(encoding="utf-8")
    assert page.find("grader-summary") < page.find('id="Toy-lesson"') > 0, "table on top"
    box, error = page.find("grader-result'>"), page.find("AssertionError")
    assert 0 < box < error, "the test's box comes before what the test printed"
    text = re.sub(r"\s+", " ", page_text(feedback_page(course, "12346")))
    assert f"double_doubles: 0 of 2 points Likely mistake: {HINT} Visible check: failed." in text
    assert "Test cell (Score" not in text or "#toc { display: none; }" in page


# --------------------------------------------------------------------------------------------
# The demo


@pytest.fixture(scope="module")
def demo_run(canvas, tmp_path_factory) -> dict:
    """`python -m classroom.grade --demo` in a copy of the graded Canvas course."""
    course = copy_course(canvas["course"], tmp_path_factory.mktemp("demo") / "course")
    before = students_in(course / "gradebook.db")
    run = ok(grade_cli(course, "--demo", "--quiet"))
    return {"course": course, "before": before, "run": run}


def test_demo_never_touches_the_course_gradebook(demo_run):
    course = demo_run["course"]
    assert students_in(course / "gradebook.db") == demo_run["before"] == set(CANVAS_SCORES)
    demo_students = students_in(course / ".grading" / "demo-gradebook.db")
    assert {"complete", "blank"} <= demo_students and not demo_students & set(CANVAS_SCORES)


def test_nbgrader_generate_feedback_works_after_the_demo(demo_run):
    ok(nbgrader_cli(demo_run["course"], "generate_feedback", TOY, "--force"))


# --------------------------------------------------------------------------------------------
# In chromium: what the instructor and the learner look at

browser = pytest.fixture(scope="module")(launch)


def _shoot(page, name: str) -> None:
    ARTEFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / name), full_page=True)


def _cells(row) -> list[str]:
    return [t.strip() for t in row.locator("td").all_inner_texts()]


def _table_after(page, heading: str):
    return page.locator(f"h3:has-text('{heading}') + table").locator("tr")


def test_class_report_in_chromium(canvas, browser):
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    try:
        page.goto((canvas["course"] / "class_report.html").as_uri())
        plot = page.locator("img").first
        assert plot.evaluate("i => i.complete && i.naturalWidth > 200 && i.naturalHeight > 80")
        questions = _table_after(page, "Each test")
        assert _cells(questions.nth(1)) == ["double_doubles", "2", "2/5", "40%"]
        assert _cells(questions.nth(2)) == ["answer_is_b", "1", "4/5", "80%"]
        count, test, said = _cells(_table_after(page, "The mistakes").nth(1))
        assert (count, test) == ("2", "double_doubles") and said.endswith(HINT), said
        predictions = _table_after(page, "What the class predicted").nth(1)
        assert _cells(predictions) == ["predict_double", RIGHT, "A: 2", "B: 2", "—: 1"]
        right = predictions.locator("td.right")
        assert right.inner_text() == f"{RIGHT}: 2"
        assert int(right.evaluate("c => getComputedStyle(c).fontWeight")) >= 600
        _shoot(page, "term-class-report.png")
    finally:
        page.close()


WRAPS = """(box) => {
    const line = parseFloat(getComputedStyle(box).lineHeight) || 20;
    return {overflow: box.scrollWidth - box.clientWidth, lines: box.clientHeight / line,
            breaks: box.querySelectorAll('br').length};
}"""
OVERFLOWING = """() => [...document.querySelectorAll('pre, .grader-result, table')]
    .filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent.slice(0, 60))"""
BREAKING_WORDS = """() => [...document.querySelectorAll('pre')].map(getComputedStyle)
    .filter(s => s.whiteSpace !== 'pre-wrap' || s.wordBreak !== 'normal').length"""


def test_feedback_page_in_chromium(canvas, browser):
    """Carol's page (double is x ** 3): the table on top, one box per test, name and points
    then the likely mistake, first in its cell, every line wrapped, no hidden test."""
    page = browser.new_page(viewport={"width": 820, "height": 1000})
    try:
        page.goto(feedback_page(canvas["course"], "12346").as_uri(), wait_until="load")
        summary = page.locator("table.grader-summary")
        heading = page.locator("h1", has_text="Toy lesson")
        assert summary.bounding_box()["y"] < heading.bounding_box()["y"]
        rows = summary.locator("tr")
        assert _cells(rows.nth(1)) == ["double_doubles", "0 / 2", HINT]
        assert _cells(rows.nth(2)) == ["answer_is_b", "1 / 1", "passed"]
        boxes = page.locator(".grader-result")
        assert boxes.count() == 2
        lines = boxes.nth(0).inner_text().splitlines()
        assert lines[:2] == ["double_doubles: 0 of 2 points", f"Likely mistake: {HINT}"], lines
        cell = boxes.nth(0).locator("xpath=ancestor::div[contains(@class, 'code_cell')]")
        error = cell.locator(".output_error").first
        assert boxes.nth(0).bounding_box()["y"] < error.bounding_box()["y"], "box first"
        shape = boxes.nth(0).evaluate(WRAPS)
        assert shape["overflow"] <= 1 and shape["lines"] > shape["breaks"] + 1.5, shape
        assert page.evaluate(OVERFLOWING) == [], "text cut off at the right edge"
        assert page.evaluate(BREAKING_WORDS) == 0, "lines must wrap between words"
        seen = page.inner_text("body")
        assert not [line for line in HIDDEN_LINES if line in seen], "hidden tests shown"
        assert "# Hidden tests run here (source not shown)." in seen
        _shoot(page, "term-feedback.png")
    finally:
        page.close()


def test_formgrader_notes_in_chromium(formgrader, browser):
    """Gus's submission in the formgrader: the grader's notes under his answer cell."""
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    try:
        submission = formgrader.notebook_ids()["gus"]
        page.goto(formgrader.address("/formgrader"))  # logs in, as `jupyter lab`'s link does
        page.get_by_role("heading", name="Manage Assignments").wait_for(timeout=60_000)
        page.goto(f"{formgrader.url}/formgrader/submissions/{submission}/")
        page.wait_for_function(
            """() => [...document.querySelectorAll('textarea.comment')]
                .some(t => (t.placeholder || '').includes('Grader: notebook handed in as'))""",
            timeout=60_000,
        )
        note = page.locator("textarea.comment[placeholder*='Grader:']").first
        note.scroll_into_view_if_needed()
        assert "metadata missing" in note.get_attribute("placeholder")
        _shoot(page, "term-formgrader-notes.png")
    finally:
        page.close()
