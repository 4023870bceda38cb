"""The course's one vocabulary for notebooks: which cell is which, reading and writing them in
one normalised form, where each lesson's notebooks are, filling a release with answers and
applying a typical mistake.

The build, the grader, its preprocessors, the demo class and the tests all use these names,
so "a test cell" or "the learner's answer" means the same thing everywhere.

- An *answer cell* is an nbgrader solution cell: the learner fills it in.
- A *test cell* is an nbgrader grade cell that is not a solution cell: it is scored.
- A *locked cell* is one nbgrader locks (tests, the set-up, read-only cells).
- A *mistake fixture* is grader_tests/mistakes/<lesson>/<name>.py: a one-line docstring,
  EDITS = {answer grade_id: [(old, new), ...]} applied to the source's solution and/or
  CELLS = {answer grade_id: whole new source}, and LOSES = {the test grade_ids it must lose}.
"""

from __future__ import annotations

import copy
import fnmatch
import importlib.util
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[2]
STEPS = ("source", "release", "solution")
SOLUTION_DELIMITERS = ("BEGIN SOLUTION", "END SOLUTION")
HIDDEN_DELIMITERS = ("BEGIN HIDDEN TESTS", "END HIDDEN TESTS")
# Files nbgrader leaves out when it copies a lesson folder, plus editor droppings.
IGNORED = (".ipynb_checkpoints", "__pycache__", "*.pyc", "feedback", ".DS_Store")
LESSON_NAME = re.compile(r"^\d\d-[a-z0-9]+(?:-[a-z0-9]+)*$")
FIXTURE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")

# --------------------------------------------------------------------------------------------
# Cells


def nbgrader(cell) -> dict:
    """A cell's nbgrader metadata ({} when it has none or it is not a dict)."""
    meta = cell.get("metadata", {}).get("nbgrader")
    return meta if isinstance(meta, dict) else {}


def grade_id(cell) -> str | None:
    """The cell's nbgrader grade_id, or None."""
    value = nbgrader(cell).get("grade_id")
    return value if isinstance(value, str) and value else None


def is_answer(cell) -> bool:
    """An nbgrader solution cell: the learner writes it."""
    return bool(nbgrader(cell).get("solution"))


def is_test(cell) -> bool:
    """An nbgrader grade cell that is not a solution cell: a scored test."""
    meta = nbgrader(cell)
    return cell.get("cell_type") == "code" and bool(meta.get("grade")) and not meta.get("solution")


def is_locked(cell) -> bool:
    """A cell nbgrader locks and restores from the source: tests, the set-up, read-only cells."""
    meta = nbgrader(cell)
    return bool(meta.get("locked") or meta.get("grade")) and not meta.get("solution")


def answer_cells(nb) -> dict[str, nbformat.NotebookNode]:
    """Answer cells by grade_id, in notebook order."""
    return {grade_id(c): c for c in nb.cells if is_answer(c) and grade_id(c)}


def test_cells(nb) -> dict[str, nbformat.NotebookNode]:
    """Test cells by grade_id, in notebook order."""
    return {grade_id(c): c for c in nb.cells if is_test(c) and grade_id(c)}


def label(index: int | None, cell=None) -> str:
    """How a report names a cell: "cell 12 (solid_inertia)"."""
    if index is None:
        return "the notebook"
    gid = grade_id(cell) if cell is not None else None
    return f"cell {index}" + (f" ({gid})" if gid else "")


def names(items: list[str], shown: int = 8) -> str:
    """A list for a sentence: "a, b, c and 4 more"."""
    more = f" and {len(items) - shown} more" if len(items) > shown else ""
    return ", ".join(items[:shown]) + more


def solution_text(source: str) -> str:
    """An answer cell of the source notebook as a learner would write it: the delimiter lines
    gone, everything between them kept."""
    lines = source.split("\n")
    return "\n".join(ln for ln in lines if not any(d in ln for d in SOLUTION_DELIMITERS))


def split_hidden(source: str, placeholder: str | None = None) -> tuple[list[str], set[int]]:
    """A test cell's visible lines (with `placeholder` where a hidden region was, if given) and
    the 1-based numbers of its hidden lines, delimiters included."""
    begin, end = HIDDEN_DELIMITERS
    visible, hidden, inside = [], set(), False
    for number, line in enumerate(source.split("\n"), start=1):
        if begin in line:
            inside = True
            hidden.add(number)
            if placeholder is not None:
                visible.append(placeholder)
        elif end in line:
            inside = False
            hidden.add(number)
        elif inside:
            hidden.add(number)
        else:
            visible.append(line)
    return visible, hidden


# --------------------------------------------------------------------------------------------
# Files in one normalised form

KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
NOTEBOOK_METADATA_KEYS = frozenset({"kernelspec", "language_info"})
# language_info without "version", which changes with the Python that last saved the file.
LANGUAGE_INFO_KEYS = frozenset(
    {
        "codemirror_mode",
        "file_extension",
        "mimetype",
        "name",
        "nbconvert_exporter",
        "pygments_lexer",
    }
)
# nbgrader's cell metadata, the locks its LockCells sets, cell tags, and the two ways a lesson
# hides a cell's code: Colab's form view and JupyterLab's collapsed source.
CELL_METADATA_KEYS = frozenset({"cellView", "deletable", "editable", "jupyter", "nbgrader", "tags"})
# Of the "jupyter" key only the author's choice is kept; "outputs_hidden" follows every click.
JUPYTER_CELL_KEYS = frozenset({"source_hidden"})


def read(path: Path | str) -> nbformat.NotebookNode:
    """A notebook file as nbformat 4 (UTF-8)."""
    return nbformat.reads(Path(path).read_bytes().decode("utf-8"), as_version=4)


def text(nb: nbformat.NotebookNode) -> str:
    """nb serialised the way nbformat writes it (indent 1, sorted keys) plus a final newline."""
    written = nbformat.writes(nb)
    return written if written.endswith("\n") else written + "\n"


def write(nb: nbformat.NotebookNode, path: Path | str) -> Path:
    """Write nb as UTF-8 with LF line ends, whatever the platform; returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text(nb).encode("utf-8"))
    return path


def normalise(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """A copy of nb without outputs, execution counts or metadata outside the kept keys."""
    nb = copy.deepcopy(nb)
    metadata = {"kernelspec": dict(KERNELSPEC)}
    language_info = nb.metadata.get("language_info")
    if isinstance(language_info, dict):
        kept = {key: value for key, value in language_info.items() if key in LANGUAGE_INFO_KEYS}
        if kept:
            metadata["language_info"] = kept
    nb.metadata = nbformat.from_dict(metadata)
    for cell in nb.cells:
        kept = {k: v for k, v in cell.metadata.items() if k in CELL_METADATA_KEYS}
        if isinstance(kept.get("jupyter"), dict):
            kept["jupyter"] = {k: v for k, v in kept["jupyter"].items() if k in JUPYTER_CELL_KEYS}
        if not kept.get("jupyter", True):
            del kept["jupyter"]
        cell.metadata = nbformat.from_dict(kept)
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
    return nb


def is_ignored(relative: Path) -> bool:
    """A path nbgrader never copies (checkpoints, caches, feedback)."""
    return any(fnmatch.fnmatch(part, pattern) for part in relative.parts for pattern in IGNORED)


# --------------------------------------------------------------------------------------------
# Lessons


def discover_lessons(root: Path | str = ROOT) -> list[str]:
    """Names of the lessons in root/source: folders holding a notebook of the folder's name."""
    source = Path(root) / "source"
    if not source.is_dir():
        return []
    return sorted(
        folder.name
        for folder in source.iterdir()
        if folder.is_dir()
        and not folder.name.startswith(".")
        and (folder / f"{folder.name}.ipynb").is_file()
    )


def lesson_notebook(lesson: str, step: str = "source", root: Path | str = ROOT) -> Path:
    """Path of a lesson's notebook in source/, release/ or solution/."""
    return Path(root) / step / lesson / f"{lesson}.ipynb"


def read_lesson(lesson: str, step: str = "source", root: Path | str = ROOT):
    """A lesson's notebook in source/, release/ or solution/."""
    return read(lesson_notebook(lesson, step, root))


# --------------------------------------------------------------------------------------------
# Answers and mistakes


def solutions(source) -> dict[str, str]:
    """{answer grade_id: the solution as a learner would write it} of a source notebook."""
    return {gid: solution_text(cell.source) for gid, cell in answer_cells(source).items()}


def fill_release(release, source, replacements=None, only=None) -> nbformat.NotebookNode:
    """A copy of the release with its answer cells filled in from the source's solutions.

    Answer cells named in `replacements` get that text instead; with `only`, answer cells not
    named in it stay as released. A replacement naming no answer cell of the release is a
    ValueError, so a fixture with a typo cannot pass unnoticed.
    """
    nb = copy.deepcopy(release)
    replacements = dict(replacements or {})
    answers, solved = answer_cells(nb), solutions(source)
    unknown = sorted(set(replacements) - set(answers))
    if unknown:
        raise ValueError(f"{unknown} are not answer cells; answer cells: {sorted(answers)}")
    for gid, cell in answers.items():
        if only is not None and gid not in only:
            continue
        if gid in replacements:
            cell.source = replacements[gid]
        elif gid in solved:
            cell.source = solved[gid]
        else:
            raise ValueError(f"answer cell {gid!r} of the release is not in the source")
    return nb


def apply_edits(text_: str, edits, where: str = "") -> str:
    """`text_` with each (old, new) of `edits` applied; each `old` must occur exactly once."""
    for old, new in edits:
        if text_.count(old) != 1:
            raise ValueError(f"{where}: {old!r} occurs {text_.count(old)} times in the solution")
        text_ = text_.replace(old, new)
    return text_


@dataclass(frozen=True)
class Mistake:
    """A typical wrong answer: the answer cells it changes and the test cells it must lose."""

    name: str
    doc: str
    cells: dict[str, str]
    loses: frozenset[str]
    path: Path
    # {function: words its visible check's message holds}: the slip as the learner sees it
    says: dict[str, str] = field(default_factory=dict)

    @property
    def student(self) -> str:
        """The student id its submission is graded under."""
        return f"mistake-{self.name}"


def mistakes_folder(lesson: str, root: Path | str = ROOT) -> Path:
    return Path(root) / "grader_tests" / "mistakes" / lesson


def load_mistake(path: Path, source) -> Mistake:
    """One mistake fixture, its EDITS applied to the solutions of `source` (the lesson's source
    notebook, or a function returning it: it is read only for a fixture with EDITS)."""
    spec = importlib.util.spec_from_file_location("mistake_" + re.sub(r"\W", "_", path.stem), path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    where = path.name
    edits_by_cell = getattr(module, "EDITS", {})
    solved = solutions(source() if callable(source) else source) if edits_by_cell else {}
    cells = dict(getattr(module, "CELLS", {}))
    for gid, edits in edits_by_cell.items():
        if gid not in solved:
            raise ValueError(f"{where}: {gid!r} is not an answer cell of the source")
        cells[gid] = apply_edits(solved[gid], edits, f"{where}/{gid}")
    doc, loses = (module.__doc__ or "").strip(), getattr(module, "LOSES", None)
    if not doc or "\n" in doc:
        raise ValueError(f"{where}: needs a one-line docstring naming the mistake")
    if not cells or not all(isinstance(k, str) and isinstance(v, str) for k, v in cells.items()):
        raise ValueError(f"{where}: needs EDITS or CELLS naming at least one answer cell")
    if isinstance(loses, str) or not loses or not all(isinstance(g, str) for g in loses):
        raise ValueError(f"{where}: LOSES must be a non-empty set of test grade_ids")
    if not FIXTURE_NAME.match(path.stem):
        raise ValueError(f"{where}: file name must be letters, digits, '_', '-' or '.'")
    says = dict(getattr(module, "SAYS", {}))
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in says.items()):
        raise ValueError(f"{where}: SAYS maps a function's name to words its check says")
    return Mistake(path.stem, doc, cells, frozenset(loses), path, says)


def load_mistakes(lesson: str, root: Path | str = ROOT, folder: Path | None = None) -> list:
    """The mistake fixtures of a lesson, sorted by name (none when the folder is missing)."""
    folder = Path(folder) if folder is not None else mistakes_folder(lesson, root)
    paths = sorted(p for p in folder.glob("*.py") if not p.name.startswith("_"))
    source = cache(lambda: read_lesson(lesson, "source", root))
    return [load_mistake(path, source) for path in paths]
