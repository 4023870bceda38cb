"""The first code cell of every lesson and its "Open in Colab" badge, defined here once.

The build stamps both into each source notebook (`python -m classroom.build
--normalise-source`), and `source_problems` reports a notebook whose set-up cell or badge
differs from what this module makes, so a change here reaches every lesson or fails the tests.

The set-up cell has two parts:

- the course's part, written here: in Google Colab it installs what Colab lacks (MuJoCo,
  mediapy, an ffmpeg binary, the Menagerie loader and the course package), keeping Colab's
  own ipywidgets, widgetsnbextension, numpy and matplotlib exactly as they are (a pip
  constraints file pins them, and the course package is installed with --no-deps); it does
  nothing on a learner's own machine or while nbgrader grades (NBGRADER_EXECUTION is set).
  The course package comes from, in order: the course wheel beside the notebook (the build
  writes it into release/; a learner who uploads a notebook to Colab uploads it too), then
  the course's published address (`pip install git+ADDRESS`); with neither, the cell stops
  with one line saying what to do. It ends with `import course`, which sets MUJOCO_GL=egl on
  Linux without a display before anything imports mujoco.
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
from dataclasses import dataclass
from pathlib import Path

import nbformat

REPO_ROOT = Path(__file__).resolve().parents[1]

# The course's published address is a setting, read from pyproject.toml (see CourseAddress).
ADDRESS_TABLE = "mujoco-course"
GITHUB = "https://github.com/"

# Colab ships these; the cell never installs or upgrades them (ipywidgets 8 breaks Colab's
# widgets, and a new numpy or matplotlib would need a runtime restart, a second click).
COLAB_KEEPS = ("ipywidgets", "widgetsnbextension", "numpy", "matplotlib")

COLAB_BADGE_IMAGE = "https://colab.research.google.com/assets/colab-badge.svg"
BADGE_ALT = "Open In Colab"
# A notebook's badge is a text link, not the badge image: offline, JupyterLab shows an image it
# cannot fetch as a broken-image icon, while a link reads the same everywhere. Only the README,
# read on the web, shows the image. Unpublished, the line says how to take a lesson to Colab.
BADGE_LINK_TEXT = "Open in Colab"
UNPUBLISHED_BADGE = (
    "*To run this lesson in Google Colab, upload it together with the course wheel "
    "`{wheel}` (in release/), then run the set-up cell.*"
)
# First lines the stamp replaces: every badge form this module has written.
BADGE_PREFIXES = (
    f"[![{BADGE_ALT}]",
    f"[{BADGE_LINK_TEXT}](",
    "*To run this lesson in Google Colab",
)

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
    import glob
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
    # The course package: the wheel beside the notebook (or one folder up, as in release/),
    # else the course's published git address, else nothing to install it from.
    repository = "{repository}"
    pattern = "{wheel_glob}"
    wheels = sorted(glob.glob(pattern)) or sorted(glob.glob("../" + pattern))
    if wheels:
        course_package = wheels[-1]
    elif repository:
        course_package = f"{distribution} @ git+{{repository}}@{branch}"
    else:
        course_package = None
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as keep:
        for name in ({keeps}):
            if installed(name):
                keep.write(f"{{name}}=={{installed(name)}}\\n")
    steps = []
    missing = [spec for name, spec in needed.items() if not installed(name)]
    if missing:
        steps.append(["--constraint", keep.name, *missing])
    if not installed("{distribution}"):
        if course_package is None:
            raise RuntimeError(
                f"The course package is missing: upload the course wheel {{pattern}} (in the "
                "course's release/ folder) beside this notebook, then run this cell again."
            )
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


def course_version(root: Path | str = REPO_ROOT) -> str:
    """The course package's version, from pyproject.toml."""
    return _pyproject(root)["version"]


def wheel_name(root: Path | str = REPO_ROOT) -> str:
    """The file name of the course wheel the build writes into release/ (the wheel naming
    rule: distribution with underscores, version, pure Python 3)."""
    distribution = re.sub(r"[-_.]+", "_", course_distribution(root))
    return f"{distribution}-{course_version(root)}-py3-none-any.whl"


def wheel_glob(root: Path | str = REPO_ROOT) -> str:
    """The pattern the set-up cell finds a course wheel by, whatever its version."""
    return re.sub(r"-[^-]+-py3-none-any\.whl$", "-*-py3-none-any.whl", wheel_name(root))


@dataclass(frozen=True)
class CourseAddress:
    """Where the course is published: a git repository pip can install from (`pip install
    git+{repository}@{branch}`), e.g. "https://github.com/ORG/NAME"; "" when unpublished.

    It is one setting, `[tool.mujoco-course]` in pyproject.toml, beside the package it
    publishes: the build stamps it into every lesson's set-up cell and badge and the README.
    """

    repository: str = ""
    branch: str = "main"

    @property
    def github_path(self) -> str | None:
        """ "ORG/NAME" for a repository on GitHub (the only kind Colab opens), else None."""
        if not self.repository.startswith(GITHUB):
            return None
        return self.repository.removeprefix(GITHUB).removesuffix(".git").strip("/") or None

    def pip_spec(self, distribution: str) -> str | None:
        """The direct reference pip installs the course from; None when unpublished."""
        if not self.repository:
            return None
        return f"{distribution} @ git+{self.repository}@{self.branch}"


def course_address(root: Path | str = REPO_ROOT) -> CourseAddress:
    """The course's published address, from pyproject.toml's [tool.mujoco-course]."""
    text = (Path(root) / "pyproject.toml").read_text(encoding="utf-8")
    table = tomllib.loads(text).get("tool", {}).get(ADDRESS_TABLE, {})
    return CourseAddress(
        repository=str(table.get("repository", "")).strip().rstrip("/"),
        branch=str(table.get("branch", "main")).strip() or "main",
    )


def course_pip_spec(root: Path | str = REPO_ROOT, address: CourseAddress | None = None):
    """What the cell gives pip for the course package when no wheel is beside the notebook:
    a direct reference to the published repository; None when unpublished."""
    address = course_address(root) if address is None else address
    return address.pip_spec(course_distribution(root))


# --------------------------------------------------------------------------------------------
# The cell and the badge


def setup_block(root: Path | str = REPO_ROOT, address: CourseAddress | None = None) -> str:
    """The course's part of the set-up cell, ending with the `import course` line.

    `address` defaults to the configured one (pyproject.toml); the tests pass another."""
    address = course_address(root) if address is None else address
    needed = "\n".join(
        f'        "{name}": "{spec}",' for name, spec in colab_requirements(root).items()
    )
    return SETUP_TEMPLATE.format(
        title=SETUP_TITLE,
        needed=needed,
        repository=address.repository,
        branch=address.branch,
        wheel_glob=wheel_glob(root),
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


def stamped_setup_source(
    source: str, root: Path | str = REPO_ROOT, address: CourseAddress | None = None
) -> str:
    """A set-up cell's source with the course's part replaced by the current one."""
    rest = lesson_part(source)
    block = setup_block(root, address).rstrip("\n")
    return f"{block}\n\n{rest}" if rest else block


def colab_url(lesson: str, address: CourseAddress) -> str | None:
    """Where Colab opens the lesson's release notebook straight from the published repository;
    None unless the course is published on GitHub (Colab opens notebooks from GitHub only)."""
    if address.github_path is None:
        return None
    return (
        f"https://colab.research.google.com/github/{address.github_path}/blob/{address.branch}"
        f"/release/{lesson}/{lesson}.ipynb"
    )


def colab_badge(
    lesson: str, root: Path | str = REPO_ROOT, address: CourseAddress | None = None
) -> str:
    """The lesson notebook's one-line badge: a text link opening it in Colab, or, unpublished,
    a line saying to upload it with the course wheel. Text, so it reads well offline."""
    url = colab_url(lesson, course_address(root) if address is None else address)
    if url is None:
        return UNPUBLISHED_BADGE.format(wheel=wheel_name(root))
    return f"[{BADGE_LINK_TEXT}]({url})"


def _is_badge(line: str) -> bool:
    return line.startswith(BADGE_PREFIXES)


def stamped_markdown_source(
    source: str, lesson: str, root: Path | str = REPO_ROOT, address: CourseAddress | None = None
) -> str:
    """The first markdown cell's source opening with the lesson's badge, then a blank line."""
    lines = source.split("\n")
    while lines and (_is_badge(lines[0]) or not lines[0].strip()):
        lines.pop(0)
    return "\n".join([colab_badge(lesson, root, address), "", *lines]).rstrip("\n")


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
    nb: nbformat.NotebookNode,
    lesson: str,
    root: Path | str = REPO_ROOT,
    address: CourseAddress | None = None,
) -> nbformat.NotebookNode:
    """A copy of nb with the current set-up cell and the lesson's Colab badge, for `address`
    (default: the configured one)."""
    nb = copy.deepcopy(nb)
    setup = nb.cells[setup_cell_index(nb)]
    setup.source = stamped_setup_source(setup.source, root, address)
    setup.metadata.update(SETUP_METADATA)
    first = nb.cells[_first_markdown_index(nb)]
    first.source = stamped_markdown_source(first.source, lesson, root, address)
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


def readme_badge(lesson: str, root: Path | str = REPO_ROOT) -> str:
    """The README's "open in Colab" cell of a lesson: Colab's badge image (the README is read
    on the web) linking to the lesson; unpublished, a pointer to the upload route."""
    url = colab_url(lesson, course_address(root))
    if url is None:
        return "upload it with the wheel (see Colab above)"
    return f"[![{BADGE_ALT}]({COLAB_BADGE_IMAGE})]({url})"


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
    args = parser.parse_args(argv)
    if args.colab_requirements:
        print("\n".join(colab_requirements().values()))
    else:
        print(setup_block(), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
