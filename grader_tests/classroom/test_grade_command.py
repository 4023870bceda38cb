"""The class-grading command, `python -m classroom.grade`, on awkward classes.

One module-scoped run grades the whole bad-submission corpus (bad_submissions.py) of lesson 01
with two workers; every test about it reads that run's grades.csv, gradebook, report,
autograded notebooks and feedback. A toy lesson written into a temporary course covers the
inputs (LMS zip, nbgrader exchange), the limits, sharding and merging, and the demo, each in a
run of a few seconds.
"""

from __future__ import annotations

import csv
import html
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import zipfile
from pathlib import Path

import nbformat
import pytest
import toy_lesson
from bad_submissions import BY_NAME, CORPUS, Lesson, write_class
from graded_outputs import gradebook_rows, hidden_lines, report_section
from nbformat.v4 import new_markdown_cell

from classroom import build
from classroom.grading import intake, report, submissions
from classroom.nbgrader_ext import notebooks

REPO_ROOT = Path(__file__).resolve().parents[2]
LESSONS = notebooks.discover_lessons(REPO_ROOT)
# The corpus is built from any lesson; GRADE_TEST_LESSON=02-time-integration runs it on another.
LESSON = os.environ.get("GRADE_TEST_LESSON") or (
    "01-world-as-text" if "01-world-as-text" in LESSONS else (LESSONS or ["none"])[0]
)
TOY = toy_lesson.TOY
CELL_TIMEOUT = 10
RUN_TIMEOUT = 900


# --------------------------------------------------------------------------------------------
# Helpers


def course_root(folder: Path, lessons=(), root: Path = REPO_ROOT) -> Path:
    """A course directory: the repository's nbgrader_config.py and the named lessons' sources."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(root / "nbgrader_config.py", folder / "nbgrader_config.py")
    for lesson in lessons:
        shutil.copytree(root / "source" / lesson, folder / "source" / lesson)
    return folder


def run_grade(root: Path, *args: str, timeout: float = RUN_TIMEOUT) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "classroom.grade", "--root", str(root), *args]
    return subprocess.run(
        command, cwd=REPO_ROOT, capture_output=True, text=True, timeout=timeout, check=False
    )


def csv_rows(root: Path) -> dict[tuple[str, str], dict]:
    with open(root / "grades.csv", newline="", encoding="utf-8") as handle:
        return {(r["assignment"], r["student_id"]): r for r in csv.DictReader(handle)}


def cell_scores(root: Path) -> dict[tuple[str, str], dict[str, float]]:
    """{(lesson, student): {grade_id: score}} read with nbgrader's Gradebook API."""
    from nbgrader.api import Gradebook

    db = f"sqlite:///{root / 'gradebook.db'}"
    course_id = build.load_nbgrader_config(root).CourseDirectory.course_id
    scores = {}
    with Gradebook(db, course_id) as gb:
        for assignment in gb.assignments:
            for submission in assignment.submissions:
                key = (assignment.name, submission.student.id)
                scores[key] = {
                    grade.name: float(grade.score)
                    for notebook in submission.notebooks
                    for grade in notebook.grades
                }
    return scores


def page_text(path: Path) -> str:
    """What a reader of a feedback HTML page can see: tags removed, entities decoded."""
    return html.unescape(re.sub(r"<[^>]+>", "", path.read_text(encoding="utf-8")))


# --------------------------------------------------------------------------------------------
# The bad-submission class, graded once


@pytest.fixture(scope="module")
def bad_class(tmp_path_factory):
    if LESSON not in LESSONS:
        pytest.skip("no lesson in source/")
    root = course_root(tmp_path_factory.mktemp("bad-class") / "course", [LESSON])
    lesson = Lesson(LESSON)
    students = write_class(lesson, root / "submitted")
    run = run_grade(root, LESSON, "--workers", "2", "--cell-timeout", str(CELL_TIMEOUT), "--quiet")
    assert run.returncode == 0, f"the command failed:\n{run.stdout}\n{run.stderr[-3000:]}"
    return {
        "root": root,
        "lesson": lesson,
        "students": students,
        "run": run,
        "rows": csv_rows(root),
        "scores": cell_scores(root),
    }


@pytest.mark.timeout(RUN_TIMEOUT)
def test_every_submission_ends_as_a_row(bad_class):
    rows = bad_class["rows"]
    for student in bad_class["students"]:
        row = rows.get((LESSON, student))
        assert row is not None, f"{student} has no row in grades.csv"
        assert row["score"] != "", f"{student}: no score"
        if row["status"] not in ("graded", "graded with notes"):
            assert row["reason"], f"{student}: status {row['status']!r} without a reason"
    assert bad_class["run"].stdout.count(LESSON) >= len(bad_class["students"]), "table"


@pytest.mark.timeout(RUN_TIMEOUT)
@pytest.mark.parametrize("name", [bad.name for bad in CORPUS])
def test_bad_submission_is_graded_as_expected(bad_class, name):
    bad = BY_NAME[name]
    lesson, scores, rows = bad_class["lesson"], bad_class["scores"], bad_class["rows"]
    row = rows[(LESSON, name)]
    if bad.expect == "reason":
        assert row["status"] == bad.kind and row["reason"], row
        assert float(row["score"]) == 0.0
        return
    if bad.expect == "graded":  # another lesson's answers earn what they earn here
        assert row["score"] != "" and float(row["score"]) < float(row["max_score"]), row
        return
    mine, complete, blank = (scores[(LESSON, s)] for s in (name, "complete", "blank"))
    assert set(mine) == set(complete), f"{name}: graded cells differ from the complete one"
    lost = bad.loses(lesson)
    wrong = []
    for grade_id in sorted(complete):
        want = blank[grade_id] if bad.expect == "blank" else complete[grade_id]
        if grade_id in lost:
            want = 0.0
        if mine[grade_id] != want:
            wrong.append(f"{grade_id}: {mine[grade_id]:g}, expected {want:g}")
    assert not wrong, f"{name} ({bad.doc}):\n  " + "\n  ".join(wrong)
    if bad.expect == "loses":
        assert lost and any(complete[g] > 0 for g in lost), "the fixture breaks nothing"


@pytest.mark.timeout(RUN_TIMEOUT)
@pytest.mark.parametrize("name", [bad.name for bad in CORPUS])
def test_report_says_what_was_done(bad_class, name):
    bad = BY_NAME[name]
    if bad.kind is None:
        pytest.skip(f"{name}: nothing to report")
    section = report_section(bad_class["root"], name, LESSON)
    assert section, f"{name} is not listed among the unusual submissions of the report"
    if bad.expect == "reason":
        assert bad.kind.upper() in section.splitlines()[0], section
    else:
        assert f"- {bad.kind}" in section, f"no '{bad.kind}' note for {name}:\n{section}"


@pytest.mark.timeout(RUN_TIMEOUT)
def test_wrong_lesson_is_said_first_in_one_line(bad_class):
    """Another lesson's notebook: its first note says so (issue 28: it came after about 45
    notes, 30 of them "duplicate-id" for ids that were no duplicates)."""
    head, first, *rest = report_section(bad_class["root"], "wrong-lesson", LESSON).splitlines()
    assert first.startswith(f"  - wrong-notebook: not {LESSON}'s notebook"), [head, first]
    assert "answer cells not found" in first, first
    assert not any("duplicate-id" in line or "answer-missing" in line for line in rest), rest


@pytest.mark.timeout(RUN_TIMEOUT)
def test_untouched_submission_is_not_reported(bad_class):
    assert report_section(bad_class["root"], "complete", LESSON) == ""
    assert bad_class["rows"][(LESSON, "complete")]["status"] == "graded"


@pytest.mark.timeout(RUN_TIMEOUT)
def test_invalid_json_reason_points_at_the_problem(bad_class):
    reason = bad_class["rows"][(LESSON, "invalid-json")]["reason"]
    assert "not valid JSON" in reason and "line" in reason, reason
    assert "empty" in bad_class["rows"][(LESSON, "empty-file")]["reason"]
    assert "notes.txt" in bad_class["rows"][(LESSON, "missing-notebook")]["reason"]


@pytest.mark.timeout(RUN_TIMEOUT)
def test_printed_flood_is_capped(bad_class):
    notebook = bad_class["root"] / "autograded" / "print-200mb" / LESSON / f"{LESSON}.ipynb"
    assert notebook.is_file()
    assert notebook.stat().st_size < 5_000_000, notebook.stat().st_size


@pytest.mark.timeout(RUN_TIMEOUT)
def test_gradebook_has_one_row_per_submission(bad_class):
    integrity, subs, grades = gradebook_rows(bad_class["root"])
    assert integrity == "ok"
    assert subs == {s: 1 for s in bad_class["students"]}
    graded_cells = len(bad_class["scores"][(LESSON, "complete")])
    assert grades == graded_cells * len(bad_class["students"])


@pytest.mark.timeout(RUN_TIMEOUT)
def test_feedback_shows_results_but_never_hidden_tests(bad_class):
    root, lesson = bad_class["root"], bad_class["lesson"]
    secrets = hidden_lines(lesson.source, REPO_ROOT / "course")
    assert secrets, "the lesson has no hidden tests to hide"
    pages = sorted((root / "feedback").glob(f"*/{LESSON}/{LESSON}.html"))
    graded = [s for s in bad_class["students"] if (root / "autograded" / s / LESSON).is_dir()]
    assert len(pages) == len(graded)
    for page in pages:
        text = page_text(page)
        leaked = [line for line in secrets if line in text]
        assert not leaked, f"{page} shows hidden tests: {leaked[:3]}"
        assert "BEGIN HIDDEN TESTS" not in text
    complete = page_text(root / "feedback" / "complete" / LESSON / f"{LESSON}.html")
    hidden_cells = sum("BEGIN HIDDEN TESTS" in s for s in lesson.tests.values())
    assert complete.count("Hidden tests: passed") == hidden_cells
    blank = page_text(root / "feedback" / "blank" / LESSON / f"{LESSON}.html")
    assert "Hidden tests: passed" not in blank
    assert "Hidden tests: failed" in blank or "Hidden tests: not run" in blank
    renamed = page_text(root / "feedback" / "renamed-copy-of" / LESSON / f"{LESSON}.html")
    assert "Notes from the grader" in renamed and "Copy of" in renamed


# --------------------------------------------------------------------------------------------
# Units: the matching and reading, without a kernel


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    ("name", "lesson", "key"),
    [
        ("Copy of 01-world-as-text.ipynb", "01-world-as-text", True),
        ("01-world-as-text (1).ipynb", "01-world-as-text", True),
        ("01-World-As-Text.IPYNB", "01-world-as-text", True),
        ("01-world-as-text-Copy1.ipynb", "01-world-as-text", True),
        ("02-time-integration.ipynb", "01-world-as-text", False),
    ],
)
def test_name_key_ignores_copy_marks(name, lesson, key):
    assert (submissions.name_key(name) == submissions.name_key(lesson)) is key


@pytest.mark.timeout(60)
def test_repair_restores_every_cell_of_a_stripped_notebook():
    if LESSON not in LESSONS:
        pytest.skip("no lesson")
    from traitlets.config import Config

    from classroom.nbgrader_ext.notes import notes_of
    from classroom.nbgrader_ext.preprocessors import MatchCellsToRelease

    lesson = Lesson(LESSON)
    nb = lesson.complete
    for cell in nb.cells:
        cell.metadata.pop("nbgrader", None)
    config = Config()
    config.CourseDirectory.root = str(REPO_ROOT)
    resources = {"nbgrader": {"assignment": LESSON, "notebook": LESSON}}
    repaired, _ = MatchCellsToRelease(config=config).preprocess(nb, resources)
    ids = [notebooks.grade_id(c) for c in repaired.cells]
    assert ids == [notebooks.grade_id(c) for c in lesson.release.cells]
    assert any(n.kind == "metadata-restored" for n in notes_of(repaired))


# --------------------------------------------------------------------------------------------
# A toy lesson: inputs, limits, shards, demo


def toy_notebook() -> nbformat.NotebookNode:
    """The toy lesson's source: set-up, `double` and its test (2 points, a hidden case), a
    multiple-choice answer and its test (1 point)."""
    double_test = (
        '"""double doubles."""\nexpect.close(double(2), 4, "double(2)")\n'
        "### BEGIN HIDDEN TESTS\nfrom course import expect as _expect\n\n"
        '_expect.close(double(3.5), 7.0, "double(3.5)")\n'
        "### END HIDDEN TESTS"
    )
    return toy_lesson.notebook(
        [
            new_markdown_cell("# Toy lesson"),
            toy_lesson.locked_cell("setup", "from course import expect"),
            toy_lesson.answer_cell("double", toy_lesson.DOUBLE),
            toy_lesson.graded_cell("double_doubles", double_test, points=2),
            *toy_lesson.answer_cells(),
        ]
    )


@pytest.fixture(scope="module")
def toy(tmp_path_factory):
    """A course with the toy lesson built (release/ and solution/), and its notebooks."""
    root = course_root(tmp_path_factory.mktemp("toy") / "course")
    notebooks.write(toy_notebook(), root / "source" / TOY / f"{TOY}.ipynb")
    build.build([TOY], root=root)
    release = notebooks.read(notebooks.lesson_notebook(TOY, "release", root))
    complete = notebooks.read(notebooks.lesson_notebook(TOY, "release", root))
    for cell in complete.cells:
        if "def double" in cell.source:
            cell.source = "def double(x):\n    return 2 * x"
        elif cell.source.startswith("answer = None"):
            cell.source = 'answer = "B"'
    return {"root": root, "release": release, "complete": complete}


def fresh(toy, name: str) -> Path:
    """A new course directory holding the toy lesson."""
    root = toy["root"].parent.parent / name
    if root.exists():
        shutil.rmtree(root)
    shutil.copytree(toy["root"], root)
    return root


def write(root: Path, student: str, nb, name: str = f"{TOY}.ipynb", lesson: str = TOY) -> Path:
    path = root / "submitted" / student / lesson / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(nbformat.writes(nb), encoding="utf-8")
    return path


@pytest.mark.timeout(300)
def test_lms_zip_with_default_and_custom_patterns(toy, tmp_path):
    root = fresh(toy, "zip")
    archive = tmp_path / "download.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr(f"alice_{TOY}.ipynb", nbformat.writes(toy["complete"]))
        zf.writestr(f"bob_Copy of {TOY}.ipynb", nbformat.writes(toy["complete"]))
        zf.writestr("carol_notes.txt", "no notebook, sorry")
        zf.writestr("README", "from the LMS")
    run = run_grade(root, "--zip", str(archive), "--workers", "2")
    assert run.returncode == 0, run.stderr[-3000:]
    rows = csv_rows(root)
    assert rows[(TOY, "alice")]["score"] == "3.0"
    assert rows[(TOY, "bob")]["score"] == "3.0" and rows[(TOY, "bob")]["status"] != "graded"
    assert rows[(TOY, "carol")]["status"] == "needs a human"
    assert "README" in (root / "grading_report.txt").read_text()
    # A Moodle-style download: "<name>_<id>_assignsubmission_file_<file>", with a timestamp.
    root = fresh(toy, "zip-pattern")
    folder = tmp_path / "moodle"
    folder.mkdir()
    name = f"Dana Smith_4711_2026-03-01-10-00-00_assignsubmission_file_{TOY}.ipynb"
    (folder / name).write_text(nbformat.writes(toy["complete"]), encoding="utf-8")
    pattern = (
        r"(?P<student_id>[^_]+)_\d+_(?P<timestamp>[0-9-]+)_assignsubmission_file_"
        r"(?P<file_id>.+)"
    )
    run = run_grade(root, TOY, "--zip", str(folder), "--pattern", pattern, "--workers", "1")
    assert run.returncode == 0, run.stderr[-3000:]
    row = csv_rows(root)[(TOY, "Dana Smith")]
    assert row["score"] == "3.0" and row["timestamp"].startswith("2026-03-01"), row


@pytest.mark.timeout(300)
def test_exchange_input_uses_nbgraders_collect(toy):
    root = fresh(toy, "exchange")
    course_id = build.load_nbgrader_config(root).CourseDirectory.course_id
    inbound = root / "exchange" / course_id / "inbound"
    for student, stamp in (
        ("erin", "2026-02-01 09:00:00.000000 UTC"),
        ("erin", "2026-02-02 09:00:00.000000 UTC"),
        ("finn", "2026-02-01 10:00:00.000000 UTC"),
    ):
        folder = inbound / f"{student}+{TOY}+{stamp}+a1b2"
        folder.mkdir(parents=True)
        nb = (
            toy["complete"]
            if stamp.startswith("2026-02-02") or student == "finn"
            else toy["release"]
        )
        (folder / f"{TOY}.ipynb").write_text(nbformat.writes(nb), encoding="utf-8")
        (folder / "timestamp.txt").write_text(stamp, encoding="utf-8")
    run = run_grade(root, "--exchange", "--workers", "2")
    assert run.returncode == 0, run.stderr[-3000:]
    rows = csv_rows(root)
    assert rows[(TOY, "erin")]["score"] == "3.0", "the latest submission is graded"
    assert rows[(TOY, "finn")]["score"] == "3.0"
    assert (root / "submitted" / "erin" / TOY / f"{TOY}.ipynb").is_file()


@pytest.mark.timeout(300)
def test_notebook_limit_and_progress(toy):
    root = fresh(toy, "limits")
    slow = json.loads(nbformat.writes(toy["complete"]))
    for cell in slow["cells"]:
        if "".join(cell["source"]).startswith("def double"):
            cell["source"] = "import time\ntime.sleep(60)\ndef double(x):\n    return 2 * x"
    write(root, "slow", nbformat.reads(json.dumps(slow), as_version=4))
    write(root, "quick", toy["complete"])
    run = run_grade(root, "--workers", "2", "--cell-timeout", "30", "--notebook-timeout", "8")
    assert run.returncode == 0, run.stderr[-3000:]
    rows = csv_rows(root)
    assert rows[(TOY, "quick")]["score"] == "3.0"
    # The kernel's 8 s ran out in the first answer cell; the verdicts, decided outside the
    # kernel, give the multiple-choice answer its point and `double` (never defined) none.
    assert rows[(TOY, "slow")]["score"] == "1.0"
    section = report_section(root, "slow", TOY)
    assert "notebook-limit" in section and "8 s" in section, section
    assert "cell-timeout" in section and "in the grader" in section, section
    # The progress bar: plain lines with counts and time in a log (stderr is not a terminal).
    assert re.search(r"grading \[#+\] 2/2 .*elapsed, done", run.stderr), run.stderr[-2000:]


@pytest.mark.timeout(300)
def test_shards_merge_into_one_class(toy):
    submissions = {
        "ann": toy["complete"],
        "ben": toy["release"],
        "cat": toy["complete"],
        "dov": toy["release"],
        "eve": toy["complete"],
    }
    root = fresh(toy, "sharded")
    for student, nb in submissions.items():
        write(root, student, nb)
    for shard in ("1/2", "2/2"):
        run = run_grade(root, "--shard", shard, "--workers", "1")
        assert run.returncode == 0, run.stderr[-3000:]
    shard_one = json.loads((root / "shards" / "1-of-2" / "results.json").read_text())
    assert sorted(r["student"] for r in shard_one["results"]) == ["ann", "ben"]
    assert not (root / "gradebook.db").exists(), "a shard writes no gradebook"
    assert not (root / "grades.csv").exists()
    run = run_grade(root, "--merge")
    assert run.returncode == 0, run.stderr[-3000:]
    rows = csv_rows(root)
    want = {s: ("3.0" if nb is toy["complete"] else "0.0") for s, nb in submissions.items()}
    assert {k[1]: r["score"] for k, r in rows.items()} == want
    assert {r["status"] for r in rows.values()} == {"graded"}
    scores = cell_scores(root)
    assert scores[(TOY, "ann")] == {"double_doubles": 2.0, "answer_is_b": 1.0}
    assert sorted(p.name for p in (root / "autograded").iterdir()) == sorted(submissions)
    assert sorted(p.name for p in (root / "feedback").iterdir()) == sorted(submissions)
    report_text = (root / "grading_report.txt").read_text()
    assert "2 shards" in report_text and "5 submissions" in report_text
    # Merging again changes nothing: one submission per student, no duplicate grades.
    assert run_grade(root, "--merge").returncode == 0
    assert cell_scores(root) == scores
    with sqlite3.connect(root / "gradebook.db") as connection:
        count = connection.execute("SELECT COUNT(*) FROM submitted_assignment").fetchone()[0]
        grades = connection.execute("SELECT COUNT(*) FROM grade").fetchone()[0]
    assert (count, grades) == (5, 10)
    # A missing shard is an error, not a silently smaller class.
    shutil.rmtree(root / "shards" / "2-of-2")
    run = run_grade(root, "--merge")
    assert run.returncode == 1 and "shards [2] of 2" in run.stderr


@pytest.mark.timeout(300)
def test_demo_grades_into_its_own_folder(toy):
    """The demo's outputs go to .grading/demo/, none into the course, where nbgrader's own
    commands would meet students its gradebook does not have."""
    root = fresh(toy, "demo")
    run = run_grade(root, "--demo")
    assert run.returncode == 0, run.stderr[-3000:]
    out = root / ".grading" / "demo"
    rows = csv_rows(out)
    assert rows[(TOY, "complete")]["score"] == "3.0"
    assert rows[(TOY, "blank")]["score"] == "0.0"
    assert rows[(TOY, "renamed-colab")]["score"] == "3.0"
    assert rows[(TOY, "no-notebook")]["status"] == "needs a human"
    assert (out / "feedback" / "complete" / TOY / f"{TOY}.html").is_file()
    assert (out / "grading_report.txt").is_file() and (out / "class_report.html").is_file()
    for name in ("grades.csv", "grading_report.txt", "class_report.html", "autograded"):
        assert not (root / name).exists(), f"the demo wrote {name} into the course"
    assert not (root / "feedback").exists()
    assert str(out / "feedback") in run.stdout and "complete" in run.stdout


@pytest.mark.timeout(60)
def test_submitted_tree_intake_notes_renamed_folders(toy, tmp_path):
    folder = tmp_path / "submitted"
    (folder / "gil" / "00-Toy (1)").mkdir(parents=True)
    (folder / "gil" / "00-Toy (1)" / f"{TOY}.ipynb").write_text("{}")
    (folder / "hal").mkdir()
    (folder / "hal" / f"{TOY}.ipynb").write_text("{}")
    (folder / "ivy").mkdir()
    subs = {s.student: s for s in intake.from_submitted(folder, [TOY]).submissions}
    assert subs["gil"].files and subs["gil"].notes[0].kind == "renamed"
    assert subs["hal"].files and "straight in" in subs["hal"].notes[0].text
    assert subs["ivy"].files == []


@pytest.mark.timeout(60)
def test_submitted_tree_intake_follows_no_link(tmp_path):
    """A link in a submitted/ tree is left out and said, never followed into the grading."""
    folder = tmp_path / "submitted"
    (tmp_path / "private").mkdir()
    (tmp_path / "private" / "grades.csv").write_text("everyone's grades")
    lesson = folder / "gil" / TOY
    lesson.mkdir(parents=True)
    (lesson / f"{TOY}.ipynb").write_text("{}")
    (lesson / "grades.csv").symlink_to(tmp_path / "private" / "grades.csv")
    (lesson / "private").symlink_to(tmp_path / "private")
    (folder / "oscar").symlink_to(tmp_path / "private")
    taken = intake.from_submitted(folder, [TOY])
    (gil,) = taken.submissions
    assert gil.files == [str(lesson / f"{TOY}.ipynb")]
    (note,) = gil.notes
    assert note.kind == "left-out" and "grades.csv (a symbolic link)" in note.text
    assert "private (a symbolic link)" in note.text
    assert taken.warnings == ["student folders that are symbolic links, not graded: oscar"]
    (tmp_path / "class").symlink_to(folder)  # the instructor's own link to the tree is fine
    (gil,) = intake.from_submitted(tmp_path / "class", [TOY]).submissions
    assert [Path(f).name for f in gil.files] == [f"{TOY}.ipynb"]


@pytest.mark.timeout(60)
def test_progress_line_counts_and_time_left():
    import io

    stream = io.StringIO()
    progress = report.Progress(4, stream=stream, every=0)
    progress.update(1, 0)
    progress.update(4, 1)
    lines = stream.getvalue().splitlines()
    assert "1/4" in lines[0] and "left" in lines[0]
    assert "4/4 (1 not graded)" in lines[-1] and lines[-1].endswith("done")


@pytest.mark.timeout(60)
def test_demo_of_an_unbuilt_lesson_says_so_in_one_line(tmp_path):
    root = course_root(tmp_path / "course", [LESSON])  # source only: no release/
    run = run_grade(root, "--demo", LESSON)
    assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr[-2000:]
    assert run.stderr.strip().splitlines() == [
        f"error: the demo class is made from each lesson's release, and {LESSON} has none "
        "in release/: run `make build` first"
    ]
