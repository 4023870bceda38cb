"""Moodle's module (classroom/grading/lms/moodle.py) on its own: its download's names and
its worksheet. The whole route is in test_lms_names.py, test_exports.py and
test_instructor_term.py."""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

import pytest

from classroom.grading.lms import moodle

LESSON = "04-x"


@pytest.mark.parametrize(
    "relative",
    [  # mod/assign's download_submissions: a folder per submission, or its prefix glued on
        "Zoë Smith_12345_assignsubmission_file_/04-x.ipynb",
        "Zoë Smith_12345_assignsubmission_file_04-x.ipynb",
    ],
)
def test_moodle_names_are_read(relative):
    handed = moodle.LMS.read(relative, Path(relative), [LESSON])
    assert (handed.lms, handed.student, handed.name) == ("moodle", "12345", "Zoë Smith")
    assert (handed.file, handed.late) == ("04-x.ipynb", False)


def test_other_names_are_not_moodle_s():
    for relative in ("smith_alice_1001_5_04-x.ipynb", "alice/04-x.ipynb"):
        assert moodle.LMS.read(relative, Path(relative), [LESSON]) is None


def test_moodle_has_no_options_of_its_own(tmp_path):
    parser = argparse.ArgumentParser()
    moodle.LMS.options(parser)
    setting = moodle.LMS.setting(parser.parse_args([]))
    assert setting is None and not moodle.LMS.asked(setting, [LESSON], tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_the_worksheet_is_written_and_known_again(tmp_path, graded):
    book, results = graded.book, graded.results
    written = moodle.LMS.write(book, results, tmp_path, None)
    assert written.paths == [tmp_path / "exports" / f"moodle-{LESSON}.csv"]
    assert written.refused is None
    with open(written.paths[0], newline="", encoding="utf-8") as handle:
        rows = {r["Identifier"]: r for r in csv.DictReader(handle)}
    # What Moodle's importer requires: Identifier, Grade, Last modified (grade).
    assert rows["Participant 1001"]["Grade"] == "4"
    needs_a_human = rows["Participant 1002"]
    assert needs_a_human["Grade"] == "" and "a human" in needs_a_human["Feedback comments"]
    assert all(r["Last modified (grade)"] for r in rows.values())
    assert moodle.LMS.wrote_before(tmp_path / "exports", {"1002"})
    assert not moodle.LMS.wrote_before(tmp_path / "exports", {"1"})
