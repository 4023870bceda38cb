"""The lesson registry: one folder per lesson in the learner's package, found by itself.

Each lesson folder course/lessons/<name>/ declares `LESSON = "NN-name"`, the name of its
source/ folder; `course.lessons.registry()` finds them. A lesson imports the shared modules of
`course` and never another lesson, and the shared modules import no lesson, so that what two
lessons share lives at the shared level.
"""

import ast
import re
from pathlib import Path

import lesson_code
import pytest

from classroom.nbgrader_ext import notebooks
from course import lessons

COURSE = Path(lessons.__file__).resolve().parents[1]
REPO = COURSE.parent


def imports_of(path: Path) -> set[str]:
    """The modules a Python file imports (absolute names)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def test_registry_lists_the_lessons_of_source():
    assert list(lessons.registry()) == notebooks.discover_lessons()


def test_every_lesson_has_a_folder_with_its_checks(lesson):
    package = lessons.package(lesson)
    folder = Path(package.__file__).parent
    assert folder.parent == COURSE / "lessons", folder
    assert (folder / "checks.py").is_file(), f"{folder}: the visible checks live in checks.py"


def test_two_packages_claiming_one_lesson_are_an_error(tmp_path, monkeypatch):
    for name in ("first", "second"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text('LESSON = "99-twice"\n')
    monkeypatch.setattr(lessons, "__path__", [str(tmp_path)])
    monkeypatch.setattr(lessons, "__name__", "course.lessons")
    monkeypatch.syspath_prepend(str(tmp_path.parent))
    with pytest.raises(Exception, match="99-twice"):
        lessons.registry()


def test_lessons_never_import_each_other(lesson):
    package = lessons.package(lesson)
    own = package.__name__
    others = [p.__name__ for name, p in lessons.registry().items() if name != lesson]
    for path in Path(package.__file__).parent.rglob("*.py"):
        bad = [m for m in imports_of(path) if any(m.startswith(o) for o in others)]
        assert not bad, f"{path.relative_to(COURSE.parent)} ({own}) imports {bad}"


def test_shared_modules_import_no_lesson():
    for path in COURSE.glob("*.py"):
        bad = [m for m in imports_of(path) if m.startswith("course.lessons")]
        assert not bad, f"{path.name} is shared but imports {bad}"


def test_the_learners_package_never_imports_the_instructors_tools():
    for path in COURSE.rglob("*.py"):
        bad = [m for m in imports_of(path) if m.split(".")[0] in ("classroom", "nbgrader")]
        assert not bad, f"{path.relative_to(COURSE.parent)} imports {bad}"


def own_tests_path(lesson: str) -> Path:
    return REPO / (lesson_code.own_tests(lesson).replace(".", "/") + ".py")


def own_files(lesson: str) -> set[Path]:
    """The files of one lesson alone: its package's modules and its own test module."""
    folder = Path(lessons.package(lesson).__file__).parent
    return set(folder.rglob("*.py")) | {own_tests_path(lesson)}


def lessons_named(text: str) -> set[str]:
    """The registry's lessons a text names, by folder ("02-time-integration") or by package
    ("course.lessons.time_integration")."""
    found = set()
    for lesson, package in lessons.registry().items():
        if re.search(rf"\b{re.escape(lesson)}\b|\b{re.escape(package.__name__)}\b", text):
            found.add(lesson)
    return found


def shared_files() -> list[Path]:
    """The course's text files that belong to no one lesson: its tools, tests, docs and build.
    README.md and source/START.md, pages for learners with one row a lesson, are left out:
    their tests check that they name every lesson of the registry."""
    own = set().union(*(own_files(lesson) for lesson in lessons.registry()))
    mistakes = REPO / "grader_tests" / "mistakes"
    found = [REPO / name for name in ("Makefile", "nbgrader_config.py", "pyproject.toml")]
    for folder, pattern in (("classroom", "*.py"), ("grader_tests", "*.py"), ("docs", "*.md")):
        found += (REPO / folder).rglob(pattern)
    found += (REPO / ".ci").glob("*")
    found += COURSE.glob("*.py")
    return [p for p in found if p.is_file() and p not in own and mistakes not in p.parents]


def test_every_lesson_has_its_own_test_module(lesson):
    assert own_tests_path(lesson).is_file()


def test_no_shared_file_lists_the_lessons():
    """Every list of lessons derives from the registry: a file outside the lessons' own names
    a lesson as an example or in a list of exceptions (test_lessons_run.py's), never most of
    them, which would be a list a new lesson has to edit by hand."""
    most = len(lessons.registry()) // 2
    too_many = {
        str(path.relative_to(REPO)): sorted(named)
        for path in shared_files()
        if len(named := lessons_named(path.read_text(encoding="utf-8"))) > most
    }
    assert too_many == {}
