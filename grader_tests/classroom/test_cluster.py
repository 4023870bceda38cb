"""Grading on a Dask cluster (classroom/grading/cluster.py): the parcels that cross the
network, the --cluster values, the demo class graded on a LocalCluster of two worker
processes with the same scores and feedback as the local pool, a learner's code on a worker
finding nothing of the course, and a worker killed, or hung, in the middle of a run losing
nothing and recording nothing twice."""

from __future__ import annotations

import contextlib
import csv
import html
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tarfile
import time
from pathlib import Path

import pytest
from course_copies import course_copy

from classroom.grading import cluster, state
from classroom.grading.results import NEEDS_HUMAN, Grade, Job, Result
from classroom.nbgrader_ext.notes import Note

REPO_ROOT = Path(__file__).resolve().parents[2]
LESSON = "01-world-as-text"
KEY = bytes(range(32))


# --------------------------------------------------------------------------------------------
# Parcels


def test_a_sealed_parcel_opens_only_whole_and_with_its_key():
    parcel = cluster.seal(KEY, b"the body")
    assert cluster.opened(KEY, parcel) == b"the body"
    altered = parcel[:-1] + bytes([parcel[-1] ^ 1])
    with pytest.raises(cluster.BrokenParcel):
        cluster.opened(KEY, altered)
    with pytest.raises(cluster.BrokenParcel):
        cluster.opened(bytes(32), parcel)


def test_a_job_travels_with_its_files_named_as_handed_in(tmp_path):
    base = tmp_path / "submitted" / "ana" / LESSON
    (base / "data").mkdir(parents=True)
    (base / f"{LESSON}.ipynb").write_text('{"cells": []}')
    (base / "data" / "points.csv").write_text("1,2\n")
    outside = tmp_path / "elsewhere.txt"
    outside.write_text("loose")
    files = [base / f"{LESSON}.ipynb", base / "data" / "points.csv", outside]
    job = Job("ana", LESSON, [str(f) for f in files], base=str(base), id=7, late=True)
    job.note("renamed", "a note intake left")
    arrived = cluster.unpack_job(KEY, cluster.pack_job(KEY, job), tmp_path / "worker")
    assert (arrived.student, arrived.lesson, arrived.id, arrived.late) == ("ana", LESSON, 7, True)
    assert [n.text for n in arrived.notes] == ["a note intake left"]
    names = sorted(str(Path(f).relative_to(arrived.base)) for f in arrived.files)
    assert names == ["01-world-as-text.ipynb", "data/points.csv", "elsewhere.txt"]
    assert Path(arrived.base, "data", "points.csv").read_text() == "1,2\n"


def test_a_result_travels_with_its_autograded_and_feedback_folders(tmp_path):
    autograded = tmp_path / "autograded" / "ana" / LESSON
    feedback = tmp_path / "feedback" / "ana" / LESSON
    for folder in (autograded, feedback):
        folder.mkdir(parents=True)
    (autograded / f"{LESSON}.ipynb").write_text("graded")
    (feedback / f"{LESSON}.html").write_text("<p>well done</p>")
    (feedback / "timestamp.txt").write_text("2026-12-05 10:00:00")
    result = Result(3, "ana", LESSON, grades=[Grade(LESSON, "test-a", 2.0, 3.0)])
    result.notes.append(Note("late", "handed in late"))
    result.autograded, result.feedback = str(autograded), str(feedback / f"{LESSON}.html")
    back = cluster.unpack_result(KEY, cluster.pack_result(KEY, result), tmp_path / "arrived")
    assert back.grades == result.grades and back.notes == result.notes
    assert Path(back.autograded, f"{LESSON}.ipynb").read_text() == "graded"
    assert Path(back.feedback).read_text() == "<p>well done</p>"
    assert Path(back.feedback).with_name("timestamp.txt").is_file()


def test_a_parcel_cannot_write_outside_its_folder(tmp_path):
    """Even sealed with the right key, a tar entry climbing out of the folder is refused."""
    buffer = io.BytesIO()
    head = b"{}"
    buffer.write(len(head).to_bytes(4, "big") + head)
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        info = tarfile.TarInfo("../escaped.txt")
        info.size = 3
        tar.addfile(info, io.BytesIO(b"bad"))
    parcel = cluster.seal(KEY, buffer.getvalue())
    with pytest.raises(tarfile.TarError):
        cluster.unpack_result(KEY, parcel, tmp_path / "arrived")
    assert not (tmp_path / "escaped.txt").exists()


@pytest.mark.parametrize(
    ("where", "fine"),
    [
        ("local:2", True),
        ("tcp://10.0.0.5:8786", True),
        ("scheduler:8786", True),
        ("local:0", False),
        ("local:two", False),
        ("missing-scheduler.json", False),
        ("a-cluster", False),
    ],
)
def test_cluster_values_are_checked_in_one_line(where, fine):
    problem = cluster.check_where(where)
    assert (problem is None) == fine, problem
    if problem:
        assert "\n" not in problem and where in problem


def test_the_window_grows_with_workers_that_join_later(monkeypatch):
    class Joining:
        threads = {"tcp://a:1": 2}

        def nthreads(self):
            return dict(self.threads)

    client = Joining()
    window = cluster.Window(client)
    assert window.size() == 8  # four a thread
    client.threads = {"tcp://a:1": 2, "tcp://b:1": 32}
    assert window.size() == 8, "counted again before EVERY seconds"
    monkeypatch.setattr(cluster.Window, "EVERY", 0.0)
    assert window.size() == 4 * 34


def test_results_are_opened_beside_the_recorder_each_once():
    """The Opener's threads open; the thread that takes the results (the recorder's) opens
    none of them, and every item comes out once, with its job."""
    import threading

    openers = []

    def open_one(item, job):
        openers.append(threading.current_thread())
        time.sleep(0.01)
        return Result(job.id, job.student, job.lesson, status=f"opened {item}")

    jobs = [Job(f"s{n}", LESSON, id=n) for n in range(12)]
    with cluster.Opener(open_one) as opener:
        for job in jobs:
            opener.add(f"parcel {job.id}", job)
        taken = [opener.next(timeout=10) for _ in jobs]
        assert opener.next(timeout=0.1) is None, "nothing comes out twice"
    assert sorted(job.id for job, _ in taken) == list(range(12))
    assert all(result.status == f"opened parcel {job.id}" for job, result in taken)
    assert threading.current_thread() not in openers
    assert len(set(openers)) == cluster.Opener.THREADS


def test_a_result_that_cannot_be_opened_is_a_failure_not_a_loss():
    def open_one(item, job):
        raise OSError(28, "No space left on device")

    job = Job("s1", LESSON, id=7)
    with cluster.Opener(open_one) as opener:
        opener.add(b"parcel", job)
        opened = opener.next(timeout=10)
    assert opened is not None
    taken, result = opened
    assert taken is job and result.key == (LESSON, "s1")
    assert result.status == NEEDS_HUMAN and "No space left on device" in result.reason
    assert "\n" not in result.reason
    opener.add(b"late", job)  # a task finishing after the run ended: nothing, no error


# --------------------------------------------------------------------------------------------
# The demo class on a LocalCluster


def run_grade(root: Path, *args: str) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "classroom.grade", "--root", str(root), "--quiet", *args]
    return subprocess.run(
        command, cwd=REPO_ROOT, capture_output=True, text=True, timeout=600, check=False
    )


def rows(folder: Path) -> list[dict]:
    with open(folder / "grades.csv", newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def page_text(path: Path) -> str:
    """A feedback page's visible text, the ids each page draws at random (widgets) removed."""
    text = html.unescape(re.sub(r"<[^>]+>", "", path.read_text(encoding="utf-8")))
    text = re.sub(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "ID", text)
    text = re.sub(r'"model_id": "[0-9a-f]+"', "ID", text)
    return " ".join(text.split())  # the layout's blank lines are not what a reader sees


def new_course(root: Path) -> Path:
    """A course directory at `root` with lesson 01's source and release."""
    return course_copy(root, LESSON)


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """One course the module's tests share (the demo class is graded in it once)."""
    return new_course(tmp_path_factory.mktemp("cluster") / "course")


def graded_demo(root: Path, *args: str) -> tuple[list[dict], dict[str, str]]:
    run = run_grade(root, "--demo", LESSON, *args)
    assert run.returncode == 0, run.stderr[-3000:]
    out = root / ".grading" / "demo"
    pages = {p.parent.parent.name: page_text(p) for p in out.glob(f"feedback/*/*/{LESSON}.html")}
    return rows(out), pages


@pytest.mark.timeout(600)
def test_the_demo_class_grades_the_same_on_two_dask_workers(course):
    local_rows, local_pages = graded_demo(course)
    cluster_rows, cluster_pages = graded_demo(course, "--cluster", "local:2")
    report = (course / ".grading" / "demo" / "grading_report.txt").read_text()
    assert "workers: 2 on the Dask cluster local:2" in report
    kept = ("student_id", "assignment", "raw_score", "score", "status")
    assert [{k: r[k] for k in kept} for r in cluster_rows] == [
        {k: r[k] for k in kept} for r in local_rows
    ]
    assert {r["student_id"] for r in local_rows} >= {"complete", "blank", "partial"}
    assert sorted(cluster_pages) == sorted(local_pages) and local_pages
    for student, text in local_pages.items():
        assert cluster_pages[student] == text, f"{student}'s feedback differs"


@pytest.mark.timeout(120)
def test_an_unreachable_cluster_is_said_in_one_line(course, tmp_path):
    import socket

    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [
        sys.executable, "-m", "classroom.grade", "--root", str(course), "--quiet",
        "--submitted", str(tmp_path), LESSON, "--cluster", f"tcp://127.0.0.1:{port}",
    ]  # fmt: skip
    environment = {**os.environ, "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "3s"}
    (tmp_path / "ana" / LESSON).mkdir(parents=True)
    run = subprocess.run(
        command, cwd=REPO_ROOT, capture_output=True, text=True, env=environment, timeout=100
    )
    errors = [line for line in run.stderr.splitlines() if line.startswith("error:")]
    assert run.returncode == 1 and len(errors) == 1, run.stderr[-2000:]
    assert f"the Dask cluster tcp://127.0.0.1:{port} is not reachable" in errors[0]
    assert "Traceback" not in run.stderr


@pytest.mark.timeout(300)
def test_daemonic_workers_are_refused_in_one_line(course, tmp_path):
    """Dask's default workers are daemonic processes, which cannot start the grading
    processes: the run stops at once and says how to start them."""
    from distributed import LocalCluster

    (tmp_path / "ana" / LESSON).mkdir(parents=True)
    shutil.copyfile(
        course / "release" / LESSON / f"{LESSON}.ipynb", tmp_path / "ana" / LESSON / "a.ipynb"
    )
    with LocalCluster(n_workers=1, threads_per_worker=1, dashboard_address=None) as local:
        command = [
            sys.executable, "-m", "classroom.grade", "--root", str(course), "--quiet",
            "--submitted", str(tmp_path), LESSON, "--cluster", local.scheduler_address,
        ]  # fmt: skip
        run = subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True, timeout=250)
    errors = [line for line in run.stderr.splitlines() if line.startswith("error:")]
    assert run.returncode == 1 and len(errors) == 1, run.stderr[-2000:]
    assert "DASK_DISTRIBUTED__WORKER__DAEMON=False" in errors[0]


PEEK = """
import glob as _glob
_found = _glob.glob("/tmp/**/cases-secret", recursive=True, include_hidden=True)
_found += _glob.glob("/tmp/**/classroom-grading-*", recursive=True, include_hidden=True)
print("PEEKED", sorted(_found))
"""


@pytest.mark.timeout(300)
def test_a_submission_on_a_cluster_worker_sees_nothing_of_the_course(course, tmp_path):
    """The course a worker unpacks (hidden tests, the cases' secret) lies in the worker's
    folder in /tmp; learners' code, sandboxed, finds none of it there (unsandboxed, it
    finds both)."""
    from classroom.nbgrader_ext import notebooks

    demo = course / ".grading" / "demo" / "submitted"
    if not demo.is_dir():
        graded_demo(course)
    nb = notebooks.read(demo / "complete" / LESSON / f"{LESSON}.ipynb")
    next(iter(notebooks.answer_cells(nb).values())).source += PEEK
    notebooks.write(nb, tmp_path / "submitted" / "peeker" / LESSON / f"{LESSON}.ipynb")
    own = new_course(tmp_path / "course")  # the shared course's gradebook stays the class's
    run = run_grade(own, "--submitted", str(tmp_path / "submitted"), LESSON, "--cluster", "local:1")
    assert run.returncode == 0, run.stderr[-3000:]
    graded = (own / "autograded" / "peeker" / LESSON / f"{LESSON}.ipynb").read_text()
    assert "PEEKED []" in graded, re.findall(r"PEEKED[^\\]*", graded)


# --------------------------------------------------------------------------------------------
# A worker killed in the middle


def class_of(course: Path, count: int) -> Path:
    """A submitted/ tree of `count` students handing in the demo's complete or partial
    notebook (the demo class must have been graded in `course`)."""
    demo = course / ".grading" / "demo" / "submitted"
    tree = course / "big-class"
    shutil.rmtree(tree, ignore_errors=True)
    for number in range(count):
        model = "complete" if number % 2 else "partial"
        shutil.copytree(demo / model / LESSON, tree / f"s{number:02d}" / LESSON)
    return tree


def signal_a_busy_worker(client, grading: subprocess.Popen, sign: int) -> int:
    """Send `sign` to a worker process once it has been grading a submission for a second,
    while the command still runs; the worker's pid."""
    pids = client.run(os.getpid)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        busy = [address for address, keys in client.processing().items() if keys]
        if busy and grading.poll() is None:
            time.sleep(1.0)
            os.kill(pids[busy[0]], sign)
            return pids[busy[0]]
        time.sleep(0.1)
    raise AssertionError("no worker was ever busy grading")


def graded_with_a_worker_signalled(course: Path, sign: int, settings: dict):
    """The class graded on a LocalCluster of two workers (Dask `settings`), one of them sent
    `sign` in the middle: the finished command (a CompletedProcess), and the actions the
    scheduler logged meanwhile."""
    import dask
    from distributed import Client, LocalCluster

    if not (course / ".grading" / "demo" / "submitted").is_dir():
        graded_demo(course)
    tree = class_of(course, CLASS_SIZE)
    with dask.config.set({cluster.DAEMON_SETTING: False, **settings}):
        with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as local:
            with Client(local) as client:
                command = [
                    sys.executable, "-m", "classroom.grade", "--root", str(course), "--quiet",
                    "--submitted", str(tree), LESSON, "--cluster", local.scheduler_address,
                ]  # fmt: skip
                grading = subprocess.Popen(
                    command, cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                    text=True,
                )  # fmt: skip
                pid = signal_a_busy_worker(client, grading, sign)
                try:
                    out, err = grading.communicate(timeout=600)
                    events = client.get_events("scheduler")
                finally:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)  # a stopped worker cannot close itself
    actions = [event.get("action") for _, event in events if isinstance(event, dict)]
    return subprocess.CompletedProcess(command, grading.returncode, out, err), actions


def assert_each_student_once(course: Path, grading: subprocess.CompletedProcess) -> None:
    """Every student of the class in grades.csv and the journal, each once, fully graded."""
    assert grading.returncode == 0, grading.stderr[-3000:]
    graded = [r for r in rows(course) if r["assignment"] == LESSON]
    students = sorted(r["student_id"] for r in graded)
    assert students == [f"s{n:02d}" for n in range(CLASS_SIZE)], "a student lost or twice"
    journal = state.Journal(course, state.course_key(course)).path.read_text().splitlines()
    entries = [json.loads(line)["result"] for line in journal]
    recorded = sorted(e["student"] for e in entries if e["lesson"] == LESSON)
    assert recorded == students, "the journal has a student recorded twice, or none"
    for row in graded:
        full = row["student_id"] in {f"s{n:02d}" for n in range(1, CLASS_SIZE, 2)}
        assert row["status"] == "graded", row
        assert (float(row["score"]) == float(row["max_score"])) == full, row


CLASS_SIZE = 14


@pytest.mark.timeout(900)
def test_a_worker_killed_mid_run_loses_nothing_and_records_once(course):
    grading, _ = graded_with_a_worker_signalled(course, signal.SIGKILL, {})
    assert_each_student_once(course, grading)


@pytest.mark.timeout(900)
def test_a_hung_worker_is_replaced_and_its_submissions_graded_elsewhere(tmp_path, course):
    """A worker that stops answering (SIGSTOP: alive, silent) is restarted by the scheduler
    once it misses its heartbeats for distributed.scheduler.worker-ttl (5 minutes by
    default, 5 s here); what it held is graded elsewhere, each student recorded once."""
    own = new_course(tmp_path / "course")  # a gradebook of its own: the class again
    if (course / ".grading" / "demo").is_dir():  # the demo's notebooks, graded already
        shutil.copytree(course / ".grading" / "demo", own / ".grading" / "demo")
    grading, actions = graded_with_a_worker_signalled(
        own, signal.SIGSTOP, {"distributed.scheduler.worker-ttl": "5s"}
    )
    assert "worker-ttl-timed-out" in actions, actions  # the run waited for the hung worker
    assert_each_student_once(own, grading)
