"""The tampering corpus (support/tampering.py), graded with the sandbox on: each trick of issue
11 earns exactly what honest work deserves, on both grading routes.

One `nbgrader autograde` run per lesson grades its whole class (its references and every
fixture) in a course directory made by the harness, whose tree is snapshotted before and
after the run. A few fixtures are graded again by the course's grading command,
`python -m classroom.grade`, which must give the same verdicts. The sandbox is never
switched off: where it cannot run these tests are skipped, and fail under CI.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import nbgrader_harness as harness
import pytest
import tampering
from sandbox_required import require_sandbox
from tampering import L01, MUST_COMPUTE, TRICKS

from classroom import build
from classroom.nbgrader_ext import notebooks

REPO_ROOT = Path(__file__).resolve().parents[2]
GRADING_TIMEOUT = 600
FIXTURES = tampering.every_fixture()
BY_ID = {tamper.id: tamper for tamper in FIXTURES}
# Graded by both routes: a trick in the kernel, one that kills the answer process, a helper.
BOTH_ROUTES = ("code-swap-blank", "walk-replace-complete", "helper-solid-inertia")
REACHING = ("source", "classmate")  # the tricks that look for other files
# What grading writes in the course directory besides each submission's own output.
# .grading/cases-secret: the course secret hidden cases are drawn from, made on first use.
GRADER_FILES = (
    "gradebook.db",
    "gradebook.db-journal",
    "nbgrader-autograde.log",
    ".grading/cases-secret",
)


def _params(fixtures):
    """pytest params of fixtures; a fixture naming a hole is expected to fail, strictly."""
    return [
        pytest.param(
            tamper.id,
            id=tamper.id,
            marks=[pytest.mark.xfail(strict=True, reason=tamper.hole)] if tamper.hole else [],
        )
        for tamper in fixtures
    ]


# --------------------------------------------------------------------------------------------
# The course directory's tree


def tree(root: Path) -> dict[str, tuple[int, int, str]]:
    """{relative path: (size, mtime_ns, sha256)} of every file under root."""
    state = {}
    for path in root.rglob("*"):
        if path.is_file() or path.is_symlink():
            stat = path.lstat()
            digest = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "link"
            state[path.relative_to(root).as_posix()] = (stat.st_size, stat.st_mtime_ns, digest)
    return state


def changed(before: dict, after: dict) -> set[str]:
    """The paths added, removed or changed between two trees."""
    return {path for path in before.keys() | after.keys() if before.get(path) != after.get(path)}


def own_output(path: str, lesson: str, students) -> bool:
    """Whether path is a graded submission's own output, or the grader's bookkeeping."""
    parts = path.split("/")
    if parts[0] == "autograded" and len(parts) > 3 and parts[1] in students:
        return parts[2] == lesson
    return path in GRADER_FILES or parts[0] == ".jupyter-home"


@dataclass
class LessonRun:
    """One lesson's class graded by `nbgrader autograde`, and its course directory's tree."""

    result: harness.GradingResult
    before: dict
    after: dict
    students: list[str] = field(default_factory=list)

    def outside_own_output(self) -> list[str]:
        lesson = self.result.lesson
        found = changed(self.before, self.after)
        return sorted(p for p in found if not own_output(p, lesson, self.students))

    def graded_notebook(self, student: str):
        return notebooks.read(self.result.autograded_notebook(student))


def grade_class(lesson: str, workdir: Path) -> LessonRun:
    """Grade the lesson's whole class with the repository's nbgrader_config.py (sandbox on)."""
    course = harness.prepare_course(lesson, workdir / "course")
    config = (course / "nbgrader_config.py").read_text(encoding="utf-8")
    assert config == (REPO_ROOT / "nbgrader_config.py").read_text(encoding="utf-8")
    assert "unsandboxed" not in config and "sandboxed=False" not in config
    students = tampering.write_class(course / "submitted", lesson)
    before = tree(course)
    result = harness.autograde(course, lesson, students=students, timeout=GRADING_TIMEOUT)
    if result.returncode != 0 or result.missing:
        raise harness.HarnessError(f"nbgrader autograde failed:\n{result.log[-4000:]}")
    return LessonRun(result, before, tree(course), students)


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """graded(lesson) -> LessonRun, from one `nbgrader autograde` run per lesson."""
    runs = {}

    def get(lesson: str) -> LessonRun:
        require_sandbox()
        if lesson not in runs:
            try:
                runs[lesson] = grade_class(lesson, tmp_path_factory.mktemp(f"tamper-{lesson}"))
            except Exception as exc:  # remembered: the class is graded at most once
                runs[lesson] = exc
        if isinstance(runs[lesson], Exception):
            pytest.fail(f"{lesson}: could not grade the tampering class: {runs[lesson]}")
        return runs[lesson]

    return get


def verdict_messages(nb) -> dict[str, str]:
    """{test grade_id: the evalue of its error output} of an autograded notebook."""
    return {
        gid: " | ".join(o.evalue for o in cell.get("outputs", []) if o.output_type == "error")
        for gid, cell in notebooks.test_cells(nb).items()
    }


# --------------------------------------------------------------------------------------------
# The corpus itself


@pytest.mark.timeout(60)
def test_corpus_names_every_trick_with_consistent_scores():
    """Every trick of issue 11 has a fixture, and each fixture's total matches its lost cells."""
    assert {tamper.trick for tamper in FIXTURES} == set(TRICKS)
    assert len(BY_ID) == len(FIXTURES), "two fixtures of a lesson share a name"
    for tamper in FIXTURES:
        points = tampering.cell_points(tamper.lesson)
        lost = tamper.lost(points)
        assert lost <= set(points), f"{tamper.id}: {sorted(lost - set(points))} are no test cells"
        assert tamper.total == sum(points.values()) - sum(points[g] for g in lost), tamper.id
        assert tamper.doc and "\n" not in tamper.doc, f"{tamper.id}: needs a one-line doc"
        expected_base = "complete" if tamper.total else "blank"
        assert tamper.base == expected_base, f"{tamper.id}: only a blank base scores 0"
    helpers = {next(iter(t.cells)) for t in FIXTURES if t.trick == "helper"}
    assert helpers == {
        "solid_inertia",
        "quadratic_drag",
        "drop_heights",
        "landing_delay_ms",
        "largest_stable_timestep",
    }


# --------------------------------------------------------------------------------------------
# One nbgrader run per lesson


@pytest.mark.timeout(GRADING_TIMEOUT)
@pytest.mark.parametrize("lesson", tampering.LESSONS)
def test_references_score_full_marks_and_nothing(lesson, graded):
    """The complete reference scores full marks and the blank one 0, in the same run."""
    result = graded(lesson).result
    references = tampering.REFERENCES[lesson]
    if "complete" in references:
        assert not harness.full_marks_problems(result, "complete"), result.describe("complete")
    assert result.totals["blank"][0] == 0, result.describe("blank")


@pytest.mark.timeout(GRADING_TIMEOUT)
@pytest.mark.parametrize("fixture_id", _params(FIXTURES))
def test_trick_scores_what_honest_work_deserves(fixture_id, graded):
    """The fixture's total is exactly its honest score, and exactly its lost cells score 0."""
    tamper = BY_ID[fixture_id]
    result = graded(tamper.lesson).result
    cells = result.scores[tamper.name]
    assert set(cells) == set(tampering.cell_points(tamper.lesson)), "graded cells differ"
    lost = {gid for gid, (score, _) in cells.items() if score == 0}
    partial = {gid for gid, (score, maximum) in cells.items() if 0 < score < maximum}
    problems = [f"{g} kept its points" for g in sorted(tamper.lost(cells) - lost)]
    problems += [f"{g} lost its points" for g in sorted(lost - tamper.lost(cells))]
    problems += [f"{g} scored part of its points" for g in sorted(partial)]
    total = result.totals[tamper.name][0]
    assert total == tamper.total and not problems, (
        f"{tamper.id} ({tamper.doc}): {total:g} points, expected {tamper.total:g}\n  "
        + "\n  ".join(problems)
        + "\n"
        + result.describe(tamper.name, sorted(set(cells) - lost | tamper.lost(cells)))
    )


@pytest.mark.timeout(GRADING_TIMEOUT)
@pytest.mark.parametrize("fixture_id", [t.id for t in FIXTURES if t.says])
def test_helper_call_verdict_says_compute_from_arguments(fixture_id, graded):
    """Every cell a helper-call answer loses says, in one sentence, to compute from arguments."""
    tamper = BY_ID[fixture_id]
    run = graded(tamper.lesson)
    messages = verdict_messages(run.graded_notebook(tamper.name))
    for gid in sorted(tamper.loses):
        message = messages[gid]
        assert tamper.says in message, f"{gid}: {message!r}"
        sentence = message[: message.index(tamper.says)]
        assert ". " not in sentence and message.count(MUST_COMPUTE) == 1, f"{gid}: {message!r}"


@pytest.mark.timeout(GRADING_TIMEOUT)
@pytest.mark.parametrize("fixture_id", [t.id for t in FIXTURES])
def test_trick_changes_no_file_outside_its_own_output(fixture_id, graded):
    """Grading changed no file of the course directory but the submissions' own outputs."""
    tamper = BY_ID[fixture_id]
    run = graded(tamper.lesson)
    assert not run.outside_own_output(), "changed outside the outputs: " + ", ".join(
        run.outside_own_output()
    )
    lesson = tamper.lesson
    submitted = {p for p in run.before if p.startswith(f"submitted/{tamper.name}/")}
    mine = {p for p in run.after if p.startswith(f"autograded/{tamper.name}/")}
    expected = {p.replace("submitted/", "autograded/", 1) for p in submitted}
    assert mine == expected, f"{tamper.id} left {sorted(mine - expected)} in its output"
    assert f"autograded/{tamper.name}/{lesson}/{lesson}.ipynb" in mine


@pytest.mark.timeout(GRADING_TIMEOUT)
@pytest.mark.parametrize("fixture_id", [t.id for t in FIXTURES if t.trick in REACHING])
def test_cells_reaching_for_other_files_fail(fixture_id, graded):
    """A cell that looks for source/ or a classmate's notebook finds nothing: it fails."""
    tamper = BY_ID[fixture_id]
    nb = graded(tamper.lesson).graded_notebook(tamper.name)
    answers = notebooks.answer_cells(nb)
    for gid in tamper.appended:
        errors = [o for o in answers[gid].get("outputs", []) if o.output_type == "error"]
        assert errors and errors[0].ename == "FileNotFoundError", (
            f"{gid}: the cell did not fail as it should: {answers[gid].get('outputs')}"
        )


# --------------------------------------------------------------------------------------------
# The grading command, on a few fixtures


def cell_scores(root: Path, lesson: str) -> dict[str, dict[str, float]]:
    """{student: {grade_id: score}} of root's gradebook."""
    scores, _ = harness.read_gradebook(root, lesson)
    return {student: {g: s for g, (s, _) in cells.items()} for student, cells in scores.items()}


@pytest.fixture(scope="module")
def command_run(tmp_path_factory):
    """A few lesson-01 fixtures, graded by `python -m classroom.grade`."""
    require_sandbox()
    root = tmp_path_factory.mktemp("tamper-command") / "course"
    build.make_course_dir(L01, root)
    submitted = root.parent / "class" / "submitted"
    students = tampering.write_class(submitted, L01, BOTH_ROUTES)
    command = [sys.executable, "-m", "classroom.grade", L01, "--submitted", str(submitted)]
    command += ["--root", str(root), "--workers", "2", "--quiet"]
    run = subprocess.run(
        command, cwd=REPO_ROOT, capture_output=True, text=True, timeout=GRADING_TIMEOUT
    )
    assert run.returncode == 0, f"the command failed:\n{run.stdout}\n{run.stderr[-3000:]}"
    return root, students


@pytest.mark.timeout(GRADING_TIMEOUT)
def test_grading_command_gives_the_same_verdicts(command_run, graded):
    """`python -m classroom.grade` scores and explains each cell as `nbgrader autograde` did."""
    root, students = command_run
    direct = graded(L01)
    by_command = cell_scores(root, L01)
    differences = []
    for student in students:
        ours = {g: s for g, (s, _) in direct.result.scores[student].items()}
        if by_command.get(student) != ours:
            differences.append(f"{student}: scores {by_command.get(student)} against {ours}")
        graded_nb = notebooks.read(root / "autograded" / student / L01 / f"{L01}.ipynb")
        if verdict_messages(graded_nb) != verdict_messages(direct.graded_notebook(student)):
            differences.append(f"{student}: the verdict messages differ")
    assert sorted(students) == sorted(BOTH_ROUTES)
    assert not differences, "\n".join(differences)


# --------------------------------------------------------------------------------------------
# Issue 26, hole 2: the worker's log at a kernel's descriptors

DESCRIPTORS = [t for t in FIXTURES if t.trick == "descriptors"]


@pytest.fixture(scope="module")
def descriptor_run(tmp_path_factory):
    """The canary writer, then the log reader, graded by one worker of the grading command
    (its staging folder kept, with the worker's log)."""
    require_sandbox()
    base = tmp_path_factory.mktemp("tamper-descriptors")
    root, staging = base / "course", base / "staging"
    build.make_course_dir(L01, root)
    submitted = base / "class" / "submitted"
    names = [t.name for t in DESCRIPTORS]
    students = tampering.write_class(submitted, L01, names)
    command = [sys.executable, "-m", "classroom.grade", L01, "--submitted", str(submitted)]
    command += ["--root", str(root), "--workers", "1", "--workdir", str(staging), "--quiet"]
    run = subprocess.run(
        command, cwd=REPO_ROOT, capture_output=True, text=True, timeout=GRADING_TIMEOUT
    )
    assert run.returncode == 0, f"the command failed:\n{run.stdout}\n{run.stderr[-3000:]}"
    assert sorted(students) == sorted(names)
    return root, staging


@pytest.mark.timeout(GRADING_TIMEOUT)
def test_no_canary_of_the_submission_before_reaches_the_next(descriptor_run):
    """The reader, graded right after the writer by the same worker, read its descriptors but
    found no canary: not in its feedback, its graded notebook or the worker's log; both keep
    full marks."""
    root, staging = descriptor_run
    writer, reader = (t.name for t in DESCRIPTORS)
    scores = cell_scores(root, L01)
    every = sum(tampering.cell_points(L01).values())
    assert sum(scores[writer].values()) == every and sum(scores[reader].values()) == every
    graded_nb = root / "autograded" / reader / L01 / f"{L01}.ipynb"
    feedback = root / "feedback" / reader / L01 / f"{L01}.html"
    read = graded_nb.read_text(encoding="utf-8")
    assert "descriptors read:" in read, "the reader did not run"
    logs = sorted(staging.glob("logs/worker-*.log"))
    assert logs, "the worker kept no log"
    for path in [graded_nb, feedback, *logs]:
        assert tampering.FD_CANARY not in path.read_text(encoding="utf-8", errors="replace"), (
            f"the canary reached {path}"
        )
    assert tampering.FD_CANARY in (root / "autograded" / writer / L01 / f"{L01}.ipynb").read_text(
        encoding="utf-8"
    ), "the writer did not write its canary (to its own output)"


# --------------------------------------------------------------------------------------------
# A sabotaged sandbox, and the next submission in its slot

SABOTAGED = "sabotaged-answer-process"
AFTER_IT = "zz-honest-after-sabotage"  # sorted after it: the one worker grades it next


@pytest.mark.timeout(GRADING_TIMEOUT)
def test_the_submission_after_a_sabotaged_sandbox_in_its_slot_keeps_full_marks(tmp_path):
    """One worker grades the sabotaged answer process, then honest work in the same slot
    (the zygotes it left unresettable): both are graded, each with every honest point."""
    require_sandbox()
    root = tmp_path / "course"
    build.make_course_dir(L01, root)
    submitted = tmp_path / "class" / "submitted"
    tampering.write_class(submitted, L01, (SABOTAGED,))
    honest = tampering.base_notebook(L01, "complete")
    notebooks.write(honest, submitted / AFTER_IT / L01 / f"{L01}.ipynb")
    command = [sys.executable, "-m", "classroom.grade", L01, "--submitted", str(submitted)]
    command += ["--root", str(root), "--workers", "1", "--quiet"]
    run = subprocess.run(
        command, cwd=REPO_ROOT, capture_output=True, text=True, timeout=GRADING_TIMEOUT
    )
    assert run.returncode == 0, f"the command failed:\n{run.stdout}\n{run.stderr[-3000:]}"
    journal = (root / ".grading" / "journal.jsonl").read_text(encoding="utf-8").splitlines()
    results = [json.loads(line)["result"] for line in journal]
    assert [r["student"] for r in results] == [SABOTAGED, AFTER_IT]  # in this order, one slot
    assert len({r["worker"] for r in results}) == 1
    every = sum(tampering.cell_points(L01).values())
    # The sabotage's notes say what it did (its cell killed the kernel); the next has none.
    expected = {SABOTAGED: ("graded with notes", every), AFTER_IT: ("graded", every)}
    for result in results:
        total = sum(grade["auto_score"] or 0 for grade in result["grades"])
        assert (result["status"], total) == expected[result["student"]], (
            f"{result['student']}: {result['status']} ({result['reason']}), {total:g} of {every:g}"
        )
