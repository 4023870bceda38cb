"""Benchmark: grading a synthetic class four ways, in one run (not a pytest test).

    .venv/bin/python grader_tests/bench_grading.py                  # 40 submissions of lesson 01
    .venv/bin/python grader_tests/bench_grading.py --submissions 60 --lesson 01-world-as-text

The class: half complete, a fifth blank, the rest the lesson's typical mistakes
(grader_tests/mistakes/<lesson>/), each a real notebook handed in as submitted/<s>/<lesson>/.

1. plain `nbgrader autograde <lesson>`: one nbgrader process, one submission after another;
2. plain nbclient: the notebooks nbgrader graded (hidden tests in), outputs cleared, executed
   one after another with nbclient and nothing else; the floor for any grader;
3. `python -m classroom.grade --workers 1`;
4. `python -m classroom.grade` with all cores.

Each way starts from a fresh course directory; times are wall-clock seconds of the whole
command, start-up included. With --rounds R the four ways run R times (every other round in
reverse order) and each way's best time is kept, which evens out other load on the machine.
It prints seconds per submission, submissions per minute and the ratios the issue asks for,
and checks that 1, 3 and 4 give every student the same score.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parents[1]
for folder in (str(REPO_ROOT), str(HERE)):
    if folder not in sys.path:
        sys.path.insert(0, folder)

import nbgrader_harness as harness  # noqa: E402

from classroom import build  # noqa: E402


def synthetic_class(lesson: str, count: int) -> dict:
    """{student: notebook}: 50 % complete, 20 % blank, 30 % typical mistakes."""
    mistakes = harness.load_mistakes(lesson)
    complete = harness.filled_release(lesson)
    blank = harness.blank_release(lesson)
    students = {}
    for number in range(count):
        slot = number % 10
        if slot < 5:
            students[f"s{number:03d}-complete"] = complete
        elif slot < 7 or not mistakes:
            students[f"s{number:03d}-blank"] = blank
        else:
            mistake = mistakes[number % len(mistakes)]
            students[f"s{number:03d}-{mistake.name}"] = harness.filled_release(
                lesson, mistake.cells
            )
    return students


def fresh_course(folder: Path, lesson: str, students: dict) -> Path:
    course = build.make_course_dir(lesson, folder)
    for student, nb in students.items():
        harness.write_submission(course, lesson, student, nb)
    return course


def totals(course: Path, lesson: str) -> dict:
    scores, _ = harness.read_gradebook(course, lesson)
    return {student: sum(s for s, _ in cells.values()) for student, cells in scores.items()}


def run_nbgrader(folder: Path, lesson: str, students: dict) -> tuple[float, dict, Path]:
    course = harness.prepare_course(lesson, folder)  # generate_assignment, not timed
    for student, nb in students.items():
        harness.write_submission(course, lesson, student, nb)
    start = time.perf_counter()
    run = harness.run_nbgrader(
        course, ["autograde", lesson, "--force"], timeout=120 + 60 * len(students)
    )
    seconds = time.perf_counter() - start
    if run.returncode != 0:
        print(run.log[-3000:])
    return seconds, totals(course, lesson), course


def run_nbclient(course: Path, lesson: str) -> float:
    """Execute nbgrader's autograded notebooks again with nbclient alone, one by one."""
    import nbclient

    env_before = dict(os.environ)
    os.environ.update(harness.nbgrader_env(course))
    os.environ["NBGRADER_EXECUTION"] = "autograde"
    notebooks = sorted((course / "autograded").glob(f"*/{lesson}/{lesson}.ipynb"))
    prepared = []
    for path in notebooks:
        nb = notebooks.read(path)
        for cell in nb.cells:
            if cell.cell_type == "code":
                cell.outputs, cell.execution_count = [], None
        prepared.append((nb, path.parent))
    start = time.perf_counter()
    try:
        for nb, folder in prepared:
            client = nbclient.NotebookClient(
                nb,
                timeout=60,
                kernel_name="python3",
                allow_errors=True,
                resources={"metadata": {"path": str(folder)}},
            )
            client.execute()
    finally:
        os.environ.clear()
        os.environ.update(env_before)
    return time.perf_counter() - start


def run_command(folder: Path, lesson: str, students: dict, workers: int) -> tuple[float, dict]:
    course = fresh_course(folder, lesson, students)
    command = [
        sys.executable,
        "-m",
        "classroom.grade",
        lesson,
        "--root",
        str(course),
        "--workers",
        str(workers),
        "--quiet",
    ]
    start = time.perf_counter()
    run = subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    if run.returncode != 0:
        print(run.stdout[-2000:], run.stderr[-3000:])
    return seconds, totals(course, lesson)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lesson", default="01-world-as-text")
    parser.add_argument("--submissions", type=int, default=40)
    parser.add_argument("--workers", type=int, default=None, help="default: the cores")
    parser.add_argument("--out", type=Path, default=None, help="keep the course folders here")
    parser.add_argument("--rounds", type=int, default=1, help="repeat, keep each way's best")
    args = parser.parse_args(argv)
    from classroom.grade import default_workers

    workers = args.workers or default_workers()
    students = synthetic_class(args.lesson, args.submissions)
    n = len(students)

    import tempfile

    base = args.out or Path(tempfile.mkdtemp(prefix="bench-grading-"))
    base.mkdir(parents=True, exist_ok=True)
    print(f"{n} submissions of {args.lesson}; {default_workers()} cores; work in {base}")

    # Each round runs the four ways; later rounds reverse the order, and the best time of each
    # way is kept, so a burst of other work on the machine does not favour one way.
    times: dict[str, list[float]] = {"nbgrader": [], "nbclient": [], "one": [], "all": []}
    for number in range(args.rounds):
        order = ["nbgrader", "nbclient", "one", "all"]
        if number % 2:
            order = ["all", "one", "nbgrader", "nbclient"]
        for way in order:
            folder = base / f"round{number}"
            if way == "nbgrader":
                seconds, s_nbgrader, graded = run_nbgrader(
                    folder / "nbgrader", args.lesson, students
                )
            elif way == "nbclient":
                seconds = run_nbclient(graded, args.lesson)
            elif way == "one":
                seconds, s_one = run_command(folder / "one-worker", args.lesson, students, 1)
            else:
                seconds, s_all = run_command(folder / "all-workers", args.lesson, students, workers)
            times[way].append(seconds)
            print(f"  round {number + 1}: {way}: {seconds:.1f} s", flush=True)
    t_nbgrader, t_nbclient = min(times["nbgrader"]), min(times["nbclient"])
    t_one, t_all = min(times["one"]), min(times["all"])
    rows = [
        ("nbgrader autograde, sequential", t_nbgrader),
        ("nbclient only, sequential", t_nbclient),
        ("grade command, 1 worker", t_one),
        (f"grade command, {workers} workers", t_all),
    ]

    print()
    print(f"{'way':<34} {'total s':>8} {'s/submission':>13} {'subs/min':>9} {'vs nbgrader':>12}")
    for name, seconds in rows:
        print(
            f"{name:<34} {seconds:8.1f} {seconds / n:13.2f} {60 * n / seconds:9.1f} "
            f"{t_nbgrader / seconds:11.2f}x"
        )
    print()
    print(
        f"speed-up, {workers} workers vs sequential nbgrader: {t_nbgrader / t_all:.2f}x "
        "(goal >= 1.7x)"
    )
    print(
        f"overhead, 1 worker vs nbclient alone: {100 * (t_one / t_nbclient - 1):+.0f} % "
        "(goal <= +25 %)"
    )
    print(f"overhead, 1 worker vs sequential nbgrader: {100 * (t_one / t_nbgrader - 1):+.0f} %")
    agree = s_nbgrader == s_one == s_all
    print(f"scores agree between nbgrader and the command: {'yes' if agree else 'NO'}")
    if not agree:
        for student in sorted(s_nbgrader):
            trio = (s_nbgrader.get(student), s_one.get(student), s_all.get(student))
            if len(set(trio)) > 1:
                print(f"  {student}: nbgrader {trio[0]}, 1 worker {trio[1]}, all {trio[2]}")
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
