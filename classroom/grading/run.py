"""One grading run: gather the submissions, grade them in parallel, record every result.

The run does what its `GradingPlan` (`plan.py`, built by the command) says, and gathers on
its way the `RunFacts` the report prints.

1. intake (`intake.py`) turns the input into one Job per student and lesson;
2. the lessons are generated into a staging course directory whose gradebook is the template
   each worker copies (`staging.py`);
3. one worker process per core (`pool.py`, `worker.py`) grades each job with nbgrader against
   its private gradebook;
4. this process moves each result's autograded/<student>/<lesson>/ and
   feedback/<student>/<lesson>/ into the plan's output folder (the course's, or the demo
   class's own) as it comes, draws the progress bar, and writes the results to the course's
   gradebook in batches, one transaction a batch (`records.py`);
5. as results come and at the end, the gradebook's views: grades.csv, grading_report.txt and
   the exports (`save_outputs`); at the end also class_report.html and a table
   (`write_outputs`).
"""

from __future__ import annotations

import io
import json
import os
import shutil
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from classroom.grading import exports, lms, records, report, shards, staging, state
from classroom.grading.plan import GradingPlan, RunFacts
from classroom.grading.results import NEEDS_HUMAN, NOT_SUBMITTED, Job, Result, failure
from classroom.grading.staging import GradeError
from classroom.nbgrader_ext.notes import Note

REPORT_NAME = "grading_report.txt"
CSV_NAME = "grades.csv"
RESULTS_NAME = "results.json"
VERDICT_BUDGET = 180  # seconds (DecideVerdicts.budget): the hard limit leaves room for it


def check_lessons(lessons, known: list[str]) -> None:
    """Raise GradeError naming the lessons that are not in source/ (`known`)."""
    unknown = [lesson for lesson in lessons if lesson not in known]
    if unknown:
        raise GradeError(f"no such lesson in source/: {', '.join(unknown)} (known: {known})")


def check_input(plan: GradingPlan, known: list[str]) -> None:
    """Raise GradeError when the plan names input that is not there (a lesson not in
    source/, a download or a submissions folder that does not exist): checked before any
    worker starts, so a typo is said at once."""
    check_lessons(plan.lessons, known)
    if plan.zip and not plan.zip.exists():
        raise GradeError(f"no such download: {plan.zip}")
    folder = plan.submitted_tree
    if folder is not None and not folder.is_dir():
        raise GradeError(f"no submissions folder {folder}")


def release_reader(root: Path) -> Callable:
    """lesson -> its release notebook in root/release/ (None when not built), each read once:
    what intake matches a notebook named after no lesson against."""
    from functools import cache

    from classroom.nbgrader_ext import notebooks

    @cache
    def release(lesson: str):
        path = notebooks.lesson_notebook(lesson, "release", root)
        return notebooks.read(path) if path.is_file() else None

    return release


def gather(plan: GradingPlan, config, known: list[str], work: Path) -> tuple[list, list, RunFacts]:
    """(lessons, jobs, what was read: the input in words, problems, unassigned files) for the
    input the plan names."""
    from classroom.grading import intake

    check_input(plan, known)
    wanted = list(plan.lessons)
    if plan.zip:
        return _from_download(plan, config, known, work)
    problems: list[str] = []
    if plan.exchange:
        folder, problems = intake.from_exchange(plan.root, wanted or known, config)
        said = f"nbgrader exchange, collected into {folder}"
    else:
        folder = plan.submitted_tree
        said = plan.input_label or f"{folder}"
    lessons = wanted or intake.lessons_in_tree(folder, known)
    if not lessons:
        raise GradeError(f"no lesson of source/ found in {folder} (lessons: {known})")
    taken = intake.from_submitted(folder, lessons, skip_absent=plan.skip_absent)
    return lessons, taken.submissions, RunFacts(input=said, problems=problems + taken.warnings)


def _from_download(plan: GradingPlan, config, known: list[str], work: Path):
    """gather's (lessons, jobs, facts) for an LMS download: the lessons asked for, or those
    the download has."""
    from classroom.grading import download

    wanted = list(plan.lessons)
    taken = download.from_download(
        plan.zip, wanted or known, work, pattern=plan.pattern, config=config,
        copies=plan.copies, releases=release_reader(plan.root),
    )  # fmt: skip
    facts = RunFacts(
        input=f"LMS download {plan.zip}",
        problems=list(taken.warnings),
        unassigned=taken.unassigned,
    )
    found = {s.lesson for s in taken.submissions if s.files}
    lessons = [lesson for lesson in wanted or known if lesson in found or lesson in wanted]
    return lessons, [s for s in taken.submissions if s.lesson in lessons], facts


def _move(source: str | None, target: Path) -> str | None:
    """Move a worker's output into the course (replacing an older one); its new path."""
    if not source or not os.path.exists(source):
        return None
    if target.exists():
        if Path(source).resolve() == target.resolve():  # a result reused from an earlier run
            return str(target)
        if target.is_dir():
            shutil.rmtree(target)
        else:
            target.unlink()
    else:
        target.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.rename(source, target)  # one system call when on the same file system, as usual
    except OSError:
        shutil.move(source, target)
    return str(target)


def _move_feedback(result: Result, folder: Path) -> str | None:
    """Move the worker's feedback folder (the page and the files nbgrader's release_feedback
    reads beside it: timestamp.txt, and submission_secret.txt from the exchange) into the
    course; the page's new path."""
    if not result.feedback:
        return None
    page = Path(result.feedback)
    moved = _move(str(page.parent), folder)
    if moved is None:
        return None
    stamp = folder / "timestamp.txt"
    if not stamp.exists():  # release_feedback needs one; a submitted/ tree may have none
        stamp.write_text(result.timestamp or time.strftime("%Y-%m-%d %H:%M:%S"), "utf-8")
    return str(folder / page.name)


class Recorder:
    """Takes each finished result, in this process, the one writer of the course's records:
    its signature checked, its outputs moved into the course, the progress bar moved on;
    then, a batch at a time, the batch's grades into the gradebook in one transaction (None
    for a shard), grades.csv and the report rewritten and a line in the journal for each
    (so a run killed at any point keeps what it graded).

    grades.csv is nbgrader's export of the whole gradebook (measured: 1.3 s for 620 rows), so
    rewriting it after every result would cost a class of 1,800 submissions tens of minutes of
    this process: results wait (not yet journaled) until the last save is `SAVE_SPACING`
    times its own cost ago, and at least `SAVE_INTERVAL` seconds, which keeps saving under a
    tenth of this process's time (on a machine with as many workers as cores, this process's
    time is taken from the workers). A run killed between saves loses nothing: what was not
    journaled is graded again by the next run. `flush()` saves and journals what waits; the
    run calls it at its end, however it ends."""

    SAVE_SPACING = 9.0
    SAVE_INTERVAL = 2.0  # seconds

    def __init__(self, run: RunContext, gradebook, progress):
        self.run, self.gradebook, self.progress = run, gradebook, progress
        self.results: list[Result] = []
        self._waiting: list[Result] = []
        self._saved_at, self._save_cost = 0.0, 0.0
        self._problems = 0  # results not graded (counted as they come, for the progress bar)

    def __call__(self, result: Result) -> None:
        """Take one result: move its outputs into the course and queue it for the next
        `flush` (its gradebook rows, grades.csv, the report, the journal)."""
        run = self.run
        result.max = run.maxima.get(result.lesson, 0.0)
        student, lesson = result.student, result.lesson
        result.autograded = _move(result.autograded, run.root / "autograded" / student / lesson)
        result.feedback = _move_feedback(result, run.root / "feedback" / student / lesson)
        self.results.append(result)
        self._waiting.append(result)
        self._problems += result.status in (NEEDS_HUMAN, NOT_SUBMITTED)
        spacing = max(self.SAVE_SPACING * self._save_cost, self.SAVE_INTERVAL)
        if time.monotonic() - self._saved_at >= spacing:
            self.flush()
        self.progress.update(len(self.results), self._problems)

    def flush(self) -> None:
        """Write the results that waited into the gradebook (one transaction), rewrite
        grades.csv and the report, then journal them."""
        run = self.run
        started = time.monotonic()
        refused = self._write_gradebook()
        if run.save is not None:
            run.save(self.results)
        # Last: a result in the journal is in the gradebook, grades.csv and the report, even
        # if the run is killed now; one saved but not journaled is graded again by the next
        # run, and so is one the gradebook refused (it is not in grades.csv).
        kept = [r for r in self._waiting if r.key not in refused]
        if run.journal is not None and kept:
            run.journal.append_many([(r, run.contents.get(r.key)) for r in kept])
        self._waiting = []
        self._saved_at = time.monotonic()
        self._save_cost = self._saved_at - started

    def _write_gradebook(self) -> set[tuple[str, str]]:
        """The waiting results' grades into the gradebook in one transaction (none for a
        shard, nor for a lesson nbgrader could not generate); a result whose rows it refuses
        gets a problem line and a note, and the others are written all the same. Returns
        the refused results' (lesson, student)."""
        run = self.run
        if self.gradebook is None:
            return set()
        batch = [r for r in self._waiting if r.lesson not in run.failed]
        refused = records.record_many(self.gradebook, batch)
        return records.said_refused(refused, run.facts.problems)


@dataclass
class RunContext:
    """What the Recorder needs of the run: the course, the lessons' maxima and failures, the
    summary facts, the journal, each submission's content digest, and how to save outputs."""

    root: Path  # where the outputs go (the plan's output)
    maxima: dict
    failed: dict
    facts: RunFacts
    journal: state.Journal | None = None
    contents: dict = field(default_factory=dict)
    save: Callable | None = None


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
            immediate.append(failure(job, NEEDS_HUMAN, why))
        elif job.refused:
            immediate.append(failure(job, NEEDS_HUMAN, job.refused))
        elif job.files:
            jobs.append(job)
        else:
            immediate.append(failure(job, NOT_SUBMITTED, f"nothing handed in for {job.lesson}"))
    return jobs, immediate


def _described(facts: RunFacts, plan: GradingPlan, config, lessons, workers, cell_timeout):
    """facts with the run's course, lessons, workers, limits and sandbox added."""
    return replace(
        facts,
        course=config.CourseDirectory.course_id,
        lessons=lessons,
        workers=workers,
        graded_on=f"the Dask cluster {plan.cluster}" if plan.cluster else "this machine",
        cell_timeout=cell_timeout,
        notebook_timeout=plan.notebook_timeout,
        sandbox="on: each kernel and each answer process in its own bubblewrap sandbox"
        if plan.sandboxed
        else "OFF (--unsandboxed): learners' code ran with the grader's rights",
    )


def _reuse(jobs: list[Job], context: RunContext, regrade: bool) -> tuple[list, list]:
    """(jobs still to grade, results reused: submissions graded by an earlier run whose
    files have not changed since)."""
    earlier = context.journal.graded() if context.journal is not None and not regrade else {}
    todo, reused = [], []
    for job in jobs:
        context.contents[(job.lesson, job.student)] = state.submission_digest(job)
        found = earlier.get((job.lesson, job.student))
        if found and found[0] == context.contents[(job.lesson, job.student)]:
            result = found[1]
            if result.status != NEEDS_HUMAN:
                result.id = job.id
                result.notes.append(Note("reused", "unchanged since it was graded; not regraded"))
                reused.append(result)
                continue
        todo.append(job)
    return todo, reused


def _chosen(plan: GradingPlan, submissions: list[Job], said: str) -> tuple[list[Job], str]:
    """(the submissions of the students and the shard the plan asks for, the input in words
    saying which); GradeError for a student asked for who handed nothing in."""
    if plan.students:
        missing = sorted(set(plan.students) - {s.student for s in submissions})
        if missing:
            raise GradeError(f"no submission from {', '.join(missing)} in {said}")
        submissions = [s for s in submissions if s.student in set(plan.students)]
        said += f" (only {', '.join(plan.students)})"
    if plan.shard:
        k, n = plan.shard
        chosen = shards.shard_of([s.student for s in submissions], k, n)
        submissions = [s for s in submissions if s.student in chosen]
        said += f" (shard {k}/{n}: {len(chosen)} students)"
    return submissions, said


def grade_class(plan: GradingPlan, config, work: Path, graders) -> tuple[list[Result], RunFacts]:
    """Grade the class the plan names with the started pool `graders`."""
    from classroom.nbgrader_ext import notebooks

    root, out = plan.root, plan.output
    known = notebooks.discover_lessons(root)
    cell_timeout = plan.cell_timeout or int(config.Execute.get("timeout", 30) or 30)
    if plan.gradebook is not None:  # a class graded apart from the course's
        config.CourseDirectory.db_url = plan.gradebook
    main_db = None if plan.shard else staging.course_db(root, config)
    lessons, submissions, found = gather(plan, config, known, work)
    submissions, said = _chosen(plan, submissions, found.input)
    due_db = _due_db(config) if plan.shard else None
    maxima, failed = staging.prepare(root, work, lessons, main_db, due_db)
    # An LMS's own options (kept in the course) may ask for its export too.
    asked = list(plan.exports) + lms.asked(plan.lms_settings, known, out)
    facts = replace(
        _described(found, plan, config, lessons, graders.size, cell_timeout),
        input=said,
        failed_lessons=sorted(failed),
        exports=list(dict.fromkeys(asked)),
    )
    for lesson, why in failed.items():
        facts.problems.append(f"lesson {lesson} was not graded: {why.splitlines()[0]}")
    context = RunContext(out, maxima, failed, facts)
    if not plan.shard:
        if plan.journal:
            context.journal = state.Journal(root, state.course_key(root))
            if context.journal.cut_short:
                facts.problems.append(
                    "the results journal's last line was cut short by a killed run: "
                    "that one result is not reused"
                )
        journal = context.journal
        context.save = lambda results: save_outputs(
            out, config, with_earlier(journal, results), facts
        )
    jobs, immediate = _jobs(submissions, failed, cell_timeout)
    jobs, reused = _reuse(jobs, context, plan.regrade)
    return _grade(plan, context, jobs, immediate + reused, graders, main_db, config, work)


def _grade(plan: GradingPlan, context, jobs, immediate, graders, main_db, config, work):
    """Record the results known at once, then grade the jobs with the pool."""
    total = len(jobs) + len(immediate)
    progress = report.Progress(total, stream=io.StringIO() if plan.quiet else None)
    gradebook = _open_gradebook(main_db, config)
    recorder = Recorder(context, gradebook, progress)
    start = time.monotonic()
    try:
        for result in immediate:
            recorder(result)
        cell_timeout = context.facts.cell_timeout
        hard_limit = plan.notebook_timeout + VERDICT_BUDGET + 2 * cell_timeout + 120
        graders.run(jobs, recorder, hard_limit, tick=progress.tick)
        graders.stop()  # the workers wind down while the outputs are written
    finally:
        try:
            recorder.flush()  # what waited is saved and journaled, even on the way out
        finally:
            if gradebook is not None:
                gradebook.close()
    facts = replace(context.facts, seconds=time.monotonic() - start)
    results = recorder.results
    (work / RESULTS_NAME).write_text(json.dumps([r.as_dict() for r in results], indent=1))
    return results, facts


def _open_gradebook(main_db: str | None, config):
    if main_db is None:
        return None
    from nbgrader.api import Gradebook

    return Gradebook(main_db, config.CourseDirectory.course_id)


def with_earlier(journal: state.Journal | None, results: list[Result]) -> list[Result]:
    """This run's results and, for every other submission the journal holds, its latest: what
    the report lists (a run for one student keeps the others' rows)."""
    if journal is None:
        return list(results)
    mine = {r.key for r in results}
    earlier = [r for key, (_, r) in journal.graded().items() if key not in mine]
    return earlier + list(results)


@dataclass(frozen=True)
class Saved:
    """What one save wrote: grades.csv, the report, the exports, the gradebook it read, and
    the lines saying what the LMS files left out (None when nothing)."""

    grades: Path
    report: Path
    exports: list[Path]
    book: records.Book
    refused: str | None


def save_outputs(root: Path, config, results: list[Result], facts: RunFacts) -> Saved:
    """Read the gradebook once and write its views: grades.csv, the report and the exports
    (exports.py), each replaced whole (written beside, then renamed), so a reader never sees
    half a file. `root`: where the outputs go (the plan's output)."""
    from nbgrader.coursedir import CourseDirectory

    book = records.read_book(
        CourseDirectory(config=config).db_url, config.CourseDirectory.course_id
    )
    csv_path = records.export_csv(book, results, root / CSV_NAME)
    report_path = report.write_report(root / REPORT_NAME, results, facts)
    written, refused = exports.write_all(root, book, results, facts.exports)
    return Saved(csv_path, report_path, written, book, refused)


def write_outputs(plan: GradingPlan, config, results: list[Result], facts: RunFacts) -> None:
    """grades.csv, the report and the table (or, for a shard, its results and report)."""
    root, shard = plan.root, plan.shard
    if shard is not None:
        folder = shards.save(root, shard, results, facts)
        report.write_report(folder / REPORT_NAME, results, facts)
        print(report.table(results))
        print(f"\nshard {shard[0]}/{shard[1]}: {folder / shards.RESULTS_NAME}")
        print(f"when every shard is done: python -m classroom.grade --merge --root {root}")
        return
    from classroom.grading import class_report
    from classroom.nbgrader_ext import notebooks

    journal = state.Journal(root, state.course_key(root)) if plan.journal else None
    everyone = with_earlier(journal, results)
    out = plan.output
    saved = save_outputs(out, config, everyone, facts)
    if saved.refused:
        print(saved.refused, file=sys.stderr)
    course = config.CourseDirectory.course_id
    known = notebooks.discover_lessons(root)  # a lesson gone from source/ has no section
    lessons = [x for x in saved.book.lessons if x in known] or facts.lessons
    page = class_report.write(root, everyone, lessons, course, out=out)
    sys.stderr.flush()
    print(report.table(results))
    print(f"\ngrades: {saved.grades}\nfeedback: {out / 'feedback'}\nreport: {saved.report}")
    print(f"class report: {page}\nexports: {', '.join(p.name for p in saved.exports)}")
