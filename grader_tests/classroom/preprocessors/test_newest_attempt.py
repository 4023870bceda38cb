"""NewestAttemptCollector: of a student's Canvas attempts of one released notebook
(`toy.ipynb`, `toy-1.ipynb`, `toy-2.ipynb`), zip_collect collects only the newest, under the
released name, and says in one line which older one it skipped.

The fixture is a small tree built here: a course whose release/toy/ holds toy.ipynb, and an
extracted download named as Canvas names files (`<name>_<student id>_<submission>_<file>`),
read with the regular expression the instructor's guide gives.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from nbgrader.coursedir import CourseDirectory
from traitlets.config import Config, Configurable

from classroom.nbgrader_ext.preprocessors.newest_attempt import NewestAttemptCollector

REGEXP = r".*_(?P<student_id>\d+)_\d+_(?P<file_id>.*)"
DOWNLOAD = (
    "jones_bob_22345_67892_toy.ipynb",  # bob's first attempt
    "jones_bob_22345_67899_toy-1.ipynb",
    "jones_bob_22345_67900_toy-2.ipynb",  # bob's newest
    "kim_ivan_22346_67894_toy.ipynb",  # ivan handed in once
    "lee_ann_22347_67895_notes-1.ipynb",  # not a released notebook: not an attempt
)


class _ZipCollect(Configurable):
    """What the collector reads of its parent, nbgrader's ZipCollectApp: the course directory."""

    def __init__(self, coursedir, **kwargs):
        super().__init__(**kwargs)
        self.coursedir = coursedir


@pytest.fixture
def download(tmp_path) -> Path:
    """The extracted download (every file of DOWNLOAD) beside a course releasing toy.ipynb."""
    (tmp_path / "course" / "release" / "toy").mkdir(parents=True)
    (tmp_path / "course" / "release" / "toy" / "toy.ipynb").write_text("{}", encoding="utf-8")
    folder = tmp_path / "extracted"
    folder.mkdir()
    for name in DOWNLOAD:
        (folder / name).write_text("{}", encoding="utf-8")
    return folder


def _collector(tmp_path, *, with_course: bool = True) -> NewestAttemptCollector:
    config = Config()
    config.CourseDirectory.root = str(tmp_path / "course")
    coursedir = CourseDirectory(config=config)
    coursedir.assignment_id = "toy"
    log = logging.getLogger(f"newest-attempt.{tmp_path.name}")  # its own: the filter stays on it
    parent = _ZipCollect(coursedir) if with_course else None
    return NewestAttemptCollector(parent=parent, named_regexp=REGEXP, log=log)


@pytest.mark.timeout(30)
def test_the_newest_attempt_is_collected_under_the_released_name(download, tmp_path):
    info = _collector(tmp_path).collect(str(download / DOWNLOAD[2]))

    assert (info["student_id"], info["file_id"]) == ("22345", "toy.ipynb")


@pytest.mark.timeout(30)
@pytest.mark.parametrize("older", DOWNLOAD[:2])
def test_an_older_attempt_is_skipped_naming_the_newest(download, tmp_path, older, caplog):
    collector = _collector(tmp_path)
    with caplog.at_level(logging.WARNING, logger=collector.log.name):
        info = collector.collect(str(download / older))

    assert info is None
    (line,) = [r.getMessage() for r in caplog.records]
    assert (
        line
        == f"Not collected: {older}, an older attempt than {DOWNLOAD[2]} (the newest is graded)"
    )


@pytest.mark.timeout(30)
def test_another_student_s_attempts_do_not_hide_one_s_own(download, tmp_path):
    info = _collector(tmp_path).collect(str(download / DOWNLOAD[3]))

    assert (info["student_id"], info["file_id"]) == ("22346", "toy.ipynb")


@pytest.mark.timeout(30)
def test_a_name_not_released_keeps_its_number(download, tmp_path):
    """`notes-1.ipynb` is not an attempt at a released notebook: collected as it is named."""
    info = _collector(tmp_path).collect(str(download / DOWNLOAD[4]))

    assert (info["student_id"], info["file_id"]) == ("22347", "notes-1.ipynb")


@pytest.mark.timeout(30)
def test_without_a_course_no_name_is_read_as_an_attempt(download, tmp_path):
    info = _collector(tmp_path, with_course=False).collect(str(download / DOWNLOAD[1]))

    assert info["file_id"] == "toy-1.ipynb"


@pytest.mark.timeout(30)
def test_nbgrader_s_no_match_line_is_dropped_for_a_skipped_attempt_only(download, tmp_path, caplog):
    """zip_collect's "no match information" line would mislead for an attempt skipped as
    older (the collector said why); for any other file it stays."""
    collector = _collector(tmp_path)
    skipped, other = str(download / DOWNLOAD[0]), str(download / "unreadable.ipynb")
    collector.collect(skipped)
    caplog.clear()  # the collector's own line about it
    with caplog.at_level(logging.WARNING, logger=collector.log.name):
        for path in (skipped, other):
            collector.log.warning("Skipped submission with no match information provided: %s", path)

    assert [r.getMessage().rsplit(": ", 1)[-1] for r in caplog.records] == [other]
