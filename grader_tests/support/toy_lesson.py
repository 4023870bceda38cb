"""The cells of the toy nbgrader lesson (`TOY`) that the grading command's tests build at test
time: test_grade_command.py's toy, and lms_downloads.py's (the same lesson, with what an
instructor's term needs on top).

Both toys have a locked set-up cell, an answer cell `double` and its test (2 points), and a
multiple-choice `answer` and its test (1 point, `answer_cells`); each writes its own set-up
and its own test of `double`. The importer puts the repository on sys.path first (for `classroom`).
"""

from __future__ import annotations

import nbformat
from nbformat.v4 import new_code_cell, new_notebook

from classroom.nbgrader_ext import notebooks

TOY = "00-toy"
DOUBLE = "def double(x):\n    ### BEGIN SOLUTION\n    return 2 * x\n    ### END SOLUTION"


def _nbgrader_cell(source: str, **nbgrader) -> nbformat.NotebookNode:
    """A code cell with nbgrader's metadata (schema 3, not a task) set to `nbgrader`."""
    cell = new_code_cell(source)
    cell.metadata["nbgrader"] = {"schema_version": 3, "task": False, **nbgrader}
    return cell


def locked_cell(grade_id: str, source: str) -> nbformat.NotebookNode:
    """A read-only cell that is neither an answer nor graded (the set-up)."""
    return _nbgrader_cell(source, grade=False, grade_id=grade_id, locked=True, solution=False)


def answer_cell(grade_id: str, source: str) -> nbformat.NotebookNode:
    """An autograded answer: the learner's to write (its solution between the markers)."""
    return _nbgrader_cell(source, grade=False, grade_id=grade_id, locked=False, solution=True)


def graded_cell(grade_id: str, source: str, points: float) -> nbformat.NotebookNode:
    """A locked autograded test worth `points`."""
    return _nbgrader_cell(
        source, grade=True, grade_id=grade_id, locked=True, points=points, solution=False
    )


def answer_cells() -> list[nbformat.NotebookNode]:
    """The multiple-choice question, right answer "B", and its test (1 point)."""
    return [
        answer_cell(
            "answer",
            'answer = None  # "A" or "B"\n### BEGIN SOLUTION\nanswer = "B"\n### END SOLUTION',
        ),
        graded_cell("answer_is_b", '"""The answer."""\nassert answer == "B"', points=1),
    ]


def notebook(cells: list) -> nbformat.NotebookNode:
    """A notebook of cells with the course's kernelspec and language_info, as a lesson's
    source notebook has them."""
    nb = new_notebook(cells=cells)
    nb.metadata = nbformat.from_dict(
        {"kernelspec": dict(notebooks.KERNELSPEC), "language_info": {"name": "python"}}
    )
    return nb
