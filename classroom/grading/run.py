"""One grading run: gather the submissions, grade them in parallel, record every result.

1. intake (`intake.py`) turns the input into one Job per student and lesson;
2. the lessons are generated into a staging course directory whose gradebook is the template
   each worker copies (`staging.py`);
3. one worker process per core (`pool.py`, `worker.py`) grades each job with nbgrader against
   its private gradebook;
4. this process applies each result to the course's gradebook, one at a time (`records.py`),
   moves autograded/<student>/<lesson>/ and feedback/<student>/<lesson>/ into the course, and
   draws the progress bar;
5. at the end: grades.csv, grading_report.txt and a table (`write_outputs`).
"""

from __future__ import annotations

import io
import json
import shutil
import sys
import time
from pathlib import Path

from classroom.grading import records, report, shards, staging
from classroom.grading.results import NO_NOTEBOOK, NOT_GRADED, Job, Result, failure
from classroom.grading.staging import GradeError

REPORT_NAME = "grading_report.txt"
CSV_NAME = "grades.csv"
RESULTS_NAME = "results.json"
VERDICT_BUDGET = 180  # seconds (DecideVerdicts.budget): the hard limit leaves room for it


def gather(args, root: Path, config, known: list[str], work: Path) -> tuple[list, list, dict]:
    """(lessons, jobs, summary facts) for the input the arguments name."""
    from classroom.grading import intake

    facts: dict = {"problems": [], "unassigned": []}
    wanted = list(args.lessons)
    unknown = [lesson for lesson in wanted if lesson not in known]
    if unknown:
        raise GradeError(f"no such lesson in source/: {', '.join(unknown)} (known: {known})")
    if args.demo:
        from classroom import demo

        lessons = wanted or demo.demo_lessons(root)
        folder = demo.build_class(root, lessons, work / "demo-submitted")
        facts["input"] = "the bundled demo class (classroom/demo.py)"
        taken = intake.from_submitted(folder, lessons, skip_absent=True)
        return lessons, taken.submissions, facts
    if args.zip:
        lessons = wanted or known
        taken = intake.from_download(args.zip, lessons, work, pattern=args.pattern, config=config)
        facts["input"] = f"LMS download {args.zip}"
        facts["unassigned"] = taken.unassigned
        found = {s.lesson for s in taken.submissions if s.files}
        lessons = [lesson for lesson in lessons if lesson in found or lesson in wanted]
        return lessons, [s for s in taken.submissions if s.lesson in lessons], facts
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


class Recorder:
    """Takes each finished result, in this process: its outputs moved into the course, its
    grades into the course's gradebook (None for a shard), the progress bar moved on."""

    def __init__(self, root: Path, maxima: dict, failed: dict, facts: dict, gradebook, progress):
        self.root, self.maxima, self.failed, self.facts = root, maxima, failed, facts
        self.gradebook, self.progress = gradebook, progress
        self.results: list[Result] = []

    def __call__(self, result: Result) -> None:
        result.max = self.maxima.get(result.lesson, 0.0)
        student, lesson = result.student, result.lesson
        result.autograded = _move(result.autograded, self.root / "autograded" / student / lesson)
        target = self.root / "feedback" / student / lesson / f"{lesson}.html"
        result.feedback = _move(result.feedback, target)
        if self.gradebook is not None and lesson not in self.failed:
            try:
                records.record(self.gradebook, result)
            except Exception as exc:  # reported, and the run goes on
                problem = f"{student} ({lesson}) could not be written to the gradebook: {exc}"
                self.facts["problems"].append(problem)
                result.notes.append(records.gradebook_note(problem))
        self.results.append(result)
        problems = sum(r.status in (NOT_GRADED, NO_NOTEBOOK) for r in self.results)
        self.progress.update(len(self.results), problems)


def _due_db(config) -> str | None:
    """The course gradebook, read by a shard only for due dates, when there is one."""
    from nbgrader.coursedir import CourseDirectory

    url = CourseDirectory(config=config).db_url
    if not url.startswith("sqlite:///") or Path(url[len("sqlite:///") :]).is_file():
        return url
    return None


def _jobs(submissions: list[Job], failed: dict, cell_timeout: int):
    """(jobs for the workers, results known at once: no notebook, or a lesson that failed)."""
    jobs, immediate = [], []
    for number, job in enumerate(submissions):
        job.id, job.cell_timeout = number, cell_timeout
        if job.lesson in failed:
            why = f"the lesson could not be generated by nbgrader ({job.lesson})"
            immediate.append(failure(job, NOT_GRADED, why))
        elif job.files:
            jobs.append(job)
        else:
            immediate.append(failure(job, NO_NOTEBOOK, f"nothing handed in for {job.lesson}"))
    return jobs, immediate


def grade_class(args, root: Path, config, work: Path, graders) -> tuple[list[Result], dict]:
    """Grade the class the arguments name with the started pool `graders`."""
    from classroom import notebooks

    known = notebooks.discover_lessons(root)
    cell_timeout = args.cell_timeout or int(config.Execute.get("timeout", 30) or 30)
    main_db = None if args.shard else staging.course_db(root, config)
    lessons, submissions, facts = gather(args, root, config, known, work)
    if args.shard:
        k, n = args.shard
        chosen = shards.shard_of([s.student for s in submissions], k, n)
        submissions = [s for s in submissions if s.student in chosen]
        facts["input"] += f" (shard {k}/{n}: {len(chosen)} students)"
    due_db = _due_db(config) if args.shard else None
    maxima, failed = staging.prepare(root, work, lessons, main_db, due_db)
    facts["failed_lessons"] = sorted(failed)
    for lesson, why in failed.items():
        facts["problems"].append(f"lesson {lesson} was not graded: {why.splitlines()[0]}")
    facts.update(
        course=config.CourseDirectory.course_id,
        lessons=lessons,
        workers=len(graders.procs),
        cell_timeout=cell_timeout,
        notebook_timeout=args.notebook_timeout,
        sandbox="OFF (--unsandboxed): learners' code ran with the grader's rights"
        if args.unsandboxed
        else "on: each kernel and each answer process in its own bubblewrap sandbox",
    )
    jobs, immediate = _jobs(submissions, failed, cell_timeout)
    progress = report.Progress(len(submissions), stream=io.StringIO() if args.quiet else None)
    gradebook = _open_gradebook(main_db, config)
    recorder = Recorder(root, maxima, failed, facts, gradebook, progress)
    start = time.monotonic()
    try:
        for result in immediate:
            recorder(result)
        hard_limit = args.notebook_timeout + VERDICT_BUDGET + 2 * cell_timeout + 120
        graders.run(jobs, recorder, hard_limit, tick=progress.tick)
        graders.stop()  # the workers wind down while the outputs are written
    finally:
        if gradebook is not None:
            gradebook.close()
    facts["seconds"] = time.monotonic() - start
    results = recorder.results
    (work / RESULTS_NAME).write_text(json.dumps([r.as_dict() for r in results], indent=1))
    return results, facts


def _open_gradebook(main_db: str | None, config):
    if main_db is None:
        return None
    from nbgrader.api import Gradebook

    return Gradebook(main_db, config.CourseDirectory.course_id)


def write_outputs(root: Path, config, results: list[Result], facts: dict, shard=None) -> None:
    """grades.csv, the report and the table (or, for a shard, its results and report)."""
    if shard is not None:
        folder = shards.save(root, shard, results, facts)
        report.write_report(folder / REPORT_NAME, results, facts)
        print(report.table(results))
        print(f"\nshard {shard[0]}/{shard[1]}: {folder / shards.RESULTS_NAME}")
        print(f"when every shard is done: python -m classroom.grade --merge --root {root}")
        return
    from nbgrader.coursedir import CourseDirectory

    db_url = CourseDirectory(config=config).db_url
    lessons = facts.get("lessons") or sorted({r.lesson for r in results})
    csv_path = records.export_csv(
        db_url, config.CourseDirectory.course_id, lessons, results, root / CSV_NAME
    )
    report_path = report.write_report(root / REPORT_NAME, results, facts)
    sys.stderr.flush()
    print(report.table(results))
    print(f"\ngrades: {csv_path}\nfeedback: {root / 'feedback'}\nreport: {report_path}")
