"""Moodle: how its download names files, and its offline grading worksheet.

Its download (mod/assign's download_submissions) is a folder per submission, `<Full Name>_
<participant id>_assignsubmission_file_/`, holding the files (or, with "Download submissions in
folders" unticked, and before Moodle 3.1, that prefix glued to each file's name); the full name
keeps its Unicode letters, its underscores turned into spaces. The student is the participant
id. Moodle keeps only a student's last attempt and names no lateness.

Its export, exports/moodle-<lesson>.csv, is the lesson's offline grading worksheet (the
assignment's View all submissions > Grading action: Upload grading worksheet), one per lesson
since Moodle's participant ids ("Participant 12345", what its downloads carry) belong to one
assignment; the columns are those Moodle's importer requires (COLUMNS), and a row without a
grade says why in its feedback.
"""

from __future__ import annotations

import re
import time
from pathlib import Path, PurePosixPath

from classroom.grading.lms import base
from classroom.grading.lms.base import Handed, Lms, Written
from classroom.grading.records import Book, BookRow, write_csv
from classroom.grading.results import GRADED, NOT_SUBMITTED, Result

NAME = "moodle"
NAMED = re.compile(
    r"^(?P<name>[^/_]+)_(?P<id>\d+)_assign(?:submission|feedback)_[a-z0-9]+_/?(?P<file>[^/].*)$"
)
PARTICIPANT = "Participant "  # how the worksheet's Identifier prefixes a participant id
# Moodle's offline grading worksheet, as mod/assign/feedback/offline/importgradeslib.php
# (init) reads it: the columns are found by their (English) titles; "Identifier" (a
# "Participant <id>"), "Grade" and "Last modified (grade)" are required, or the upload fails
# ("invalidgradeimport"); "Feedback comments" is matched by the comments plugin's name. The
# others are what Moodle's own worksheet has, for the instructor's eye; the importer ignores
# them.
COLUMNS = [
    "Identifier",
    "Full name",
    "Email address",
    "Status",
    "Grade",
    "Maximum Grade",
    "Last modified (grade)",
    "Feedback comments",
]


def read(relative: str, path: Path, lessons: list[str]) -> Handed | None:
    """One file of a download (`relative`: NFC, "/" separated) read by Moodle's naming, or
    None when it does not follow it."""
    match = NAMED.match(relative)
    if match is None:
        return None
    file = PurePosixPath(match["file"]).name
    return Handed(path, relative, NAME, match["id"], match["name"].strip(), file)


def _feedback(row: BookRow, result: Result | None) -> str:
    """The worksheet's feedback comment: the score and the tests lost, or why no grade."""
    score = f"{row.score:g}/{row.max_score:g}"
    if result is None:
        return f"{score}."
    if result.status == NOT_SUBMITTED:
        return f"Nothing handed in for {row.lesson}."
    if result.status not in base.SCORED:
        return f"No grade yet: your submission needs the instructor's look ({result.reason})."
    lost = ", ".join(sorted(result.failures)) or "none"
    late = f" {result.lateness[:1].upper()}{result.lateness[1:]}." if result.lateness else ""
    return f"{score}. Tests not passed: {lost}.{late}"


def worksheet(book: Book, results: list[Result], lesson: str, folder: Path) -> Path:
    """folder/moodle-<lesson>.csv: Moodle's offline grading worksheet for one lesson.
    "Last modified (grade)" is the time of writing: Moodle skips a participant whose grade
    it holds was changed after it, unless the upload ticks "Allow updating records that
    have been modified more recently in Moodle than in the spreadsheet"."""
    now = time.strftime("%Y-%m-%dT%H:%M:%S%z")  # what PHP's strtotime reads
    by_key = {r.key: r for r in results}
    rows = []
    for row in base.lms_rows(book, results, lesson):
        result = by_key.get(row.key)
        status = result.status if result else GRADED
        grade = base.lms_grade(row, result)
        identifier = f"{PARTICIPANT}{row.student}"
        full_name = row.name or row.student
        maximum, comment = f"{row.max_score:g}", _feedback(row, result)
        rows.append([identifier, full_name, row.email, status, grade, maximum, now, comment])
    return write_csv(folder / f"{NAME}-{lesson}.csv", COLUMNS, rows)


def write(book: Book, results: list[Result], root: Path, given=None) -> Written:
    """A worksheet per lesson of the gradebook, in root/exports/ (Moodle needs no setting)."""
    folder = Path(root) / base.EXPORTS
    return Written([worksheet(book, results, lesson, folder) for lesson in book.lessons])


def wrote_before(folder: Path, students: set[str]) -> bool:
    """Whether one of folder's worksheets lists one of `students`."""
    return any(
        base.listed(path, COLUMNS[0], PARTICIPANT) & students
        for path in folder.glob(f"{NAME}-*.csv")
    )


LMS = Lms(NAME, "Moodle", read, write, wrote_before)
