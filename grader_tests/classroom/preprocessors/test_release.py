"""release_of: the release notebook a submission was handed out as, found from nbgrader's
configuration (CourseDirectory) and the resources nbgrader hands each preprocessor; None
when there is none. On the `course` fixture: release/toy/toy.ipynb is fixtures/release.ipynb.
"""

from __future__ import annotations

import os
from types import SimpleNamespace

import pytest

from classroom.nbgrader_ext import notebooks
from classroom.nbgrader_ext.preprocessors.release import release_of


def _step(config) -> SimpleNamespace:
    """What release_of reads of a preprocessor: its configuration."""
    return SimpleNamespace(config=config)


@pytest.mark.timeout(30)
def test_the_lesson_s_release_is_found(course, resources, release):
    assert release_of(_step(course), resources) == release


@pytest.mark.timeout(30)
@pytest.mark.parametrize(
    "info",
    [
        {},
        {"assignment": "toy"},
        {"notebook": "toy"},
        {"assignment": "other", "notebook": "toy"},
        {"assignment": "toy", "notebook": "renamed"},
    ],
    ids=["nothing", "no notebook", "no lesson", "lesson not released", "notebook not released"],
)
def test_none_when_there_is_no_release(course, info):
    assert release_of(_step(course), {"nbgrader": info}) is None


@pytest.mark.timeout(30)
def test_a_rewritten_release_is_read_again(course, resources, read_nb):
    """Read once while unchanged (the same object), afresh once the file changes."""
    first = release_of(_step(course), resources)
    assert release_of(_step(course), resources) is first

    path = os.path.join(course.CourseDirectory.root, "release", "toy", "toy.ipynb")
    changed = read_nb("release")
    changed.cells[0].source += "\n\nA sentence added."
    notebooks.write(changed, path)
    later = os.stat(path).st_mtime + 5  # a later time than the first read's, whatever the clock
    os.utime(path, (later, later))

    assert release_of(_step(course), resources).cells[0].source.endswith("A sentence added.")
