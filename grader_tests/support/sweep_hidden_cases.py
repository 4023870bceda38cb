"""Run each lesson's hidden tests against its own solution on many seeds, to find the cases
a correct answer can lose (a draw outside a method's stable range, a tolerance too tight).

Every submission draws fresh hidden cases from its seed (`course.expect.hidden_cases`), and
the registry's suite grades the solution on one seed a run: a case that fails one seed in a
thousand shows up there as a flaky test, once in a while. This runs the source notebook
(solutions and hidden tests) once in this process, then re-runs each graded test cell with
hidden tests on `--seeds` seeds, and prints one line per failure:

    .venv/bin/python grader_tests/support/sweep_hidden_cases.py 02-time-integration --seeds 200

Not a grader: the cells run unsandboxed in this process, as the solution is trusted.
"""

from __future__ import annotations

import argparse
import contextlib
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("lessons", nargs="*", help="default: every lesson in source/")
    parser.add_argument("--seeds", type=int, default=100, help="seeds a lesson (default 100)")
    parser.add_argument("--salt", type=int, default=int(time.time()), help="the seeds' first word")
    args = parser.parse_args(argv)
    lessons = args.lessons or notebooks.discover_lessons()
    found = 0
    for lesson in lessons:
        start = time.monotonic()
        failures, ran = sweep(lesson, range(args.seeds), args.salt)
        found += len(failures)
        seconds = time.monotonic() - start
        print(f"{lesson}: {len(failures)} failure(s) in {ran} cell runs ({seconds:.0f} s)")
        for f in failures:
            print(f"  {f.grade_id} seed ({args.salt}, {f.seed}): {f.message[:200]}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
