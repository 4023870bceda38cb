"""The bundled demo class that `make grade` grades: a few students per lesson, built at run
time from the lesson's release and source notebooks (this package holds no solution).

- complete: every answer cell filled in from the source notebook;
- blank: the release as handed out;
- partial: the first half of the answer cells filled in;
- mistake-1, mistake-2, mistake-3: in each lesson, the first three typical mistakes of
  grader_tests/mistakes/<lesson>/ (a fixture's CELLS, or its EDITS applied to the solution);
- renamed-colab: complete, but saved by Colab as "Copy of <lesson>.ipynb" with its nbgrader
  metadata gone, so the report shows the cells matched back to the source;
- no-notebook: a folder with a note and no notebook, so the report shows the reason.
"""

from __future__ import annotations

import copy
import importlib.util
import re
from pathlib import Path

import nbformat

from course.classroom import build

SOLUTION_LINE = re.compile(r"BEGIN SOLUTION|END SOLUTION")
MISTAKES = 3


def demo_lessons(root: Path) -> list[str]:
    """Lessons with a source and a built release notebook."""
    return [
        lesson
        for lesson in build.discover_lessons(root)
        if build.lesson_notebook(lesson, "release", root).is_file()
    ]


def _answers(nb) -> dict[str, nbformat.NotebookNode]:
    return {
        c.metadata["nbgrader"]["grade_id"]: c
        for c in nb.cells
        if c.get("metadata", {}).get("nbgrader", {}).get("solution")
    }


def filled(release, source, replacements=None, only=None):
    """The release with answer cells filled from the source (or replaced), optionally only
    the answer cells named in `only`."""
    nb = copy.deepcopy(release)
    solutions = _answers(source)
    for grade_id, cell in _answers(nb).items():
        if only is not None and grade_id not in only:
            continue
        if replacements and grade_id in replacements:
            cell.source = replacements[grade_id]
        elif grade_id in solutions:
            cell.source = _strip(solutions[grade_id].source)
    return nb


def mistakes(root: Path, lesson: str, source) -> list[tuple[str, dict]]:
    """(name, {answer grade_id: source}) of the first typical mistakes of a lesson."""
    folder = root / "grader_tests" / "mistakes" / lesson
    solutions = {gid: _strip(cell.source) for gid, cell in _answers(source).items()}
    found = []
    for path in sorted(folder.glob("*.py")) if folder.is_dir() else []:
        if path.name.startswith("_") or len(found) >= MISTAKES:
            continue
        spec = importlib.util.spec_from_file_location(f"demo_mistake_{path.stem}", path)
        module = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(module)
            cells = dict(getattr(module, "CELLS", {}))
            for grade_id, edits in getattr(module, "EDITS", {}).items():
                text = solutions[grade_id]
                for old, new in edits:
                    if text.count(old) != 1:
                        raise ValueError(f"{path.name}: edit does not apply")
                    text = text.replace(old, new)
                cells[grade_id] = text
        except Exception:  # a broken fixture is the grader tests' business, not the demo's
            continue
        if cells:
            found.append((path.stem, cells))
    return found


def _strip(source: str) -> str:
    return "\n".join(ln for ln in source.split("\n") if not SOLUTION_LINE.search(ln))


def colab_copy(nb):
    """nb as Colab saves it after an editor dropped nbgrader's metadata."""
    nb = copy.deepcopy(nb)
    nb.nbformat_minor = 0
    nb.metadata = nbformat.from_dict(
        {
            "colab": {"provenance": [], "name": "Copy of lesson"},
            "kernelspec": {"name": "python3", "display_name": "Python 3"},
            "language_info": {"name": "python"},
        }
    )
    for index, cell in enumerate(nb.cells):
        cell.pop("id", None)
        cell.metadata = nbformat.from_dict({"id": f"c{index:04d}", "colab": {}})
    return nb


def build_class(root: Path, lessons: list[str], folder: Path) -> Path:
    """Write the demo class as folder/<student>/<lesson>/... and return folder."""
    root, folder = Path(root), Path(folder)
    notebooks = {
        lesson: (
            build.read_notebook(build.lesson_notebook(lesson, "release", root)),
            build.read_notebook(build.lesson_notebook(lesson, "source", root)),
        )
        for lesson in lessons
    }
    typical = {lesson: mistakes(root, lesson, source) for lesson, (_, source) in notebooks.items()}
    # The same students in every lesson, so the table has no row for a lesson not handed in.
    count = min([len(found) for found in typical.values()] or [0])
    for lesson, (release, source) in notebooks.items():
        names = list(_answers(release))
        students = {
            "complete": filled(release, source),
            "blank": copy.deepcopy(release),
            "partial": filled(release, source, only=set(names[: len(names) // 2])),
        }
        for number, (_, cells) in enumerate(typical[lesson][:count], start=1):
            changed = {k: v for k, v in cells.items() if k in names}
            students[f"mistake-{number}"] = filled(release, source, changed)
        for student, nb in students.items():
            build.write_notebook(nb, folder / student / lesson / f"{lesson}.ipynb")
        renamed = folder / "renamed-colab" / lesson / f"Copy of {lesson}.ipynb"
        renamed.parent.mkdir(parents=True, exist_ok=True)
        renamed.write_text(nbformat.writes(colab_copy(students["complete"])), encoding="utf-8")
        missing = folder / "no-notebook" / lesson
        missing.mkdir(parents=True, exist_ok=True)
        (missing / "notes.txt").write_text("I could not upload my notebook.\n", encoding="utf-8")
    return folder
