"""Shared fixtures of the preprocessor tests: the fixture notebooks and a one-lesson course.

As nbgrader's own tests (nbgrader/tests/preprocessors/) read small notebooks from files/,
these read the named notebooks of fixtures/, written by fixtures/make_fixtures.py (its
docstrings say what each one is). The tests never regenerate them.

The lesson is "toy": the release-based preprocessors find it in a course directory made in
tmp_path (release/toy/toy.ipynb, a copy of fixtures/release.ipynb), through a traitlets
Config whose CourseDirectory.root is that folder, as nbgrader_config.py sets it.

GuardedExecute and DecideVerdicts run learners' code in the real sandbox. A test that needs it
takes the `require_sandbox` fixture and calls it first: when the sandbox cannot run here,
the test fails with the reason under CI (the variable CI set) and is skipped with it
otherwise; fixtures that run notebooks in it return None then, so the test body says so.
"""

from __future__ import annotations

import shutil
import warnings
from pathlib import Path

import nbformat
import pytest
from sandbox_required import require_sandbox as _require_sandbox
from traitlets.config import Config

FIXTURES = Path(__file__).resolve().parent / "fixtures"
LESSON = "toy"


@pytest.fixture(scope="session")
def require_sandbox():
    """require_sandbox(): fail (under CI) or skip, with the reason, unless the sandbox runs."""
    return _require_sandbox


def read_fixture(name: str) -> nbformat.NotebookNode:
    """fixtures/<name>.ipynb read as nbgrader reads a submission (nbformat.read, version 4).

    nbformat repairs some things while reading (a duplicate id in a 4.5 file, a missing one)
    and warns about it; the warning is about the fixture, not the code under test."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return nbformat.read(FIXTURES / f"{name}.ipynb", as_version=4)


@pytest.fixture(scope="session")
def read_nb():
    """read_nb(name): a fixture notebook, freshly read at each call."""
    return read_fixture


@pytest.fixture
def release() -> nbformat.NotebookNode:
    """The toy lesson's release notebook, as the course directory holds it."""
    return read_fixture("release")


@pytest.fixture
def course(tmp_path) -> Config:
    """The nbgrader configuration of a course whose release/ holds the toy lesson."""
    root = tmp_path / "course"
    folder = root / "release" / LESSON
    folder.mkdir(parents=True)
    shutil.copyfile(FIXTURES / "release.ipynb", folder / f"{LESSON}.ipynb")
    config = Config()
    config.CourseDirectory.root = str(root)
    return config


@pytest.fixture(scope="module")
def toy_course(read_nb, tmp_path_factory) -> Path:
    """A course directory holding the toy lesson, generated from fixtures/source.ipynb:
    release/ and its gradebook (one course per test module, which may add to it)."""
    from classroom import build
    from classroom.nbgrader_ext import notebooks

    root = tmp_path_factory.mktemp("toy-course")
    shutil.copyfile(build.REPO_ROOT / build.CONFIG_FILE, root / build.CONFIG_FILE)
    notebooks.write(read_nb("source"), root / "source" / LESSON / f"{LESSON}.ipynb")
    build.run_generate(root, LESSON, solution=False)
    return root


@pytest.fixture
def resources() -> dict:
    """The resources nbgrader's converters hand each preprocessor of the toy lesson."""
    return {"nbgrader": {"assignment": LESSON, "notebook": LESSON}}
