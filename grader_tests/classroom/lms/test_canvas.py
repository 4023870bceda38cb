"""Canvas's module (classroom/grading/lms/canvas.py) on its own: its download's names, its
option, its export. The whole route, a Canvas download graded and exported, is in
test_lms_names.py, test_exports.py and test_instructor_term.py."""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

import pytest

from classroom.grading.lms import canvas
from classroom.grading.staging import GradeError

LESSON = "04-x"


@pytest.mark.parametrize(
    "relative, student, name, file, late, order",
    [  # Canvas's ContentZipper: <sortable name>[_LATE]_<user id>_<attachment id>_<file>
        ("smith_alice_1001_5_04-x.ipynb", "1001", "Alice Smith", "04-x.ipynb", False, 5000),
        ("smithalice_LATE_1001_7_04-x-2.ipynb", "1001", "Smithalice", "04-x.ipynb", True, 7002),
        ("LATE_anon_AbCd3_9_04-x.ipynb", "anon_AbCd3", "", "04-x.ipynb", True, 9000),
        ("smith_alice_1001_text.html", "1001", "Alice Smith", "text.html", False, 0),
    ],
)
def test_canvas_names_are_read(relative, student, name, file, late, order):
    handed = canvas.LMS.read(relative, Path(relative), [LESSON])
    assert (handed.lms, handed.student, handed.name) == ("canvas", student, name)
    assert (handed.file, handed.late, handed.order) == (file, late, order)


def test_other_names_are_not_canvas_s():
    for relative in ("Alice Smith_12345_assignsubmission_file_/04-x.ipynb", "alice/04-x.ipynb"):
        assert canvas.LMS.read(relative, Path(relative), [LESSON]) is None


def parse(argv: list[str]):
    """Canvas's setting, as the command's plan reads it from these arguments."""
    parser = argparse.ArgumentParser()
    canvas.LMS.options(parser)
    return canvas.LMS.setting(parser.parse_args(argv))


def test_an_assignment_id_given_is_kept_and_asks_for_canvas_csv(tmp_path):
    assert not canvas.LMS.asked(parse([]), [LESSON], tmp_path)
    assert not (tmp_path / "canvas_assignments.csv").exists()
    assert canvas.LMS.asked(parse(["--canvas-assignment", f"{LESSON}=42"]), [LESSON], tmp_path)
    assert (tmp_path / "canvas_assignments.csv").read_text().split() == [
        "lesson,canvas_assignment_id",
        f"{LESSON},42",
    ]
    with pytest.raises(GradeError, match="not a lesson"):
        canvas.LMS.asked(parse(["--canvas-assignment", "09-z=1"]), [LESSON], tmp_path)


def test_canvas_csv_is_written_and_known_again(tmp_path, graded):
    book, results = graded.book, graded.results
    assert canvas.LMS.write(book, results, tmp_path, {}).refused.startswith(
        f"canvas.csv: left out {LESSON}"
    )
    written = canvas.LMS.write(book, results, tmp_path, {LESSON: "42"})
    assert written.paths == [tmp_path / "exports" / "canvas.csv"] and written.refused is None
    with open(written.paths[0], newline="", encoding="utf-8") as handle:
        header, possible, *rows = list(csv.reader(handle))
    assert header[-1] == f"{LESSON} (42)" and possible[-1] == "5"
    assert {r[1]: r[-1] for r in rows} == {"1001": "4", "1002": ""}  # needs a human: empty
    assert canvas.LMS.wrote_before(tmp_path / "exports", {"1002", "9999"})
    assert not canvas.LMS.wrote_before(tmp_path / "exports", {"9999"})
