"""The lesson tables of README.md and source/START.md come from the lessons themselves.

Each lesson declares its rows once, as TOPIC and BUILDS beside LESSON in its package's
__init__.py (classroom/lesson_tables.py). On a copy of the course, a changed declaration must
make the check name the stale file and `make build` (`--normalise-source`) rewrite the row; a
new lesson gets its rows without anyone writing them; a lesson declaring nothing is named.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from classroom import build, lesson_tables
from classroom.nbgrader_ext import notebooks

ROOT = Path(__file__).resolve().parents[2]
INIT = Path("course") / "lessons" / "contacts" / "__init__.py"  # lesson 08's package


@pytest.fixture
def course(tmp_path) -> Path:
    """A copy of the course's source/, course/, README.md and build settings."""
    for name in ("pyproject.toml", "nbgrader_config.py", "README.md"):
        shutil.copyfile(ROOT / name, tmp_path / name)
    for folder in ("source", "course"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    return tmp_path


def redeclare(root: Path, name: str, value: str) -> None:
    """Set lesson 08's TOPIC or BUILDS to `value` by appending a later assignment."""
    with (root / INIT).open("a", encoding="utf-8") as file:
        file.write(f"{name} = {value!r}\n")


def table_row(path: Path, lesson: str) -> str:
    lines = path.read_text(encoding="utf-8").split("\n")
    return next(line for line in lines if line.startswith(f"| `{lesson}` |"))


def test_committed_tables_are_the_declared_ones():
    """Today's README.md and source/START.md rows are exactly what the lessons declare."""
    lessons = notebooks.discover_lessons(ROOT)
    assert lesson_tables.table_problems(lessons, ROOT) == []
    found = lesson_tables.summaries(lessons, ROOT)
    assert [s.lesson for s in found] == lessons
    start = (ROOT / "source" / "START.md").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for summary in found:
        assert f"| `{summary.lesson}` | {summary.topic} |" in start
        assert f"| `{summary.lesson}` | {summary.builds} | " in readme


def test_a_changed_topic_makes_start_md_stale_and_the_build_rewrites_it(course):
    redeclare(course, "TOPIC", "a new topic for the contacts lesson")
    assert build.readme_problems(course) == []
    assert build.start_page_problems(root=course)[0].startswith("source/START.md: ")
    assert build.main(["--normalise-source", "--root", str(course), "08-contacts"]) == 0
    start = course / "source" / "START.md"
    assert (
        table_row(start, "08-contacts") == "| `08-contacts` | a new topic for the contacts lesson |"
    )
    assert build.start_page_problems(root=course) == []
    assert (course / "release" / "START.md").read_bytes() == start.read_bytes()


def test_a_changed_builds_line_makes_the_readme_stale(course):
    redeclare(course, "BUILDS", "`a_function`")
    problems = build.readme_problems(course)
    assert len(problems) == 1 and problems[0].startswith("README.md: ")
    assert lesson_tables.write_tables(notebooks.discover_lessons(course), course) == ["README.md"]
    row = table_row(course / "README.md", "08-contacts")
    assert row.startswith("| `08-contacts` | `a_function` | ")
    assert build.readme_problems(course) == []


def test_a_new_lesson_gets_its_rows_and_one_without_a_summary_is_named(course):
    old = course / "source" / "08-contacts"
    new = course / "source" / "09-new-lesson"
    shutil.copytree(old, new)
    (new / "08-contacts.ipynb").rename(new / "09-new-lesson.ipynb")
    lessons = notebooks.discover_lessons(course)
    assert lessons[-1] == "09-new-lesson"
    problems = lesson_tables.table_problems(lessons, course)
    assert len(problems) == 2 and all("09-new-lesson: no TOPIC or BUILDS" in p for p in problems)
    with pytest.raises(lesson_tables.SummaryError, match="09-new-lesson"):
        lesson_tables.write_tables(lessons, course)

    package = course / "course" / "lessons" / "new_lesson"
    package.mkdir()
    (package / "__init__.py").write_text(
        '"""Lesson 09."""\n\nLESSON = "09-new-lesson"\nTOPIC = "what is new"\n'
        'BUILDS = "`new_function`"\n',
        encoding="utf-8",
    )
    assert sorted(lesson_tables.write_tables(lessons, course)) == ["README.md", "source/START.md"]
    start = course / "source" / "START.md"
    assert table_row(start, "09-new-lesson") == "| `09-new-lesson` | what is new |"
    # The new row follows lesson 08's, and the prose after the table is still there.
    lines = start.read_text(encoding="utf-8").split("\n")
    index = lines.index("| `09-new-lesson` | what is new |")
    assert lines[index - 1].startswith("| `08-contacts` |") and lines[index + 1] == ""
    assert "How a lesson works:" in start.read_text(encoding="utf-8")
    assert table_row(course / "README.md", "09-new-lesson").startswith(
        "| `09-new-lesson` | `new_function` | "
    )
    assert lesson_tables.table_problems(lessons, course) == []
