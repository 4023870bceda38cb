"""Grade a class: every submission of one lesson or all lessons, in parallel, none dropped.

    python -m classroom.grade [LESSON ...]            # submitted/ (nbgrader's layout)
    python -m classroom.grade --zip download.zip      # an LMS download (zip or folder)
    python -m classroom.grade --exchange              # nbgrader's exchange (collect)
    python -m classroom.grade --demo                  # the bundled demo class
    options: --submitted DIR  --pattern REGEX  --workers N  --cell-timeout S
             --notebook-timeout S  --root DIR  --shard K/N  --merge  --workdir DIR

Run from the course directory. It is nbgrader underneath, run in process: its
GenerateAssignment registers each lesson in the gradebook, its Autograde converter grades
each submission with the course's preprocessors in its chains
(`classroom.nbgrader_ext.preprocessors`), GenerateFeedback renders the feedback, and its CSV
export writes grades.csv; how a run goes is in `classroom.grading.run`. Every submission
ends as a row with a score or a reason.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from dataclasses import replace
from pathlib import Path

import classroom

# build and intake load nbformat (and jsonschema: over a second here); they are imported
# inside the functions, after main() has started the worker processes.
from classroom.grading import lms, pool, records, run, shards
from classroom.grading.plan import GraderSetup, GradingPlan, RunFacts
from classroom.grading.staging import GradeError

MAX_OUTPUT_CHARS = 1_000_000


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m classroom.grade",
        description="Grade every submission of a class with nbgrader, in parallel.",
    )
    parser.add_argument("lessons", nargs="*", metavar="LESSON", help="default: every lesson")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--demo", action="store_true", help="grade the bundled demo class")
    source.add_argument(
        "--submitted", type=Path, help="a submitted/ tree (default: ROOT/submitted)"
    )
    source.add_argument("--zip", type=Path, help="an LMS download: a .zip or a folder")
    source.add_argument("--exchange", action="store_true", help="collect from nbgrader's exchange")
    source.add_argument("--merge", action="store_true", help="merge the results of --shard runs")
    _lms_options(parser)
    _run_options(parser)
    args = parser.parse_args(argv)
    _check(parser, args)
    return args


def _lms_options(parser: argparse.ArgumentParser) -> None:
    """How an LMS download is read, and which students are graded."""
    parser.add_argument(
        "--pattern",
        help=f"with --zip, for an LMS other than {lms.titles()} (which are recognised): a "
        "regular expression with (?P<student_id>...) and optionally (?P<file_id>...) and "
        "(?P<timestamp>...), matched against each file's path in the download",
    )
    parser.add_argument(
        "--copies",
        choices=("stop", "all"),
        default="stop",
        help="with --zip: two different notebooks of one lesson from one student stop the "
        "run before grading (stop, the default) or are each graded (all)",
    )
    parser.add_argument(
        "--dry-run",
        action="store_true",
        help="with --zip: print file -> student -> lesson and grade nothing",
    )
    parser.add_argument(
        "--student",
        action="append",
        metavar="ID",
        help="grade only this student (repeatable); grades.csv and the report keep the others",
    )
    parser.add_argument(
        "--export",
        action="append",
        choices=lms.names(),
        help="also write grade files the LMS imports into exports/ (repeatable)",
    )
    lms.add_options(parser)  # each LMS's own (classroom/grading/lms/)


def _run_options(parser: argparse.ArgumentParser) -> None:
    """Where and how the run grades: limits, workers, shards, the sandbox."""
    parser.add_argument("--workers", type=int, default=None, help="default: the cores")
    parser.add_argument("--cell-timeout", type=int, default=None, help="seconds per cell")
    parser.add_argument(
        "--notebook-timeout", type=int, default=180, help="seconds one notebook may run"
    )
    parser.add_argument(
        "--root", type=Path, help="the course directory (default: the current folder)"
    )
    parser.add_argument("--shard", help="K/N: grade only the K-th of N ranges of students")
    parser.add_argument(
        "--cluster",
        metavar="WHERE",
        help="grade on a Dask cluster: a scheduler address (tcp://HOST:PORT), a scheduler "
        "file (.json), or local:N for N worker processes on this machine (default: this "
        "machine's own pool, no Dask)",
    )
    parser.add_argument("--workdir", type=Path, help="keep the staging files here")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument(
        "--regrade",
        action="store_true",
        help="grade every submission again, even those unchanged since an earlier run",
    )
    parser.add_argument(
        "--unsandboxed",
        action="store_true",
        help="run learners' code without the sandbox, with your rights (where the sandbox "
        "cannot run: no user namespaces, macOS); the report says so on its first line",
    )


def _check(parser, args) -> None:
    if (args.pattern or args.dry_run) and not args.zip:
        parser.error("--pattern and --dry-run go with --zip")
    if args.shard:
        try:
            k, n = (int(x) for x in args.shard.split("/"))
            assert 1 <= k <= n
        except (ValueError, AssertionError):
            parser.error("--shard takes K/N with 1 <= K <= N, for example 2/3")
        args.shard = (k, n)
    if args.merge and (args.shard or args.lessons):
        parser.error("--merge takes no lessons and no --shard")
    if args.cluster:
        from classroom.grading import cluster

        problem = cluster.check_where(args.cluster)
        if problem:
            parser.error(problem)
        if args.shard or args.merge or args.workers:
            parser.error(
                "--cluster goes without --shard, --merge and --workers (its workers grade)"
            )
    if args.workers is not None and args.workers < 1:
        parser.error("--workers must be at least 1")


def default_workers() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def plan_of(args: argparse.Namespace, root: Path) -> GradingPlan:
    """The run the command line asks for, built once; `root`: the course directory, checked.
    The demo class is a submitted/ tree this command writes (`classroom.demo`) into a folder
    of its own, graded there with a gradebook of its own and no journal (afresh each time)."""
    plan = GradingPlan(
        root=root,
        output=root,
        lessons=tuple(args.lessons),
        submitted=args.submitted,
        zip=args.zip,
        exchange=args.exchange,
        merge=args.merge,
        pattern=args.pattern,
        copies=args.copies,
        dry_run=args.dry_run,
        exports=tuple(args.export or ()),
        lms_settings=lms.settings(args),
        students=tuple(args.student or ()),
        workers=args.workers,
        cell_timeout=args.cell_timeout,
        notebook_timeout=args.notebook_timeout,
        shard=args.shard,
        cluster=args.cluster,
        sandboxed=not args.unsandboxed,
        regrade=args.regrade,
        workdir=args.workdir.resolve() if args.workdir else None,
        quiet=args.quiet,
    )
    if not args.demo:
        return plan
    from classroom import demo

    out = demo.output_folder(root)
    return replace(
        plan,
        output=out,
        lessons=plan.lessons or tuple(demo.demo_lessons(root)),
        submitted=out / "submitted",
        input_label="the bundled demo class (classroom/demo.py)",
        skip_absent=True,  # its mistake students each hand in one lesson
        gradebook=f"sqlite:///{demo.gradebook_path(root)}",
        journal=False,
        demo=True,
    )


def _work(plan: GradingPlan, staging: Path, graders) -> RunFacts:
    from classroom import build

    config = build.load_nbgrader_config(plan.root)
    records.read_alembic_head_in_process()
    records.fast_disposable_gradebooks(staging)
    if plan.merge:
        results, facts = shards.merge(plan.root, config, staging)
    else:
        results, facts = run.grade_class(plan, config, staging, graders)
    run.write_outputs(plan, config, results, facts)
    return facts


def _dry_run(plan: GradingPlan) -> int:
    """Print what a download would become, grade nothing."""
    import tempfile

    from classroom import build
    from classroom.grading import download
    from classroom.nbgrader_ext import notebooks

    root = plan.root
    lessons = list(plan.lessons) or notebooks.discover_lessons(root)
    config = build.load_nbgrader_config(root)
    with tempfile.TemporaryDirectory(prefix="dry-run-") as work:
        try:
            lines, stops = download.dry_run(
                plan.zip, lessons, work, pattern=plan.pattern, config=config,
                releases=run.release_reader(root), copies=plan.copies,
            )  # fmt: skip
        except download.DownloadError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 1
    print("\n".join(lines))
    # What would stop the real run, in the real run's words; the exit code says so too.
    for stop in stops:
        print(f"error: {stop}", file=sys.stderr)
    return 1 if stops else 0


def _sweep_sandboxes(sandbox) -> None:
    """Say in one line when no cgroup bounds a sandbox's memory here (the per-process
    fallback is in force: an instructor should know); remove the sandbox folders and cgroups
    that killed runs left, and say so in one line each. A run with cgroups says nothing, so
    that a refusal later in the run stays one line."""
    if sandbox.cgroup_place() is None:
        print(f"note: {sandbox.memory_mode()}", file=sys.stderr)
    for (removed, failed), what in (
        (sandbox.sweep_left_over(), "sandbox folder(s) that killed runs left in /tmp"),
        (sandbox.sweep_left_over_cgroups(), "sandbox cgroup(s) that killed runs left"),
    ):
        if removed or failed:
            line = f"note: removed {removed} {what}"
            if failed:
                line += f"; {failed} could not be removed"
            print(line, file=sys.stderr)


def _not_a_course(given: Path | None, root: Path) -> str | None:
    """What is wrong with the course directory, in one sentence (None: nothing). The advice
    depends on whether --root was given: telling someone who passed it to pass it helps no one."""
    if (root / "nbgrader_config.py").is_file():
        return None
    if given is None:
        return (
            f"the current folder ({root}) has no nbgrader_config.py: run from the course "
            "directory, or pass --root DIR"
        )
    if not root.exists():
        return f"--root {given}: no such folder"
    if not root.is_dir():
        return f"--root {given}: not a folder (give the course directory)"
    return f"--root {given}: {root} has no nbgrader_config.py, so it is not a course directory"


def _ready(plan: GradingPlan) -> int:
    """0 when the run can start, else the exit code after one line saying why not: input
    that is not there (said before any worker starts), or no sandbox. The demo class is
    written here, once its lessons are known to be the course's."""
    if not plan.merge:
        from classroom.nbgrader_ext import notebooks

        known = notebooks.discover_lessons(plan.root)
        try:
            if plan.demo:
                from classroom import demo

                run.check_lessons(plan.lessons, known)  # before the demo reads them
                unbuilt = sorted(set(plan.lessons) - set(demo.demo_lessons(plan.root)))
                if unbuilt:
                    raise GradeError(
                        f"the demo class is made from each lesson's release, and "
                        f"{', '.join(unbuilt)} has none in release/: run `make build` first"
                    )
                demo.prepare(plan.root, list(plan.lessons))
            run.check_input(plan, known)
        except GradeError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 1
    if plan.sandboxed and not plan.merge:
        from classroom.isolation import sandbox

        try:
            sandbox.require()
        except sandbox.SandboxUnavailable as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        _sweep_sandboxes(sandbox)
    return 0


def _start_graders(plan: GradingPlan, staging: Path):
    """The graders, started first: this machine's pool of grading processes (each loads
    nbgrader, seconds, while this process reads the input and generates the lessons), or
    the Dask cluster the plan names, connected meanwhile."""
    from classroom.grading import state
    from classroom.nbgrader_ext import notebooks

    setup = GraderSetup(
        staging=staging,
        root=plan.root,
        key=state.course_key(plan.root).hex(),
        notebook_timeout=plan.notebook_timeout,
        max_output_chars=MAX_OUTPUT_CHARS,
        sandboxed=plan.sandboxed,
        lessons=tuple(plan.lessons or notebooks.discover_lessons(plan.root)),
    )
    if plan.cluster:
        from classroom.grading import cluster

        return cluster.ClusterGraders(plan.cluster, setup)
    return pool.Pool(setup, plan.workers or default_workers())


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    root = (args.root or Path(".")).resolve()
    problem = _not_a_course(args.root, root)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    plan = plan_of(args, root)
    if plan.dry_run:  # reads the download only: no sandbox, no staging folder, no workers
        return _dry_run(plan)
    code = _ready(plan)
    if code:
        return code
    from classroom.grading import state

    if plan.workdir:
        staging = plan.workdir
        staging.mkdir(parents=True, exist_ok=True)
    else:  # in .grading/, the instructor's only; a killed run's is removed by the next
        staging = state.new_staging(root)
    graders = None if plan.merge else _start_graders(plan, staging)
    try:
        facts = _work(plan, staging, graders)
    except (GradeError, ValueError) as exc:  # GradeError, DownloadError, EmptyExchange
        if not isinstance(exc, GradeError) and not exc.__class__.__module__.startswith("classroom"):
            raise
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted: the submissions finished so far are in the gradebook", file=sys.stderr)
        return 130
    finally:
        if graders is not None:
            graders.close()
        if not plan.workdir:
            shutil.rmtree(staging, ignore_errors=True)
    for problem in facts.problems:
        print(f"warning: {problem}", file=sys.stderr)
    return 1 if facts.failed_lessons else 0


if __name__ == "__main__":
    code = main()
    classroom.end_without_collecting()
    sys.exit(code)
