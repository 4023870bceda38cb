"""A lesson's own code, run as its notebook runs it, for the tests of the lesson's helpers.

Reference answers are never typed twice: a test that needs a correct `rk4` takes the one the
source notebook's answer cell holds, and a test that needs a typical wrong one takes the answer
cell as a mistake fixture (grader_tests/mistakes/<lesson>/) changes it, the way MIT's
manipulation exercises give their tests the notebook's own namespace.

    ns = lesson_code.namespace("02-time-integration")            # the solutions
    wrong = lesson_code.namespace("02-time-integration", "rk4_equal_stage_weights")
    ns["rk4"], wrong["rk4"]
"""

from __future__ import annotations

import ast
import contextlib
import inspect
import io
import os
import re
import time
from functools import cache
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from classroom.isolation import kernels
from classroom.nbgrader_ext import notebooks
from course import lessons


def setup_imports(source) -> str:
    """The import statements of a lesson's set-up cell (its first locked code cell)."""
    for cell in source.cells:
        if cell.cell_type == "code" and notebooks.is_locked(cell):
            tree = ast.parse(cell.source)
            imports = [n for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)]
            return "\n".join(ast.unparse(node) for node in imports)
    return ""


def own_tests(lesson: str) -> str:
    """The dotted name of the lesson's own test module, as pytest imports it from the
    repository (--import-mode=importlib): grader_tests.lessons.test_<its package's name>."""
    package = lessons.package(lesson).__name__.rsplit(".", 1)[1]
    return f"grader_tests.lessons.test_{package}"


def _defines_something(text: str) -> bool:
    """An answer cell that defines a function or a name (not an exercise that only prints)."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return False
    kinds = (ast.FunctionDef, ast.Assign, ast.AnnAssign, ast.Import, ast.ImportFrom)
    return bool(tree.body) and all(isinstance(node, kinds) for node in tree.body)


@cache
def _namespace(lesson: str, mistake: str | None) -> dict:
    source = notebooks.read_lesson(lesson)
    texts = notebooks.solutions(source)
    if mistake is not None:
        found = {m.name: m for m in notebooks.load_mistakes(lesson)}
        if mistake not in found:
            raise KeyError(f"{lesson} has no mistake fixture {mistake!r}: {sorted(found)}")
        texts.update(found[mistake].cells)
    ns: dict = {}
    exec(compile(setup_imports(source), f"<{lesson} set-up>", "exec"), ns)
    with contextlib.redirect_stdout(io.StringIO()):
        for grade_id, text in texts.items():
            if _defines_something(text):
                exec(compile(text, f"<{lesson} {grade_id}>", "exec"), ns)
    return ns


def namespace(lesson: str, mistake: str | None = None) -> dict:
    """The names a lesson's answer cells define, with its set-up's imports: the source's
    solutions, or with the answer cells a mistake fixture changes. Cached; do not mutate."""
    return _namespace(lesson, mistake)


def answers(lesson: str, *names: str) -> tuple:
    """The named functions or values of a lesson's solutions, in order."""
    found = namespace(lesson)
    return tuple(found[name] for name in names)


def mistake(lesson: str, name: str, function: str):
    """`function` as the mistake fixture grader_tests/mistakes/<lesson>/<name> has it."""
    return namespace(lesson, name)[function]


@cache
def prose(lesson: str) -> str:
    """What the learner reads of a lesson, with white space collapsed to single spaces: the
    source notebook's markdown and the strings of its quiz and print cells (questions,
    buttons, explanations, printed conclusions). A claims test finds its sentences here."""
    texts = []
    for cell in notebooks.read_lesson(lesson).cells:
        if cell.cell_type == "markdown":
            texts.append(cell.source)
        elif "quiz.choose(" in cell.source or "print(" in cell.source:
            tree = ast.parse(notebooks.solution_text(cell.source))
            texts += [
                node.value
                for node in ast.walk(tree)
                if isinstance(node, ast.Constant) and isinstance(node.value, str)
            ]
    return re.sub(r"\s+", " ", " ".join(texts))


def claims_tests(claims, prose: str, minimum: int, ids=None, unchecked=()) -> tuple:
    """The two claims tests of a lesson, for its test module to bind at module level (pytest
    collects them under the names they are bound to):

        test_claim_is_in_the_prose_and_true, test_claims_count = lesson_code.claims_tests(
            CLAIMS, PROSE, minimum=50
        )

    `claims` holds (sentence, confirm) pairs. The first test runs once per claim (ids: `ids`,
    or its number and its confirm's __name__): the sentence is in `prose` word for word, and
    confirm() (or confirm(tmp_path) when it asks for `tmp_path`) passes. The second: no
    sentence is listed twice, there are at least `minimum`, and each sentence of `unchecked`
    (those MuJoCo cannot confirm) is still in the prose."""
    claims, unchecked = list(claims), list(unchecked)

    @pytest.mark.parametrize(
        ("sentence", "confirm"),
        claims,
        ids=ids or [f"{i:02d}-{c[1].__name__.strip('_')}" for i, c in enumerate(claims)],
    )
    def test_claim_is_in_the_prose_and_true(sentence, confirm, request):
        """The sentence is in the notebook's prose word for word, and MuJoCo confirms it."""
        assert re.sub(r"\s+", " ", sentence) in prose, f"the prose no longer says: {sentence!r}"
        if "tmp_path" in inspect.signature(confirm).parameters:
            confirm(request.getfixturevalue("tmp_path"))
        else:
            confirm()

    def test_claims_count():
        """Every claim has its own sentence (no sentence listed twice), and the sentences
        MuJoCo cannot confirm are still in the prose."""
        sentences = [sentence for sentence, _ in claims]
        assert len(sentences) == len(set(sentences)) >= minimum
        for sentence in unchecked:
            assert re.sub(r"\s+", " ", sentence) in prose, sentence

    return test_claim_is_in_the_prose_and_true, test_claims_count


def run_notebook(
    nb: nbformat.NotebookNode,
    workdir: Path,
    env: dict[str, str] | None = None,
    *,
    timeout: float = 180,
    allow_errors: bool = True,
    **client_options,
) -> float:
    """Run nb in place in a fresh kernel started in `workdir` with `env` (default: this
    process's environment); return the seconds. Errors are recorded in the outputs, or with
    allow_errors=False raised (CellExecutionError) at the first one.

    The client waits for kernel messages in short slices (`kernels.slice_waits`, as the
    grader's own client does): a quiz's Output widget makes nbclient send on the shell socket
    while it waits there for the reply, and a lost wake-up would otherwise cost the whole cell
    timeout (seen: a 6 s lesson run taking 123 s, with no error)."""
    client = NotebookClient(
        nb,
        timeout=timeout,
        allow_errors=allow_errors,
        resources={"metadata": {"path": str(workdir)}},
        **client_options,
    )

    def slice_the_waits(notebook) -> None:
        kernels.slice_waits(client.kc.shell_channel)
        kernels.slice_waits(client.kc.iopub_channel)

    client.on_notebook_start = slice_the_waits
    start = time.perf_counter()
    client.execute(env=dict(os.environ) if env is None else env)
    return time.perf_counter() - start


def run_blank_release(lesson: str, workdir: Path) -> tuple[nbformat.NotebookNode, list, str]:
    """The lesson's untouched release, run as a learner's Run All runs it (not grading: no
    NBGRADER_EXECUTION), raising CellExecutionError at the first error. Returns the executed
    notebook, the outputs of its code cells, and the text they printed."""
    nb = notebooks.read_lesson(lesson, "release")
    env = {k: v for k, v in os.environ.items() if k != "NBGRADER_EXECUTION"}
    run_notebook(nb, workdir, env, timeout=120, allow_errors=False, kernel_name="python3")
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    return nb, outputs, "\n".join(o.get("text", "") for o in outputs)


@contextlib.contextmanager
def as_graded(submission: int = 0):
    """Checks as the grader runs them: strict, and hidden tests drawing the cases of a
    stand-in submission (`submission` in place of the seed the grader derives from its
    secret). The mode before is restored after."""
    from course import expect

    before = (expect._GRADING, expect._HIDDEN_SEED)
    expect.grading(True, hidden_seed=(submission,) * 8)
    try:
        yield
    finally:
        expect._GRADING, expect._HIDDEN_SEED = before


def hidden_generator(label: int, submission: int = 0):
    """The generator `expect.hidden_cases(label)` gives a hidden test in the grader, for the
    stand-in submission `submission`: what tests of a hidden test's cases draw from."""
    from course import expect

    with as_graded(submission):
        return expect.hidden_cases(label)
