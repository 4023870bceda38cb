"""Issue 28's "done when", with the real grading command: lesson 06 graded, then lesson 04.

After both runs grades.csv, canvas.csv and the Moodle worksheets hold both lessons, 06's
Canvas id (given once, on the first run) is kept, a lesson without an id is refused for
Canvas in one line, and the corrupt, wrong-lesson, renamed-but-unmatchable and PDF-only
submissions of 06 each end as one row that needs a human: first in the report and the class
report, empty in the LMS files. A handful of submissions keeps the runs short.
"""

from __future__ import annotations

import csv
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from bad_submissions import Lesson

from classroom.nbgrader_ext import notebooks

REPO_ROOT = Path(__file__).resolve().parents[2]
FIRST, SECOND = "06-slender-parts", "04-frames-and-quaternions"
CANVAS_06, CANVAS_04 = "12345", "67890"
RUN_TIMEOUT = 900
NEEDS_HUMAN = {  # student: what their 06 submission is, and words its reason must hold
    "1002": ("a notebook cut in half", ""),
    "1003": ("04's notebook handed in as 06's", "06-slender-parts's notebook: only"),
    "1004": ("a PDF only", "report.pdf"),
    "1005": ("04's notebook as my-homework.ipynb", "06-slender-parts's notebook: only"),
}

pytestmark = pytest.mark.timeout(3 * RUN_TIMEOUT)


def grade(root: Path, *args: str) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "classroom.grade", "--root", str(root), *args]
    common = ["--workers", "2", "--cell-timeout", "20", "--quiet"]
    run = subprocess.run(
        command + common, cwd=REPO_ROOT, capture_output=True, text=True, timeout=RUN_TIMEOUT
    )
    assert run.returncode == 0, (run.args, run.stdout[-3000:], run.stderr[-3000:])
    return run


def hand_in(root: Path, student: str, lesson: str, files: dict[str, bytes]) -> None:
    for name, data in files.items():
        path = root / "submitted" / student / lesson / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def as_bytes(nb) -> bytes:
    return nbformat.writes(nb).encode("utf-8")


def read_csv(path: Path) -> list[list[str]]:
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.reader(handle))


@pytest.fixture(scope="module")
def term(tmp_path_factory):
    known = notebooks.discover_lessons(REPO_ROOT)
    if FIRST not in known or SECOND not in known:
        pytest.skip(f"{FIRST} and {SECOND} not in source/")
    root = tmp_path_factory.mktemp("two-runs") / "course"
    root.mkdir()
    shutil.copyfile(REPO_ROOT / "nbgrader_config.py", root / "nbgrader_config.py")
    for lesson in (FIRST, SECOND):
        shutil.copytree(REPO_ROOT / "source" / lesson, root / "source" / lesson)
    first, second = Lesson(FIRST), Lesson(SECOND)
    whole = as_bytes(first.complete)
    hand_in(root, "1001", FIRST, {f"{FIRST}.ipynb": whole})
    hand_in(root, "1002", FIRST, {f"{FIRST}.ipynb": whole[: len(whole) // 2]})
    hand_in(root, "1003", FIRST, {f"{FIRST}.ipynb": as_bytes(second.complete)})
    hand_in(root, "1004", FIRST, {"report.pdf": b"%PDF-1.4 my answers\n"})
    hand_in(root, "1005", FIRST, {"my-homework.ipynb": as_bytes(second.complete)})
    for student in ("1001", "1003"):
        hand_in(root, student, SECOND, {f"{SECOND}.ipynb": as_bytes(second.complete)})
    assignment = f"{FIRST}={CANVAS_06}"
    runs = [grade(root, FIRST, "--export", "canvas", "--export", "moodle",
                  "--canvas-assignment", assignment)]  # fmt: skip
    runs.append(grade(root, SECOND))  # no id for 04, none given again for 06
    canvas_after_second = read_csv(root / "exports" / "canvas.csv")
    runs.append(grade(root, SECOND, "--canvas-assignment", f"{SECOND}={CANVAS_04}"))
    return {"root": root, "runs": runs, "canvas_after_second": canvas_after_second}


def test_grades_csv_holds_both_lessons_one_status_a_row(term):
    with open(term["root"] / "grades.csv", newline="", encoding="utf-8") as handle:
        rows = {(r["assignment"], r["student_id"]): r for r in csv.DictReader(handle)}
    assert {lesson for lesson, _ in rows} == {FIRST, SECOND}
    assert rows[(FIRST, "1001")]["status"] in ("graded", "graded with notes")
    assert float(rows[(FIRST, "1001")]["score"]) == float(rows[(FIRST, "1001")]["max_score"])
    assert float(rows[(SECOND, "1001")]["score"]) == float(rows[(SECOND, "1001")]["max_score"])
    for student, (what, words) in NEEDS_HUMAN.items():
        row = rows[(FIRST, student)]
        assert row["status"] == "needs a human", (what, row)
        assert row["reason"] and words in row["reason"], (what, row["reason"])
    assert rows[(SECOND, "1002")]["status"] == "not submitted"


def test_a_lesson_without_a_canvas_id_is_refused_in_one_line(term):
    said = [ln for ln in term["runs"][1].stderr.splitlines() if "canvas.csv" in ln]
    assert len(said) == 1, term["runs"][1].stderr[-2000:]
    assert SECOND in said[0] and f"--canvas-assignment {SECOND}=ID" in said[0]
    header = term["canvas_after_second"][0]
    assert header[5:] == [f"{FIRST} ({CANVAS_06})"], "06 kept its id; 04 left out, not new"
    assert not any("canvas.csv" in ln for ln in term["runs"][2].stderr.splitlines())


def test_canvas_csv_holds_both_lessons_and_leaves_needs_a_human_empty(term):
    header, possible, *rows = read_csv(term["root"] / "exports" / "canvas.csv")
    assert header[5:] == [f"{SECOND} ({CANVAS_04})", f"{FIRST} ({CANVAS_06})"]
    cells = {row[1]: dict(zip(header[5:], row[5:], strict=True)) for row in rows}
    first = f"{FIRST} ({CANVAS_06})"
    assert cells["1001"][first] == possible[6] and float(possible[6]) > 0
    for student in NEEDS_HUMAN:
        assert cells[student][first] == "", (student, cells[student])
    assert (term["root"] / "canvas_assignments.csv").read_text().splitlines() == [
        "lesson,canvas_assignment_id", f"{SECOND},{CANVAS_04}", f"{FIRST},{CANVAS_06}",
    ]  # fmt: skip


def test_moodle_worksheets_for_both_lessons(term):
    for lesson in (FIRST, SECOND):
        header, *rows = read_csv(term["root"] / "exports" / f"moodle-{lesson}.csv")
        assert {"Identifier", "Grade", "Last modified (grade)"} <= set(header)
    header, *rows = read_csv(term["root"] / "exports" / f"moodle-{FIRST}.csv")
    by_id = {r[0]: dict(zip(header, r, strict=True)) for r in rows}
    for student in NEEDS_HUMAN:
        row = by_id[f"Participant {student}"]
        assert row["Grade"] == "" and "instructor" in row["Feedback comments"], row


def test_report_and_class_report_open_with_the_rows_that_need_a_human(term):
    text = (term["root"] / "grading_report.txt").read_text(encoding="utf-8")
    head = text[text.index("Needs a human (4)") : text.index("Every submission")]
    for student in NEEDS_HUMAN:
        assert f"{student} ({FIRST}):" in head, head
    page = (term["root"] / "class_report.html").read_text(encoding="utf-8")
    assert page.index("Needs a human (4)") < page.index(f"<h2>{SECOND}</h2>")
    assert f"<h2>{FIRST}</h2>" in page, "the class report keeps the earlier run's lesson"
