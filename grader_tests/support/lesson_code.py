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
import io
from functools import cache

from classroom import notebooks


def setup_imports(source) -> str:
    """The import statements of a lesson's set-up cell (its first locked code cell)."""
    for cell in source.cells:
        if cell.cell_type == "code" and notebooks.is_locked(cell):
            tree = ast.parse(cell.source)
            imports = [n for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)]
            return "\n".join(ast.unparse(node) for node in imports)
    return ""


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
    import re

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
