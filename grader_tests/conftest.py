"""Shared fixtures of the grader tests: the repository root and the lessons of the registry.

The lessons are those the learner's package declares (`course.lessons.registry()`, each lesson
folder's `LESSON`); a test that takes a `lesson` argument runs once per lesson, and a test that
takes a `mistake` argument once per mistake fixture in grader_tests/mistakes/<lesson>/, so a
new lesson is covered without editing a test. (grader_tests/lessons/test_registry.py checks
that the registry and source/ list the same lessons.)

The tests mirror the code: lessons/ (one suite over every lesson, and each lesson's own
tests), course/ (the learner's package), classroom/ (the instructor's tools), learner/ (the
lessons in JupyterLab, a Colab-like kernel and offline). support/ holds helpers, not tests.
"""

import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
SUPPORT = Path(__file__).resolve().parent / "support"
for folder in (REPO_ROOT, SUPPORT):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from classroom.nbgrader_ext.notebooks import load_mistakes  # noqa: E402
from course.lessons import registry  # noqa: E402

LESSONS = list(registry())


@pytest.fixture(scope="session")
def repo_root() -> Path:
    """The repository, which is also the nbgrader course directory."""
    return REPO_ROOT


@pytest.fixture(scope="session")
def lessons() -> list[str]:
    """Every lesson of the registry, in order."""
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


@pytest.fixture(scope="module", autouse=True)
def no_zygote_outlives_its_module():
    """Warm kernels' zygotes started in this process (GuardedExecute or DecideVerdicts run
    in-process) are stopped after each module, as a worker stops its own at its end, so no
    test module finds another's sandboxes alive."""
    yield
    if "classroom.isolation.zygote" in sys.modules:
        sys.modules["classroom.isolation.zygote"].stop_all()
