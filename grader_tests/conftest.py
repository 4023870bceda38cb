"""Shared fixtures of the grader tests: the repository root and the lessons found in source/.

A lesson is a folder source/NN-name/ holding NN-name.ipynb; every test that takes a `lesson`
argument runs once per lesson, and every test that takes a `mistake` argument once per mistake
fixture in grader_tests/mistakes/<lesson>/, so a new lesson is covered without editing a test.
"""

import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve().parent
for folder in (REPO_ROOT, HERE):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from nbgrader_harness import load_mistakes  # noqa: E402

from course.classroom.build import discover_lessons  # noqa: E402

LESSONS = discover_lessons(REPO_ROOT)


@pytest.fixture(scope="session")
def repo_root() -> Path:
    """The repository, which is also the nbgrader course directory."""
    return REPO_ROOT


@pytest.fixture(scope="session")
def lessons() -> list[str]:
    """Every lesson in source/, in order."""
    return list(LESSONS)


def _parametrized_by_hand(metafunc: pytest.Metafunc, name: str) -> bool:
    for marker in metafunc.definition.iter_markers("parametrize"):
        names = marker.args[0] if marker.args else marker.kwargs.get("argnames", "")
        if isinstance(names, str):
            names = [n.strip() for n in names.split(",")]
        if name in names:
            return True
    return False


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if any(_parametrized_by_hand(metafunc, name) for name in ("lesson", "mistake")):
        return
    if "mistake" in metafunc.fixturenames:
        pairs = [(lesson, mistake) for lesson in LESSONS for mistake in load_mistakes(lesson)]
        metafunc.parametrize(
            ("lesson", "mistake"),
            pairs,
            ids=[f"{lesson}:{mistake.name}" for lesson, mistake in pairs],
        )
    elif "lesson" in metafunc.fixturenames:
        metafunc.parametrize("lesson", LESSONS)
