"""Run each lesson's hidden tests against its own solution on many seeds, to find the cases
a correct answer can lose (a draw outside a method's stable range, a tolerance too tight).

Every submission draws fresh hidden cases from its seed (`course.expect.hidden_cases`), and
the registry's suite grades the solution on one seed a run: a case that fails one seed in a
thousand shows up there as a flaky test, once in a while. This runs the source notebook
(solutions and hidden tests) once in this process, then re-runs each graded test cell with
hidden tests on `--seeds` seeds, and prints one line per failure:

    .venv/bin/python grader_tests/support/sweep_hidden_cases.py 02-time-integration --seeds 200

Not a grader: the cells run unsandboxed in this process, as the solution is trusted.

With `--mistakes` it sweeps the mistake fixtures instead (grader_tests/mistakes/<lesson>/):
each fixture's answers (its CELLS in place of the solution's) run in an answer process, as the
grader runs a learner's (NumPy only, unsandboxed here), and each test cell the fixture LOSES is
decided by the grader's own trusted code (`verdicts.trusted.run_test`) on every seed. It prints
one line per (mistake, test, seed) where that test PASSED: a wrong answer that earned points.
Across the boundary, as in the grader, an answer that looks its result up in MuJoCo fails; in
this process it would pass. With `--hidden-only` too, each test keeps only its hidden part: does
the fresh draw alone catch the mistake, or only the visible check's shown cases?

    .venv/bin/python grader_tests/support/sweep_hidden_cases.py --mistakes --seeds 100
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import nbformat

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT))

from classroom.nbgrader_ext import notebooks  # noqa: E402
from classroom.nbgrader_ext.verdicts import boundary, trusted  # noqa: E402

HIDDEN = "### BEGIN HIDDEN TESTS"


@dataclass(frozen=True)
class Failure:
    """A hidden test cell the solution failed: its grade id, the seed, the first line."""

    grade_id: str
    seed: int
    message: str


def hidden_test_cells(nb) -> list[tuple[str, str]]:
    """(grade id, source) of every graded test cell holding hidden tests."""
    return [
        (cell.metadata["nbgrader"]["grade_id"], cell.source)
        for cell in nb.cells
        if cell.cell_type == "code"
        and cell.metadata.get("nbgrader", {}).get("grade")
        and HIDDEN in cell.source
    ]


def run_cells(nb, namespace: dict) -> None:
    """Run every code cell of the notebook in namespace, its output swallowed."""
    for cell in nb.cells:
        if cell.cell_type == "code":
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile(cell.source, "<cell>", "exec"), namespace)


def sweep(lesson: str, seeds: range, salt: int) -> tuple[list[Failure], int]:
    """Failures of the lesson's hidden test cells on each seed, and how many cells ran."""
    os.environ["NBGRADER_EXECUTION"] = "autograde"  # the course's helpers skip plots
    from course import expect

    nb = nbformat.read(notebooks.lesson_notebook(lesson, "source"), as_version=4)
    namespace = {"__name__": "__main__"}
    expect.grading(True, (salt, 0))
    run_cells(nb, namespace)
    cells, failures = hidden_test_cells(nb), []
    for seed in seeds:
        expect.grading(True, (salt, seed))
        for grade_id, source in cells:
            try:
                with contextlib.redirect_stdout(io.StringIO()):
                    exec(compile(source, f"<{grade_id}>", "exec"), namespace)
            except Exception as error:  # every failure is what this looks for
                first = (str(error).splitlines() or [type(error).__name__])[0]
                failures.append(Failure(grade_id, seed, f"{type(error).__name__}: {first}"))
    return failures, len(cells) * len(seeds)


@dataclass(frozen=True)
class Escape:
    """A test a mistake should lose that passed: the mistake, the test's grade id, the seed."""

    mistake: str
    grade_id: str
    seed: int


def mistake_notebook(source, mistake: notebooks.Mistake):
    """The source notebook with the mistake's cells in place of those answers and every other
    answer cell the solution as a learner writes it; test cells keep their hidden tests."""
    return notebooks.fill_release(source, source, mistake.cells)


def trusted_lesson(nb, hidden_only: bool = False) -> trusted.TrustedLesson:
    """The lesson as the grader's trusted side reads it from the gradebook, here from nb;
    hidden_only: each test cell keeps only its hidden tests (no visible check)."""
    setup, answers, tests = [], {}, {}
    begin, end = notebooks.HIDDEN_DELIMITERS
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        if notebooks.is_answer(cell):
            answers.update(trusted.defined_names(cell.source))
        elif notebooks.is_test(cell):
            hidden = "\n".join((begin, trusted.split_test(cell.source)[1], end))
            tests[notebooks.grade_id(cell)] = hidden if hidden_only else cell.source
        elif notebooks.is_locked(cell):
            setup += trusted.imports_of(cell.source)
    return trusted.TrustedLesson("\n".join(setup), answers, tests)


def passing_seeds(lesson, grade_id: str, answers, seeds: range, salt: int) -> list[int]:
    """The seeds on which the trusted run of test grade_id passes against answers."""
    from course import expect

    base, passed = trusted.setup_namespace(lesson), []
    for seed in seeds:
        with expect.graded((salt, seed)):
            if trusted.run_test(lesson, grade_id, base, answers).passed:
                passed.append(seed)
    return passed


def sweep_mistake(
    source, mistake, seeds: range, salt: int, hidden_only: bool = False
) -> tuple[list[Escape], int]:
    """Escapes of one mistake, and how many test runs were made. As the grader does, the
    learner's cells run in notebook order and each test is decided where it stands, so a
    later cell cannot change what an earlier test saw. hidden_only: as trusted_lesson."""
    nb = mistake_notebook(source, mistake)
    lesson = trusted_lesson(nb, hidden_only)
    unknown = sorted(mistake.loses - set(lesson.tests))
    if unknown:
        raise ValueError(f"{mistake.name}: LOSES names {unknown}, which are not test cells")
    escapes = []
    with boundary.AnswerProcess(setup_names=lesson.setup_names) as answers:
        for cell in nb.cells:
            gid = notebooks.grade_id(cell)
            if notebooks.is_test(cell) and gid in mistake.loses:
                for seed in passing_seeds(lesson, gid, answers, seeds, salt):
                    escapes.append(Escape(mistake.name, gid, seed))
            elif cell.cell_type == "code" and not notebooks.is_locked(cell):
                answers.exec_cell(cell.source)  # a failing cell fails for the learner too
    return escapes, len(mistake.loses) * len(seeds)


def sweep_mistakes(
    lesson: str, seeds: range, salt: int, folder: Path | None = None, hidden_only: bool = False
) -> tuple[list[Escape], int]:
    """Escapes of every mistake fixture of the lesson (in folder, by default its folder of
    grader_tests/mistakes/), and how many test runs were made. hidden_only: as
    trusted_lesson."""
    os.environ["NBGRADER_EXECUTION"] = "autograde"  # the course's helpers skip plots
    source = notebooks.read_lesson(lesson, "source")
    escapes, ran = [], 0
    for mistake in notebooks.load_mistakes(lesson, folder=folder):
        found, runs = sweep_mistake(source, mistake, seeds, salt, hidden_only)
        escapes, ran = escapes + found, ran + runs
    return escapes, ran


def report_solution(lesson: str, seeds: range, salt: int) -> int:
    """Sweep the lesson's solution, print what failed; how many failures."""
    start = time.monotonic()
    failures, ran = sweep(lesson, seeds, salt)
    seconds = time.monotonic() - start
    print(f"{lesson}: {len(failures)} failure(s) in {ran} cell runs ({seconds:.0f} s)")
    for f in failures:
        print(f"  {f.grade_id} seed ({salt}, {f.seed}): {f.message[:200]}")
    return len(failures)


def report_mistakes(lesson: str, seeds: range, salt: int, hidden_only: bool = False) -> int:
    """Sweep the lesson's mistakes, print each test one passed; how many passes."""
    start = time.monotonic()
    escapes, ran = sweep_mistakes(lesson, seeds, salt, hidden_only=hidden_only)
    seconds = time.monotonic() - start
    print(f"{lesson}: {len(escapes)} mistake pass(es) in {ran} test runs ({seconds:.0f} s)")
    for e in escapes:
        print(f"  {e.mistake} passed {e.grade_id} on seed ({salt}, {e.seed})")
    return len(escapes)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("lessons", nargs="*", help="default: every lesson in source/")
    parser.add_argument("--seeds", type=int, default=100, help="seeds a lesson (default 100)")
    parser.add_argument("--salt", type=int, default=int(time.time()), help="the seeds' first word")
    parser.add_argument(
        "--mistakes", action="store_true", help="sweep the mistake fixtures, not the solution"
    )
    parser.add_argument(
        "--hidden-only",
        action="store_true",
        help="with --mistakes: decide each test on its hidden tests alone, as for an answer "
        "that special-cases the visible check's shown cases",
    )
    args = parser.parse_args(argv)
    if args.hidden_only and not args.mistakes:
        parser.error("--hidden-only goes with --mistakes")
    report = report_solution
    if args.mistakes:
        report = functools.partial(report_mistakes, hidden_only=args.hidden_only)
    found = 0
    for lesson in args.lessons or notebooks.discover_lessons():
        found += report(lesson, range(args.seeds), args.salt)
        sys.stdout.flush()
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
