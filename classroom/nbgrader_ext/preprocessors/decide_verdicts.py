"""DecideVerdicts: every test cell's points, decided where the learner's code cannot reach.

In the autograde chain after GuardedExecute, before SaveAutoGrades. The learner's kernel never
runs a test cell (GuardedExecute skips them), so nothing the learner's code does in the kernel
(rebinding functions, input or AST transformers, events, a displayhook) touches a test.
Instead, in this process:

1. a fresh answer process (`classroom.nbgrader_ext.verdicts.boundary`), sandboxed, holding
   only NumPy and the standard library, runs the learner's cells in notebook order: every
   code cell that is not locked (the answer cells, and any cell the learner added);
2. at each test cell, its trusted source, read from the gradebook, never from the notebook,
   runs here with the lesson's set-up imports and the learner's answers across the boundary:
   functions become proxies that call into the answer process with plain values, values are
   plain decoded copies (`classroom.nbgrader_ext.verdicts.trusted`);
3. the cell's outputs become the verdict: the lines the test printed when it passed, or one
   error whose message is the test's (the likely mistake), nothing else. nbgrader's
   SaveAutoGrades then scores the cell from those outputs: full marks or 0.

A graded function that needs MuJoCo or a course helper fails in the answer process, and the
test's message says in one sentence that it must compute from its arguments.
"""

from __future__ import annotations

import os
import time

from nbformat.notebooknode import NotebookNode
from nbgrader.preprocessors import NbGraderPreprocessor
from traitlets import Bool, Float, Integer, Unicode

from classroom.nbgrader_ext.notebooks import grade_id, is_locked, is_test
from classroom.nbgrader_ext.notes import record_note
from classroom.nbgrader_ext.preprocessors.settings import setting
from classroom.nbgrader_ext.verdicts import boundary, cases, trusted

VERDICT_KEY = "verdict"  # cell.metadata["classroom"]["verdict"]: for the feedback
PREDICTION_PREFIX = "predict_"  # predict-first answers: recorded, never scored


class DecideVerdicts(NbGraderPreprocessor):
    """Score each test cell from a trusted run of its source against the learner's answers."""

    call_timeout = setting(Float, 10.0, "Seconds one call of a learner's function may take.")
    cell_timeout = setting(Float, 10.0, "Seconds one learner's cell may run in the answer process.")
    budget = setting(
        Float, 180.0, "Seconds for all the verdicts of one notebook; tests left score 0."
    )
    sandboxed = setting(Bool, True, "Run the answer process in the sandbox.")
    warm = setting(
        Bool,
        True,
        "Fork the sandboxed answer process from the slot's answer zygote (NumPy and the "
        "answer server imported once, classroom.isolation.zygote); False: a new interpreter "
        "each time.",
    )
    slot = setting(Integer, 0, "The sandbox slot (see classroom.isolation.sandbox).")
    secret_file = setting(
        Unicode,
        "",
        "The file of the course secret that hidden cases are drawn from (made on first use); "
        "empty: .grading/cases-secret in the course directory.",
    )

    def preprocess(self, nb, resources):
        from course import expect

        info = resources["nbgrader"]
        # In the grader a check is strict (an unwritten answer fails), and hidden tests draw
        # this submission's own cases, for this notebook only.
        with expect.graded(hidden_seed=self._hidden_seed(nb, info)):
            self._decide_all(nb, info)
        return nb, resources

    def _decide_all(self, nb, info) -> None:
        """Run the learner's cells in the answer process and decide every test cell."""
        lesson = trusted.from_gradebook(info["db_url"], info["assignment"], info["notebook"])
        base = trusted.setup_namespace(lesson)
        self._deadline = time.monotonic() + self.budget
        self._ran: list[str] = []  # the cells that ran (replayed after a restart)
        self._out_of_time = False
        # Why a name an answer cell meant to define is not there (the cell stopped at a
        # forbidden import): said instead of "does not define".
        self._why_missing: dict[str, str] = {}
        answers, held = answer_process(
            self.slot,
            sandboxed=self.sandboxed,
            warm=self.warm,
            call_timeout=self.call_timeout,
            setup_names=lesson.setup_names,
        )
        try:
            _starting(answers.start)
            for index, cell in enumerate(nb.cells):
                if cell.cell_type != "code":
                    continue
                if is_test(cell):
                    self._decide(nb, index, cell, lesson, base, answers)
                elif not is_locked(cell) and cell.source.strip():
                    self._run_learner_cell(nb, index, cell, answers)
            self._record_predictions(nb, answers)
        finally:
            close_answer_process(answers, held)

    def _hidden_seed(self, nb, info: dict) -> tuple[int, ...]:
        """The seed of this submission's hidden cases (classroom.nbgrader_ext.verdicts.cases)."""
        path = self.secret_file or cases.secret_path(self._course_root())
        digest = cases.learner_digest(nb.cells)
        student = str(info.get("student") or "")
        return cases.submission_seed(
            cases.secret(path), student, info["assignment"], info["notebook"], digest
        )

    def _course_root(self) -> str:
        """The course directory nbgrader grades in (its configuration's, else the cwd)."""
        root = self.config.get("CourseDirectory", {}).get("root")
        return root if isinstance(root, str) and root else os.getcwd()

    # the answer process ---------------------------------------------------------------------

    def _run_learner_cell(self, nb, index, cell, answers) -> None:
        left = self._deadline - time.monotonic()
        if left <= 0:  # the budget bounds the learner's cells too, not only the tests
            if not self._out_of_time:
                self._out_of_time = True
                text = f"not run in the grader, nor the cells after it: {self.budget:g} s used up"
                record_note(nb, "notebook-limit", text, index, grade_id(cell))
            return
        try:
            outcome = answers.exec_cell(cell.source, timeout=min(self.cell_timeout, left))
            if outcome.error_type == "CellTimeout":  # interrupted; what ran before stays
                text = f"interrupted after {self.cell_timeout:g} s in the grader"
                record_note(nb, "cell-timeout", text, index, grade_id(cell))
            else:
                self._ran.append(cell.source)
                self._note_lookup(outcome, cell.source, answers)
        except boundary.StudentTimeout:
            text = f"this cell ran over {self.cell_timeout:g} s in the grader and was stopped"
            record_note(nb, "cell-timeout", text, index, grade_id(cell))
            self._restart(answers)
        except boundary.AnswerProcessGone as exc:
            record_note(nb, "answers-stopped", f"{exc}", index, grade_id(cell))
            self._restart(answers)

    def _note_lookup(self, outcome, source: str, answers) -> None:
        """Remember, for each name the cell defines, that it stopped at a lookup."""
        problem = outcome.problem("your answer cell", answers.setup_names)
        if isinstance(problem, boundary.LooksUpAnswer):
            for name in trusted.defined_names(source):
                self._why_missing[name] = str(problem)

    def _restart(self, answers) -> None:
        """A fresh answer process with the cells that ran so far (not the one that hung).
        When none starts (its host tried the slot's zygote, a fresh one and a cold sandbox,
        a few times), the answers stay stopped, never tried again for this notebook: the
        verdicts decided so far stand, the tests left score 0, each saying the process
        running the answers was stopped."""
        if getattr(self, "_unrestartable", None) is answers:
            return
        try:
            _starting(lambda: answers.restart(replay=False))
        except boundary.AnswerProcessGone as error:
            import logging

            logging.getLogger(__name__).warning("no answer process starts again: %s", error)
            self._unrestartable = answers
            return
        for source in self._ran:
            if time.monotonic() > self._deadline:
                break
            try:
                answers.exec_cell(source, timeout=self.cell_timeout)
            except boundary.VerdictError:
                break

    def _record_predictions(self, nb, answers) -> None:
        """The learner's predict-first letters (`predict_*` names), for the class report."""
        found = {}
        try:
            names = answers.names() if answers.alive else {}
            for name, kind in names.items():
                if name.startswith(PREDICTION_PREFIX) and kind == "value":
                    value = answers.value(name)
                    if isinstance(value, str) and len(value) <= 8:
                        found[name] = value.strip().upper()
        except boundary.VerdictError:
            return
        nb.metadata.setdefault("classroom", {})["predictions"] = found

    # the verdict ----------------------------------------------------------------------------

    def _decide(self, nb, index, cell, lesson, base, answers) -> None:
        gid = grade_id(cell)
        if gid not in lesson.tests:
            verdict = trusted.Verdict(False, "none", "none", "NotGraded", _UNKNOWN)
        elif time.monotonic() > self._deadline:
            why = f"not decided: this notebook used up the {self.budget:g} s its tests may take"
            verdict = trusted.Verdict(False, "not run", "not run", "NotRun", why)
        else:
            if not answers.alive:
                self._restart(answers)
            verdict = trusted.run_test(lesson, gid, base, answers, self._why_missing)
        cell.outputs = verdict_outputs(verdict)
        cell.execution_count = None
        cell.metadata.setdefault("classroom", {})[VERDICT_KEY] = {
            "visible": verdict.visible,
            "hidden": verdict.hidden,
        }
        if verdict.answers_gone:
            record_note(nb, "answers-stopped", verdict.evalue, index, gid)
            self._restart(answers)


_UNKNOWN = "this test cell is not in the lesson's gradebook, so it scores nothing"


def _starting(start, tries: int = 5):
    """start() (the answer process's), tried again a second later when the process does not
    start: the slot's last sandbox (a learner's kernel that forked up to the slot's process
    limit) may still be dying."""
    for attempt in range(tries):
        try:
            return start()
        except boundary.AnswerProcessGone:
            if attempt == tries - 1:
                raise
            time.sleep(1)


def verdict_outputs(verdict: trusted.Verdict) -> list[NotebookNode]:
    """The outputs nbgrader scores: printed lines (passed) or one error (failed)."""
    outputs = []
    if verdict.printed.strip():
        outputs.append(NotebookNode(output_type="stream", name="stdout", text=verdict.printed))
    if not verdict.passed:
        line = f"{verdict.ename}: {verdict.evalue}"
        outputs.append(
            NotebookNode(
                output_type="error", ename=verdict.ename, evalue=verdict.evalue, traceback=[line]
            )
        )
    return outputs


def answer_sandbox(slot: int):
    """The sandbox an answer process runs in: the interpreter and NumPy, nothing else."""
    from classroom.isolation import sandbox

    sandbox.require()
    readonly = [str(boundary.numpy_only_site()), *map(str, boundary.numpy_dirs())]
    readonly.append(str(boundary.SERVER_SCRIPT))
    return sandbox.Sandbox(slot=slot, course="", readonly=readonly, hide=sandbox.site_packages())


def answer_process(slot: int, *, sandboxed: bool = True, warm: bool = True, **options):
    """(an AnswerProcess, not started; what holds its sandbox, for close_answer_process):
    sandboxed, started by an AnswerHost of the slot (warm: forked by the slot's answer
    zygote, else cold); unsandboxed, a plain process. options: AnswerProcess's."""
    if not sandboxed:
        return boundary.AnswerProcess(**options), None
    host = AnswerHost(slot, warm=warm)
    return boundary.AnswerProcess(spawner=host.spawn, **options), host


class AnswerHost:
    """Where one submission's answer processes start (`spawn`, AnswerProcess's spawner) and
    what holds their sandbox. Each start tries in turn, when warm: the slot's answer zygote
    (made as new first when a process ran in it since), then a fresh answer zygote (the
    last one could not be made as new, or did not fork: what a submission did to its own
    sandbox, an undeletable folder in /tmp say, costs it only that sandbox); then, or when
    not warm, a cold sandbox of its own. close() leaves the slot's zygote as new (or
    discarded, so that the next submission gets a fresh one) and removes the cold one."""

    def __init__(self, slot: int, warm: bool = True):
        self.slot, self.warm = slot, warm
        self.zygote = None  # the answer zygote last forked from
        self.box = None  # the cold sandbox, once one was needed

    def spawn(self, command: list[str]):
        """command (the answer server's) started with pipes, as Popen(stdin=PIPE,
        stdout=PIPE, stderr=PIPE) gives; AnswerProcessGone when not even a cold one starts."""
        if self.warm:
            import logging

            from classroom.isolation import zygote

            for which in ("the slot's", "a fresh"):
                try:
                    return self._forked(command)
                except (zygote.ZygoteGone, OSError) as error:
                    logging.getLogger(__name__).warning(
                        "%s answer zygote did not serve: %s", which, error
                    )
                    if self.zygote is not None:
                        self.zygote.close()  # discarded: the next _forked makes a new one
                    self.zygote = None
        try:
            return self._cold(command)
        except OSError as error:
            raise boundary.AnswerProcessGone(
                "The process for your answers did not start", str(error)
            ) from None

    def _forked(self, command: list[str]):
        """command forked by the slot's answer zygote (a new one when there is none), in a
        sandbox made as new first; ZygoteGone when that cannot be."""
        from classroom.isolation import sandbox, zygote

        if self.zygote is None or not self.zygote.alive:
            self.zygote = zygote.answer_zygote(
                self.slot,
                lambda: answer_sandbox(self.slot),
                str(boundary.SERVER_SCRIPT),
                str(boundary.numpy_only_site()),
            )
        if self.zygote.dirty:
            why = self.zygote.reset()
            if why is not None:
                raise zygote.ZygoteGone(f"its sandbox could not be made as new: {why}")
        return zygote.spawn_with_pipes(self.zygote, command, self.zygote.box.env, sandbox.HOME)

    def _cold(self, command: list[str]):
        """command in a cold sandbox of this host's (each start a new bwrap: its /tmp new)."""
        import subprocess

        if self.box is None:
            self.box = answer_sandbox(self.slot)
        pipe = subprocess.PIPE
        return self.box.popen(
            command, stdin=pipe, stdout=pipe, stderr=pipe, bufsize=0, cwd=self.box.directory
        )

    def close(self) -> None:
        """After the submission: the zygote made as new (discarded when it cannot be), the
        cold sandbox's folder removed."""
        if self.zygote is not None and self.zygote.alive:
            self.zygote.reset()
        if self.box is not None:
            self.box.close()
            self.box = None


def close_answer_process(answers, held) -> None:
    """Stop the answer process; then its host (answer_process's) leaves the slot's sandbox
    as new: the zygote's every process killed, /tmp and /dev/shm emptied (the zygote
    discarded when that fails), a cold sandbox removed."""
    answers.close()
    if held is not None:
        held.close()
