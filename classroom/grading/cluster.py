"""Grading on a Dask cluster (`python -m classroom.grade --cluster ...`).

The command's machine keeps the one recorder (`run.Recorder`: the gradebook, grades.csv, the
feedback files, the reports); the grading happens on Dask workers, which may be other
machines with no folder in common with it. What crosses the network is bytes:

- the run's course (the staging folder's nbgrader_config.py, gradebook template, source/ and
  release/, and the hidden cases' secret) once per worker, in the worker plugin;
- each submission as a parcel (`pack_job`: the job's facts and its files), one Dask task each;
- each result as a parcel (`pack_result`: the result and its autograded/ and feedback/
  folders).

Every parcel is sealed with the course key (HMAC-SHA256 of the whole parcel): a result that
does not open is not recorded, and the recorder says so in one line. Results are opened (seal
checked, files written) by an `Opener`'s threads, so the recorder's thread only records.

On each worker, `GradingPlugin` keeps one `pool.Pool` (grading processes with their warm
sandbox zygotes) for the worker's life in this run, as many processes as the worker has
threads, so a worker grades as many submissions at once as it has cores. A worker that dies
has its tasks run again elsewhere by Dask's scheduler; the recorder records a submission once
whatever happens (`ClusterGraders.run` keeps the keys it has recorded).

`ClusterGraders` has the local pool's interface (`size`, `run`, `stop`, `close`), so the run
(`run.grade_class`) does not know where its submissions are graded.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import hmac
import io
import json
import multiprocessing
import os
import queue
import shutil
import tarfile
import threading
import time
import uuid
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

from distributed import WorkerPlugin

from classroom.grading import pool
from classroom.grading.plan import GraderSetup
from classroom.grading.results import NEEDS_HUMAN, Job, Result, failure
from classroom.grading.staging import GradeError
from classroom.grading.submissions import MAX_EXTRA_FILE
from classroom.nbgrader_ext.verdicts import cases

LOCAL = "local:"  # --cluster local:N starts a LocalCluster of N worker processes here
# What of the staging folder a worker needs to grade (the rest is the run's own output).
COURSE_PARTS = ("nbgrader_config.py", "gradebook.db", "source", "release")
DAEMON_SETTING = "distributed.worker.daemon"  # workers start grading processes of their own


class ClusterUnavailable(GradeError):
    """The cluster could not be reached or started (one line)."""


class BrokenParcel(ValueError):
    """A parcel whose seal does not hold (altered on its way, or another course's key)."""


# --------------------------------------------------------------------------------------------
# Parcels: bytes sealed with the course key


def seal(key: bytes, body: bytes) -> bytes:
    """body with its HMAC-SHA256 (32 bytes) in front."""
    return hmac.new(key, body, hashlib.sha256).digest() + body


def opened(key: bytes, parcel: bytes) -> bytes:
    """The body of a sealed parcel; BrokenParcel when its seal does not hold."""
    digest, body = parcel[:32], parcel[32:]
    if not hmac.compare_digest(digest, hmac.new(key, body, hashlib.sha256).digest()):
        raise BrokenParcel("its seal does not match the course key")
    return body


def _bundle(facts: dict, files: dict[str, Path]) -> bytes:
    """facts (JSON) and files {name in the parcel: path, a file or a folder} as bytes."""
    buffer = io.BytesIO()
    head = json.dumps(facts).encode()
    buffer.write(len(head).to_bytes(4, "big") + head)
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for name, path in files.items():
            tar.add(path, arcname=name)
    return buffer.getvalue()


def _unbundle(body: bytes, folder: Path) -> dict:
    """The facts of a bundle, its files written under folder."""
    size = int.from_bytes(body[:4], "big")
    facts = json.loads(body[4 : 4 + size])
    folder.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(body[4 + size :]), mode="r") as tar:
        tar.extractall(folder, filter="data")  # no path leaves folder, no device files
    return facts


def pack_job(key: bytes, job: Job) -> bytes:
    """A submission as a sealed parcel: the job and the files handed in, each named as the
    worker will see it (relative to the job's base folder when it lies there)."""
    base = Path(job.base) if job.base else None
    names: dict[str, Path] = {}
    for file in map(Path, job.files):
        notebook = file.name.lower().endswith(".ipynb")
        if not file.is_file() or (not notebook and file.stat().st_size > MAX_EXTRA_FILE):
            continue
        inside = base is not None and file.is_relative_to(base)
        name = str(file.relative_to(base)) if inside else file.name
        names[name if name not in names else f"{len(names)}-{file.name}"] = file
    facts = {**job.as_dict(), "files": list(names)}
    return seal(key, _bundle(facts, names))


def unpack_job(key: bytes, parcel: bytes, folder: Path) -> Job:
    """The job of a parcel, its files written under folder (the job's new base)."""
    facts = _unbundle(opened(key, parcel), folder)
    job = Job.from_dict(facts)
    job.files = [str(folder / name) for name in facts["files"]]
    job.base = str(folder)
    return job


def pack_result(key: bytes, result: Result) -> bytes:
    """A result as a sealed parcel, with the autograded folder and the feedback folder the
    worker left (their paths travel as the parcel's names)."""
    files = {}
    if result.autograded and Path(result.autograded).is_dir():
        files["autograded"] = Path(result.autograded)
    if result.feedback and Path(result.feedback).is_file():
        files["feedback"] = Path(result.feedback).parent
    facts = result.as_dict()
    facts["feedback_page"] = Path(result.feedback).name if "feedback" in files else None
    return seal(key, _bundle(facts, files))


def unpack_result(key: bytes, parcel: bytes, folder: Path) -> Result:
    """The result of a parcel, its folders written under folder (where the recorder moves
    them from); BrokenParcel when its seal does not hold."""
    facts = _unbundle(opened(key, parcel), folder)
    page = facts.pop("feedback_page", None)
    result = Result.from_dict(facts)
    autograded = folder / "autograded"
    result.autograded = str(autograded) if autograded.is_dir() else None
    result.feedback = str(folder / "feedback" / page) if page else None
    return result


def course_parcel(key: bytes, staging: Path, root: Path) -> bytes:
    """The run's course as a sealed parcel: what a worker grades with (COURSE_PARTS of the
    staging folder) and the course's hidden-case secret, at the same place in it."""
    files = {part: staging / part for part in COURSE_PARTS if (staging / part).exists()}
    secret = cases.secret_path(root)
    cases.secret(secret)  # made now if this course never drew hidden cases
    files[str(secret.relative_to(root))] = secret
    return seal(key, _bundle({}, files))


# --------------------------------------------------------------------------------------------
# On each worker


class GradingPlugin(WorkerPlugin):
    """A Dask worker's part of one run: the course unpacked into the worker's own folder and
    one `pool.Pool` (as many grading processes as the worker has threads, each with its warm
    sandbox zygotes), fed by the run's tasks (`grade_on_worker`) until the run unregisters
    the plugin or the worker ends."""

    def __init__(self, name: str, setup: GraderSetup, course: bytes, hard_limit: float):
        self.name = name
        self.grader_setup, self.course, self.hard_limit = setup, course, hard_limit

    def setup(self, worker) -> None:
        """Unpack the course and start the pool; on a worker where the sandbox cannot
        start, raise (the run then stops, saying which worker and why)."""
        if self.grader_setup.sandboxed:
            from classroom.isolation import sandbox

            try:
                sandbox.require()
            except sandbox.SandboxUnavailable as exc:
                raise RuntimeError(f"worker {worker.address}: {exc}") from None
        if multiprocessing.current_process().daemon:
            raise RuntimeError(
                f"worker {worker.address} is a daemonic process, which cannot start grading "
                "processes: start the workers with DASK_DISTRIBUTED__WORKER__DAEMON=False"
            )
        key = bytes.fromhex(self.grader_setup.key)
        self.folder = Path(worker.local_directory) / self.name
        course = self.folder / "course"
        _unbundle(opened(key, self.course), course)
        self.course = b""
        setup = replace(self.grader_setup, staging=course, root=course)  # this worker's own
        self.pool = pool.Pool(setup, worker.state.nthreads)
        self.inbox, self.stopped = queue.Queue(), threading.Event()
        self.waiting: dict[int, Future] = {}
        self.lock = threading.Lock()
        self.broken: BaseException | None = None
        self.thread = threading.Thread(target=self._serve, name="grading-pool", daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        """The pool's loop; should it fail (its processes could not start), every waiting
        submission and every later one fails with that reason rather than wait for ever."""
        try:
            self.pool.serve(self.inbox, self._done, self.hard_limit, self.stopped)
        except BaseException as exc:  # noqa: BLE001 - handed to the tasks
            with self.lock:
                self.broken, waiting, self.waiting = exc, self.waiting, {}
            for future in waiting.values():
                future.set_exception(exc)

    def _done(self, result: Result) -> None:
        with self.lock:
            future = self.waiting.pop(result.id, None)
        if future is not None:
            future.set_result(result)

    def grade(self, parcel: bytes) -> bytes:
        """One submission's parcel graded by this worker's pool: its result's parcel."""
        key = bytes.fromhex(self.grader_setup.key)
        incoming = self.folder / "incoming" / uuid.uuid4().hex
        job = unpack_job(key, parcel, incoming)
        future: Future = Future()
        with self.lock:
            if self.broken is not None:
                raise RuntimeError(f"this worker's grading pool stopped: {self.broken}")
            self.waiting[job.id] = future
        self.inbox.put(job)
        result = future.result()
        try:
            return pack_result(key, result)
        finally:  # nothing of a graded submission stays on the worker
            course = self.folder / "course"
            for part in ("submitted", "autograded", "feedback"):
                shutil.rmtree(course / part / job.student / job.lesson, ignore_errors=True)
            shutil.rmtree(incoming, ignore_errors=True)

    def teardown(self, worker) -> None:
        self.stopped.set()
        self.thread.join(10)
        self.pool.close()
        shutil.rmtree(self.folder, ignore_errors=True)


def grade_on_worker(parcel: bytes, plugin: str) -> bytes:
    """The Dask task: one sealed submission graded by this worker's GradingPlugin `plugin`."""
    from distributed import get_worker

    return get_worker().plugins[plugin].grade(parcel)


# --------------------------------------------------------------------------------------------
# On the command's machine


def one_line(exc: BaseException) -> str:
    """An exception's first line, at most 300 characters."""
    return ((str(exc).strip().splitlines() or [type(exc).__name__])[0])[:300]


def check_where(where: str) -> str | None:
    """What is wrong with a --cluster value, in one line (None: nothing)."""
    if where.startswith(LOCAL):
        count = where[len(LOCAL) :]
        if not count.isdigit() or int(count) < 1:
            return f"--cluster {where}: local:N needs a number of worker processes, e.g. local:2"
        return None
    if where.endswith(".json"):
        return None if Path(where).is_file() else f"--cluster {where}: no such scheduler file"
    if "://" in where or where.rpartition(":")[2].isdigit():
        return None
    return (
        f"--cluster {where}: give a scheduler address (tcp://HOST:PORT), a scheduler file "
        "(.json) or local:N"
    )


class Window:
    """How many submissions may be in flight: four per worker thread, the workers counted
    again every `EVERY` seconds (a batch system's workers join while the run goes on)."""

    EVERY = 5.0  # seconds
    PER_THREAD = 4

    def __init__(self, client):
        self.client, self._size, self._counted = client, 0, -self.EVERY

    def size(self) -> int:
        now = time.monotonic()
        if now - self._counted >= self.EVERY:
            threads = sum(self.client.nthreads().values())
            self._size, self._counted = self.PER_THREAD * max(1, threads), now
        return self._size


class Opener:
    """Results opened beside the one recorder: `THREADS` threads each take a finished task
    (or a parcel), fetch its bytes, check the seal and write its files (`open_one(item, job)
    -> Result`), and queue it; the recorder's thread only records. Opening a lesson-01 result
    costs about 2.7 ms, nearly all of it making folders and files (measured with cProfile on
    `unpack_result`), which on the recorder's thread was most of its cost a result."""

    THREADS = 2

    def __init__(self, open_one):
        self._open_one = open_one
        self._threads = ThreadPoolExecutor(self.THREADS, thread_name_prefix="open-result")
        self._opened: queue.SimpleQueue = queue.SimpleQueue()

    def add(self, item, job: Job) -> None:
        """Open item as job's result, in one of the threads (from any thread)."""
        with contextlib.suppress(RuntimeError):  # the run has ended: nothing records it now
            self._threads.submit(self._open, item, job)

    def _open(self, item, job: Job) -> None:
        try:
            result = self._open_one(item, job)
        except BaseException as exc:  # noqa: BLE001 - the job's failure, never lost
            result = failure(job, NEEDS_HUMAN, f"its result could not be opened: {one_line(exc)}")
        self._opened.put((job, result))

    def next(self, timeout: float) -> tuple[Job, Result] | None:
        """The next opened (job, result), or None when none comes within timeout seconds."""
        try:
            return self._opened.get(timeout=timeout)
        except queue.Empty:
            return None

    def __enter__(self) -> Opener:
        return self

    def __exit__(self, *exc) -> None:
        self._threads.shutdown(wait=True, cancel_futures=True)


class ClusterGraders:
    """The run's graders on a Dask cluster, with the local pool's interface (`size`, `run`,
    `stop`, `close`). It connects (or starts local:N) in the background, beside the
    command's own start; `run` sends the course to every worker, then the submissions, a
    window at a time, and hands each result to on_result in this process as it arrives."""

    WORKER_WAIT = 600  # seconds to wait for a first worker (a batch system may queue the job)

    def __init__(self, where: str, setup: GraderSetup):
        self.where, self.setup = where, setup
        self.key = bytes.fromhex(setup.key)
        self.name = f"classroom-grading-{uuid.uuid4().hex[:12]}"
        self._client = self._cluster = self._error = None
        self._registered = False
        self._starting = threading.Thread(target=self._connect, name="cluster", daemon=True)
        self._starting.start()

    def _connect(self) -> None:
        import dask
        from distributed import Client, LocalCluster

        try:
            dask.config.set({DAEMON_SETTING: False})
            if self.where.startswith(LOCAL):
                count = int(self.where[len(LOCAL) :])
                self._cluster = LocalCluster(
                    n_workers=count,
                    threads_per_worker=max(1, (os.cpu_count() or 1) // count),
                    processes=True,
                    dashboard_address=None,
                )
                self._client = Client(self._cluster)
            elif self.where.endswith(".json"):
                self._client = Client(scheduler_file=self.where)
            else:  # both wait distributed.comm.timeouts.connect (30 s) for the scheduler
                self._client = Client(self.where)
        except Exception as exc:  # noqa: BLE001 - said in one line where the client is used
            self._error = exc

    @property
    def client(self):
        """The connected client (waits for it); ClusterUnavailable in one line."""
        self._starting.join()
        if self._client is None:
            why = one_line(self._error) if self._error else "no client"
            raise ClusterUnavailable(f"the Dask cluster {self.where} is not reachable: {why}")
        return self._client

    @property
    def size(self) -> int:
        """Submissions graded at once: the threads of the cluster's workers (waits for a
        first worker up to WORKER_WAIT seconds)."""
        client = self.client
        if not client.nthreads():
            print(f"waiting for the Dask cluster's workers ({self.where})", flush=True)
            try:
                client.wait_for_workers(1, timeout=self.WORKER_WAIT)
            except TimeoutError:
                raise ClusterUnavailable(
                    f"the Dask cluster {self.where} has no worker after {self.WORKER_WAIT} s"
                ) from None
        return sum(client.nthreads().values())

    def run(self, jobs: list[Job], on_result, hard_limit: float, tick=None) -> None:
        """Grade every job on the cluster; on_result(result) for each, in this process, once.
        At most a `Window` of submissions is in flight, so a class of any size is never all
        in memory at once; results are opened beside this thread (`Opener`), which only
        records them."""
        client = self.client
        self._register(hard_limit)
        waiting, flying, recorded = list(reversed(jobs)), {}, set()
        window = Window(client)
        with Opener(self._result) as opener:

            def send() -> None:
                while waiting and len(flying) < window.size():
                    job = waiting.pop()
                    parcel = pack_job(self.key, job)
                    future = client.submit(
                        grade_on_worker, parcel, self.name, key=f"{self.name}-{job.id}", pure=False
                    )
                    flying[job.id] = future  # held: a future no one holds is cancelled
                    future.add_done_callback(functools.partial(opener.add, job=job))

            send()
            while flying:
                opened = opener.next(timeout=1.0)
                if opened is not None:
                    job, result = opened
                    flying.pop(job.id, None)
                    if result.key not in recorded:  # once, whatever the cluster did
                        recorded.add(result.key)
                        on_result(result)
                    send()
                if tick is not None:
                    tick()

    def _register(self, hard_limit: float) -> None:
        """The run's course and pool on every worker (GradingPlugin); ClusterUnavailable in
        one line when a worker cannot take it."""
        course = course_parcel(self.key, Path(self.setup.staging), Path(self.setup.root))
        plugin = GradingPlugin(self.name, self.setup, course, hard_limit)
        try:
            self.client.register_plugin(plugin, name=self.name)
        except Exception as exc:  # noqa: BLE001 - a worker that cannot grade stops the run
            with contextlib.suppress(Exception):  # the workers that took it let it go
                self.client.unregister_worker_plugin(self.name)
            why = one_line(exc)
            if "No module named 'classroom'" in why:
                why += ": start the workers in the course directory, or with PYTHONPATH set to it"
            raise ClusterUnavailable(f"a Dask worker cannot grade: {why}") from None
        self._registered = True

    def _result(self, future, job: Job) -> Result:
        """The job's result from its finished task, or a failure saying in one line why
        there is none (the cluster gave up on it, or its parcel did not open)."""
        try:
            parcel = future.result()
        except Exception as exc:  # noqa: BLE001 - KilledWorker, or the worker's own error
            return failure(job, NEEDS_HUMAN, f"the cluster could not grade it: {one_line(exc)}")
        finally:
            future.release()
        folder = Path(self.setup.staging) / "arrived" / str(job.id)
        try:
            result = unpack_result(self.key, parcel, folder)
        except (BrokenParcel, ValueError, tarfile.TarError):
            why = "its result failed the grader's integrity check, so it was not recorded"
            return failure(job, NEEDS_HUMAN, why)
        if result.key != (job.lesson, job.student):
            return failure(job, NEEDS_HUMAN, f"the cluster returned {result.key} for it")
        return result

    def stop(self) -> None:
        """The workers' pools stopped (the plugin unregistered); the cluster stays."""
        if self._registered:
            self._registered = False
            try:
                self.client.unregister_worker_plugin(self.name)
            except Exception as exc:  # noqa: BLE001 - a worker gone already: said, not raised
                print(f"note: the cluster's workers did not all stop cleanly: {exc}")

    def close(self) -> None:
        """Stop, disconnect, and close the local cluster this run started (never another)."""
        self._starting.join()
        if self._client is not None:
            self.stop()
            self._client.close()
        if self._cluster is not None:
            self._cluster.close()
