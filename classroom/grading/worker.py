"""A grading worker process: nbgrader's Autograde and GenerateFeedback for one submission at a
time, against a private copy of the gradebook.

The parent (`grade.py`) starts one worker per core. Each worker works in the shared staging
course directory (source/, release/, submitted/, autograded/, feedback/ of this run) but
writes grades only to its own copy of the gradebook, so workers never contend for a database;
the grades are sent back to the parent, the one writer of the course's gradebook.

Per job: pick the learner's notebook among the files handed in and read it
(`submissions.choose_notebook`, `submissions.read_submission`), write it to
submitted/<student>/<lesson>/, run nbgrader's Autograde converter with the course's
preprocessors in its chains (`classroom.nbgrader_ext.preprocessors`: the cells matched back to the
release, the guarded kernel), read the grades and the preprocessors' notes back, and render
the feedback with the course's feedback chain (`preprocessors.FEEDBACK`).
"""

from __future__ import annotations

import io
import logging
import os
import shutil
import sys
import time
import traceback
from pathlib import Path

import nbformat

import classroom
from classroom import build
from classroom.grading import state, submissions
from classroom.grading.plan import GraderSetup
from classroom.grading.results import (
    NEEDS_HUMAN,
    Grade,
    Job,
    Result,
)
from classroom.nbgrader_ext import notebooks, preprocessors
from classroom.nbgrader_ext.notes import Note, notes_of
from classroom.nbgrader_ext.verdicts import cases

IGNORED_PARTS = {".ipynb_checkpoints", "__pycache__", "__MACOSX", ".DS_Store"}


# --------------------------------------------------------------------------------------------
# nbgrader converters with the course's preprocessors


def _feedback_class():
    from nbconvert.writers import FilesWriter
    from nbgrader.converters import GenerateFeedback

    class ClassroomFeedback(GenerateFeedback):
        """nbgrader's GenerateFeedback keeping its HTML exporter (and the compiled templates)
        from one submission to the next, which halves its time per page."""

        exporters: dict = {}

        def start(self):
            self.init_notebooks()
            self.writer = FilesWriter(parent=self, config=self.config)
            key = "html"  # one exporter per worker: every job uses the same configuration
            if key not in self.exporters:
                from classroom.grading.feedback_page import feedback_exporter_class

                exporter_class = feedback_exporter_class()
                self.exporters[key] = exporter_class(parent=self, config=self.config)
            self.exporter = self.exporters[key]
            self.exporter._preprocessors = []
            for preprocessor in self.preprocessors:
                self.exporter.register_preprocessor(preprocessor)
            here = os.getcwd()
            os.chdir(self.coursedir.root)
            try:
                self.convert_notebooks()
            finally:
                os.chdir(here)

    return ClassroomFeedback


def _autograde_class():
    from nbgrader.converters import Autograde

    return Autograde


# --------------------------------------------------------------------------------------------
# The worker


# What nbgrader logs when a kernel did not start: graded once more before giving up.
KERNEL_DID_NOT_START = ("Kernel didn't respond",)


class Worker:
    """Grades jobs (from the parent) in the staging course directory."""

    def __init__(self, setup: GraderSetup, index: int, send=None):
        self.setup = setup
        self.index = index
        self.send = send or (lambda message: None)
        self.staging = Path(setup.staging)
        self.cell_timeout: int | None = None  # the run's, read with the first job
        self.db_path = self.staging / "workers" / f"gradebook-{index}.db"
        self.db_url = f"sqlite:///{self.db_path}"
        self.releases: dict[str, nbformat.NotebookNode] = {}
        self.config = None  # read with the first job: the parent is still preparing lessons
        self.log = logging.getLogger(f"classroom.worker{index}")
        self.log.setLevel(logging.INFO)
        self.log.propagate = False
        self.Autograde = _autograde_class()
        self.Feedback = _feedback_class()

    def _first_job(self, job: Job) -> None:
        """Copy the staging gradebook (the template) and read the configuration."""
        self.db_path.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(self.staging / "gradebook.db", self.db_path)
        self.cell_timeout = job.cell_timeout
        self.config = self._config()

    def _config(self):
        config = build.load_nbgrader_config(self.staging)
        # The course's chains, whatever the file says; each worker has its own sandbox slot.
        preprocessors.configure(config, sandboxed=self.setup.sandboxed)
        config.Autograde.pre_convert_hook = None  # the run registered its lessons already
        config.SandboxedKernelManager.slot = self.index
        config.DecideVerdicts.slot = self.index
        # Hidden cases are drawn with the course's secret, not the staging folder's.
        config.DecideVerdicts.secret_file = str(cases.secret_path(self.setup.root))
        # nbconvert validates the notebook after each of the chain's twenty preprocessors
        # (jsonschema, about 0.1 s a submission); once, after the last, is enough.
        config.Exporter.optimistic_validation = True
        config.CourseDirectory.root = str(self.staging)
        config.CourseDirectory.db_url = self.db_url
        if self.cell_timeout:
            config.Execute.timeout = int(self.cell_timeout)
        config.GuardedExecute.notebook_timeout = int(self.setup.notebook_timeout)
        config.GuardedExecute.max_output_chars = int(self.setup.max_output_chars)
        return config

    def release(self, lesson: str) -> nbformat.NotebookNode:
        if lesson not in self.releases:
            self.releases[lesson] = notebooks.read_lesson(lesson, "release", self.staging)
        return self.releases[lesson]

    def _coursedir(self, lesson: str, student: str):
        from nbgrader.coursedir import CourseDirectory

        coursedir = CourseDirectory(config=self.config)
        coursedir.assignment_id = lesson
        coursedir.student_id = student
        return coursedir

    # one job ----------------------------------------------------------------------------

    def grade(self, job: Job) -> Result:
        """Grade one submission; always returns a result, never raises."""
        start = time.perf_counter()
        result = Result.for_job(job)
        result.timestamp, result.worker = job.timestamp, self.index
        buffer = io.StringIO()
        handler = logging.StreamHandler(buffer)
        handler.setFormatter(logging.Formatter("[%(levelname)s] %(message)s"))
        self.log.addHandler(handler)
        try:
            self._grade_retrying(job, result, buffer)
        except _Fail as exc:
            result.status, result.reason = exc.status, str(exc)
        except Exception as exc:  # the grader's own failure: reported, never silent
            errors = [ln for ln in buffer.getvalue().splitlines() if ln.startswith("[ERROR]")]
            result.status = NEEDS_HUMAN
            result.reason = f"nbgrader could not grade it: {type(exc).__name__}: {exc}"
            if errors:
                result.reason = f"nbgrader could not grade it: {' '.join(errors[:3])[:600]}"
            self.log.error(traceback.format_exc())
        finally:
            self.log.removeHandler(handler)
            sys.stderr.write(buffer.getvalue())
            sys.stderr.flush()
        result.seconds = round(time.perf_counter() - start, 3)
        return result

    def _grade_retrying(self, job: Job, result: Result, buffer: io.StringIO) -> None:
        """Grade; when the kernel did not start (the grading machine's trouble, not the
        learner's), once more, and say so."""
        try:
            self._grade(job, result)
        except Exception:
            if not any(sign in buffer.getvalue() for sign in KERNEL_DID_NOT_START):
                raise
            first = next(ln for ln in buffer.getvalue().splitlines() if "Kernel didn't" in ln)
            result.notes[:] = [
                Note("retried", f"graded again: {first.removeprefix('[ERROR] ')[:200]}")
            ]
            self._grade(job, result)

    def _submit(self, job: Job, result: Result) -> str:
        """Pick and read the notebook, and hand it in as submitted/<student>/<lesson>/; the
        name (stem) of the notebook the student handed in."""
        release = self.release(job.lesson)
        files = [Path(f) for f in job.files]
        chosen, notes, others = submissions.choose_notebook(files, job.lesson, release)
        result.notes += notes
        if chosen is None:
            found = ", ".join(f.name for f in files) or "nothing"
            raise _Fail(NEEDS_HUMAN, f"no notebook handed in (found: {found})")
        try:
            nb, notes = submissions.read_submission(chosen)
        except submissions.Unreadable as exc:
            raise _Fail(NEEDS_HUMAN, str(exc)) from None
        result.notes += notes
        submitted = self.staging / "submitted" / job.student / job.lesson
        if submitted.exists():
            shutil.rmtree(submitted)
        notebooks.write(nb, submitted / f"{job.lesson}.ipynb")
        base = Path(job.base) if job.base else None
        for extra in others:
            too_large = extra.stat().st_size > submissions.MAX_EXTRA_FILE
            if extra.name.lower().endswith(".ipynb") or too_large:
                continue
            relative = extra.relative_to(base) if base and extra.is_relative_to(base) else None
            target = submitted / (relative if relative else extra.name)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(extra, target)
        if job.timestamp:
            (submitted / "timestamp.txt").write_text(str(job.timestamp), encoding="utf-8")
        return chosen.stem

    def _grade(self, job: Job, result: Result) -> None:
        started = time.perf_counter()
        if self.config is None:
            self._first_job(job)
        lesson, student = job.lesson, job.student
        handed_in = self._submit(job, result)
        result.timings["prepare"] = round(time.perf_counter() - started, 3)
        intake_notes = list(result.notes)
        converter = self.Autograde(
            coursedir=self._coursedir(lesson, student), config=self.config, log=self.log
        )
        converter.force = True
        converter.start()
        result.timings["autograde"] = round(time.perf_counter() - started, 3)
        autograded = self.staging / "autograded" / student / lesson
        graded_nb = notebooks.read(autograded / f"{lesson}.ipynb")
        result.notes += notes_of(graded_nb)
        result.failures = verdict_messages(graded_nb)
        result.predictions = dict(graded_nb.metadata.get("classroom", {}).get("predictions", {}))
        if intake_notes:  # what intake noticed, for the formgrader, as the chain's notes are
            from classroom.nbgrader_ext.preprocessors import notes_as_comments

            pairs = notes_as_comments.by_answer_cell(
                graded_nb, [(n.text, None) for n in intake_notes]
            )
            notes_as_comments.add_comments(self.db_url, lesson, lesson, student, pairs)
        self._read_grades(lesson, student, result)
        result.autograded = str(autograded)
        if result.lateness:  # said in the feedback, with what it cost
            penalty = sum(float(p or 0) for p in result.late_penalties.values())
            intake_notes.append(Note("late", f"handed in {result.lateness}; penalty {penalty:g}"))
        try:
            mark = time.perf_counter()
            page = self._feedback(lesson, student, intake_notes)
            if handed_in != lesson:  # nbgrader's fetch_feedback looks under the learner's name
                shutil.copyfile(page, page.with_name(f"{handed_in}.html"))
            result.feedback = str(page)
            result.timings["feedback"] = round(time.perf_counter() - mark, 3)
        except Exception as exc:
            result.notes.append(Note("feedback", f"no feedback HTML: {exc}"))
            self.log.error(traceback.format_exc())
        result.settle()

    def _read_grades(self, lesson: str, student: str, result: Result) -> None:
        from nbgrader.api import Gradebook

        with Gradebook(self.db_url, self.config.CourseDirectory.course_id) as gb:
            submission = gb.find_submission(lesson, student)
            if submission.timestamp:
                result.timestamp = submission.timestamp.isoformat()
            result.late_seconds = float(submission.total_seconds_late or 0.0)
            for notebook in submission.notebooks:
                result.late_penalties[notebook.name] = notebook.late_submission_penalty
                for grade in notebook.grades:
                    result.grades.append(
                        Grade(
                            notebook.name,
                            grade.name,
                            grade.auto_score,
                            grade.max_score,
                            bool(grade.needs_manual_grade),
                        )
                    )
                for comment in notebook.comments:
                    result.comments.append(
                        {
                            "notebook": notebook.name,
                            "name": comment.name,
                            "auto_comment": comment.auto_comment,
                        }
                    )

    def _feedback(self, lesson: str, student: str, notes: list[Note]) -> Path:
        converter = self.Feedback(
            coursedir=self._coursedir(lesson, student), config=self.config, log=self.log
        )
        converter.force = True
        # The feedback chain nbgrader_config.py configures, with what intake noticed.
        converter.preprocessors = preprocessors.feedback_chain(self.config, [n.text for n in notes])
        converter.start()
        return self.staging / "feedback" / student / lesson / f"{lesson}.html"


def verdict_messages(nb) -> dict[str, str]:
    """{test grade_id: its verdict's error message} of the test cells that lost points."""
    found = {}
    for cell in nb.cells:
        if notebooks.is_test(cell):
            errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
            if errors:
                found[notebooks.grade_id(cell)] = str(errors[0].get("evalue", ""))[:2000]
    return found


class _Fail(Exception):
    def __init__(self, status: str, reason: str):
        super().__init__(reason)
        self.status = status


# --------------------------------------------------------------------------------------------
# Process entry point


def prepare_environment(setup: GraderSetup) -> None:
    """Environment for nbgrader and the kernels it starts: the course importable, Jupyter and
    IPython settings isolated from the instructor's, no display, headless plots."""
    build.ensure_scripts_on_path()
    home = Path(setup.staging) / "jupyter-home"
    for variable, folder in (
        ("JUPYTER_CONFIG_DIR", "config"),
        ("JUPYTER_RUNTIME_DIR", "runtime"),
        ("IPYTHONDIR", "ipython"),
    ):
        (home / folder).mkdir(parents=True, exist_ok=True)
        os.environ[variable] = str(home / folder)
    paths = [str(setup.root)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    os.environ["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(paths))
    os.environ.setdefault("MPLBACKEND", "Agg")
    os.environ["PYDEVD_DISABLE_FILE_VALIDATION"] = "1"


def _die_with_parent() -> None:
    """Linux: be killed when the grading process dies (even by SIGKILL), so that nothing of a
    killed run goes on grading; the sandboxes die with their worker (--die-with-parent)."""
    try:
        import ctypes
        import signal

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def kernel_preload(setup: GraderSetup) -> tuple[str, ...] | None:
    """What the kernel zygotes import for this run: what the set-ups of its lessons
    (`setup.lessons`) import, read from the course's source (the locked cells that are
    neither answers nor tests, as the trusted set-up is); None when there are no lessons or
    one cannot be read (the zygotes then import the default)."""
    from classroom.isolation import zygote
    from classroom.nbgrader_ext.verdicts import trusted

    statements = []
    for lesson in setup.lessons:
        try:
            nb = notebooks.read_lesson(lesson, "source", setup.root)
        except (OSError, ValueError):
            return None
        for cell in nb.cells:
            kept = notebooks.is_locked(cell) and not notebooks.is_answer(cell)
            if cell.cell_type == "code" and kept and not notebooks.is_test(cell):
                statements += trusted.imports_of(cell.source)
    return zygote.preload_for(statements) if statements else None


def _warm_up(setup: GraderSetup, index: int, conn) -> None:
    """Before the first job (while the parent generates the lessons): the slot's zygotes
    started (their pid reported, as a kernel's, so the pool can kill them with the worker)
    and the trusted side's imports (the course package, MuJoCo) done. A failure only means
    the first job starts them itself, or cold kernels."""
    if setup.sandboxed:
        from classroom.isolation import zygote
        from classroom.nbgrader_ext import warm

        try:
            preload = kernel_preload(setup)
            if preload:
                zygote.use_kernel_preload(preload)
            warm.prestart(index)
            for pid in zygote.host_pids():
                conn.send({"type": "kernel", "pid": pid})
        except Exception as exc:  # noqa: BLE001 - the first notebook tries again
            print(f"warm kernels not started ahead: {exc}", file=sys.stderr)
    import mujoco  # noqa: F401 - DecideVerdicts' trusted side needs it and the course

    import course  # noqa: F401


def main(conn, setup: GraderSetup, index: int) -> None:
    """Run in a child process: receive jobs on conn, send back results, until None."""
    if hasattr(os, "setsid"):
        os.setsid()  # its own process group, so the parent can stop it and what it started
    _die_with_parent()
    log_path = Path(setup.staging) / "logs" / f"worker-{index}.log"
    log_path.parent.mkdir(parents=True, exist_ok=True)
    log_file = open(log_path, "a", buffering=1, encoding="utf-8")  # noqa: SIM115
    os.dup2(log_file.fileno(), 1)
    os.dup2(log_file.fileno(), 2)
    sys.stdout = sys.stderr = log_file
    prepare_environment(setup)
    from classroom.grading.records import fast_disposable_gradebooks

    fast_disposable_gradebooks(setup.staging)
    logging.basicConfig(stream=log_file, level=logging.WARNING)
    from classroom.isolation import kernels

    kernels.IpcKernelManager.kernel_started = lambda pid: conn.send({"type": "kernel", "pid": pid})
    worker = Worker(setup, index, conn.send)
    _warm_up(setup, index, conn)
    key = bytes.fromhex(setup.key)
    conn.send({"type": "ready", "pid": os.getpid()})
    try:
        while True:
            message = conn.recv()
            if message is None:
                break
            job = Job.from_dict(message)
            conn.send({"type": "start", "job": job.id})
            result = state.sign(key, worker.grade(job).as_dict())
            conn.send({"type": "done", "result": result})
    except (EOFError, KeyboardInterrupt):
        pass
    finally:
        kernels.stop_warm_kernels()
        kernels.remove_socket_dir()
        from classroom.nbgrader_ext.verdicts import boundary

        boundary.remove_numpy_only_site()
        from classroom.isolation import zygote

        zygote.stop_all()
        try:
            import resource

            own = resource.getrusage(resource.RUSAGE_SELF)
            children = resource.getrusage(resource.RUSAGE_CHILDREN)
            print(
                f"cpu seconds: worker {own.ru_utime + own.ru_stime:.1f}, "
                f"kernels {children.ru_utime + children.ru_stime:.1f}",
                file=sys.stderr,
            )
        except (ImportError, OSError):
            pass
        classroom.end_without_collecting()
