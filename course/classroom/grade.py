"""Grade a class: every submission of one lesson or all lessons, in parallel, none dropped.

    python -m course.classroom.grade [LESSON ...]            # submitted/ (nbgrader's layout)
    python -m course.classroom.grade --zip download.zip      # an LMS download (zip or folder)
    python -m course.classroom.grade --exchange              # nbgrader's exchange (collect)
    python -m course.classroom.grade --demo                  # the bundled demo class
    options: --submitted DIR  --pattern REGEX  --workers N  --cell-timeout S
             --notebook-timeout S  --root DIR  --shard K/N  --merge  --workdir DIR

Built on nbgrader, run in process: its GenerateAssignment registers each lesson in the
gradebook, its Autograde converter grades each submission (with `GuardedExecute` in place of
`Execute`), GenerateFeedback renders the feedback (with `HideHiddenTests`), and its CSV export
writes grades.csv. Around them:

1. intake (`intake.py`) turns the input into one submission per student and lesson;
2. lessons are generated into a staging course directory whose gradebook is the template
   each worker copies;
3. one worker process per core (`pool.py`, `worker.py`) picks the notebook, repairs it
   (`repair.py`), autogrades it and renders its feedback, against its private gradebook;
4. this process applies each result to the course's gradebook, one at a time (`records.py`),
   moves autograded/<student>/<lesson>/ and feedback/<student>/<lesson>/ into the course, and
   draws the progress bar;
5. at the end: grades.csv (nbgrader's export plus status and reason), grading_report.txt
   (every submission, and for each unusual one what happened and what was done), and a table.

Every submission ends as a row with a score or a reason. `--shard K/N` grades the K-th of N
ranges of the sorted student ids and leaves its results in shards/K-of-N/; `--merge` puts the
shards' results into the gradebook and writes grades.csv and the report, as one run would.
"""

from __future__ import annotations

import argparse
import io
import json
import logging
import os
import shutil
import sys
import tempfile
import time
import warnings
from pathlib import Path

# build and intake load nbformat (and jsonschema: over a second here); they are imported
# inside the functions, after main() has started the worker processes.
from course.classroom import pool, records, report

REPORT_NAME = "grading_report.txt"
CSV_NAME = "grades.csv"
RESULTS_NAME = "results.json"
SHARDS = "shards"
MAX_OUTPUT_CHARS = 1_000_000


class GradeError(RuntimeError):
    """The run cannot go on (a lesson that does not build, a missing shard, ...)."""


# --------------------------------------------------------------------------------------------
# Arguments


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m course.classroom.grade",
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
    parser.add_argument(
        "--pattern",
        help="with --zip: regular expression with (?P<student_id>...) and optionally "
        "(?P<file_id>...) and (?P<timestamp>...), matched against each file's path",
    )
    parser.add_argument("--workers", type=int, default=None, help="default: the cores")
    parser.add_argument("--cell-timeout", type=int, default=None, help="seconds per cell")
    parser.add_argument("--notebook-timeout", type=int, default=600, help="seconds per notebook")
    parser.add_argument("--root", type=Path, default=Path("."), help="the course directory")
    parser.add_argument("--shard", help="K/N: grade only the K-th of N ranges of students")
    parser.add_argument("--workdir", type=Path, help="keep the staging files here")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    if args.pattern and not args.zip:
        parser.error("--pattern goes with --zip")
    if args.shard:
        try:
            k, n = (int(x) for x in args.shard.split("/"))
            assert 1 <= k <= n
        except (ValueError, AssertionError):
            parser.error("--shard takes K/N with 1 <= K <= N, for example 2/3")
        args.shard = (k, n)
    if args.merge and (args.shard or args.lessons):
        parser.error("--merge takes no lessons and no --shard")
    if args.workers is not None and args.workers < 1:
        parser.error("--workers must be at least 1")
    return args


def default_workers() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


# --------------------------------------------------------------------------------------------
# Lessons in the gradebook


def _quiet_logger(buffer: io.StringIO) -> logging.Logger:
    logger = logging.getLogger("course.classroom.grade.nbgrader")
    logger.handlers = [logging.StreamHandler(buffer)]
    logger.setLevel(logging.INFO)
    logger.propagate = False
    return logger


def register(staging: Path, lesson: str, db_url: str) -> None:
    """nbgrader's GenerateAssignment for lesson, from staging/source, into db_url."""
    from nbgrader.converters import GenerateAssignment
    from nbgrader.coursedir import CourseDirectory

    from course.classroom import build

    config = build.load_nbgrader_config(staging)
    config.CourseDirectory.db_url = db_url
    coursedir = CourseDirectory(config=config)
    coursedir.assignment_id = lesson
    buffer = io.StringIO()
    converter = GenerateAssignment(coursedir=coursedir, config=config, log=_quiet_logger(buffer))
    converter.force = True
    try:
        converter.start()
    except Exception as exc:
        raise GradeError(f"nbgrader could not generate {lesson}:\n{buffer.getvalue()}") from exc


def prepare(
    root: Path, staging: Path, lessons: list[str], main_db: str | None, due_db: str | None = None
) -> tuple[dict, dict]:
    """Generate each lesson into staging (its gradebook is the workers' template) and, unless
    main_db is None, register it in the course's gradebook (its due date is copied to the
    template, so late penalties are computed as nbgrader would; a shard, which writes no
    gradebook, reads them from due_db).

    Returns ({lesson: max score}, {lesson: why nbgrader could not generate it}); a lesson that
    fails does not stop the others."""
    from nbgrader.api import Gradebook, MissingEntry

    from course.classroom import build

    build.ensure_scripts_on_path()
    failed = {}
    for lesson in lessons:
        try:
            build.make_course_dir(lesson, staging, root=root)
        except build.BuildError as exc:
            failed[lesson] = str(exc)
    build.seed_gradebook(staging)
    template = f"sqlite:///{staging / 'gradebook.db'}"
    course_id = build.load_nbgrader_config(staging).CourseDirectory.course_id
    maxima = {}
    for lesson in [lesson for lesson in lessons if lesson not in failed]:
        try:
            register(staging, lesson, template)
            if main_db is not None:
                register(staging, lesson, main_db)
        except GradeError as exc:
            failed[lesson] = str(exc)
            continue
        due = None
        if main_db or due_db:
            with Gradebook(main_db or due_db, course_id) as gb:
                try:
                    due = gb.find_assignment(lesson).duedate
                except MissingEntry:
                    due = None
        with Gradebook(template, course_id) as gb:
            assignment = gb.find_assignment(lesson)
            maxima[lesson] = float(assignment.max_score)
            if due is not None:
                assignment.duedate = due
                gb.db.commit()
    return maxima, failed


def course_db(root: Path, config) -> str:
    """The course gradebook's URL (created empty when it is the default sqlite file)."""
    from nbgrader.coursedir import CourseDirectory

    from course.classroom import build

    build.seed_gradebook(root)
    return CourseDirectory(config=config).db_url


# --------------------------------------------------------------------------------------------
# Submissions


def shard_of(students: list[str], k: int, n: int) -> set[str]:
    """The K-th of N contiguous ranges of the sorted student ids (sizes differ by one at most)."""
    ordered = sorted(set(students))
    start, end = (k - 1) * len(ordered) // n, k * len(ordered) // n
    return set(ordered[start:end])


def gather(args, root: Path, config, known: list[str], staging: Path) -> tuple[list, list, dict]:
    """(lessons, submissions, summary facts) for the input the arguments name."""
    from course.classroom import intake

    facts: dict = {"problems": [], "unassigned": []}
    wanted = list(args.lessons)
    unknown = [lesson for lesson in wanted if lesson not in known]
    if unknown:
        raise GradeError(f"no such lesson in source/: {', '.join(unknown)} (known: {known})")
    if args.demo:
        from course.classroom import demo

        lessons = wanted or demo.demo_lessons(root)
        folder = demo.build_class(root, lessons, staging / "demo-submitted")
        facts["input"] = "the bundled demo class (course/classroom/demo.py)"
        return lessons, intake.from_submitted(folder, lessons).submissions, facts
    if args.zip:
        lessons = wanted or known
        taken = intake.from_download(
            args.zip, lessons, staging, pattern=args.pattern, config=config
        )
        facts["input"] = f"LMS download {args.zip}"
        facts["unassigned"] = taken.unassigned
        found = {s.lesson for s in taken.submissions if s.files}
        lessons = [lesson for lesson in lessons if lesson in found or lesson in wanted]
        subs = [s for s in taken.submissions if s.lesson in lessons]
        return lessons, subs, facts
    if args.exchange:
        lessons = wanted or known
        folder, problems = intake.from_exchange(root, lessons, config)
        facts["problems"] += problems
        facts["input"] = f"nbgrader exchange, collected into {folder}"
    else:
        folder = (args.submitted or root / "submitted").resolve()
        facts["input"] = f"{folder}"
        if not folder.is_dir():
            raise GradeError(f"no submissions folder {folder}")
    lessons = wanted or intake.lessons_in_tree(folder, known)
    if not lessons:
        raise GradeError(f"no lesson of source/ found in {folder} (lessons: {known})")
    return lessons, intake.from_submitted(folder, lessons).submissions, facts


# --------------------------------------------------------------------------------------------
# The run


def _move(source: str | None, target: Path) -> str | None:
    """Move a worker's output into the course (replacing an older one); its new path."""
    if not source or not Path(source).exists():
        return None
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.is_dir():
        shutil.rmtree(target)
    elif target.exists():
        target.unlink()
    shutil.move(source, target)
    return str(target)


def grade_class(args, root: Path, config, staging: Path, graders) -> tuple[list[dict], dict]:
    """Grade the class the arguments name with the started pool `graders`."""
    from course.classroom import build

    known = build.discover_lessons(root)
    cell_timeout = args.cell_timeout or int(config.Execute.get("timeout", 30) or 30)
    workers = len(graders.procs)
    main_db = None if args.shard else course_db(root, config)
    lessons, submissions, facts = gather(args, root, config, known, staging)
    if args.shard:
        k, n = args.shard
        chosen = shard_of([s.student for s in submissions], k, n)
        submissions = [s for s in submissions if s.student in chosen]
        facts["input"] += f" (shard {k}/{n}: {len(chosen)} students)"
    due_db = None
    if args.shard:  # a shard only reads the course gradebook, for due dates, if there is one
        from nbgrader.coursedir import CourseDirectory

        url = CourseDirectory(config=config).db_url
        if not url.startswith("sqlite:///") or Path(url[len("sqlite:///") :]).is_file():
            due_db = url
    maxima, failed = prepare(root, staging, lessons, main_db, due_db)
    facts["failed_lessons"] = sorted(failed)
    for lesson, why in failed.items():
        facts["problems"].append(f"lesson {lesson} was not graded: {why.splitlines()[0]}")

    facts.update(
        course=config.CourseDirectory.course_id,
        lessons=lessons,
        workers=workers,
        cell_timeout=cell_timeout,
        notebook_timeout=args.notebook_timeout,
    )

    jobs, results, immediate = [], [], []
    for number, submission in enumerate(submissions):
        job = {
            "id": number,
            "cell_timeout": cell_timeout,
            "student": submission.student,
            "lesson": submission.lesson,
            "files": submission.files,
            "base": submission.base,
            "timestamp": submission.timestamp,
            "notes": submission.notes,
        }
        if submission.lesson in failed:
            reason = f"the lesson could not be generated by nbgrader ({submission.lesson})"
            immediate.append(pool.failure(job, "not graded", reason))
        elif submission.files:
            jobs.append(job)
        else:
            immediate.append(
                pool.failure(job, "no notebook", f"nothing handed in for {submission.lesson}")
            )

    progress = report.Progress(len(submissions), stream=io.StringIO() if args.quiet else None)
    gradebook = None
    if main_db is not None:
        from nbgrader.api import Gradebook

        gradebook = Gradebook(main_db, config.CourseDirectory.course_id)

    def finish(result: dict) -> None:
        result["max"] = maxima.get(result["lesson"], 0.0)
        student, lesson = result["student"], result["lesson"]
        result["autograded"] = _move(
            result.get("autograded"), root / "autograded" / student / lesson
        )
        result["feedback"] = _move(
            result.get("feedback"), root / "feedback" / student / lesson / f"{lesson}.html"
        )
        if gradebook is not None and lesson not in failed:
            try:
                records.record(gradebook, result)
            except Exception as exc:  # reported, and the run goes on
                problem = f"{student} ({lesson}) could not be written to the gradebook: {exc}"
                facts["problems"].append(problem)
                result["notes"].append({"kind": "gradebook", "text": problem, "cell": None})
        results.append(result)
        problems = sum(r["status"] in ("not graded", "no notebook") for r in results)
        progress.update(len(results), problems)

    start = time.monotonic()
    try:
        for result in immediate:
            finish(result)
        hard_limit = args.notebook_timeout + 2 * cell_timeout + 180
        graders.run(jobs, finish, hard_limit, tick=progress.tick)
        graders.stop()  # the workers wind down while the outputs are written
    finally:
        if gradebook is not None:
            gradebook.close()
    facts["seconds"] = time.monotonic() - start
    (staging / RESULTS_NAME).write_text(json.dumps(results, indent=1), encoding="utf-8")
    return results, facts


def write_outputs(root: Path, config, results: list[dict], facts: dict, shard=None) -> None:
    """grades.csv, the report and the table (or, for a shard, its results and report)."""
    if shard is not None:
        folder = root / SHARDS / f"{shard[0]}-of-{shard[1]}"
        folder.mkdir(parents=True, exist_ok=True)
        payload = {"shard": list(shard), "facts": _jsonable(facts), "results": results}
        (folder / RESULTS_NAME).write_text(json.dumps(payload, indent=1), encoding="utf-8")
        report.write_report(folder / REPORT_NAME, results, facts)
        print(report.table(results))
        print(f"\nshard {shard[0]}/{shard[1]}: {folder / RESULTS_NAME}")
        print(f"when every shard is done: python -m course.classroom.grade --merge --root {root}")
        return
    from nbgrader.coursedir import CourseDirectory

    db_url = CourseDirectory(config=config).db_url
    lessons = facts.get("lessons") or sorted({r["lesson"] for r in results})
    csv_path = records.export_csv(
        db_url, config.CourseDirectory.course_id, lessons, results, root / CSV_NAME
    )
    report_path = report.write_report(root / REPORT_NAME, results, facts)
    sys.stderr.flush()
    print(report.table(results))
    print(f"\ngrades: {csv_path}\nfeedback: {root / 'feedback'}\nreport: {report_path}")


def _jsonable(facts: dict) -> dict:
    return json.loads(json.dumps(facts, default=str))


def merge(root: Path, config, staging: Path) -> tuple[list[dict], dict]:
    """Put the results of every shard in shards/ into the gradebook."""
    from nbgrader.api import Gradebook

    folders = sorted((root / SHARDS).glob("*-of-*"))
    if not folders:
        raise GradeError(f"no shard results in {root / SHARDS}")
    counts = {int(f.name.split("-of-")[1]) for f in folders}
    if len(counts) != 1:
        raise GradeError(f"shards of different splits in {root / SHARDS}: {sorted(counts)}")
    n = counts.pop()
    missing = [
        k for k in range(1, n + 1) if not (root / SHARDS / f"{k}-of-{n}" / RESULTS_NAME).is_file()
    ]
    if missing:
        raise GradeError(f"shards {missing} of {n} have no {RESULTS_NAME} yet")
    results, facts, seen = [], {"problems": [], "unassigned": []}, {}
    for k in range(1, n + 1):
        payload = json.loads((root / SHARDS / f"{k}-of-{n}" / RESULTS_NAME).read_text("utf-8"))
        for key in ("problems", "unassigned"):
            facts[key] += payload["facts"].get(key, [])
        for key in ("course", "workers", "cell_timeout", "notebook_timeout", "input"):
            facts.setdefault(key, payload["facts"].get(key))
        for result in payload["results"]:
            key = (result["lesson"], result["student"])
            if key in seen:
                raise GradeError(f"{key[1]} ({key[0]}) was graded in shards {seen[key]} and {k}")
            seen[key] = k
            results.append(result)
    lessons = sorted({r["lesson"] for r in results})
    facts["lessons"] = lessons
    facts["input"] = f"{n} shards in {root / SHARDS} (first: {facts.get('input')})"
    facts["seconds"] = 0.0
    main_db = course_db(root, config)
    _, failed = prepare(root, staging, lessons, main_db)
    if failed:
        raise GradeError(f"cannot register {sorted(failed)} in the gradebook: {failed}")
    with Gradebook(main_db, config.CourseDirectory.course_id) as gb:
        for result in sorted(results, key=lambda r: (r["lesson"], r["student"])):
            records.record(gb, result)
    return results, facts


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    # nbgrader 0.9's gradebook code trips SQLAlchemy 2's autoflush warnings; they are noise.
    warnings.filterwarnings("ignore", message=".*not in session.*")
    root = args.root.resolve()
    if not (root / "nbgrader_config.py").is_file():
        print(f"error: {root} has no nbgrader_config.py: pass --root", file=sys.stderr)
        return 2
    if args.workdir:
        staging = args.workdir.resolve()
        staging.mkdir(parents=True, exist_ok=True)
    else:
        staging = Path(tempfile.mkdtemp(prefix="grade-"))
    graders = None
    if not args.merge:
        # Started first: each worker loads nbgrader (seconds) while this process reads the
        # input and generates the lessons.
        setup = {
            "staging": str(staging),
            "root": str(root),
            "notebook_timeout": args.notebook_timeout,
            "max_output_chars": MAX_OUTPUT_CHARS,
        }
        graders = pool.Pool(setup, args.workers or default_workers())
    try:
        from course.classroom import build

        config = build.load_nbgrader_config(root)
        records.read_alembic_head_in_process()
        records.fast_disposable_gradebooks(staging)
        if args.merge:
            results, facts = merge(root, config, staging)
            write_outputs(root, config, results, facts)
        else:
            results, facts = grade_class(args, root, config, staging, graders)
            write_outputs(root, config, results, facts, shard=args.shard)
    except GradeError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted: the submissions finished so far are in the gradebook", file=sys.stderr)
        return 130
    finally:
        if graders is not None:
            graders.close()
        if not args.workdir:
            shutil.rmtree(staging, ignore_errors=True)
    for problem in facts.get("problems", []):
        print(f"warning: {problem}", file=sys.stderr)
    return 1 if facts.get("failed_lessons") else 0


if __name__ == "__main__":
    sys.exit(main())
