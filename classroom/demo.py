"""The bundled demo class that `make grade` grades, built at run time from each lesson's
release and source notebooks (the learner's package holds no solution).

In every lesson:
- complete: every answer cell filled in from the source notebook;
- blank: the release as handed out;
- partial: the first half of the answer cells filled in;
- renamed-colab: complete, but saved by Colab as "Copy of <lesson>.ipynb" with its nbgrader
  metadata gone, so the report shows the cells matched back to the source;
- no-notebook: a folder with a note and no notebook, so the report shows the reason.

And per lesson, `MISTAKES` students named after the typical mistake they make
(mistake-<NN>-<fixture>, from grader_tests/mistakes/<lesson>/), who hand in that lesson only;
the run skips the lessons they never took, so they have no "not submitted" rows.

The grading command (`classroom/grade.py`, `--demo`) writes the class with `prepare` into
.grading/demo/submitted/ and grades it as any submitted/ tree, into .grading/demo/ and a
gradebook of its own: the grading run itself knows nothing of the demo.
"""

from __future__ import annotations

import copy
import shutil
from pathlib import Path

import nbformat

from classroom.grading import state
from classroom.nbgrader_ext import notebooks

MISTAKES = 3  # typical mistakes per lesson in the demo class
EVERY_LESSON = ("complete", "blank", "partial", "renamed-colab", "no-notebook")


def output_folder(root: Path) -> Path:
    """.grading/demo/: the demo class's submitted/, autograded/, feedback/, grades.csv,
    reports and exports, so none of nbgrader's commands in the course ever meets a demo
    student its gradebook does not have."""
    return Path(root) / state.STATE / "demo"


def gradebook_path(root: Path) -> Path:
    """.grading/demo-gradebook.db: the demo class's gradebook, never the course's."""
    return Path(root) / state.STATE / "demo-gradebook.db"


def prepare(root: Path, lessons: list[str]) -> Path:
    """Start the demo class afresh: the gradebook and folder an earlier demo left removed,
    the class written into .grading/demo/submitted/; that folder."""
    state.state_dir(root)  # .grading/, readable by its owner only
    gradebook_path(root).unlink(missing_ok=True)
    folder = output_folder(root)
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return build_class(root, lessons, folder / "submitted")


def demo_lessons(root: Path) -> list[str]:
    """Lessons with a source and a built release notebook."""
    return [
        lesson
        for lesson in notebooks.discover_lessons(root)
        if notebooks.lesson_notebook(lesson, "release", root).is_file()
    ]


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


def mistake_student(lesson: str, mistake) -> str:
    """The demo student who makes this mistake: mistake-01-box-full-side-lengths."""
    return f"mistake-{lesson[:2]}-{mistake.name.replace('_', '-')}"


def lesson_class(root: Path, lesson: str) -> dict[str, nbformat.NotebookNode]:
    """{student: notebook} of one lesson's demo students (all but the Colab and missing ones)."""
    release = notebooks.read_lesson(lesson, "release", root)
    source = notebooks.read_lesson(lesson, "source", root)
    answers = list(notebooks.answer_cells(release))
    students = {
        "complete": notebooks.fill_release(release, source),
        "blank": copy.deepcopy(release),
        "partial": notebooks.fill_release(release, source, only=set(answers[: len(answers) // 2])),
    }
    for mistake in notebooks.load_mistakes(lesson, root)[:MISTAKES]:
        students[mistake_student(lesson, mistake)] = notebooks.fill_release(
            release, source, mistake.cells
        )
    return students


def build_class(root: Path, lessons: list[str], folder: Path) -> Path:
    """Write the demo class as folder/<student>/<lesson>/... and return folder."""
    root, folder = Path(root), Path(folder)
    for lesson in lessons:
        students = lesson_class(root, lesson)
        for student, nb in students.items():
            notebooks.write(nb, folder / student / lesson / f"{lesson}.ipynb")
        renamed = folder / "renamed-colab" / lesson / f"Copy of {lesson}.ipynb"
        renamed.parent.mkdir(parents=True, exist_ok=True)
        renamed.write_text(nbformat.writes(colab_copy(students["complete"])), encoding="utf-8")
        missing = folder / "no-notebook" / lesson
        missing.mkdir(parents=True, exist_ok=True)
        (missing / "notes.txt").write_text("I could not upload my notebook.\n", encoding="utf-8")
    return folder
