"""LMS downloads read with names as the LMS writes them (issue 28, items 1 and 3).

Canvas keeps Unicode letters in its lower-cased name part ("garcíamaría", "adamszoë", "李雷")
and writes `_LATE` and a resubmission's `-1`; Moodle writes a folder per submission named
with the full name. The intake tests build a download from the repository's own release
notebooks (lessons 04 and 06) and read it the way the grading command does (`run.gather`,
with and without a lesson argument); one test runs the grading command, without a lesson,
on such a download of the toy course (grader_tests/support/lms_downloads.py).

What must hold: every student under the right id, the newest attempt, the late mark kept;
a notebook renamed to no lesson placed by its cells; a student who handed in only a PDF a
row with the reason; a file that follows no naming a row of its own; a download mixing forms
read file by file, with one warning, no student's id changed by the other files.
"""

from __future__ import annotations

import csv
import unicodedata
import zipfile
from pathlib import Path

import nbformat
import pytest
from lms_downloads import canvas_name, moodle_name, write_zip

from classroom import build, grade
from classroom.grading import archives, download, lms, run
from classroom.grading.plan import RunFacts
from classroom.grading.results import Job
from classroom.nbgrader_ext import notebooks

REPO_ROOT = Path(__file__).resolve().parents[2]
L4, L6 = "04-frames-and-quaternions", "06-slender-parts"
PDF = b"%PDF-1.4 a report, not a notebook\n"


def release(lesson: str) -> nbformat.NotebookNode:
    return notebooks.read_lesson(lesson, "release", REPO_ROOT)


def attempt(lesson: str, text: str) -> nbformat.NotebookNode:
    """The lesson's release with a markdown cell saying `text` at the end: which attempt."""
    nb = release(lesson)
    nb.cells.append(nbformat.v4.new_markdown_cell(text))
    return nb


# Canvas: (last, first, user id); the name part as Canvas writes it, joined and lower-cased.
CANVAS_CLASS = {
    "1001": ("smith", "john"),
    "1002": ("smith", "anna"),  # the same family name
    "1003": ("garcía", "maría"),
    "1004": ("adams", "zoë"),  # late
    "1005": ("李", "雷"),  # a resubmission
    "1006": ("ng", "erin"),  # only a PDF
    "1007": ("kim", "ivan"),  # only an online text entry
}


def canvas_zip(path: Path, *, extra: dict | None = None) -> Path:
    def named(uid, attachment, file, late=False):
        last, first = CANVAS_CLASS[uid]
        return canvas_name(last, first, uid, attachment, file, late=late, joined=True)

    members = {
        named("1001", 5001, f"{L4}.ipynb"): attempt(L4, "john"),
        named("1002", 5002, "my-homework.ipynb"): attempt(L4, "anna, renamed"),
        named("1003", 5003, f"{L4}.ipynb"): attempt(L4, "maría"),
        named("1004", 5004, f"{L4}.ipynb", late=True): attempt(L4, "zoë, late"),
        named("1005", 5005, f"{L4}.ipynb"): attempt(L4, "lei, first attempt"),
        named("1005", 5010, f"{L4}-1.ipynb"): attempt(L4, "lei, resubmitted"),
        named("1006", 5006, "report.pdf"): PDF,
        "kimivan_1007_text.html": "<p>I could not upload my notebook.</p>",  # no attachment
        **(extra or {}),
    }
    return write_zip(path, members)


MOODLE_CLASS = {
    "2001": "John Smith",
    "2002": "Anna Smith",
    "2003": "María García",
    "2004": "Zoë Adams",
    "2005": "李雷",
    "2006": "Erin Ng",
}


def moodle_zip(path: Path, folders: bool = True) -> Path:
    def named(pid, file):
        return moodle_name(MOODLE_CLASS[pid], int(pid), file, folders=folders)

    return write_zip(
        path,
        {
            named("2001", f"{L4}.ipynb"): attempt(L4, "john"),
            named("2002", "my-homework.ipynb"): attempt(L4, "anna, renamed"),
            named("2003", f"{L4}.ipynb"): attempt(L4, "maría"),
            named("2004", f"{L4}.ipynb"): attempt(L4, "zoë"),
            named("2005", f"{L4}.ipynb"): attempt(L4, "lei, the last attempt Moodle keeps"),
            named("2006", "report.pdf"): PDF,
        },
    )


def gathered(archive: Path, work: Path, *lessons: str) -> tuple[list, dict[str, Job], RunFacts]:
    """What the grading command would grade for `archive` (the lessons given, or none):
    (lessons, {student: its submission with files}, facts), read with run.gather."""
    args = grade.parse_args([*lessons, "--zip", str(archive), "--root", str(REPO_ROOT)])
    plan = grade.plan_of(args, REPO_ROOT)
    config = build.load_nbgrader_config(REPO_ROOT)
    known = notebooks.discover_lessons(REPO_ROOT)
    found, jobs, facts = run.gather(plan, config, known, work)
    return found, {job.student: job for job in jobs}, facts


def text_of(job: Job) -> str:
    (notebook,) = [f for f in job.files if f.endswith(".ipynb")]
    return notebooks.read(notebook).cells[-1].source


WITH_AND_WITHOUT = pytest.mark.parametrize("named", [(L4,), ()], ids=["lesson-named", "no-lesson"])


@WITH_AND_WITHOUT
def test_canvas_unicode_names_map_every_student(tmp_path, named):
    lessons, jobs, facts = gathered(canvas_zip(tmp_path / "canvas.zip"), tmp_path, *named)
    assert lessons == [L4]
    assert sorted(jobs) == sorted(CANVAS_CLASS), sorted(jobs)
    assert {job.lesson for job in jobs.values()} == {L4}
    assert text_of(jobs["1003"]) == "maría" and text_of(jobs["1001"]) == "john"
    assert text_of(jobs["1002"]) == "anna, renamed"
    assert text_of(jobs["1005"]) == "lei, resubmitted", "the newest attempt is graded"
    assert any("graded the newest version" in n.text for n in jobs["1005"].notes)
    assert {s for s, job in jobs.items() if job.late} == {"1004"}, "the late mark is kept"
    assert [Path(f).name for f in jobs["1006"].files] == ["report.pdf"], "a row for a PDF"
    assert [Path(f).name for f in jobs["1007"].files] == ["text.html"], "and for a text entry"
    assert facts.unassigned == [] and facts.problems == []


@WITH_AND_WITHOUT
@pytest.mark.parametrize("folders", [True, False], ids=["folders", "flat"])
def test_moodle_unicode_names_map_every_participant(tmp_path, named, folders):
    archive = moodle_zip(tmp_path / "moodle.zip", folders)
    lessons, jobs, facts = gathered(archive, tmp_path, *named)
    assert lessons == [L4]
    assert sorted(jobs) == sorted(MOODLE_CLASS), sorted(jobs)
    assert {s: job.name for s, job in jobs.items()} == MOODLE_CLASS
    assert text_of(jobs["2005"]) == "lei, the last attempt Moodle keeps"
    assert text_of(jobs["2002"]) == "anna, renamed"
    assert not any(job.late for job in jobs.values()), "Moodle's names mark no lateness"
    assert [Path(f).name for f in jobs["2006"].files] == ["report.pdf"]
    assert facts.unassigned == [] and facts.problems == []


def test_a_renamed_notebook_is_placed_by_its_cells(tmp_path):
    """No lesson argument, a download holding lessons 04 and 06: `my-homework.ipynb` of each
    student goes to the lesson its cells are, and the note says so."""
    archive = write_zip(
        tmp_path / "two.zip",
        {
            canvas_name("smith", "john", 1001, 1, "my-homework.ipynb", joined=True): release(L6),
            canvas_name("smith", "anna", 1002, 2, f"{L4}.ipynb", joined=True): release(L4),
            canvas_name("smith", "anna", 1002, 3, f"{L6}.ipynb", joined=True): release(L6),
        },
    )
    lessons, _, _ = gathered(archive, tmp_path)
    assert lessons == [L4, L6]
    work = tmp_path / "again"
    found = download.from_download(
        archive, lessons, work, releases=run.release_reader(REPO_ROOT)
    ).submissions
    john = {s.lesson: s for s in found if s.student == "1001"}
    assert [Path(f).name for f in john[L6].files] == ["my-homework.ipynb"]
    assert john[L4].files == [], "nothing of John's is lesson 04's"
    (note,) = [n.text for n in john[L6].notes if n.kind == "renamed"]
    assert "my-homework.ipynb" in note and f"its cells are {L6}'s" in note, note


def test_a_file_following_no_naming_is_a_row(tmp_path):
    archive = canvas_zip(tmp_path / "canvas.zip", extra={"README.txt": "from the instructor"})
    _, jobs, facts = gathered(archive, tmp_path)
    row = jobs.pop("unknown-readme")
    assert row.lesson == L4 and row.files == [] and "README.txt" in row.refused, row
    assert sorted(jobs) == sorted(CANVAS_CLASS), "the stray file moved nobody"
    assert facts.unassigned == []
    [refused] = run._jobs([row], {}, 30)[1]
    assert refused.status == "needs a human" and refused.reason == row.refused


def test_a_mixed_download_warns_and_moves_nobody(tmp_path):
    """Two Canvas files among three in a folder per student: before, the whole download was
    read by the pattern and John became `smithjohn`; now each file keeps its own form."""
    members = {
        canvas_name("smith", "john", 1001, 1, f"{L4}.ipynb", joined=True): release(L4),
        canvas_name("garcía", "maría", 1003, 2, f"{L4}.ipynb", joined=True): release(L4),
        **{f"{who}/{L4}.ipynb": release(L4) for who in ("alice", "bob", "carol")},
    }
    _, jobs, facts = gathered(write_zip(tmp_path / "mixed.zip", members), tmp_path)
    assert sorted(jobs) == ["1001", "1003", "alice", "bob", "carol"], sorted(jobs)
    (warning,) = facts.problems
    assert "mixes namings: 3 files by the pattern, 2 files by Canvas's names;" in warning, warning
    lines, _ = download.dry_run(write_zip(tmp_path / "m2.zip", members), [L4], tmp_path / "d")
    assert lines[0] == "read as: pattern (3 files), canvas (2 files)", lines
    assert lines[1] == f"warning: {warning}", lines


@pytest.mark.parametrize(
    "relative",
    [
        "adamszoë_LATE_1004_77_04-x.ipynb",
        unicodedata.normalize("NFD", "adamszoë_LATE_1004_77_04-x.ipynb"),  # unzipped on macOS
        "adams_zoë_LATE_1004_77_04-x.ipynb",  # older Canvas: an underscore in the name
    ],
    ids=["nfc", "nfd", "underscore"],
)
def test_canvas_reading_of_one_name(relative):
    handed = lms.read(relative, Path(relative), ["04-x"])
    assert (handed.lms, handed.student, handed.late, handed.file) == (
        "canvas",
        "1004",
        True,
        "04-x.ipynb",
    )


@pytest.mark.parametrize(
    ("relative", "late"),
    [("anon_x7Kp2_77_04-x.ipynb", False), ("LATE_anon_x7Kp2_77_04-x.ipynb", True)],
)
def test_canvas_anonymous_grading_names(relative, late):
    """Canvas's anonymous grading writes no name, "LATE" first, and "anon_<base58 id>"."""
    handed = lms.read(relative, Path(relative), ["04-x"])
    assert (handed.student, handed.name, handed.late) == ("anon_x7Kp2", "", late)


def test_late_is_canvas_upper_case_marker_only():
    """Canvas writes LATE in capitals after a lower-cased name: a lower-case "_late" is part
    of the name (an older download's "smith_late", a student whose first name is Late)."""
    handed = lms.read("smith_late_1001_5_04-x.ipynb", Path("x"), ["04-x"])
    assert (handed.student, handed.name, handed.late) == ("1001", "Late Smith", False)


def test_utf8_names_without_the_zip_flag_are_read_as_utf8(tmp_path):
    """A zip writer that stores UTF-8 names without the UTF-8 flag (rubyzip's default): the
    names are repaired, and one warning says so."""
    names = {
        canvas_name("garcía", "maría", 1003, 1, f"{L4}.ipynb", joined=True): release(L4),
        canvas_name("李", "雷", 1005, 2, f"{L4}.ipynb", joined=True): release(L4),
    }
    archive = tmp_path / "unflagged.zip"
    stand_ins = {}
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_STORED) as zf:
        for number, (name, nb) in enumerate(names.items()):
            raw = name.encode("utf-8")
            stand_in = f"{number:03d}".ljust(len(raw), "q")  # ASCII: no flag is written
            zf.writestr(stand_in, nbformat.writes(nb))
            stand_ins[stand_in.encode()] = raw
    data = archive.read_bytes()
    for stand_in, raw in stand_ins.items():
        data = data.replace(stand_in, raw)
    archive.write_bytes(data)
    assert not any(m.flag_bits & archives.UTF8_FLAG for m in zipfile.ZipFile(archive).infolist())
    _, jobs, facts = gathered(archive, tmp_path)
    assert sorted(jobs) == ["1003", "1005"], sorted(jobs)
    (warning,) = facts.problems
    assert "2 file names" in warning and "garcíamaría_1003" in warning, warning


# --------------------------------------------------------------------------------------------
# The grading command, as the guide types it: no lesson argument


@pytest.mark.timeout(600)
def test_grading_command_without_lesson_gives_every_file_a_row(tmp_path):
    from lms_downloads import TOY, grade_cli, handed_in, toy_course

    from classroom.isolation.sandbox import probe

    if (reason := probe()) is not None:
        pytest.skip(f"the sandbox cannot run here: {reason}")
    course = toy_course(tmp_path / "course")
    members = {
        canvas_name("garcía", "maría", 1003, 1, f"{TOY}.ipynb", joined=True): handed_in(course),
        canvas_name("adams", "zoë", 1004, 2, "my-homework.ipynb", late=True, joined=True): (
            handed_in(course)
        ),
        canvas_name("李", "雷", 1005, 3, f"{TOY}.ipynb", joined=True): handed_in(course, "x"),
        canvas_name("李", "雷", 1005, 9, f"{TOY}-1.ipynb", joined=True): handed_in(course),
        canvas_name("ng", "erin", 1006, 4, "report.pdf", joined=True): PDF,
        "README.txt": "from the instructor",
    }
    archive = write_zip(tmp_path / "submissions.zip", members)
    ran = grade_cli(course, "--zip", str(archive), "--workers", "1", "--quiet")
    assert ran.returncode == 0, ran.stderr[-3000:]
    with open(course / "grades.csv", newline="", encoding="utf-8") as handle:
        rows = {r["student_id"]: r for r in csv.DictReader(handle)}
    assert sorted(rows) == ["1003", "1004", "1005", "1006", "unknown-readme"], sorted(rows)
    assert float(rows["1003"]["score"]) == 3.0 and float(rows["1005"]["score"]) == 3.0
    assert float(rows["1004"]["score"]) == 3.0, "the renamed notebook was graded"
    assert rows["1006"]["status"] == "needs a human", rows["1006"]
    assert "report.pdf" in rows["1006"]["reason"], rows["1006"]
    assert rows["unknown-readme"]["status"] == "needs a human", rows["unknown-readme"]
    assert "README.txt" in rows["unknown-readme"]["reason"], rows["unknown-readme"]
    report = (course / "grading_report.txt").read_text(encoding="utf-8")
    assert "late (marked by the LMS)" in report, report
