"""The trusted side of a lesson's tests: what the grader knows of the lesson, from the gradebook.

Everything here comes from the instructor's copy of the lesson (nbgrader's gradebook, which
`generate_assignment` filled from source/), never from the learner's notebook:

- the set-up: the import statements of the lesson's locked cells (its set-up cell), run once
  in the grader, so a test sees `check`, `np`, `compiled`... as the notebook does;
- the answer names: what the lesson's answer cells define (`def solid_inertia`,
  `check_parallel_axis = ...`); in a test these names are the learner's, across the boundary;
- the tests: each test cell's whole source, visible check and hidden tests.

`run_test` runs one test in a fresh namespace made of the set-up and the learner's answers
(`StudentFunction` proxies for functions, plain decoded values for the rest), the visible
part first, then the hidden part, and says what happened.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import io
import sys
import warnings
from dataclasses import dataclass, field

from classroom.nbgrader_ext.notebooks import HIDDEN_DELIMITERS
from classroom.nbgrader_ext.verdicts import boundary

MAX_PRINTED = 4000  # characters of a passing test's printed lines kept in its output


@dataclass(frozen=True)
class TrustedLesson:
    """One notebook of a lesson as the gradebook holds it."""

    setup: str  # import statements of the locked non-test cells
    answers: dict[str, str]  # answer name -> "function" | "value", in notebook order
    tests: dict[str, str]  # test grade_id -> its whole source

    @property
    def setup_names(self) -> frozenset[str]:
        """The names the set-up binds to modules beyond NumPy and the standard library (mujoco,
        course, its helpers): an answer that needs one of them looks its answer up."""
        found = set()
        for node in ast.parse(self.setup).body:
            module = node.module if isinstance(node, ast.ImportFrom) else None
            for alias in node.names:
                top = (module or alias.name).split(".")[0]
                if top != "numpy" and top not in sys.stdlib_module_names:
                    found.add((alias.asname or alias.name).split(".")[0])
        return frozenset(found)


def defined_names(source: str) -> dict[str, str]:
    """{name: "function" | "value"} of what a cell's top level defines (a stub is enough)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return {}
    found: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found[node.name] = "function"
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    found.setdefault(target.id, "value")
    return found


def imports_of(source: str) -> list[str]:
    """The import statements at the top level of a cell (magics and other code left out)."""
    lines = [ln for ln in source.split("\n") if not ln.lstrip().startswith(("%", "!"))]
    try:
        tree = ast.parse("\n".join(lines))
    except SyntaxError:
        return []
    kinds = ast.Import | ast.ImportFrom
    return [ast.unparse(n) for n in tree.body if isinstance(n, kinds) and not _relative(n)]


def _relative(node) -> bool:
    return isinstance(node, ast.ImportFrom) and node.level > 0


_LESSONS: dict[tuple[str, str, str], TrustedLesson] = {}


def from_gradebook(db_url: str, assignment: str, notebook: str) -> TrustedLesson:
    """The trusted lesson of one notebook, read once per process from nbgrader's gradebook."""
    key = (db_url, assignment, notebook)
    if key not in _LESSONS:
        from nbgrader.api import Gradebook

        with Gradebook(db_url) as gb:
            found = gb.find_notebook(notebook, assignment)
            solutions = {cell.name for cell in found.solution_cells}
            graded = {cell.name for cell in found.grade_cells}
            setup, answers, tests = [], {}, {}
            for cell in found.source_cells:  # in notebook order
                if cell.cell_type != "code":
                    continue
                if cell.name in solutions:
                    answers.update(defined_names(cell.source))
                elif cell.name in graded:
                    tests[cell.name] = cell.source
                elif cell.locked:
                    setup += imports_of(cell.source)
        _LESSONS[key] = TrustedLesson("\n".join(setup), answers, tests)
    return _LESSONS[key]


def split_test(source: str) -> tuple[str, str]:
    """(visible part, hidden part) of a test cell's source, each runnable on its own."""
    begin, end = HIDDEN_DELIMITERS
    visible, hidden, inside = [], [], False
    for line in source.split("\n"):
        if begin in line:
            inside = True
        elif end in line:
            inside = False
        elif inside:
            hidden.append(line)
        else:
            visible.append(line)
    return "\n".join(visible), "\n".join(hidden)


# --------------------------------------------------------------------------------------------
# Running one test


class Missing:
    """An answer name the learner's notebook does not define (or defines as the wrong kind):
    calling it, or using it as a value, fails with a sentence saying so."""

    def __init__(self, name: str, why: str):
        self.name, self.why = name, why

    def __call__(self, *args, **kwargs):
        raise boundary.NotDefined(self.why)

    def __repr__(self) -> str:
        return f"<{self.why}>"


def learner_names(
    lesson: TrustedLesson, answers: boundary.AnswerProcess, why_missing: dict | None = None
) -> dict:
    """The answer names as the learner's notebook has them now: proxies and plain values.

    why_missing: {name: sentence} for names whose cell stopped before defining them."""
    kinds = answers.names()
    bound: dict = {}
    for name, expected in lesson.answers.items():
        kind = kinds.get(name)
        if kind is None:
            why = (why_missing or {}).get(name) or (
                f"Your notebook does not define {name}: keep the name the exercise gives"
            )
            bound[name] = Missing(name, why) if expected == "function" else None
        elif expected == "function":
            ok = kind == "function"
            why = f"{name} should be a function, but your notebook makes it a {kind}"
            bound[name] = boundary.StudentFunction(answers, name) if ok else Missing(name, why)
        else:
            try:
                bound[name] = answers.value(name)
            except boundary.VerdictError as exc:
                bound[name] = Missing(name, str(exc))
    return bound


@dataclass
class Verdict:
    """What one test cell's trusted run found: passed or not, where it stopped, why."""

    passed: bool
    visible: str  # "passed", "failed" or "none" (the cell has no visible check)
    hidden: str  # "passed", "failed", "not run" or "none"
    ename: str = ""
    evalue: str = ""
    printed: str = ""
    answers_gone: bool = False  # the answer process was stopped (timeout, crash)
    notes: list[str] = field(default_factory=list)


@functools.lru_cache(maxsize=1024)
def _compiled(code: str, label: str):
    """Trusted source compiled once per worker: every submission of a lesson runs the same
    tests (code objects are immutable, so sharing one is safe)."""
    return compile(code, f"<{label}>", "exec")


def _run(code: str, namespace: dict, label: str) -> tuple[BaseException | None, str]:
    """Run trusted code; (the exception it raised or None, what it printed)."""
    printed = io.StringIO()
    with (
        contextlib.redirect_stdout(printed),
        contextlib.redirect_stderr(io.StringIO()),
        warnings.catch_warnings(),
    ):
        warnings.simplefilter("ignore")
        try:
            exec(_compiled(code, label), namespace)  # noqa: S102 - trusted code
        except Exception as exc:  # the test failed: its message is the verdict's
            return exc, printed.getvalue()
    return None, printed.getvalue()


def _has_code(part: str) -> bool:
    """Whether a part of a test cell does anything (not only a docstring and comments)."""
    try:
        body = ast.parse(part).body
    except SyntaxError:
        return True
    return any(not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)) for n in body)


def run_test(
    lesson: TrustedLesson, grade_id: str, base: dict, answers, why_missing: dict | None = None
) -> Verdict:
    """Run one test cell's trusted source against the learner's answers.

    base: the set-up's namespace (copied, never changed); answers: the learner's
    AnswerProcess; why_missing: as for learner_names. The visible check runs first; the
    hidden tests only when it passed.
    """
    visible, hidden = split_test(lesson.tests[grade_id])
    namespace = {**base, **learner_names(lesson, answers, why_missing)}
    parts = [("visible", visible), ("hidden", hidden)]
    state = {name: ("none" if not _has_code(code) else "not run") for name, code in parts}
    printed = []
    for name, code in parts:
        if state[name] == "none":
            continue
        error, text = _run(code, namespace, f"test {grade_id}, {name} part")
        printed.append(text)
        if error is not None:
            state[name] = "failed"
            return _failed(error, state, "".join(printed))
        state[name] = "passed"
    return Verdict(True, state["visible"], state["hidden"], printed="".join(printed)[:MAX_PRINTED])


def _failed(error: BaseException, state: dict, printed: str) -> Verdict:
    gone = isinstance(error, boundary.StudentTimeout | boundary.AnswerProcessGone)
    message = str(error).strip() or type(error).__name__
    return Verdict(
        False,
        state["visible"],
        state["hidden"],
        ename=type(error).__name__,
        evalue=message,
        printed=printed[:MAX_PRINTED],
        answers_gone=gone,
    )


def setup_namespace(lesson: TrustedLesson) -> dict:
    """The set-up's imports, run in the grader: the names a test sees besides the answers."""
    namespace: dict = {}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(_compiled(lesson.setup, "the lesson's set-up"), namespace)  # noqa: S102
    return namespace
