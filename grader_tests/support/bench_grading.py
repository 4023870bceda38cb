"""Benchmark: grading a synthetic class seven ways, in one run (not a pytest test), and where a
notebook's time goes, lesson by lesson.

    .venv/bin/python grader_tests/support/bench_grading.py            # 40 submissions of lesson 01
    .venv/bin/python grader_tests/support/bench_grading.py --submissions 60 --rounds 2
    .venv/bin/python grader_tests/support/bench_grading.py --sandbox-cost --submissions 30
    .venv/bin/python grader_tests/support/bench_grading.py --class-cost 20 --no-ways  # lessons
    .venv/bin/python grader_tests/support/bench_grading.py --submissions 20 --no-breakdown \
        --class-cost 10                                      # the README's Speed section

The class: half complete, a fifth blank, the rest the lesson's typical mistakes
(grader_tests/mistakes/<lesson>/), each a real notebook handed in as submitted/<s>/<lesson>/.

1. stock nbgrader, what an instructor would otherwise run: the course folder's
   nbgrader_config.py replaced (after the release is generated) by a stock one, the course id
   and root only, so nbgrader's own chains, no sandbox, none of this course's preprocessors;
   `nbgrader autograde <lesson>` then `nbgrader generate_feedback <lesson>`, timed as one.
   This course's tests refuse to be decided in the learner's kernel (each raises
   GradedElsewhere, in one line), so stock nbgrader scores them 0 and its time has no test
   work in it: its scores are not compared, and the run says so;
2. plain `nbgrader autograde <lesson>` with this course's configuration and cold kernels
   (`--GuardedExecute.warm=False --DecideVerdicts.warm=False`: nbgrader as issue 17 measured
   it), one submission after another; and again with the configuration's defaults (warm
   kernels), for comparison;
3. plain nbclient: the notebooks nbgrader graded (hidden tests in), outputs cleared, executed
   one after another with nbclient and nothing else, unsandboxed, cold kernels;
4. `python -m classroom.grade --workers 1`;
5. `python -m classroom.grade` with all cores;
6. `python -m classroom.grade --cluster local:2`: the Dask route, on a LocalCluster of two
   worker processes started by the command (their start is in its time).

Ways 2, 4, 5 and 6 run sandboxed. Each starts from a fresh course directory with the lesson
generated (as it is once released; not timed); times are wall-clock seconds of the whole
command, start-up included. With --rounds R the ways run R times (every other round in
reverse order) and each way's best time is kept, which evens out other load on the machine.
It prints seconds per submission, submissions per minute, the ratios issue 17 asks for,
checks that every way but stock nbgrader gives every student the same score, and prints the
recorder's cost a result (grader_tests/support/recorder_cost.py, one line instead when that
module is not there).

The breakdown (`--breakdown`, on by default; `--lessons` picks them) runs one complete
notebook of each lesson through GuardedExecute, sandboxed, cold and then warm (the first warm
notebook starts the zygote, not timed; the next ones are), and prints per notebook: kernel
(start until it answers, and stop), imports (the set-up cell), cells (every other cell the
grader runs), tests (in the kernel, as plain nbgrader runs them), the answer process's start,
verdicts (DecideVerdicts deciding the tests as the grader does: where a check's functions
cross the boundary, this is what the tests cost), and each cell over 0.3 s.

`--class-cost N` (after the ways; alone with `--no-ways`) grades N and 2 submissions of every
lesson with the command and all workers: the difference is what a submission costs, the small
run what a run costs, multiplied out to 300 learners x the lessons here and, as arithmetic,
on 32 cores, and to 10,000 learners x 9 lessons on 8 machines of 32 cores (the lessons' mean
core-seconds a submission, every core busy; beside it the one recorder's share).
"""

from __future__ import annotations

import argparse
import contextlib
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

from classroom.nbgrader_ext import notebooks  # noqa: E402


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
    """A course as it is when its submissions come in, for every way alike: the lesson
    generated into its gradebook (released; not timed) and the class handed in."""
    course = harness.prepare_course(lesson, folder)
    for student, nb in students.items():
        harness.write_submission(course, lesson, student, nb)
    return course


def totals(course: Path, lesson: str) -> dict:
    scores, _ = harness.read_gradebook(course, lesson)
    return {student: sum(s for s, _ in cells.values()) for student, cells in scores.items()}


COLD = ["--GuardedExecute.warm=False", "--DecideVerdicts.warm=False"]


def run_nbgrader(folder: Path, lesson: str, students: dict, options=()) -> tuple[float, dict, Path]:
    """Seconds of `nbgrader autograde lesson` (with options) over the class, the scores, the
    course folder."""
    course = fresh_course(folder, lesson, students)
    start = time.perf_counter()
    run = harness.run_nbgrader(
        course, ["autograde", lesson, "--force", *options], timeout=120 + 60 * len(students)
    )
    seconds = time.perf_counter() - start
    if run.returncode != 0:
        print(run.log[-3000:])
    return seconds, totals(course, lesson), course


STOCK_CONFIG = """c = get_config()  # noqa: F821
c.CourseDirectory.course_id = {course_id!r}
c.CourseDirectory.root = {root!r}
"""


def run_stock_nbgrader(
    folder: Path, lesson: str, students: dict
) -> tuple[float, dict, tuple[int, int]]:
    """Seconds of stock nbgrader over the class: `nbgrader autograde lesson` then `nbgrader
    generate_feedback lesson`, in a course whose nbgrader_config.py is replaced (after the
    release is generated as today) by a stock one: the course id and root, nbgrader's own
    chains, no sandbox, none of this course's preprocessors. The scores, and
    `refused_tests` (what the lesson's tests did in the learner's kernel there)."""
    course = fresh_course(folder, lesson, students)
    from classroom import build

    course_id = build.load_nbgrader_config(course).CourseDirectory.course_id
    config = STOCK_CONFIG.format(course_id=course_id, root=str(course.resolve()))
    (course / "nbgrader_config.py").write_text(config, encoding="utf-8")
    limit = 120 + 60 * len(students)
    start = time.perf_counter()
    graded = harness.run_nbgrader(course, ["autograde", lesson, "--force"], timeout=limit)
    feedback = harness.run_nbgrader(course, ["generate_feedback", lesson, "--force"], timeout=limit)
    seconds = time.perf_counter() - start
    for run in (graded, feedback):
        if run.returncode != 0:
            print(run.log[-3000:])
    print(
        f"    stock: autograde {graded.seconds:.1f} s, generate_feedback {feedback.seconds:.1f} s"
    )
    return seconds, totals(course, lesson), refused_tests(course, lesson)


def refused_tests(course: Path, lesson: str) -> tuple[int, int]:
    """(test cells whose output is the lesson's GradedElsewhere refusal, test cells) over the
    autograded notebooks of lesson: what the tests did in stock nbgrader's kernel."""
    refused = tests = 0
    for path in sorted((course / "autograded").glob(f"*/{lesson}/{lesson}.ipynb")):
        for cell in notebooks.read(path).cells:
            if cell.cell_type != "code" or not cell.metadata.get("nbgrader", {}).get("grade"):
                continue
            tests += 1
            names = {output.get("ename") for output in cell.get("outputs", [])}
            refused += "GradedElsewhere" in names
    return refused, tests


def run_nbclient(course: Path, lesson: str) -> float:
    """Execute nbgrader's autograded notebooks again with nbclient alone, one by one."""
    import nbclient

    env_before = dict(os.environ)
    os.environ.update(harness.nbgrader_env(course))
    os.environ["NBGRADER_EXECUTION"] = "autograde"
    paths = sorted((course / "autograded").glob(f"*/{lesson}/{lesson}.ipynb"))
    prepared = []
    for path in paths:
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


COLD_CONFIG = "\nc.GuardedExecute.warm = False\nc.DecideVerdicts.warm = False\n"


def run_command(
    folder: Path, lesson: str, students: dict, workers: int | None, options=(), config: str = ""
) -> tuple[float, dict]:
    """Seconds of the grading command (with `--workers workers`, none when None, as
    `--cluster` wants; with options; `config` appended to the course's nbgrader_config.py)
    over the class, and the scores."""
    course = fresh_course(folder, lesson, students)
    if config:
        with open(course / "nbgrader_config.py", "a", encoding="utf-8") as handle:
            handle.write(config)
    command = [
        sys.executable,
        "-m",
        "classroom.grade",
        lesson,
        "--root",
        str(course),
        *(["--workers", str(workers)] if workers else []),
        "--quiet",
        *options,
    ]
    start = time.perf_counter()
    run = subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    if run.returncode != 0:
        print(run.stdout[-2000:], run.stderr[-3000:])
    return seconds, totals(course, lesson)


# --------------------------------------------------------------------------------------------
# Where one notebook's time goes


@contextlib.contextmanager
def stopwatch(times: dict, key, *, add: bool = False):
    """Time the block, even one that raises: times[key] becomes its seconds (`add`: grows by
    them)."""
    start = time.perf_counter()
    try:
        yield
    finally:
        seconds = time.perf_counter() - start
        times[key] = times[key] + seconds if add else seconds


def timed_execute_class():
    """GuardedExecute recording seconds per phase: kernel (start until ready, and stop),
    each cell it runs (by index)."""
    from classroom.nbgrader_ext.preprocessors import GuardedExecute

    class Timed(GuardedExecute):
        run_tests = False  # True: test cells run in the kernel too, as plain nbgrader runs them

        def _runnable(self, cell) -> bool:
            if self.run_tests and cell.cell_type == "code" and cell.source.strip():
                return True
            return super()._runnable(cell)

        def preprocess(self, nb, resources=None, km=None):
            self.seconds = {"kernel": 0.0, "cells": {}}
            return super().preprocess(nb, resources, km)

        async def _start_kernel(self):
            with stopwatch(self.seconds, "kernel", add=True):
                return await super()._start_kernel()

        async def _stop_kernel(self):
            with stopwatch(self.seconds, "kernel", add=True):
                return await super()._stop_kernel()

        async def _run_cell(self, index, cell):
            with stopwatch(self.seconds["cells"], index):
                return await super()._run_cell(index, cell)

    return Timed


def timed_run(nb, folder: Path, config, run_tests: bool = False) -> dict:
    """nb run in folder by the timed GuardedExecute (`run_tests`: test cells too), as
    autograde runs it (NBGRADER_EXECUTION set for the run only): {"kernel": seconds,
    "cells": {index: seconds}}."""
    executor = timed_execute_class()(config=config)
    executor.run_tests = run_tests
    os.environ["NBGRADER_EXECUTION"] = "autograde"
    try:
        executor.preprocess(nb, {"metadata": {"path": str(folder)}})
    finally:
        os.environ.pop("NBGRADER_EXECUTION", None)
    return executor.seconds


def time_notebook(lesson: str, folder: Path, warm: bool, slot: int) -> dict:
    """One complete notebook of lesson through GuardedExecute (sandboxed, warm or cold):
    {"kernel", "imports", "cells", "tests": seconds, "slow": {cell index: (first line,
    seconds)}}. "cells" are the cells the grader's kernel runs (not the set-up cell, not the
    tests); "tests" the test cells, timed apart: the source notebook (solutions and hidden
    tests in) run with its test cells in the kernel, as plain nbgrader would run them."""
    from traitlets.config import Config

    config = Config()
    config.GuardedExecute.warm = warm
    config.GuardedExecute.warm_kernels = False  # a cold kernel started ahead hides its cost
    config.SandboxedKernelManager.slot = slot
    config.Execute.timeout = 60
    nb = harness.filled_release(lesson)
    folder.mkdir(parents=True, exist_ok=True)
    timed = timed_run(nb, folder, config)
    cells = timed["cells"]
    setup = min(cells) if cells else None
    slow = {
        index: (nb.cells[index].source.strip().splitlines()[0][:60], seconds)
        for index, seconds in cells.items()
        if index != setup
    }
    return {
        "kernel": timed["kernel"],
        "imports": cells.get(setup, 0.0),
        "cells": sum(v for k, v in cells.items() if k != setup),
        "tests": time_tests(lesson, folder, config),
        "slow": slow,
    }


def time_tests(lesson: str, folder: Path, config) -> float:
    """Seconds the source notebook's test cells take in the kernel (its other cells run
    first, untimed for this sum)."""
    from classroom.nbgrader_ext.notebooks import is_test

    nb = notebooks.read_lesson(lesson, "source", REPO_ROOT)
    times = timed_run(nb, folder, config, run_tests=True)["cells"]
    return sum(seconds for index, seconds in times.items() if is_test(nb.cells[index]))


def time_verdicts(lesson: str, folder: Path, warm: bool, slot: int, repeats: int = 3) -> float:
    """Best seconds of DecideVerdicts deciding one complete notebook of lesson, as the grader
    does (the learner's cells in a sandboxed answer process, the tests here, every function
    a check passes them crossing the boundary): the answer process's start included."""
    from classroom.nbgrader_ext.preprocessors import DecideVerdicts

    course = harness.prepare_course(lesson, folder)  # the gradebook holds the tests
    info = {
        "db_url": f"sqlite:///{course / 'gradebook.db'}",
        "assignment": lesson,
        "notebook": lesson,
    }
    seconds: dict = {}
    for run in range(repeats):
        decide = DecideVerdicts(warm=warm, slot=slot)
        nb = harness.filled_release(lesson)
        with stopwatch(seconds, run):
            decide.preprocess(nb, {"nbgrader": info})
    return min(seconds.values())


def time_answer_process(warm: bool, slot: int) -> float:
    """Seconds to start a sandboxed answer process (warm: forked by the slot's zygote) and
    run one cell in it."""
    from classroom.nbgrader_ext.preprocessors import decide_verdicts
    from classroom.nbgrader_ext.verdicts import boundary

    start = time.perf_counter()
    answers, box = decide_verdicts.answer_process(slot, sandboxed=True, warm=warm)
    try:
        answers.start()
        answers.exec_cell("x = 1")
    finally:
        decide_verdicts.close_answer_process(answers, box)
    del boundary
    return time.perf_counter() - start


def breakdown(lessons: list[str], base: Path, repeats: int = 3, slot: int = 930) -> dict:
    """{lesson: {"cold": timings, "warm": timings}}, each the best of `repeats` notebooks
    (per phase), printed as a table; the zygotes' start is not timed."""
    from classroom.isolation import zygote

    found = {}
    time_notebook(lessons[0], base / "zygote-start", True, slot)  # starts the zygote
    time_answer_process(True, slot)
    for lesson in lessons:
        found[lesson] = {}
        for mode in ("cold", "warm"):
            runs = [
                time_notebook(lesson, base / f"{lesson}-{mode}-{n}", mode == "warm", slot)
                for n in range(repeats)
            ]
            keys = ("kernel", "imports", "cells", "tests")
            best = {key: min(r[key] for r in runs) for key in keys}
            best["answers"] = min(time_answer_process(mode == "warm", slot) for _ in runs)
            folder = base / f"{lesson}-{mode}-verdicts"
            best["verdicts"] = time_verdicts(lesson, folder, mode == "warm", slot, repeats)
            best["slow"] = [  # each cell's best time over the runs, those over 0.3 s
                (index, line, min(r["slow"][index][1] for r in runs))
                for index, (line, _) in runs[0]["slow"].items()
                if min(r["slow"][index][1] for r in runs) > 0.3
            ]
            found[lesson][mode] = best
    zygote.stop_all()
    print_breakdown(found)
    return found


def print_breakdown(found: dict) -> None:
    print()
    print("Per notebook (a complete one, sandboxed, NBGRADER_EXECUTION=autograde), seconds:")
    print(
        "(kernel: start and stop; imports: the set-up cell; cells: the others the grader's "
        "kernel runs;\n tests: the test cells, timed in a kernel as plain nbgrader runs them; "
        "answers: the answer process's start;\n verdicts: DecideVerdicts deciding the tests as "
        "the grader does, its answer process included; total: kernel to answers)"
    )
    header = f"{'lesson':<28} {'mode':<5} {'kernel':>7} {'imports':>8} {'cells':>7}"
    print(header + f" {'tests':>6} {'answers':>8} {'total':>7} {'verdicts':>9}")
    for lesson, modes in found.items():
        for mode, t in modes.items():
            total = t["kernel"] + t["imports"] + t["cells"] + t["tests"] + t["answers"]
            print(
                f"{lesson:<28} {mode:<5} {t['kernel']:7.2f} {t['imports']:8.2f} "
                f"{t['cells']:7.2f} {t['tests']:6.2f} {t['answers']:8.2f} {total:7.2f} "
                f"{t['verdicts']:9.2f}"
            )
    print("Cells over 0.3 s (warm kernel, best of the runs, besides the set-up cell):")
    for lesson, modes in found.items():
        for index, line, seconds in modes["warm"]["slow"]:
            print(f"  {lesson} cell {index}: {seconds:.2f} s  {line}")


# --------------------------------------------------------------------------------------------
# The four ways


WAYS = ("stock", "nbgrader", "nbgrader-warm", "nbclient", "one", "all", "cluster")
CLUSTER = "local:2"  # the command on a Dask LocalCluster of two worker processes


def run_way(way: str, args, students: dict, workers: int, folder: Path, found: dict) -> float:
    """Seconds of one way over the class; its scores go in found["scores"][way] (the stock
    way's refused tests in found["refused"], the cold nbgrader course in found["graded"],
    which the nbclient way runs again)."""
    lesson, scores = args.lesson, found["scores"]
    if way == "stock":
        seconds, scores[way], found["refused"] = run_stock_nbgrader(
            folder / "stock", lesson, students
        )
    elif way in ("nbgrader", "nbgrader-warm"):
        options = COLD if way == "nbgrader" else ()
        seconds, scores[way], course = run_nbgrader(folder / way, lesson, students, options)
        if way == "nbgrader":
            found["graded"] = course
    elif way == "nbclient":
        seconds = run_nbclient(found["graded"], lesson)
    elif way == "cluster":
        options = ("--cluster", CLUSTER)
        seconds, scores[way] = run_command(folder / "cluster", lesson, students, None, options)
    else:
        count = 1 if way == "one" else workers
        seconds, scores[way] = run_command(folder / f"{way}-workers", lesson, students, count)
    return seconds


def run_ways(args, students: dict, workers: int, base: Path) -> tuple[dict, dict, tuple]:
    """({way: [seconds per round]}, {way: scores}, the stock way's (refused tests, tests))
    over args.rounds rounds, every other round in reverse order (nbclient always after cold
    nbgrader, whose graded notebooks it runs)."""
    times: dict[str, list[float]] = {way: [] for way in WAYS}
    found: dict = {"scores": {}, "refused": (0, 0), "graded": None}
    for number in range(args.rounds):
        order = [way for way in WAYS if way != "nbclient"]
        if number % 2:
            order.reverse()
        order.insert(order.index("nbgrader") + 1, "nbclient")
        for way in order:
            seconds = run_way(way, args, students, workers, base / f"round{number}", found)
            times[way].append(seconds)
            print(f"  round {number + 1}: {way}: {seconds:.1f} s", flush=True)
    return times, found["scores"], found["refused"]


def print_ways(times: dict, n: int, workers: int) -> dict:
    """The table of the ways; {way: best seconds}."""
    best = {way: min(seconds) for way, seconds in times.items()}
    names = {
        "stock": "stock nbgrader (+ feedback), no box",
        "nbgrader": "nbgrader autograde, cold kernels",
        "nbgrader-warm": "nbgrader autograde, warm kernels",
        "nbclient": "nbclient only, cold, unsandboxed",
        "one": "grade command, 1 worker",
        "all": f"grade command, {workers} workers",
        "cluster": f"grade command, --cluster {CLUSTER}",
    }
    base = best["nbgrader"]
    print()
    print(f"{'way':<36} {'total s':>8} {'s/submission':>13} {'subs/min':>9} {'vs nbgrader':>12}")
    for way, name in names.items():
        seconds = best[way]
        print(
            f"{name:<36} {seconds:8.1f} {seconds / n:13.2f} {60 * n / seconds:9.1f} "
            f"{base / seconds:11.2f}x"
        )
    return best


def print_targets(best: dict, n: int, workers: int, cells: float | None) -> None:
    """Issue 17's ratios: speed-up over cold sequential nbgrader, time per submission over
    the sum of the lesson's cell times (wall / n with all workers, and worker-seconds / n)."""
    print()
    speed = best["nbgrader"] / best["all"]
    print(f"speed-up, {workers} workers vs sequential cold nbgrader: {speed:.2f}x (goal >= 3x)")
    per = best["all"] / n
    print(f"time per submission, {workers} workers: {per:.2f} s wall, {workers * per:.2f} worker-s")
    if cells:
        print(
            f"  vs the sum of the notebook's cell times ({cells:.2f} s: every code cell, "
            f"set-up and tests in, warm kernel): {per / cells:.2f}x wall, "
            f"{workers * per / cells:.2f}x worker-s (goal <= 1.3x)"
        )
    print(f"1 worker vs nbclient alone: {100 * (best['one'] / best['nbclient'] - 1):+.0f} %")


SANDBOX_WAYS = {  # name: (command options, nbgrader_config.py lines)
    "sandboxed, warm kernels": ((), ""),
    "sandboxed, cold kernels": ((), COLD_CONFIG),
    "unsandboxed (cold kernels)": (("--unsandboxed",), ""),
}


def sandbox_cost(args, students: dict, workers: int, base: Path) -> bool:
    """What the sandbox costs: the grading command three ways, each round's order reversed
    from the last, best of the rounds; whether every way gave every student the same score."""
    best, scores = {}, {}
    for round_ in range(max(args.rounds, 2)):
        order = list(SANDBOX_WAYS) if round_ % 2 == 0 else list(reversed(SANDBOX_WAYS))
        for way in order:
            options, config = SANDBOX_WAYS[way]
            folder = base / f"sandbox-{round_}-{list(SANDBOX_WAYS).index(way)}"
            seconds, scores[way] = run_command(
                folder, args.lesson, students, workers, options, config
            )
            best[way] = min(best.get(way, seconds), seconds)
            print(f"  round {round_ + 1}: {way}: {seconds:.1f} s", flush=True)
    reference = best["unsandboxed (cold kernels)"]
    for way, seconds in best.items():
        per = seconds / len(students)
        print(f"{way:28s} {seconds:6.1f} s {per:6.2f} s/submission {seconds / reference:5.2f}x")
    return all(found == scores["unsandboxed (cold kernels)"] for found in scores.values())


# --------------------------------------------------------------------------------------------
# What a class costs: every lesson graded by the command, multiplied out


def class_cost(lessons: list[str], count: int, workers: int, base: Path) -> dict:
    """{lesson: (seconds a submission, seconds a run)} of the grading command with `workers`
    workers: a synthetic class of `count` submissions and one of 2, the difference over
    count - 2 is what one more submission costs, the 2-submission run what a run costs."""
    found = {}
    for lesson in lessons:
        students = synthetic_class(lesson, count)
        small = dict(list(students.items())[:2])
        big_seconds, _ = run_command(base / f"cost-{lesson}-{count}", lesson, students, workers)
        small_seconds, _ = run_command(base / f"cost-{lesson}-2", lesson, small, workers)
        found[lesson] = ((big_seconds - small_seconds) / (count - 2), small_seconds)
        print(f"  {lesson}: {found[lesson][0]:.2f} s a submission, {small_seconds:.1f} s a run")
    return found


def print_class_cost(found: dict, workers: int, learners: int = 300, cores: int = 32) -> float:
    """A class of `learners` x the lessons: measured here per submission, multiplied out; on
    `cores` cores, the same core-seconds a submission (the cores busy) spread over them.
    Returns the core-seconds a submission, the lessons' mean."""
    per_learner = sum(seconds for seconds, _ in found.values())  # wall, `workers` workers
    per_run = sum(run for _, run in found.values())
    here = learners * per_learner + per_run
    core_seconds = per_learner * workers  # every core busy: wall x cores is their work
    there = learners * core_seconds / cores + per_run
    print()
    print(
        f"per learner, all {len(found)} lessons: {per_learner:.2f} s wall with {workers} "
        f"workers ({core_seconds:.2f} core-s); runs: {per_run:.1f} s"
    )
    print(
        f"{learners} learners x {len(found)} lessons: {here / 60:.1f} min on this machine "
        f"({workers} workers); about {there / 60:.1f} min on {cores} cores (arithmetic: the "
        "same core-seconds a submission, the cores kept busy)"
    )
    return core_seconds / len(found)


def print_large_course(per_submission: float, recorder_ms: float | None) -> None:
    """Arithmetic, not a measurement: 10,000 learners x 9 lessons on 8 machines of 32 cores,
    from `per_submission` core-seconds (measured here) with every core kept busy, and the
    one recorder's share (`recorder_ms` a result, measured here), which runs beside them."""
    learners, lessons, machines, cores = 10_000, 9, 8, 32
    submissions = learners * lessons
    grading = submissions * per_submission / (machines * cores)
    print(
        f"arithmetic: {learners:,} learners x {lessons} lessons = {submissions:,} submissions "
        f"x {per_submission:.2f} core-s / ({machines} x {cores} cores) = {grading / 60:.1f} min"
    )
    if recorder_ms is not None:
        recording = submissions * recorder_ms / 1000
        print(
            f"  the one recorder beside it: {submissions:,} x {recorder_ms:.1f} ms = "
            f"{recording / 60:.1f} min (the run takes at least the larger of the two)"
        )


def parse(argv) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lesson", default="01-world-as-text")
    parser.add_argument("--submissions", type=int, default=40)
    parser.add_argument("--workers", type=int, default=None, help="default: the cores")
    parser.add_argument("--out", type=Path, default=None, help="keep the course folders here")
    parser.add_argument("--rounds", type=int, default=1, help="repeat, keep each way's best")
    parser.add_argument("--lessons", nargs="*", default=None, help="breakdown: default all")
    parser.add_argument("--no-breakdown", dest="breakdown", action="store_false")
    parser.add_argument("--no-ways", dest="ways", action="store_false")
    parser.add_argument(
        "--sandbox-cost", action="store_true", help="only: the command sandboxed and not"
    )
    parser.add_argument(
        "--class-cost",
        type=int,
        default=0,
        metavar="N",
        help="also (after the ways; alone with --no-ways): the command on N and on 2 "
        "submissions of every lesson, multiplied out to 300 learners and to 10,000 x 9 "
        "lessons on 8 x 32 cores",
    )
    return parser.parse_args(argv)


def main(argv=None) -> int:
    args = parse(argv)
    from classroom.grade import default_workers

    workers = args.workers or default_workers()
    students = synthetic_class(args.lesson, args.submissions)
    n = len(students)
    import tempfile

    base = args.out or Path(tempfile.mkdtemp(prefix="bench-grading-"))
    base.mkdir(parents=True, exist_ok=True)
    print(f"{n} submissions of {args.lesson}; {default_workers()} cores; work in {base}")
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.sandbox_cost:
        agree = sandbox_cost(args, students, workers, base)
        print(f"scores agree between the ways: {'yes' if agree else 'NO'}")
        return 0 if agree else 1
    cells = None
    if args.breakdown:
        lessons = args.lessons or notebooks.discover_lessons(REPO_ROOT)
        found = breakdown(lessons, base / "breakdown")
        if args.lesson in found:
            warm = found[args.lesson]["warm"]
            cells = warm["imports"] + warm["cells"] + warm["tests"]
    agree = True
    if args.ways:
        times, scores, refused = run_ways(args, students, workers, base)
        best = print_ways(times, n, workers)
        print_targets(best, n, workers, cells)
        agree = scores_agree(scores, refused)
    recorder_ms = print_recorder_cost() if args.ways or args.class_cost else None
    if args.class_cost:
        lessons = args.lessons or notebooks.discover_lessons(REPO_ROOT)
        cost = class_cost(lessons, args.class_cost, workers, base)
        print_large_course(print_class_cost(cost, workers), recorder_ms)
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0 if agree else 1


def scores_agree(scores: dict, refused: tuple[int, int]) -> bool:
    """Whether every way but stock nbgrader gives every student the same score as cold
    nbgrader (printed, with the students where they differ). Stock nbgrader is left out,
    saying why: the lesson's tests refuse to be decided in the learner's kernel."""
    said, tests = refused
    print(
        f"stock nbgrader's scores are not compared: {said} of its {tests} test cells raised "
        "GradedElsewhere (this course's tests are decided only by its own grader; in a stock "
        "kernel each fails in one line), so each of those cells scores 0; its "
        "figure is time only, and that time has no test work in it"
    )
    compared = {way: got for way, got in scores.items() if way != "stock"}
    reference = compared["nbgrader"]
    agree = all(found == reference for found in compared.values())
    verdict = "yes" if agree else "NO"
    print(f"scores agree between the other ways (cold nbgrader the reference): {verdict}")
    for student in sorted(reference):
        row = {way: got.get(student) for way, got in compared.items()}
        if len(set(row.values())) > 1:
            print(f"  {student}: {row}")
    return agree


def print_recorder_cost(results: int = 200) -> float | None:
    """The recorder's cost a result (recorder_cost.py, milliseconds), printed for results
    from the local pool and from a cluster's parcels; the larger (a cluster's), or None and
    one line saying why when recorder_cost.py is not there."""
    try:
        from recorder_cost import recorder_cost
    except ImportError as exc:
        print(f"recorder: not measured ({exc}: grader_tests/support/recorder_cost.py is needed)")
        return None
    local = recorder_cost(results=results)
    parcels = recorder_cost(results=results, parcels=True)
    print(
        f"recorder: {local:.1f} ms a result over {results} results; {parcels:.1f} ms with each "
        "result opened from a cluster worker's parcel (--cluster)"
    )
    return max(local, parcels)


if __name__ == "__main__":
    sys.exit(main())
