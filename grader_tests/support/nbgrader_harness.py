"""Grade submissions of a lesson with real nbgrader, the way nbgrader's own tests do.

A temporary course directory gets nbgrader_config.py and source/<lesson>/; nbgrader's
GenerateAssignment fills its gradebook (in process, through classroom.build); every
submission is written to submitted/<student>/<lesson>/<lesson>.ipynb; one `nbgrader autograde
<lesson>` subprocess grades the whole class; the scores are read back with nbgrader.api.Gradebook.

    result = grade("01-world-as-text", {"solution": filled_release("01-world-as-text")}, workdir)
    result.scores["solution"]["solid_inertia_box_matches_mujoco"]  # (score, max_score)

Submissions are built from the committed release notebook, as a learner would hand it in:
`filled_release` (the solutions put back into every answer cell, some replaced by a mistake),
`blank_release` (untouched) and `rebinding_release` (untouched but for an answer cell that
rebinds numpy's comparison functions).

Mistake fixtures live in grader_tests/mistakes/<lesson>/<mistake_name>.py: a one-line
docstring naming the mistake, CELLS = {answer grade_id: whole new cell source} and
LOSES = {test grade_ids that must score 0}; every other test cell must score full marks.

Run as a script to grade a demo class (solution, blank, one student per mistake) and write
feedback/ and grades.csv:

    python grader_tests/nbgrader_harness.py 01-world-as-text --out /tmp/demo-class
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

REPO_ROOT = Path(__file__).resolve().parents[2]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from classroom import build  # noqa: E402
from classroom.nbgrader_ext import notebooks  # noqa: E402

MISTAKES_ROOT = Path(__file__).resolve().parents[1] / "mistakes"

# What a learner who wants free points might type: it changes numpy.allclose for every alias
# of numpy in the kernel, test cells included.
REBINDING_LINES = """
import numpy as np
import numpy.testing
np.allclose = lambda *a, **k: True
numpy.testing.assert_allclose = lambda *a, **k: None
"""

STUDENT_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


class HarnessError(RuntimeError):
    """nbgrader did not run to the end; the message carries its log."""


# --------------------------------------------------------------------------------------------
# Cells of a lesson notebook (the course's one vocabulary: classroom.nbgrader_ext.notebooks)

answer_cells = notebooks.answer_cells
autograded_cells = notebooks.test_cells
strip_solution_delimiters = notebooks.solution_text


def blank_release(lesson: str, *, root: Path | str = REPO_ROOT) -> nbformat.NotebookNode:
    """The committed release notebook, as handed out."""
    return notebooks.read_lesson(lesson, "release", root)


def filled_release(
    lesson: str,
    replacements: dict[str, str] | None = None,
    *,
    root: Path | str = REPO_ROOT,
) -> nbformat.NotebookNode:
    """The committed release with every answer cell filled in from the source notebook, those
    named in replacements given that text instead (a name that is no answer cell raises)."""
    source = notebooks.read_lesson(lesson, "source", root)
    try:
        return notebooks.fill_release(blank_release(lesson, root=root), source, replacements)
    except ValueError as exc:
        raise ValueError(f"{lesson}: {exc}") from None


def rebinding_release(lesson: str, *, root: Path | str = REPO_ROOT) -> nbformat.NotebookNode:
    """The blank release, but its first code answer cell also rebinds np.allclose and
    numpy.testing.assert_allclose to accept anything."""
    nb = blank_release(lesson, root=root)
    for cell in answer_cells(nb).values():
        if cell.cell_type == "code":
            cell.source = cell.source.rstrip("\n") + "\n" + REBINDING_LINES
            return nb
    raise ValueError(f"{lesson}: the release has no code answer cell")


# --------------------------------------------------------------------------------------------
# Mistake fixtures (loaded by classroom.nbgrader_ext.notebooks)

Mistake = notebooks.Mistake


def load_mistakes(
    lesson: str, *, mistakes_root: Path | str = MISTAKES_ROOT, root: Path | str = REPO_ROOT
) -> list[Mistake]:
    """The mistake fixtures of a lesson, sorted by name (none when the folder is missing)."""
    return notebooks.load_mistakes(lesson, root, Path(mistakes_root) / lesson)


# --------------------------------------------------------------------------------------------
# Running nbgrader


@dataclass
class NbgraderRun:
    command: list[str]
    returncode: int
    log: str
    seconds: float


def nbgrader_env(course_dir: Path, *, root: Path | str = REPO_ROOT) -> dict[str, str]:
    """Environment for nbgrader and its kernels: this Python's scripts on PATH (nbgrader runs
    `alembic`), the course package importable, and Jupyter and IPython configuration isolated
    from the user's (no personal kernelspec, startup script or nbgrader_config.py)."""
    build.ensure_scripts_on_path()
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(Path(root).resolve())] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    )
    isolated = course_dir / ".jupyter-home"
    for variable, folder in (
        ("JUPYTER_CONFIG_DIR", "config"),
        ("JUPYTER_DATA_DIR", "data"),
        ("IPYTHONDIR", "ipython"),
    ):
        (isolated / folder).mkdir(parents=True, exist_ok=True)
        env[variable] = str(isolated / folder)
    env.pop("JUPYTER_RUNTIME_DIR", None)
    return env


def _stop(process: subprocess.Popen) -> None:
    """Stop nbgrader and the kernels it started (its own process group on POSIX)."""
    try:
        if os.name == "posix":
            os.killpg(process.pid, signal.SIGKILL)
        else:
            process.kill()
    except ProcessLookupError:
        pass


def run_nbgrader(
    course_dir: Path | str,
    args: list[str],
    *,
    timeout: float,
    root: Path | str = REPO_ROOT,
) -> NbgraderRun:
    """Run `python -m nbgrader ARGS` in course_dir; its log goes to course_dir/nbgrader-<cmd>.log.

    Raises HarnessError when it outlives timeout (seconds); the process and its kernels are
    killed.
    """
    course_dir = Path(course_dir).resolve()
    command = [
        sys.executable,
        "-m",
        "nbgrader",
        *args,
        f"--CourseDirectory.root={course_dir}",
    ]
    start = time.perf_counter()
    process = subprocess.Popen(
        command,
        cwd=course_dir,
        env=nbgrader_env(course_dir, root=root),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        encoding="utf-8",
        errors="replace",
        start_new_session=(os.name == "posix"),
    )
    try:
        log, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _stop(process)
        log, _ = process.communicate()
        (course_dir / f"nbgrader-{args[0]}.log").write_text(log, encoding="utf-8")
        raise HarnessError(f"nbgrader {' '.join(args)} ran over {timeout:.0f} s:\n{log}") from None
    (course_dir / f"nbgrader-{args[0]}.log").write_text(log, encoding="utf-8")
    return NbgraderRun(command, process.returncode, log, time.perf_counter() - start)


def prepare_course(lesson: str, course_dir: Path | str, *, root: Path | str = REPO_ROOT) -> Path:
    """A course directory with the lesson generated (release/ and gradebook.db)."""
    course_dir = build.make_course_dir(lesson, course_dir, root=root)
    build.run_generate(course_dir, lesson, solution=False)
    return course_dir


def write_submission(
    course_dir: Path | str, lesson: str, student: str, nb: nbformat.NotebookNode
) -> Path:
    """Hand in nb as submitted/<student>/<lesson>/<lesson>.ipynb."""
    if not STUDENT_ID.match(student):
        raise ValueError(f"student id {student!r}: use letters, digits, '_', '-' or '.'")
    path = Path(course_dir) / "submitted" / student / lesson / f"{lesson}.ipynb"
    notebooks.write(nb, path)
    return path


def read_gradebook(course_dir: Path | str, lesson: str):
    """Scores of every submission of lesson in course_dir's gradebook.

    Returns (scores, ungraded): scores = {student: {grade_id: (score, max_score)}} and
    ungraded = {student: [grade_ids with no automatic score or waiting for a human]}.
    """
    from nbgrader.api import Gradebook
    from nbgrader.coursedir import CourseDirectory

    coursedir = CourseDirectory(config=build.load_nbgrader_config(course_dir))
    scores, ungraded = {}, {}
    with Gradebook(coursedir.db_url, coursedir.course_id) as gradebook:
        for submission in gradebook.find_assignment(lesson).submissions:
            student = submission.student.id
            scores[student], ungraded[student] = {}, []
            for notebook in submission.notebooks:
                for grade in notebook.grades:
                    scores[student][grade.name] = (float(grade.score), float(grade.max_score))
                    if grade.auto_score is None or grade.needs_manual_grade:
                        ungraded[student].append(grade.name)
    return scores, ungraded


@dataclass
class GradingResult:
    """One `nbgrader autograde` run over a class."""

    lesson: str
    course_dir: Path
    run: NbgraderRun
    students: list[str]
    scores: dict[str, dict[str, tuple[float, float]]]
    ungraded: dict[str, list[str]]
    totals: dict[str, tuple[float, float]] = field(init=False)

    def __post_init__(self) -> None:
        self.totals = {
            student: (sum(s for s, _ in cells.values()), sum(m for _, m in cells.values()))
            for student, cells in self.scores.items()
        }

    @property
    def returncode(self) -> int:
        return self.run.returncode

    @property
    def log(self) -> str:
        return self.run.log

    @property
    def missing(self) -> list[str]:
        """Students handed in but absent from the gradebook."""
        return [student for student in self.students if student not in self.scores]

    def autograded_notebook(self, student: str) -> Path:
        lesson = self.lesson
        return self.course_dir / "autograded" / student / lesson / f"{lesson}.ipynb"

    def cell_messages(self, student: str) -> dict[str, str]:
        """What each autograded test cell printed as an error or on stderr, by grade_id."""
        path = self.autograded_notebook(student)
        if not path.is_file():
            return {}
        messages = {}
        for grade_id, cell in autograded_cells(notebooks.read(path)).items():
            parts = []
            for output in cell.get("outputs", []):
                if output.output_type == "error":
                    parts.append(f"{output.ename}: {output.evalue}".strip())
                elif output.output_type == "stream" and output.name == "stderr":
                    parts.append("stderr: " + output.text.strip()[-300:])
            if parts:
                messages[grade_id] = " | ".join(parts)
        return messages

    def log_errors(self) -> list[str]:
        """nbgrader's ERROR lines."""
        return [line for line in self.log.splitlines() if "ERROR]" in line]

    def describe(self, student: str, grade_ids=None) -> str:
        """One line per cell (all of the student's, or grade_ids): score, maximum, message."""
        cells = self.scores.get(student, {})
        messages = self.cell_messages(student)
        lines = []
        for grade_id in sorted(cells if grade_ids is None else grade_ids):
            score, maximum = cells.get(grade_id, (float("nan"), float("nan")))
            message = messages.get(grade_id, "")
            lines.append(
                f"  {grade_id}: {score:g}/{maximum:g}" + (f"  {message}" if message else "")
            )
        where = f"  (autograded notebook: {self.autograded_notebook(student)})"
        return "\n".join(lines + [where])


# --------------------------------------------------------------------------------------------
# What the grader tests assert, shared with the harness self-test


def graded_problems(result: GradingResult, student: str, expected: set[str]) -> list[str]:
    """Why the student's submission was not graded cell by cell (empty when it was)."""
    if student not in result.scores:
        return [f"{student} is not in the gradebook; nbgrader errors: {result.log_errors()}"]
    problems = []
    missing = sorted(expected - set(result.scores[student]))
    if missing:
        problems.append(f"{student}: test cells {missing} were not graded")
    if result.ungraded.get(student):
        problems.append(
            f"{student}: {sorted(result.ungraded[student])} have no automatic score "
            "(nbgrader could not run the notebook, or a test cell needs a human)"
        )
    return problems


def full_marks_problems(result: GradingResult, student: str) -> list[str]:
    """Test cells on which the student lost points."""
    cells = result.scores.get(student, {})
    return [f"{g}: {s:g}/{m:g}" for g, (s, m) in sorted(cells.items()) if s < m]


def zero_problems(result: GradingResult, student: str) -> list[str]:
    """Test cells on which the student earned points."""
    cells = result.scores.get(student, {})
    return [f"{g}: {s:g}/{m:g}" for g, (s, m) in sorted(cells.items()) if s > 0]


def mistake_problems(result: GradingResult, mistake: Mistake) -> list[str]:
    """Where the mistake's grading differs from LOSES: a named cell that kept points, another
    cell that lost some, or a name that is not a graded test cell."""
    cells = result.scores.get(mistake.student, {})
    problems = []
    unknown = sorted(mistake.loses - set(cells))
    if unknown:
        problems.append(f"LOSES names {unknown}, which are not graded test cells")
    for grade_id, (score, maximum) in sorted(cells.items()):
        if grade_id in mistake.loses and score > 0:
            problems.append(f"{grade_id}: {score:g}/{maximum:g}, but LOSES says it scores 0")
        elif grade_id not in mistake.loses and score < maximum:
            problems.append(f"{grade_id}: {score:g}/{maximum:g}, but it is not in LOSES")
    return problems


def autograde(
    course_dir: Path | str,
    lesson: str,
    *,
    students: list[str],
    timeout: float | None = None,
    root: Path | str = REPO_ROOT,
) -> GradingResult:
    """Run `nbgrader autograde <lesson>` once over every submission in course_dir."""
    course_dir = Path(course_dir).resolve()
    timeout = 120 + 60 * len(students) if timeout is None else timeout
    run = run_nbgrader(course_dir, ["autograde", lesson, "--force"], timeout=timeout, root=root)
    scores, ungraded = read_gradebook(course_dir, lesson)
    return GradingResult(lesson, course_dir, run, list(students), scores, ungraded)


def grade(
    lesson: str,
    submissions: dict[str, nbformat.NotebookNode],
    workdir: Path | str,
    *,
    root: Path | str = REPO_ROOT,
    timeout: float | None = None,
) -> GradingResult:
    """Grade {student: notebook} for lesson in a new course directory workdir/course."""
    course_dir = prepare_course(lesson, Path(workdir) / "course", root=root)
    for student, nb in submissions.items():
        write_submission(course_dir, lesson, student, nb)
    return autograde(course_dir, lesson, students=list(submissions), timeout=timeout, root=root)


def generate_feedback(
    course_dir: Path | str, lesson: str, *, timeout: float = 300, root: Path | str = REPO_ROOT
) -> NbgraderRun:
    """`nbgrader generate_feedback <lesson>`: feedback/<student>/<lesson>/<lesson>.html."""
    run = run_nbgrader(
        course_dir, ["generate_feedback", lesson, "--force"], timeout=timeout, root=root
    )
    if run.returncode != 0:
        raise HarnessError(f"nbgrader generate_feedback failed:\n{run.log}")
    return run


def export_grades(
    course_dir: Path | str, *, timeout: float = 120, root: Path | str = REPO_ROOT
) -> Path:
    """`nbgrader export`: the gradebook as course_dir/grades.csv."""
    target = Path(course_dir).resolve() / "grades.csv"
    run = run_nbgrader(course_dir, ["export", f"--to={target}"], timeout=timeout, root=root)
    if run.returncode != 0 or not target.is_file():
        raise HarnessError(f"nbgrader export failed:\n{run.log}")
    return target


def demo_class(
    lesson: str, *, root: Path | str = REPO_ROOT, mistakes_root: Path | str = MISTAKES_ROOT
) -> dict[str, nbformat.NotebookNode]:
    """The class the grader tests grade: the solution, the blank release, a learner who
    rebinds numpy's comparisons, and one student per mistake fixture."""
    class_ = {
        "solution": filled_release(lesson, root=root),
        "blank": blank_release(lesson, root=root),
        "rebinds-numpy": rebinding_release(lesson, root=root),
    }
    for mistake in load_mistakes(lesson, mistakes_root=mistakes_root, root=root):
        class_[mistake.student] = filled_release(lesson, mistake.cells, root=root)
    return class_


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Grade a demo class with nbgrader.")
    parser.add_argument("lesson")
    parser.add_argument("--out", type=Path, required=True, help="new folder for the course")
    args = parser.parse_args(argv)
    if args.out.exists() and any(args.out.iterdir()):
        parser.error(f"{args.out} is not empty")
    result = grade(args.lesson, demo_class(args.lesson), args.out)
    print(f"autograde: exit code {result.returncode}, {result.run.seconds:.1f} s")
    for student in result.students:
        score, maximum = result.totals.get(student, (0.0, 0.0))
        print(f"{student}: {score:g}/{maximum:g}")
    generate_feedback(result.course_dir, args.lesson)
    print(f"feedback: {result.course_dir / 'feedback'}")
    print(f"grades: {export_grades(result.course_dir)}")
    return 0 if result.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
