"""The first code cell of every lesson and its "Open in Colab" badge, defined here once.

The build stamps both into each source notebook (`python -m classroom.build
--normalise-source`), and `source_problems` reports a notebook whose set-up cell or badge
differs from what this module makes, so a change here reaches every lesson or fails the tests.

The set-up cell has two parts:

- the course's part, written here: in Google Colab it installs what Colab lacks (MuJoCo,
  mediapy, an ffmpeg binary, the Menagerie loader and the course package from
  COURSE_REPOSITORY), keeping Colab's own ipywidgets, widgetsnbextension, numpy and
  matplotlib exactly as they are (a pip constraints file pins them, and the course package is
  installed with --no-deps); it does nothing on a learner's own machine or while nbgrader
  grades (NBGRADER_EXECUTION is set). It ends with `import course`, which sets MUJOCO_GL=egl
  on Linux without a display before anything imports mujoco.
- the lesson's part: everything after that `import course` line (the lesson's imports and
  the one line it prints), kept as the lesson's author wrote it.

It is plain Python, without `!pip` or `%pip`, so ruff, nbgrader and a plain interpreter all
read it, and the install can be conditional on Colab. Pip's own report is captured: on success
the cell prints only the lesson's one line.

    python -m classroom.setup_cell --colab-requirements   # what the cell installs
"""

from __future__ import annotations

import argparse
import copy
import re
import sys
import tomllib
from pathlib import Path

import nbformat

# The public home of the course. A placeholder until the repository is published: the organisation
# and name are this project's choice, not an existing address. Change it here only, then run
# `python -m classroom.build --normalise-source && python -m classroom.build`.
COURSE_REPOSITORY = "https://github.com/mujoco-physics-course/mujoco-physics-course"
COURSE_BRANCH = "main"

REPO_ROOT = Path(__file__).resolve().parents[1]

# Colab ships these; the cell never installs or upgrades them (ipywidgets 8 breaks Colab's
# widgets, and a new numpy or matplotlib would need a runtime restart, a second click).
COLAB_KEEPS = ("ipywidgets", "widgetsnbextension", "numpy", "matplotlib")

COLAB_BADGE_IMAGE = "https://colab.research.google.com/assets/colab-badge.svg"
BADGE_ALT = "Open In Colab"

# Where the course's part of the set-up cell starts and ends.
SETUP_TITLE = "# @title Set-up: run this cell first"
COURSE_IMPORT = re.compile(r"^import course\b")
SETUP_GRADE_ID = "setup"
# Colab shows a cell in form view as its @title line, code folded (cellView); JupyterLab folds
# a cell whose source is hidden (jupyter.source_hidden), showing a "..." to unfold it.
SETUP_METADATA = {"cellView": "form", "jupyter": {"source_hidden": True}}

SETUP_TEMPLATE = """\
{title}
# In Colab this installs MuJoCo, mediapy and the course package, and leaves Colab's own
# ipywidgets, numpy and matplotlib as they are. Elsewhere, and while the notebook is graded, it
# installs nothing. (The course build writes this part from classroom/setup_cell.py.)
import os
import sys


def _install_course_in_colab():
    import importlib
    import subprocess
    import tempfile
    from importlib.metadata import PackageNotFoundError, version

    def installed(name):
        try:
            return version(name)
        except PackageNotFoundError:
            return None

    needed = {{
{needed}
    }}
    repository = "{repository}"
    course_package = f"{distribution} @ git+{{repository}}@{branch}"
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as keep:
        for name in ({keeps}):
            if installed(name):
                keep.write(f"{{name}}=={{installed(name)}}\\n")
    steps = []
    missing = [spec for name, spec in needed.items() if not installed(name)]
    if missing:
        steps.append(["--constraint", keep.name, *missing])
    if not installed("{distribution}"):
        steps.append(["--no-deps", course_package])
    for args in steps:
        pip = [sys.executable, "-m", "pip", "install", "--quiet", *args]
        run = subprocess.run(pip, capture_output=True, text=True)
        if run.returncode != 0:
            raise RuntimeError("Installing the course failed:\\n" + run.stderr[-2000:])
    importlib.invalidate_caches()


if "google.colab" in sys.modules and not os.environ.get("NBGRADER_EXECUTION"):
    _install_course_in_colab()
del _install_course_in_colab

import course  # isort: skip  (first: it picks MuJoCo's OpenGL back end before mujoco loads)
"""


class SetupCellError(ValueError):
    """A lesson notebook has no cell the set-up can be stamped into."""


# --------------------------------------------------------------------------------------------
# What the cell installs


def _pyproject(root: Path | str = REPO_ROOT) -> dict:
    return tomllib.loads((Path(root) / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def _distribution_name(requirement: str) -> str:
    """The normalised distribution name of a requirement string ("imageio_ffmpeg>=0.5")."""
    match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement)
    if not match:
        raise ValueError(f"not a requirement: {requirement!r}")
    return re.sub(r"[-_.]+", "-", match.group(1)).lower()


def course_distribution(root: Path | str = REPO_ROOT) -> str:
    """The course package's distribution name, from pyproject.toml."""
    return _pyproject(root)["name"]


def colab_requirements(root: Path | str = REPO_ROOT) -> dict[str, str]:
    """{distribution: requirement} the cell installs in Colab when missing: the course
    package's own dependencies (pyproject.toml), less those Colab ships and must keep."""
    requirements = {}
    for requirement in _pyproject(root)["dependencies"]:
        name = _distribution_name(requirement)
        if name not in COLAB_KEEPS:
            requirements[name] = requirement.strip()
    return requirements


def course_pip_spec(root: Path | str = REPO_ROOT) -> str:
    """What the cell gives pip for the course package: a direct reference to the repository."""
    return f"{course_distribution(root)} @ git+{COURSE_REPOSITORY}@{COURSE_BRANCH}"


_COURSE_PACKAGE_LINE = re.compile(r"^(    course_package = ).*$", re.MULTILINE)


def with_course_package(source: str, spec: str) -> str:
    """The set-up cell's source installing the course package from `spec` (a wheel's path,
    say) instead of the repository; the tests use it to run the install step offline.
    Raises SetupCellError unless the cell names the course package exactly once."""
    new, count = _COURSE_PACKAGE_LINE.subn(lambda m: m.group(1) + repr(str(spec)), source)
    if count != 1:
        raise SetupCellError(f"the set-up cell names the course package {count} times, not once")
    return new


# --------------------------------------------------------------------------------------------
# The cell and the badge


def setup_block(root: Path | str = REPO_ROOT) -> str:
    """The course's part of the set-up cell, ending with the `import course` line."""
    needed = "\n".join(
        f'        "{name}": "{spec}",' for name, spec in colab_requirements(root).items()
    )
    return SETUP_TEMPLATE.format(
        title=SETUP_TITLE,
        needed=needed,
        repository=COURSE_REPOSITORY,
        branch=COURSE_BRANCH,
        keeps=", ".join(f'"{name}"' for name in COLAB_KEEPS),
        distribution=course_distribution(root),
    )


def lesson_part(source: str) -> str:
    """What follows the course's part in a set-up cell: the lines after its first
    `import course` line, leading blank lines dropped. A cell without one is all lesson."""
    lines = source.split("\n")
    for index, line in enumerate(lines):
        if COURSE_IMPORT.match(line):
            lines = lines[index + 1 :]
            break
    while lines and not lines[0].strip():
        lines.pop(0)
    return "\n".join(lines).rstrip("\n")


def stamped_setup_source(source: str, root: Path | str = REPO_ROOT) -> str:
    """A set-up cell's source with the course's part replaced by the current one."""
    rest = lesson_part(source)
    block = setup_block(root).rstrip("\n")
    return f"{block}\n\n{rest}" if rest else block


def colab_url(lesson: str) -> str:
    """Where Colab opens the lesson's release notebook straight from the repository."""
    repository = COURSE_REPOSITORY.removeprefix("https://github.com/")
    return (
        f"https://colab.research.google.com/github/{repository}/blob/{COURSE_BRANCH}"
        f"/release/{lesson}/{lesson}.ipynb"
    )


def colab_badge(lesson: str) -> str:
    """The Markdown "Open in Colab" badge of a lesson."""
    return f"[![{BADGE_ALT}]({COLAB_BADGE_IMAGE})]({colab_url(lesson)})"


def _is_badge(line: str) -> bool:
    return line.startswith(f"[![{BADGE_ALT}]")


def stamped_markdown_source(source: str, lesson: str) -> str:
    """The first markdown cell's source opening with the lesson's badge, then a blank line."""
    lines = source.split("\n")
    while lines and (_is_badge(lines[0]) or not lines[0].strip()):
        lines.pop(0)
    return "\n".join([colab_badge(lesson), "", *lines]).rstrip("\n")


def setup_cell_index(nb: nbformat.NotebookNode) -> int:
    """Index of the set-up cell: the code cell whose nbgrader grade_id is "setup", else the
    first code cell. Raises SetupCellError when there is no code cell."""
    code = [i for i, cell in enumerate(nb.cells) if cell.cell_type == "code"]
    for index in code:
        if nb.cells[index].metadata.get("nbgrader", {}).get("grade_id") == SETUP_GRADE_ID:
            return index
    if not code:
        raise SetupCellError("the notebook has no code cell for the set-up")
    return code[0]


def _first_markdown_index(nb: nbformat.NotebookNode) -> int:
    for index, cell in enumerate(nb.cells):
        if cell.cell_type == "markdown":
            return index
    raise SetupCellError("the notebook has no markdown cell for the Open in Colab badge")


def stamp_notebook(
    nb: nbformat.NotebookNode, lesson: str, root: Path | str = REPO_ROOT
) -> nbformat.NotebookNode:
    """A copy of nb with the current set-up cell and the lesson's Colab badge."""
    nb = copy.deepcopy(nb)
    setup = nb.cells[setup_cell_index(nb)]
    setup.source = stamped_setup_source(setup.source, root)
    setup.metadata.update(SETUP_METADATA)
    first = nb.cells[_first_markdown_index(nb)]
    first.source = stamped_markdown_source(first.source, lesson)
    return nb


def stamp_problems(
    nb: nbformat.NotebookNode, lesson: str, name: str, root: Path | str = REPO_ROOT
) -> list[str]:
    """Why nb's set-up cell or badge is not what `stamp_notebook` makes (empty when it is)."""
    try:
        stamped = stamp_notebook(nb, lesson, root)
        setup = setup_cell_index(nb)
        first = _first_markdown_index(nb)
    except SetupCellError as exc:
        return [f"{name}: {exc}"]
    problems = []
    if (nb.cells[setup].source, nb.cells[setup].metadata) != (
        stamped.cells[setup].source,
        stamped.cells[setup].metadata,
    ):
        problems.append(
            f"{name}: cell {setup} (set-up) is not the course's current set-up cell "
            "(classroom/setup_cell.py)"
        )
    if nb.cells[first].source != stamped.cells[first].source:
        problems.append(f"{name}: cell {first} does not open with the lesson's Open in Colab badge")
    return problems


# --------------------------------------------------------------------------------------------
# README


def readme_badges(lessons: list[str]) -> str:
    """A Markdown table of the lessons with their Colab badges, for the README."""
    rows = ["| lesson | open in Colab |", "| --- | --- |"]
    rows += [f"| `{lesson}` | {colab_badge(lesson)} |" for lesson in lessons]
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m classroom.setup_cell",
        description="Print what the lessons' Colab set-up cell installs, or the cell itself.",
    )
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument(
        "--colab-requirements",
        action="store_true",
        help="the requirements the cell installs in Colab, one a line",
    )
    group.add_argument("--cell", action="store_true", help="the course's part of the cell")
    group.add_argument("--readme", action="store_true", help="the README's table of badges")
    args = parser.parse_args(argv)
    if args.colab_requirements:
        print("\n".join(colab_requirements().values()))
    elif args.cell:
        print(setup_block(), end="")
    else:
        from classroom.build import discover_lessons

        print(readme_badges(discover_lessons()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
