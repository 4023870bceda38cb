"""The lesson tables of README.md and source/START.md, written by the build from the lessons.

Each lesson declares its two table cells once, in its package's docstring file
course/lessons/<package>/__init__.py, beside `LESSON = "<folder>"`:

    TOPIC = "..."   # source/START.md, "what it is about"
    BUILDS = "..."  # README.md, "what you build"

so a new lesson adds no row by hand: `make build` rewrites both tables (one row per lesson of
source/, in order) and `python -m classroom.build --check` names a stale one. The constants are
read with `ast`, without importing the lesson (which would import MuJoCo).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from classroom import setup_cell

START = "source/START.md"
README = "README.md"
HEADERS = {  # each file's table, found by its header line
    START: "| folder | what it is about |",
    README: "| lesson | what you build | open in Colab |",
}


@dataclass(frozen=True)
class LessonSummary:
    """What a lesson declares about itself for the tables (plain Markdown, one line each)."""

    lesson: str
    topic: str
    builds: str


class SummaryError(ValueError):
    """A lesson of source/ declares no TOPIC or BUILDS; the message names it."""


def _constants(path: Path) -> dict[str, str]:
    """The module-level string constants of a Python file, read without running it."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
            for target in node.targets:
                if isinstance(target, ast.Name) and isinstance(node.value.value, str):
                    found[target.id] = node.value.value
    return found


def summaries(lessons: list[str], root: Path | str) -> list[LessonSummary]:
    """Each lesson's declared summary, in the order of `lessons`; SummaryError names the first
    lesson without one."""
    declared = {}
    for init in sorted((Path(root) / "course" / "lessons").glob("*/__init__.py")):
        constants = _constants(init)
        if "LESSON" in constants:
            declared[constants["LESSON"]] = constants
    result = []
    for lesson in lessons:
        constants = declared.get(lesson, {})
        missing = [name for name in ("TOPIC", "BUILDS") if name not in constants]
        if missing:
            raise SummaryError(
                f"{lesson}: no {' or '.join(missing)} in course/lessons/*/__init__.py "
                f'beside LESSON = "{lesson}"'
            )
        result.append(LessonSummary(lesson, constants["TOPIC"], constants["BUILDS"]))
    return result


def _with_rows(text: str, header: str, rows: list[str]) -> str:
    """`text` with the rows of the table under `header` (after its `| --- |` line) replaced."""
    lines = text.split("\n")
    if header not in lines:
        return text
    start = lines.index(header) + 2  # the header and its separator stay
    end = start
    while end < len(lines) and lines[end].startswith("|"):
        end += 1
    return "\n".join(lines[:start] + rows + lines[end:])


def start_page(text: str, found: list[LessonSummary]) -> str:
    """source/START.md with its lesson table written from the lessons' TOPIC."""
    rows = [f"| `{s.lesson}` | {s.topic} |" for s in found]
    return _with_rows(text, HEADERS[START], rows)


def readme(text: str, found: list[LessonSummary], root: Path | str) -> str:
    """README.md with its lesson table written from the lessons' BUILDS and Colab badges."""
    rows = [
        f"| `{s.lesson}` | {s.builds} | {setup_cell.readme_badge(s.lesson, root)} |" for s in found
    ]
    return _with_rows(text, HEADERS[README], rows)


def _written(name: str, text: str, lessons: list[str], root: Path) -> str:
    """`text` (the file `name`) with its lesson table written; unchanged without the table (a
    toy course's start page), so only a course with the table needs the summaries."""
    if HEADERS[name] not in text.split("\n"):
        return text
    found = summaries(lessons, root)
    return readme(text, found, root) if name == README else start_page(text, found)


def table_problems(
    lessons: list[str], root: Path | str, names: list[str] | tuple[str, ...] = (README, START)
) -> list[str]:
    """One line for each file of `names` whose lesson table is not the one the lessons
    declare (or that names a lesson declaring no summary); files without the table pass."""
    root = Path(root)
    problems = []
    for name in names:
        path = root / name
        if not path.is_file():
            continue
        text = path.read_text(encoding="utf-8")
        try:
            if _written(name, text, lessons, root) != text:
                problems.append(f"{name}: the lesson table is stale (run `make build`)")
        except SummaryError as exc:
            problems.append(f"{name}: {exc}")
    return problems


def write_tables(lessons: list[str], root: Path | str) -> list[str]:
    """Rewrite the lesson tables of README.md and source/START.md; the files changed.
    Raises SummaryError when a lesson declares no summary."""
    root = Path(root)
    changed = []
    for name in (README, START):
        path = root / name
        if not path.is_file():
            continue
        text = path.read_text(encoding="utf-8")
        written = _written(name, text, lessons, root)
        if written != text:
            path.write_text(written, encoding="utf-8")
            changed.append(name)
    return changed
