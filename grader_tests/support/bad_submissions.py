"""Named bad submissions: what learners really hand in, built from any lesson.

Each `BadSubmission` is one student of the class that test_grade_command.py grades with
`python -m classroom.grade`: its name is the student id, its docstring-like `doc` says
what is wrong, `build(lesson)` returns the files of submitted/<student>/<lesson>/ as
{relative path: bytes}, and `expect` says what the grader must make of it:

- "same": every test cell scores what the complete submission scores;
- "blank": every test cell scores what the untouched release scores (0);
- "loses": the test cells that use one answer (`Lesson.tests_using`) lose their points, every
  other test cell scores as in the complete submission;
- "reason": the submission is not graded and its row says why.

`kind` names the note the report must carry for it (for "reason", the row's status).
Builders work from the committed release and the source notebook of whichever lesson they
are given, so a new lesson gets the same corpus.
"""

from __future__ import annotations

import ast
import copy
import json
import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell
from nbgrader_harness import (
    answer_cells,
    autograded_cells,
    blank_release,
    filled_release,
)

from classroom.nbgrader_ext import notebooks

REPO_ROOT = Path(__file__).resolve().parents[2]


# --------------------------------------------------------------------------------------------
# A lesson, seen by the builders


@dataclass
class Lesson:
    name: str
    root: Path = REPO_ROOT

    @cached_property
    def release(self) -> nbformat.NotebookNode:
        return blank_release(self.name, root=self.root)

    @cached_property
    def source(self) -> nbformat.NotebookNode:
        return notebooks.read(notebooks.lesson_notebook(self.name, "source", self.root))

    @property
    def complete(self) -> nbformat.NotebookNode:
        return filled_release(self.name, root=self.root)

    @cached_property
    def tests(self) -> dict[str, str]:
        """Test grade_id -> its whole source, hidden tests included."""
        return {gid: cell.source for gid, cell in autograded_cells(self.source).items()}

    def tests_using(self, name: str) -> set[str]:
        word = re.compile(rf"\b{re.escape(name)}\b")
        return {gid for gid, source in self.tests.items() if word.search(source)}

    @cached_property
    def _defined(self) -> dict[str, list[tuple[str, str]]]:
        """Answer grade_id -> [(kind 'def' or '=', name)] the solution defines at top level."""
        found = {}
        for gid, cell in answer_cells(self.source).items():
            if cell.cell_type != "code":
                continue
            lines = [ln for ln in cell.source.split("\n") if "SOLUTION" not in ln]
            try:
                tree = ast.parse("\n".join(lines))
            except SyntaxError:
                continue
            names = []
            for node in tree.body:
                if isinstance(node, ast.FunctionDef):
                    names.append(("def", node.name))
                elif isinstance(node, ast.Assign):
                    names += [("=", t.id) for t in node.targets if isinstance(t, ast.Name)]
            found[gid] = names
        return found

    def _leaves(self, kind: str) -> list[tuple[str, str]]:
        """(answer grade_id, name) of answers whose name some test uses and no other answer
        cell does, so breaking it costs exactly `tests_using(name)` (cells that are not graded
        may use it)."""
        leaves = []
        for gid, names in self._defined.items():
            for what, name in names:
                if what != kind or not self.tests_using(name):
                    continue
                word = re.compile(rf"\b{re.escape(name)}\b")
                others = [
                    other
                    for other, cell in answer_cells(self.source).items()
                    if other != gid and word.search(cell.source)
                ]
                if not others and (gid, name) not in leaves:
                    leaves.append((gid, name))
        return leaves

    @property
    def leaf_function(self) -> tuple[str, str]:
        leaves = self._leaves("def")
        if not leaves:
            raise ValueError(f"{self.name}: no answer function used only by its tests")
        return leaves[-1]

    @property
    def leaf_value(self) -> tuple[str, str]:
        leaves = self._leaves("=") or self._leaves("def")
        return leaves[-1]

    def test_names(self) -> list[str]:
        return list(autograded_cells(self.release))


def _bytes(nb) -> bytes:
    return nbformat.writes(nb).encode("utf-8")


def _folder(lesson: Lesson, nb, name: str | None = None) -> dict[str, bytes]:
    return {name or f"{lesson.name}.ipynb": _bytes(nb)}


def _append(nb, grade_id: str, code: str):
    cell = answer_cells(nb)[grade_id]
    cell.source = cell.source.rstrip("\n") + "\n" + code.strip("\n") + "\n"
    return nb


def _strip(nb, keep=lambda cell: False):
    for cell in nb.cells:
        if not keep(cell):
            cell.metadata.pop("nbgrader", None)
    return nb


def _index(nb, grade_id: str) -> int:
    for index, cell in enumerate(nb.cells):
        if cell.metadata.get("nbgrader", {}).get("grade_id") == grade_id:
            return index
    raise KeyError(grade_id)


# --------------------------------------------------------------------------------------------
# The corpus


@dataclass(frozen=True)
class BadSubmission:
    name: str
    doc: str
    expect: str  # "same", "blank", "loses", "reason" or "graded" (a score, whatever it is)
    kind: str | None  # the note (or status) the report must show
    builder: object
    target: str = "function"  # for "loses": the answer broken is a "function" or a "value"

    def build(self, lesson: Lesson) -> dict[str, bytes]:
        return self.builder(lesson)

    def loses(self, lesson: Lesson) -> set[str]:
        if self.expect != "loses":
            return set()
        gid, name = lesson.leaf_value if self.target == "value" else lesson.leaf_function
        return lesson.tests_using(name)


def _renamed(name):
    return lambda lesson: _folder(lesson, lesson.complete, name(lesson.name))


def _colab(lesson):
    nb = lesson.complete
    nb.nbformat_minor = 0
    nb.metadata = nbformat.from_dict(
        {
            "colab": {"provenance": [], "collapsed_sections": []},
            "accelerator": "CPU",
            "kernelspec": {"name": "python3", "display_name": "Python 3"},
            "language_info": {"name": "python"},
        }
    )
    for number, cell in enumerate(nb.cells):
        cell.pop("id", None)
        cell.metadata["id"] = f"colab{number:03d}"
        cell.metadata["colab"] = {"base_uri": "https://localhost:8080/"}
        if cell.cell_type == "code":
            cell.metadata["outputId"] = f"out{number:03d}"
    return _folder(lesson, nb)


def _new_ids(lesson):
    nb = lesson.complete
    for number, cell in enumerate(nb.cells):
        cell["id"] = "same-id" if number % 7 == 0 else f"new-{number}"
    return {f"{lesson.name}.ipynb": json.dumps(nb, indent=1).encode("utf-8")}


def _kernelspec(lesson):
    nb = lesson.complete
    nb.metadata["kernelspec"] = {
        "name": "conda-env-robotics-py",
        "display_name": "Python [conda env:robotics]",
        "language": "python",
    }
    return _folder(lesson, nb)


def _stripped_some(lesson):
    tests = set(lesson.test_names())
    return _folder(
        lesson,
        _strip(
            lesson.complete,
            keep=lambda c: c.metadata.get("nbgrader", {}).get("grade_id") not in tests,
        ),
    )


def _duplicate(lesson):
    nb = lesson.complete
    gid, _ = lesson.leaf_function
    index = _index(nb, gid)
    nb.cells.insert(index, copy.deepcopy(nb.cells[index]))
    nb.cells[index]["id"] = nb.cells[index]["id"] + "-copy"
    return _folder(lesson, nb)


def _other_lesson(lesson):
    """Another lesson's notebook, answered, handed in under this lesson's name."""
    other = next(n for n in notebooks.discover_lessons(REPO_ROOT) if n != lesson.name)
    release = notebooks.read_lesson(other, "release", REPO_ROOT)
    return _folder(lesson, notebooks.fill_release(release, notebooks.read_lesson(other)))


def _deleted_test(lesson):
    nb = lesson.complete
    del nb.cells[_index(nb, lesson.test_names()[0])]
    return _folder(lesson, nb)


def _assert_true(strip):
    def build_it(lesson):
        nb = blank_release(lesson.name, root=lesson.root)
        for cell in nb.cells:
            if cell.metadata.get("nbgrader", {}).get("grade_id") in set(lesson.test_names()):
                cell.source = "assert True"
        return _folder(lesson, _strip(nb) if strip else nb)

    return build_it


def _loop(lesson):
    gid, _ = lesson.leaf_value
    return _folder(lesson, _append(lesson.complete, gid, "while True:\n    pass"))


def _stubborn_loop(lesson):
    gid, _ = lesson.leaf_value
    code = """
import time as _time
while True:
    try:
        _time.sleep(0.05)
    except KeyboardInterrupt:
        pass
"""
    return _folder(lesson, _append(lesson.complete, gid, code))


def _kernel_exit(lesson):
    gid, _ = lesson.leaf_value
    return _folder(lesson, _append(lesson.complete, gid, "import os\nos._exit(1)"))


def _stderr(lesson):
    gid, name = lesson.leaf_function
    code = f"""
import sys as _sys
import warnings as _warnings
_honest_{name} = {name}


def {name}(*args, **kwargs):
    _warnings.warn("this call is deprecated", UserWarning, stacklevel=2)
    print("warning: computing", file=_sys.stderr)
    return _honest_{name}(*args, **kwargs)
"""
    return _folder(lesson, _append(lesson.complete, gid, code))


def _print_flood(lesson):
    gid, _ = lesson.leaf_function
    return _folder(lesson, _append(lesson.complete, gid, 'print("x" * 200_000_000)'))


REBIND = """
import math
import sys
import numpy
import numpy as np
import numpy.testing
np.allclose = lambda *a, **k: True
np.isclose = lambda *a, **k: True
numpy.testing.assert_allclose = lambda *a, **k: None
numpy.testing.assert_array_almost_equal = lambda *a, **k: None
math.isclose = lambda *a, **k: True
for _name, _module in list(sys.modules.items()):
    if _name == "course.expect" or _name.startswith("course.checks"):
        for _attr, _value in list(vars(_module).items()):
            if callable(_value) and not isinstance(_value, type) and not _attr.startswith("__"):
                setattr(_module, _attr, lambda *a, **k: None)
"""


def _rebinds(complete):
    def build_it(lesson):
        nb = lesson.complete if complete else blank_release(lesson.name, root=lesson.root)
        first = next(g for g, c in answer_cells(nb).items() if c.cell_type == "code")
        return _folder(lesson, _append(nb, first, REBIND))

    return build_it


def _rebinds_during_test(lesson):
    gid, name = lesson.leaf_function
    code = f"""
_honest_{name} = {name}


def _scaled(value):
    if isinstance(value, (list, tuple)):
        return type(value)(_scaled(v) for v in value)
    try:
        return value * 1.5 + 1.0
    except TypeError:
        return value


def {name}(*args, **kwargs):
    import math
    import numpy
    import course.expect
    course.expect.close = lambda *a, **k: None
    course.expect.inertia_matches = lambda *a, **k: None
    numpy.allclose = lambda *a, **k: True
    math.isclose = lambda *a, **k: True
    return _scaled(_honest_{name}(*args, **kwargs))
"""
    return _folder(lesson, _append(lesson.complete, gid, code))


PEEK = """
import linecache

_shell = get_ipython()
print("\\n".join(In))
print("\\n".join("".join(entry[2]) for entry in linecache.cache.values() if len(entry) > 2))
print("\\n".join(str(row[2]) for row in _shell.history_manager.get_range(raw=True)))
"""


def _peeks(lesson):
    gid, name = lesson.leaf_function
    spy = f"""
import traceback as _traceback
_honest_{name} = {name}


def {name}(*args, **kwargs):
    _traceback.print_stack()
    return _honest_{name}(*args, **kwargs)
"""
    nb = _append(lesson.complete, gid, spy)
    nb.cells.append(new_code_cell(PEEK))
    return _folder(lesson, nb)


def _invalid_json(lesson):
    text = _bytes(lesson.complete)
    return {f"{lesson.name}.ipynb": text[: len(text) // 2]}


def _extra_files(lesson):
    files = _folder(lesson, lesson.complete)
    files["my-data.csv"] = b"t,x\n0,1\n"
    files["scratch.ipynb"] = _bytes(nbformat.v4.new_notebook(cells=[new_code_cell("1 + 1")]))
    files[".ipynb_checkpoints/" + f"{lesson.name}-checkpoint.ipynb"] = _bytes(lesson.release)
    return files


CORPUS = [
    BadSubmission(
        "renamed-copy-of",
        "saved as 'Copy of <lesson>.ipynb'",
        "same",
        "renamed",
        _renamed(lambda n: f"Copy of {n}.ipynb"),
    ),
    BadSubmission(
        "renamed-numbered",
        "saved as '<lesson> (1).ipynb'",
        "same",
        "renamed",
        _renamed(lambda n: f"{n} (1).ipynb"),
    ),
    BadSubmission(
        "renamed-case",
        "saved with another case",
        "same",
        "renamed",
        _renamed(lambda n: f"{n.upper()}.ipynb"),
    ),
    BadSubmission(
        "renamed-other",
        "the one notebook in the folder, under another name",
        "same",
        "renamed",
        _renamed(lambda n: "homework_final.ipynb"),
    ),
    BadSubmission(
        "colab-saved", "Colab's metadata, no cell ids, nbformat 4.0", "same", "format", _colab
    ),
    BadSubmission("cell-ids-new", "new cell ids, some duplicated", "same", "format", _new_ids),
    BadSubmission(
        "other-kernelspec", "another kernelspec (a conda env)", "same", "format", _kernelspec
    ),
    BadSubmission(
        "metadata-stripped-all",
        "nbgrader metadata gone from every cell",
        "same",
        "metadata-restored",
        lambda lesson: _folder(lesson, _strip(lesson.complete)),
    ),
    BadSubmission(
        "metadata-stripped-tests",
        "nbgrader metadata gone from the test cells",
        "same",
        "metadata-restored",
        _stripped_some,
    ),
    BadSubmission(
        "duplicate-grade-id",
        "an answer cell copied (duplicate grade_id)",
        "same",
        "duplicate-id",
        _duplicate,
    ),
    BadSubmission(
        "wrong-lesson",
        "another lesson's notebook, answered, under this lesson's name",
        "graded",
        "wrong-notebook",
        _other_lesson,
    ),
    BadSubmission(
        "test-cell-deleted", "a test cell deleted", "same", "test-restored", _deleted_test
    ),
    BadSubmission(
        "tests-assert-true",
        "blank answers, every test cell edited to assert True",
        "blank",
        "test-restored",
        _assert_true(strip=False),
    ),
    BadSubmission(
        "tests-assert-true-stripped",
        "the same with the nbgrader metadata gone",
        "blank",
        "test-restored",
        _assert_true(strip=True),
    ),
    BadSubmission(
        "infinite-loop",
        "a loop after an answer value (interruptible)",
        "same",
        "cell-timeout",
        _loop,
    ),
    BadSubmission(
        "stubborn-loop",
        "a loop that ignores the interrupt after an answer value",
        "loses",
        "kernel-stuck",
        _stubborn_loop,
        "value",
    ),
    BadSubmission(
        "kernel-exit",
        "os._exit(1) after an answer value",
        "loses",
        "kernel-died",
        _kernel_exit,
        "value",
    ),
    # No test cell runs in the kernel, so a warning there never reaches a test: no note.
    BadSubmission("stderr-warning", "a correct answer that warns on stderr", "same", None, _stderr),
    BadSubmission(
        "print-200mb",
        "a correct answer cell that prints 200 MB",
        "same",
        "output-capped",
        _print_flood,
    ),
    BadSubmission(
        "rebinds-comparisons",
        "blank answers; np.allclose, math.isclose, course checks rebound",
        "blank",
        None,  # nothing to repair: the verdicts are decided outside the kernel
        _rebinds(complete=False),
    ),
    BadSubmission(
        "rebinds-with-answers",
        "correct answers plus the same rebinding",
        "same",
        None,
        _rebinds(complete=True),
    ),
    BadSubmission(
        "rebinds-during-test",
        "a wrong answer function that rebinds the comparisons when a test calls it",
        "loses",
        None,  # it fails where the learner's functions run: no course package there
        _rebinds_during_test,
    ),
    BadSubmission(
        "peeks-at-hidden-tests",
        "prints the call stack during a test, and In and linecache in a last cell",
        "same",
        None,
        _peeks,
    ),
    BadSubmission(
        "invalid-json", "a notebook file cut in half", "reason", "needs a human", _invalid_json
    ),
    BadSubmission(
        "empty-file",
        "a notebook file of 0 bytes",
        "reason",
        "needs a human",
        lambda lesson: {f"{lesson.name}.ipynb": b""},
    ),
    BadSubmission(
        "missing-notebook",
        "a folder with no notebook",
        "reason",
        "needs a human",
        lambda lesson: {"notes.txt": b"my notebook would not upload\n"},
    ),
    BadSubmission(
        "extra-files",
        "the notebook plus data, a scratch notebook, checkpoints",
        "same",
        "extra-files",
        _extra_files,
    ),
]
BY_NAME = {bad.name: bad for bad in CORPUS}


def write_class(lesson: Lesson, folder: Path, names=None) -> list[str]:
    """Write submitted/<student>/<lesson>/ for the corpus (or the named part of it), plus
    "complete" and "blank" to compare with; returns the student ids."""
    students = {
        "complete": _folder(lesson, lesson.complete),
        "blank": _folder(lesson, lesson.release),
    }
    for bad in CORPUS:
        if names is None or bad.name in names:
            students[bad.name] = bad.build(lesson)
    for student, files in students.items():
        for relative, data in files.items():
            path = Path(folder) / student / lesson.name / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
    return list(students)
