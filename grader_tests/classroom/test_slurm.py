"""Grading on Slurm through dask-jobqueue (issue 32): a one-node Slurm started here
(support/slurm.py: Debian's slurm-wlm and munge, which CI's .ci/run installs), one Slurm job
of two cores running a Dask worker (a SLURMCluster scaled to one job), and the class command
grading lesson 01's demo class on that job's worker with `--cluster <its scheduler>`.

Where Slurm cannot start here the tests skip with one line saying why, and fail under CI
(CI=true), where everything they need must be there.
"""

from __future__ import annotations

import csv
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from sandbox_required import require_sandbox
from slurm import OneNodeSlurm, SlurmUnavailable

from classroom import build
from classroom.nbgrader_ext import notebooks

REPO_ROOT = Path(__file__).resolve().parents[2]
LESSON = "01-world-as-text"
JOB_CORES = 2
JOB_MEMORY = "6GiB"  # the worker's own; the grading processes are its children
WORKER_WAIT = 180  # seconds for the Slurm job to start and its worker to join


def unavailable(message: str) -> None:
    """Skip on a developer's machine, fail under CI, where Slurm must start."""
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="module")
def slurm(tmp_path_factory):
    """A one-node Slurm of this module's own, SLURM_CONF set for sbatch and scancel; stopped
    (every job cancelled) at the module's end."""
    one = OneNodeSlurm(tmp_path_factory.mktemp("slurm"))
    try:
        one.start()
    except SlurmUnavailable as exc:
        one.stop()
        unavailable(f"Slurm cannot start here: {exc}")
    before = os.environ.get("SLURM_CONF")
    os.environ.update(one.environment)
    try:
        yield one
    finally:
        if before is None:
            os.environ.pop("SLURM_CONF", None)
        else:
            os.environ["SLURM_CONF"] = before
        one.stop()


@pytest.fixture(scope="module")
def slurm_cluster(slurm, tmp_path_factory):
    """dask-jobqueue's SLURMCluster scaled to one job of JOB_CORES cores, its worker joined:
    non-daemonic (each Dask worker starts grading processes of its own), this venv's
    Python, the repository importable, everything on loopback."""
    from dask_jobqueue import SLURMCluster
    from distributed import Client

    folder = tmp_path_factory.mktemp("dask")
    cluster = SLURMCluster(
        cores=JOB_CORES,
        processes=1,
        memory=JOB_MEMORY,
        walltime="00:30:00",
        python=sys.executable,
        interface="lo",
        local_directory=str(folder / "worker"),
        log_directory=str(folder / "jobs"),
        scheduler_options={"dashboard_address": None},
        job_script_prologue=[
            "export DASK_DISTRIBUTED__WORKER__DAEMON=False",
            # the repository, and support/ for this module's own functions sent by name
            f"export PYTHONPATH={REPO_ROOT}:{Path(__file__).parents[1] / 'support'}",
            f"cd {REPO_ROOT}",
        ],
    )
    try:
        cluster.scale(jobs=1)
        with Client(cluster) as client:
            try:
                client.wait_for_workers(1, timeout=WORKER_WAIT)
            except TimeoutError:
                logs = sorted((folder / "jobs").glob("*.err"))
                tail = logs[-1].read_text().strip().splitlines()[-1:] if logs else []
                unavailable(
                    f"no Dask worker joined from Slurm in {WORKER_WAIT} s "
                    f"(squeue: {slurm.slurm('squeue', '-h').strip() or 'empty'}; "
                    f"worker log: {tail[0] if tail else 'none'})"
                )
        yield cluster
    finally:
        cluster.close()


def where_am_i() -> dict:
    """Run on a worker: the Slurm job it is in, its cores, and whether it may start
    processes of its own."""
    import multiprocessing

    import dask

    return {
        "job": os.environ.get("SLURM_JOB_ID"),
        "cpus": os.environ.get("SLURM_CPUS_PER_TASK"),
        "daemonic": multiprocessing.current_process().daemon,
        "daemon_setting": dask.config.get("distributed.worker.daemon"),
    }


@pytest.mark.timeout(300)
def test_a_dask_worker_runs_in_a_slurm_job_and_returns_a_result(slurm, slurm_cluster):
    from distributed import Client

    with Client(slurm_cluster) as client:
        assert client.submit(pow, 2, 10).result(timeout=60) == 1024
        seen = client.submit(where_am_i, pure=False).result(timeout=60)
        threads = list(client.nthreads().values())
    jobs = slurm.slurm("squeue", "-h", "-o", "%i %T").split()
    assert seen["job"] and jobs == [seen["job"], "RUNNING"], (seen, jobs)
    assert seen["cpus"] == str(JOB_CORES) and threads == [JOB_CORES], (seen, threads)
    assert seen["daemonic"] is False and seen["daemon_setting"] is False, seen


# --------------------------------------------------------------------------------------------
# The demo class graded on the Slurm job's worker


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """A course directory with lesson 01's source, release and mistake fixtures (from which
    the demo makes its mistake students)."""
    root = tmp_path_factory.mktemp("course") / "course"
    root.mkdir()
    shutil.copyfile(REPO_ROOT / "nbgrader_config.py", root / "nbgrader_config.py")
    for step in ("source", "release", "grader_tests/mistakes"):
        shutil.copytree(REPO_ROOT / step / LESSON, root / step / LESSON)
    return root


def demo_cell_scores(root: Path) -> dict[str, dict[str, tuple[float, float]]]:
    """{student: {test grade_id: (score, max_score)}} of LESSON in the demo's own gradebook
    (.grading/demo-gradebook.db), read with nbgrader's API."""
    from nbgrader.api import Gradebook
    from nbgrader.coursedir import CourseDirectory

    course_id = CourseDirectory(config=build.load_nbgrader_config(root)).course_id
    url = f"sqlite:///{root / '.grading' / 'demo-gradebook.db'}"
    scores: dict[str, dict[str, tuple[float, float]]] = {}
    with Gradebook(url, course_id) as gradebook:
        for submission in gradebook.find_assignment(LESSON).submissions:
            cells = scores.setdefault(submission.student.id, {})
            for notebook in submission.notebooks:
                for grade in notebook.grades:
                    cells[grade.name] = (float(grade.score), float(grade.max_score))
    return scores


def score_problems(student: str, cells: dict, loses: set[str]) -> list[str]:
    """Where a student's test cells differ from what the demo expects: the cells in `loses`
    score 0, every other cell full marks."""
    wrong = []
    for grade_id, (score, maximum) in sorted(cells.items()):
        expected = 0.0 if grade_id in loses else maximum
        if score != expected:
            wrong.append(f"{student} {grade_id}: {score:g}/{maximum:g}, expected {expected:g}")
    return wrong


@pytest.mark.timeout(900)
def test_the_demo_class_grades_on_a_slurm_job_through_dask_jobqueue(slurm_cluster, course):
    require_sandbox()
    address = slurm_cluster.scheduler_address
    command = [
        sys.executable, "-m", "classroom.grade", "--root", str(course), "--quiet",
        "--demo", LESSON, "--cluster", address,
    ]  # fmt: skip
    run = subprocess.run(
        command, cwd=REPO_ROOT, capture_output=True, text=True, timeout=840, check=False
    )
    assert run.returncode == 0, run.stderr[-3000:]
    out = course / ".grading" / "demo"
    assert f"on the Dask cluster {address}" in (out / "grading_report.txt").read_text()
    with open(out / "grades.csv", newline="", encoding="utf-8") as handle:
        rows = {r["student_id"]: r for r in csv.DictReader(handle) if r["assignment"] == LESSON}
    handed_in = {p.parent.name for p in (out / "submitted").glob(f"*/{LESSON}")}
    assert set(rows) == handed_in, (sorted(rows), sorted(handed_in))
    assert {"complete", "blank", "partial", "renamed-colab", "no-notebook"} <= handed_in
    assert any(s.startswith("mistake-") for s in handed_in), sorted(handed_in)
    assert rows["no-notebook"]["status"] == "needs a human", rows["no-notebook"]
    cells = demo_cell_scores(course)
    mistakes = {m.student.replace("_", "-"): m for m in notebooks.load_mistakes(LESSON)}
    wrong = []
    for student in sorted(handed_in - {"no-notebook"}):
        row, mine = rows[student], cells.get(student, {})
        assert row["status"].startswith("graded") and mine, (student, row)
        if student in ("complete", "renamed-colab"):
            wrong += score_problems(student, mine, set())
        elif student == "blank":
            wrong += score_problems(student, mine, set(mine))
        elif student == "partial":
            assert 0 <= float(row["score"]) < float(row["max_score"]), row
        else:  # mistake-01-<fixture>: exactly the cells its LOSES names score 0
            mistake = mistakes[student.replace(f"mistake-{LESSON[:2]}-", "mistake-")]
            wrong += score_problems(student, mine, set(mistake.loses))
    assert not wrong, "\n".join(wrong)
