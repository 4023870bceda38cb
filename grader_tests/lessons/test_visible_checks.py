"""Every lesson's visible checks on whole functions: each passes the solution, says "write the
body" for an unwritten one, and names each typical slip the lesson's mistakes declare.

Nothing here names a lesson. A visible check (`expect.visible_check`) of a lesson's checks.py
whose parameters are all functions the solution defines (`def servo_kv(servo_kv)`) is run on
the solution's functions; a mistake fixture of grader_tests/mistakes/<lesson>/ that declares
`SAYS = {function: words}` is run through the check that takes that function (the one named
after it, else the only one), its other functions the solution's, and the check's message must
hold the words. Checks that take cases or other arguments are tested in the lesson's own
module."""

from __future__ import annotations

import ast
import importlib
import inspect

import lesson_code
import pytest

from classroom.nbgrader_ext import notebooks
from course import expect, lessons

VISIBLE_CHECK = expect.visible_check(len).__code__  # the wrapper every visible check shares


def visible_checks(lesson: str) -> dict[str, tuple]:
    """{check name: (check, names of the solution's functions it takes)}."""
    checks = importlib.import_module(f"{lessons.package(lesson).__name__}.checks")
    solution = lesson_code.namespace(lesson)
    found = {}
    for name, check in inspect.getmembers(checks, inspect.isfunction):
        if check.__module__ != checks.__name__ or check.__code__ is not VISIBLE_CHECK:
            continue
        takes = tuple(inspect.signature(check).parameters)
        if takes and all(callable(solution.get(n)) for n in takes):
            found[name] = (check, takes)
    return found


def left_to_write(lesson: str) -> set[str]:
    """The functions the release leaves for the learner: defined in an answer cell with a
    body that is only `pass` (after its docstring)."""
    found = set()
    for cell in notebooks.answer_cells(notebooks.read_lesson(lesson, "release")).values():
        for node in ast.walk(ast.parse(cell.source)):
            if isinstance(node, ast.FunctionDef):
                body = [s for s in node.body if not isinstance(s, ast.Expr)]
                if len(body) == 1 and isinstance(body[0], ast.Pass):
                    found.add(node.name)
    return found


def check_taking(checks: dict, function: str) -> str:
    """The check a slip in `function` is shown by: the one named after it, else the only one
    taking it."""
    if function in checks:
        return function
    taking = [name for name, (_, takes) in checks.items() if function in takes]
    assert len(taking) == 1, f"no single visible check takes {function}: {taking}"
    return taking[0]


CHECKS = {lesson: visible_checks(lesson) for lesson in lessons.registry()}
RUNS = [(lesson, name) for lesson, checks in CHECKS.items() for name in checks]
UNWRITTEN = [  # the checks whose functions are all the learner's to write
    (lesson, name) for lesson, name in RUNS if set(CHECKS[lesson][name][1]) <= left_to_write(lesson)
]
SLIPS = [
    (lesson, mistake.name, function, words)
    for lesson in CHECKS
    for mistake in notebooks.load_mistakes(lesson)
    for function, words in mistake.says.items()
]


def _functions(lesson: str, takes, slip: tuple[str, str] | None = None) -> list:
    """The solution's functions a check takes, one replaced by a mistake fixture's."""
    solution = lesson_code.namespace(lesson)
    return [
        lesson_code.mistake(lesson, slip[0], n) if slip and n == slip[1] else solution[n]
        for n in takes
    ]


@pytest.mark.parametrize(("lesson", "name"), RUNS, ids=[f"{l_}:{n}" for l_, n in RUNS])
def test_visible_check_accepts_the_solution(lesson, name, capsys):
    check, takes = CHECKS[lesson][name]
    check(*_functions(lesson, takes))
    assert capsys.readouterr().out.startswith("OK")


@pytest.mark.parametrize(("lesson", "name"), UNWRITTEN, ids=[f"{l_}:{n}" for l_, n in UNWRITTEN])
def test_visible_check_says_when_the_body_is_missing(lesson, name):
    def unwritten(*args, **kwargs):
        return None

    check, takes = CHECKS[lesson][name]
    with pytest.raises(expect.NotAnswered, match="write"):
        check.__wrapped__(*([unwritten] * len(takes)))


@pytest.mark.parametrize(
    ("lesson", "fixture", "function", "words"), SLIPS, ids=[f"{s[0]}:{s[1]}" for s in SLIPS]
)
def test_visible_check_names_the_slip(lesson, fixture, function, words):
    check, takes = CHECKS[lesson][check_taking(CHECKS[lesson], function)]
    with pytest.raises(expect.CheckFailed, match=words):
        check(*_functions(lesson, takes, slip=(fixture, function)))


def test_the_checks_and_slips_are_found():
    """The reading is not blind: lessons 06-08's checks and their 29 declared slips are found
    (a renamed wrapper or attribute would otherwise leave these tests nothing to run)."""
    assert {"servo_kv", "reflected_inertia"} <= set(CHECKS["07-actuators-and-sensors"])
    assert CHECKS["07-actuators-and-sensors"]["reflected_inertia"][1] == (
        "reflected_inertia",
        "servo_kv",
    )
    assert len(SLIPS) >= 29
    assert ("06-slender-parts", "radius_of_gyration") in UNWRITTEN
    assert ("06-slender-parts", "apply_inertia_floor") not in UNWRITTEN  # floor_arrays is given
