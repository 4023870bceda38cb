"""Build release/ and solution/ from source/ with nbgrader, and check that they are up to date.

    python -m classroom.build                      # rebuild every lesson
    python -m classroom.build 01-world-as-text     # rebuild one lesson
    python -m classroom.build --check              # compare with what is committed
    python -m classroom.build --normalise-source   # strip outputs and metadata in source/,
                                                   # stamp the set-up cell and Colab badge,
                                                   # write the lesson tables, then build

For each lesson nbgrader's own converters run in this process (GenerateAssignment, then
GenerateSolution with the preprocessors chosen in nbgrader_config.py) inside a throw-away copy
of the course directory, so no gradebook.db is needed or touched in the repository. The
notebooks nbgrader writes are then normalised (no outputs, no execution counts, a fixed set of
metadata keys, nbformat's JSON layout with a trailing newline) so that a rebuild of an
unchanged source gives the same bytes, and copied with any other files of the lesson folder to
release/<lesson>/ and solution/<lesson>/.

`--normalise-source` also stamps each source notebook's set-up cell and "Open in Colab" badge
from classroom/setup_cell.py (for the course address set in pyproject.toml), and writes the
lesson tables of README.md (with the Colab badges) and source/START.md from what each lesson
declares (classroom/lesson_tables.py); `source_problems`, `readme_problems` and
`start_page_problems` (so `--check` and the tests) report a stale one. Every build also writes
the course wheel, release/<wheel>, for Colab learners who upload a notebook
(classroom/wheel.py).

`--check` builds into a temporary folder, compares file by file with the committed release/
and solution/, and also fails when a release file carries a solution or hidden-test marker or a
solution file carries a hidden-test marker.
"""

from __future__ import annotations

import argparse
import io
import logging
import os
import shutil
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

import nbformat

from classroom import lesson_tables, setup_cell, wheel
from classroom.nbgrader_ext import notebooks
from classroom.nbgrader_ext.notebooks import (
    CELL_METADATA_KEYS,
    JUPYTER_CELL_KEYS,
    KERNELSPEC,
    LANGUAGE_INFO_KEYS,
    NOTEBOOK_METADATA_KEYS,
    discover_lessons,
    lesson_notebook,
)

REPO_ROOT = notebooks.ROOT
CONFIG_FILE = "nbgrader_config.py"
STEPS = ("release", "solution")  # what the build writes from source/
# The lessons folder's first page (where to begin, how a lesson works): written once, in
# source/, and copied by every build to release/, so `make lab` and a download both have it.
START_PAGE = "START.md"

RELEASE_MARKERS = ("BEGIN SOLUTION", "END SOLUTION", "BEGIN HIDDEN TESTS", "END HIDDEN TESTS")
SOLUTION_MARKERS = ("HIDDEN TESTS",)

NORMALISE_HINT = "python -m classroom.build --normalise-source"


class BuildError(RuntimeError):
    """nbgrader could not build a lesson; the message carries nbgrader's log."""


# --------------------------------------------------------------------------------------------
# Lessons and files


def _listing(folder: Path) -> dict[str, Path]:
    """Files below folder, keyed by their POSIX path relative to it, ignored files left out."""
    if not folder.is_dir():
        return {}
    files = {}
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder)
        if path.is_file() and not notebooks.is_ignored(relative):
            files[relative.as_posix()] = path
    return files


def _display(path: Path, root: Path | str = REPO_ROOT) -> str:
    try:
        return Path(path).resolve().relative_to(Path(root).resolve()).as_posix()
    except ValueError:
        return str(path)


# --------------------------------------------------------------------------------------------
# Source notebooks


def source_problems(path: Path | str) -> list[str]:
    """What keeps a source notebook from being committed as is (empty when it is clean).

    Clean means: no outputs, no execution counts, only the kept metadata keys, the standard
    Python 3 kernelspec, the set-up cell and Colab badge that setup_cell stamps, and the exact
    bytes nbformat writes (indent 1, sorted keys, newline).
    """
    path = Path(path)
    name = _display(path)
    try:
        text = path.read_bytes().decode("utf-8")
        nb = nbformat.reads(text, as_version=4)
    except Exception as exc:  # unreadable file, broken JSON, not a notebook
        return [f"{name}: cannot be read as a notebook: {exc}"]

    problems = []
    try:
        nbformat.validate(nb)
    except nbformat.ValidationError as exc:
        problems.append(f"{name}: not a valid nbformat 4 notebook: {exc.message}")
    extra = sorted(set(nb.metadata) - NOTEBOOK_METADATA_KEYS)
    if extra:
        problems.append(f"{name}: notebook metadata keys {extra} are not kept")
    if nb.metadata.get("kernelspec") != KERNELSPEC:
        problems.append(f"{name}: kernelspec is not {KERNELSPEC}")
    language_info = nb.metadata.get("language_info", {})
    extra = (
        sorted(set(language_info) - LANGUAGE_INFO_KEYS) if isinstance(language_info, dict) else []
    )
    if extra:
        problems.append(f"{name}: language_info keys {extra} are not kept")
    for index, cell in enumerate(nb.cells):
        label = notebooks.label(index, cell)
        if cell.cell_type == "code" and cell.get("outputs"):
            problems.append(f"{name}: {label} has outputs")
        if cell.cell_type == "code" and cell.get("execution_count") is not None:
            problems.append(f"{name}: {label} has an execution count")
        extra = sorted(set(cell.metadata) - CELL_METADATA_KEYS)
        jupyter = cell.metadata.get("jupyter", {})
        extra += [f"jupyter.{k}" for k in sorted(set(jupyter) - JUPYTER_CELL_KEYS)]
        if extra:
            problems.append(f"{name}: {label} has cell metadata keys {extra}")
    course_root = _course_root(path)
    if course_root is not None:
        problems += setup_cell.stamp_problems(nb, path.parent.name, name, course_root)
    if not problems and text != notebooks.text(notebooks.normalise(nb)):
        problems.append(f"{name}: not in nbformat's layout (indent 1, sorted keys, final newline)")
    return problems


def _course_root(path: Path) -> Path | None:
    """The course a source notebook (root/source/<lesson>/<lesson>.ipynb) belongs to, when it
    is a course package with a pyproject.toml, which the set-up cell is written from; None for
    a bare course folder (such as the harness's toy course), whose cells are not stamped."""
    root = Path(path).resolve().parents[2]
    return root if (root / "pyproject.toml").is_file() else None


def normalise_source(path: Path | str) -> bool:
    """Rewrite a source notebook in its normalised form, with the current set-up cell and
    Colab badge stamped in (classroom/setup_cell.py); True when the file changed."""
    path = Path(path)
    before = path.read_bytes()
    nb = notebooks.read(path)
    course_root = _course_root(path)
    if course_root is not None:
        nb = setup_cell.stamp_notebook(nb, path.parent.name, course_root)
    after = notebooks.text(notebooks.normalise(nb)).encode("utf-8")
    if after == before:
        return False
    path.write_bytes(after)
    return True


def readme_problems(root: Path | str = REPO_ROOT) -> list[str]:
    """The README's lesson table, if it is not the one the lessons declare with their current
    Colab badges (classroom/lesson_tables.py): one line."""
    return lesson_tables.table_problems(discover_lessons(root), root, [lesson_tables.README])


def write_wheel(root: Path | str = REPO_ROOT) -> Path:
    """Write the course wheel into release/, removing course wheels of other versions."""
    root = Path(root)
    current = wheel.wheel_path(root)
    for other in (root / "release").glob(setup_cell.wheel_glob(root)):
        if other != current:
            other.unlink()
    return wheel.build_wheel(current.parent, root)


# --------------------------------------------------------------------------------------------
# nbgrader in a temporary course directory


def ensure_scripts_on_path() -> None:
    """Put this Python's scripts folder on PATH.

    nbgrader's Gradebook runs the `alembic` command when it creates a gradebook, so a venv's
    Python started without activating the venv (make, CI, an IDE) fails without this.
    """
    folders = os.environ.get("PATH", "").split(os.pathsep)
    for scripts in (sysconfig.get_path("scripts"), str(Path(sys.executable).parent)):
        if scripts and scripts not in folders:
            folders.insert(0, scripts)
    os.environ["PATH"] = os.pathsep.join(folder for folder in folders if folder)


def make_course_dir(lesson: str, course_dir: Path | str, *, root: Path | str = REPO_ROOT) -> Path:
    """Copy nbgrader_config.py and source/<lesson>/ from root into course_dir."""
    root, course_dir = Path(root), Path(course_dir)
    source = root / "source" / lesson
    if not lesson_notebook(lesson, root=root).is_file():
        raise BuildError(f"no lesson notebook {_display(lesson_notebook(lesson, root=root), root)}")
    course_dir.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(root / CONFIG_FILE, course_dir / CONFIG_FILE)
    destination = course_dir / "source" / lesson
    if destination.exists():
        shutil.rmtree(destination)
    shutil.copytree(source, destination, ignore=shutil.ignore_patterns(*notebooks.IGNORED))
    return course_dir


def load_nbgrader_config(course_dir: Path | str):
    """The traitlets Config of course_dir/nbgrader_config.py, rooted at course_dir."""
    from traitlets.config.loader import PyFileConfigLoader

    config = PyFileConfigLoader(CONFIG_FILE, path=str(course_dir)).load_config()
    config.CourseDirectory.root = str(Path(course_dir).resolve())
    return config


_EMPTY_GRADEBOOKS: dict[str, bytes] = {}


def seed_gradebook(course_dir: Path | str) -> None:
    """Give course_dir an empty gradebook.db unless it has one.

    nbgrader runs `alembic heads` in a subprocess (about 3 s) each time it creates a gradebook;
    one empty gradebook is made per process and course id, and copied. Nothing is done when
    the configuration points the gradebook elsewhere.
    """
    ensure_scripts_on_path()
    from nbgrader.api import Gradebook
    from nbgrader.coursedir import CourseDirectory

    coursedir = CourseDirectory(config=load_nbgrader_config(course_dir))
    target = Path(coursedir.root) / "gradebook.db"
    if coursedir.db_url != f"sqlite:///{target}" or target.exists():
        return
    course_id = coursedir.course_id
    if course_id not in _EMPTY_GRADEBOOKS:
        with tempfile.TemporaryDirectory(prefix="gradebook-") as tmp:
            empty = Path(tmp) / "gradebook.db"
            with Gradebook(f"sqlite:///{empty}", course_id):
                pass
            _EMPTY_GRADEBOOKS[course_id] = empty.read_bytes()
    target.write_bytes(_EMPTY_GRADEBOOKS[course_id])


def run_generate(course_dir: Path | str, lesson: str, *, solution: bool = True) -> str:
    """Run nbgrader's GenerateAssignment (and GenerateSolution) in process; return the log.

    Writes course_dir/release/<lesson>/, course_dir/solution/<lesson>/ and course_dir's
    gradebook.db, as `nbgrader generate_assignment --force` and `nbgrader generate_solution
    --force` would, without paying about 2.7 s to start each app.
    """
    ensure_scripts_on_path()
    from nbgrader.converters import GenerateAssignment, GenerateSolution
    from nbgrader.coursedir import CourseDirectory

    seed_gradebook(course_dir)
    config = load_nbgrader_config(course_dir)
    coursedir = CourseDirectory(config=config)
    coursedir.assignment_id = lesson

    buffer = io.StringIO()
    handler = logging.StreamHandler(buffer)
    handler.setFormatter(logging.Formatter("[%(levelname)s] %(message)s"))
    logger = logging.getLogger("classroom.nbgrader")
    logger.setLevel(logging.INFO)
    logger.propagate = False
    logger.addHandler(handler)
    try:
        converters = [GenerateAssignment] + ([GenerateSolution] if solution else [])
        for converter_class in converters:
            converter = converter_class(coursedir=coursedir, config=config, log=logger)
            converter.force = True
            try:
                converter.start()
            except Exception as exc:
                raise BuildError(
                    f"nbgrader {converter_class.__name__} failed for {lesson}:\n{buffer.getvalue()}"
                ) from exc
    finally:
        logger.removeHandler(handler)
    return buffer.getvalue()


def _replace_folder(produced: Path, destination: Path) -> dict[str, Path]:
    """Make destination hold exactly the files of produced, notebooks normalised."""
    for path in _listing(destination).values():
        path.unlink()
    if destination.is_dir():
        for folder in sorted(destination.rglob("*"), reverse=True):
            if folder.is_dir() and not notebooks.is_ignored(folder.relative_to(destination)):
                if not any(folder.iterdir()):
                    folder.rmdir()
    written = {}
    for relative, path in _listing(produced).items():
        target = destination / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix == ".ipynb":
            notebooks.write(notebooks.normalise(notebooks.read(path)), target)
        else:
            shutil.copyfile(path, target)
        written[relative] = target
    return written


def build_lesson(lesson: str, out_root: Path | str, *, root: Path | str = REPO_ROOT) -> dict:
    """Build one lesson from root/source into out_root/release and out_root/solution.

    Returns {"release/<lesson>/<file>": Path, "solution/<lesson>/<file>": Path, ...} for every
    file written. Files of an earlier build that nbgrader no longer produces are removed.
    """
    out_root = Path(out_root)
    written = {}
    with tempfile.TemporaryDirectory(prefix=f"build-{lesson}-") as tmp:
        course_dir = make_course_dir(lesson, Path(tmp) / "course", root=root)
        run_generate(course_dir, lesson)
        for step in STEPS:
            produced = course_dir / step / lesson
            if not produced.is_dir():
                raise BuildError(f"nbgrader wrote no {step}/{lesson}/")
            files = _replace_folder(produced, out_root / step / lesson)
            for relative, path in files.items():
                written[f"{step}/{lesson}/{relative}"] = path
    return written


def build(
    lessons: list[str] | None = None,
    *,
    root: Path | str = REPO_ROOT,
    out_root: Path | str | None = None,
) -> dict:
    """Build the named lessons (all of source/ by default) into out_root (default: root)."""
    lessons = discover_lessons(root) if lessons is None else lessons
    out_root = Path(root if out_root is None else out_root)
    written = {}
    for lesson in lessons:
        written.update(build_lesson(lesson, out_root, root=root))
    start = Path(root) / "source" / START_PAGE
    if start.is_file():
        copied = out_root / "release" / START_PAGE
        copied.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(start, copied)
        written[f"release/{START_PAGE}"] = copied
    return written


def start_page_problems(*, root: Path | str = REPO_ROOT) -> list[str]:
    """The start page missing from source/, or release/'s copy of it missing or stale."""
    root = Path(root)
    start, copied = root / "source" / START_PAGE, root / "release" / START_PAGE
    if not start.is_file():
        return [f"missing: source/{START_PAGE}, the lessons folder's first page"]
    problems = lesson_tables.table_problems(discover_lessons(root), root, [lesson_tables.START])
    if not copied.is_file() or copied.read_bytes() != start.read_bytes():
        problems.append(f"differs: release/{START_PAGE} is not a copy of source/{START_PAGE}")
    return problems


# --------------------------------------------------------------------------------------------
# Checks


def leak_problems(lessons: list[str] | None = None, *, root: Path | str = REPO_ROOT) -> list[str]:
    """Committed release files holding solution or hidden-test markers, solution files holding
    hidden-test markers."""
    root = Path(root)
    lessons = discover_lessons(root) if lessons is None else lessons
    problems = []
    for lesson in lessons:
        for step, markers in (("release", RELEASE_MARKERS), ("solution", SOLUTION_MARKERS)):
            for relative, path in _listing(root / step / lesson).items():
                text = path.read_bytes().decode("utf-8", errors="replace")
                for marker in markers:
                    if marker in text:
                        problems.append(f"leak: {step}/{lesson}/{relative} contains '{marker}'")
    return problems


def check(lessons: list[str] | None = None, *, root: Path | str = REPO_ROOT) -> list[str]:
    """Problems with the committed release/ and solution/ (empty when they are in sync).

    Rebuilds the lessons (all of source/ by default) in a temporary folder and compares every
    file with the committed one; also reports marker leaks and, when checking every lesson,
    release/ or solution/ folders without a lesson in source/.
    """
    root = Path(root)
    every_lesson = lessons is None
    lessons = discover_lessons(root) if lessons is None else lessons
    problems = []
    with tempfile.TemporaryDirectory(prefix="build-check-") as tmp:
        for lesson in lessons:
            try:
                build_lesson(lesson, tmp, root=root)
            except BuildError as exc:
                problems.append(f"{lesson}: the build failed: {exc}")
                continue
            for step in STEPS:
                built = _listing(Path(tmp) / step / lesson)
                committed = _listing(root / step / lesson)
                for relative in sorted(built.keys() | committed.keys()):
                    name = f"{step}/{lesson}/{relative}"
                    if relative not in committed:
                        problems.append(f"missing: {name}")
                    elif relative not in built:
                        problems.append(f"not produced by the build: {name}")
                    elif built[relative].read_bytes() != committed[relative].read_bytes():
                        problems.append(f"differs: {name}")
    problems.extend(leak_problems(lessons, root=root))
    if every_lesson:
        problems.extend(orphan_problems(root=root))
        if (root / "pyproject.toml").is_file():  # a course package, which has a wheel
            problems.extend(wheel.wheel_problems(root))
            problems.extend(readme_problems(root))
        problems.extend(start_page_problems(root=root))
    return problems


def orphan_problems(*, root: Path | str = REPO_ROOT) -> list[str]:
    """Folders in release/ or solution/ without a lesson in source/ (a renamed or removed
    lesson whose generated files stayed behind)."""
    root = Path(root)
    lessons = set(discover_lessons(root))
    problems = []
    for step in STEPS:
        folder = root / step
        children = sorted(folder.iterdir()) if folder.is_dir() else []
        for child in children:
            if (
                child.is_dir()
                and not notebooks.is_ignored(Path(child.name))
                and child.name not in lessons
            ):
                problems.append(f"orphan: {step}/{child.name}/ has no lesson in source/")
    return problems


# --------------------------------------------------------------------------------------------
# Command line


def _parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m classroom.build",
        description="Build release/ and solution/ from source/ with nbgrader.",
    )
    parser.add_argument("lessons", nargs="*", metavar="LESSON", help="lesson names (default: all)")
    parser.add_argument(
        "--check",
        action="store_true",
        help="build into a temporary folder and compare with the committed files",
    )
    parser.add_argument(
        "--normalise-source",
        action="store_true",
        help="rewrite source notebooks without outputs, execution counts and extra metadata, "
        "with the current set-up cell and Colab badge",
    )
    parser.add_argument("--root", type=Path, default=REPO_ROOT, help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def _normalise(lessons: list[str], root: Path) -> bool:
    """Normalise and stamp the lessons' source notebooks and write the lesson tables, saying
    what changed; False (after one line) when a notebook has no cell to stamp or a lesson no
    summary for the tables."""
    for lesson in lessons:
        path = lesson_notebook(lesson, root=root)
        try:
            changed = normalise_source(path)
        except setup_cell.SetupCellError as exc:
            print(f"{_display(path, root)}: {exc}", file=sys.stderr)
            return False
        if changed:
            print(f"normalised {_display(path, root)}")
    # The tables (with the README's Colab badges) list every lesson, whichever lessons this
    # run normalises.
    try:
        changed = lesson_tables.write_tables(discover_lessons(root), root)
    except lesson_tables.SummaryError as exc:
        print(exc, file=sys.stderr)
        return False
    for name in changed:
        print(f"wrote {name}'s lesson table from the lessons")
    return True


def main(argv: list[str] | None = None) -> int:
    args = _parse(argv)
    root = args.root.resolve()
    known = discover_lessons(root)
    # Accept "source/01-x", "release/01-x/" or "01-x".
    lessons = [Path(name).name for name in args.lessons] or known
    unknown = [lesson for lesson in lessons if lesson not in known]
    if unknown:
        print(
            f"no such lesson in {_display(root / 'source')}: {', '.join(unknown)}", file=sys.stderr
        )
        return 2
    if not lessons:
        print(f"no lessons in {root / 'source'}")
        return 0
    start = time.perf_counter()

    if args.normalise_source and not _normalise(lessons, root):
        return 1

    source = [p for lesson in lessons for p in source_problems(lesson_notebook(lesson, root=root))]

    if args.check:
        problems = check(None if not args.lessons else lessons, root=root) + source
        elapsed = time.perf_counter() - start
        if problems:
            print("\n".join(problems), file=sys.stderr)
            print(
                f"{len(problems)} problem(s) in {len(lessons)} lesson(s) ({elapsed:.1f} s). "
                "Rebuild with: make build (python -m classroom.build --normalise-source)"
                + (f"; clean source notebooks with: {NORMALISE_HINT}" if source else ""),
                file=sys.stderr,
            )
            return 1
        print(f"ok: release/ and solution/ match {len(lessons)} lesson(s) ({elapsed:.1f} s)")
        return 0

    try:
        written = build(lessons, root=root)
        if (root / "pyproject.toml").is_file():  # a course package: its wheel too
            written[f"release/{setup_cell.wheel_name(root)}"] = write_wheel(root)
    except (BuildError, wheel.WheelError) as exc:
        print(exc, file=sys.stderr)
        return 1
    for name in sorted(written):
        print(f"wrote {name}")
    for problem in source:
        print(f"warning: {problem} (fix with: {NORMALISE_HINT})", file=sys.stderr)
    print(f"built {len(lessons)} lesson(s) in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
