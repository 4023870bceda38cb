"""Worker processes for grading in parallel, with a hard time limit per submission.

Each worker (`worker.main`) runs in its own process group and reports the kernels it starts.
A submission that outlives its hard limit (the notebook limit plus a margin) has its worker
and kernels killed and ends as a result with the reason; a worker that dies is replaced and
its submission tried once more. Results are handed to `on_result` one at a time, in the
parent, which is what keeps the gradebook's writes serialized.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import signal
import threading
import time
from collections import deque
from dataclasses import replace
from multiprocessing.connection import wait

from classroom.grading import state
from classroom.grading.plan import GraderSetup
from classroom.grading.results import NEEDS_HUMAN, Job, Result, failure

START_LIMIT = 300  # seconds a worker may take to start (imports, first gradebook copy)


def _kill_group(pid: int) -> None:
    try:
        if hasattr(os, "killpg"):
            os.killpg(pid, signal.SIGKILL)
        else:
            os.kill(pid, signal.SIGTERM)
    except (ProcessLookupError, PermissionError, OSError):
        pass


WORKER_MODULE = "classroom.grading.worker"


def start_context():
    """How workers start. Where there is a fork server (Linux), from it: the server imports
    the worker module (nbgrader, nbconvert, the course's preprocessors: about 0.85 s of CPU)
    once and forks every worker from that, where spawn would have each worker import it on
    its own. The parent never loads it for the workers: it starts them before it needs
    nbgrader itself, so their start overlaps its reading the input and generating lessons.
    Elsewhere, spawn."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([WORKER_MODULE])
    return context


def with_environment(setup: GraderSetup) -> GraderSetup:
    """The workers' setup with this process's environment now, for `_worker_entry`."""
    return replace(setup, environ=dict(os.environ))


def _worker_entry(conn, setup: GraderSetup, index: int, lifeline=None) -> None:
    """The child's entry point. A forked worker has the fork server's environment, read
    when that server started (for a long-lived parent, long ago): it takes the parent's, as
    a spawned one would have. It dies as soon as the parent does (`die_with`)."""
    import importlib

    if lifeline is not None:
        die_with(lifeline)
    if setup.environ is not None:
        os.environ.clear()
        os.environ.update(setup.environ)
    importlib.import_module(WORKER_MODULE).main(conn, setup, index)


def die_with(lifeline) -> None:
    """Kill this worker (and its process group, once it has its own) when `lifeline`, the
    read end of a pipe only the parent can write to, reaches its end: the parent has died,
    even by SIGKILL. A forked worker's parent is the fork server, which outlives the grading
    process by up to a second, so the kernel's parent-death signal alone would let a killed
    run's workers go on grading."""

    def watch() -> None:
        try:
            lifeline.recv_bytes()
        except (EOFError, OSError):
            pass
        me = os.getpid()
        if os.getpgid(0) == me:  # its own group (worker.main's setsid): what it started too
            os.killpg(me, signal.SIGKILL)
        os.kill(me, signal.SIGKILL)

    threading.Thread(target=watch, name="die-with-parent", daemon=True).start()


class _Proc:
    def __init__(self, ctx, setup: GraderSetup, index: int):
        self.index = index
        self.conn, child = ctx.Pipe()
        lifeline, self._lifeline = ctx.Pipe(duplex=False)  # the parent never writes to it
        self.process = ctx.Process(
            target=_worker_entry, args=(child, setup, index, lifeline), daemon=True
        )
        self.process.start()
        child.close()
        lifeline.close()
        self.job: Job | None = None
        self.assigned: float | None = None
        self.started: float | None = None
        self.kernels: set[int] = set()
        self.stopping = False

    def kill(self) -> None:
        for pid in self.kernels:
            _kill_group(pid)
        if self.process.pid:
            _kill_group(self.process.pid)
        self.process.join(5)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(5)
        self.conn.close()
        self._lifeline.close()


class Pool:
    """`workers` grading processes, started at once so that they load nbgrader while the
    parent prepares the lessons; `run` hands them jobs, `close` stops them."""

    def __init__(self, setup: GraderSetup, workers: int):
        self.ctx = start_context()
        self.setup = with_environment(setup)
        self.key = bytes.fromhex(setup.key)
        self.size = max(1, workers)
        self._procs: list[_Proc] = []
        self._start_error: BaseException | None = None
        # A fork server's first start waits for its preload (seconds of CPU): the workers
        # are started beside this process's own work rather than before it.
        self._starting = threading.Thread(target=self._start, name="start-workers", daemon=True)
        self._starting.start()

    def _start(self) -> None:
        try:
            for index in range(self.size):
                self._procs.append(_Proc(self.ctx, self.setup, index))
        except BaseException as exc:  # noqa: BLE001 - raised where the workers are used
            self._start_error = exc

    @property
    def procs(self) -> list[_Proc]:
        """The workers, once started (waits for them)."""
        self._starting.join()
        if self._start_error is not None:
            raise RuntimeError(f"the grading workers did not start: {self._start_error}")
        return self._procs

    def run(self, jobs: list[Job], on_result, hard_limit: float, tick=None) -> None:
        """Grade every job; call on_result(result) for each, in this process, one at a time.
        Returns when every job has a result."""
        self._pending, self._attempts = deque(jobs), {}
        remaining = len(jobs)
        while remaining:
            remaining -= self._step(on_result, hard_limit, 1.0)
            if tick is not None:
                tick()

    def serve(self, inbox: queue.Queue, on_result, hard_limit: float, stopped) -> None:
        """Grade the jobs put into `inbox` as they come, calling on_result(result) for each
        in this thread, until the threading.Event `stopped` is set (what is running then is
        left to `close`). A long-lived pool's loop: a cluster worker's (`cluster.py`)."""
        self._pending, self._attempts = deque(), {}
        while not stopped.is_set():
            while True:
                try:
                    self._pending.append(inbox.get_nowait())
                except queue.Empty:
                    break
            self._step(on_result, hard_limit, 0.2)

    def _step(self, on_result, hard_limit: float, timeout: float) -> int:
        """Hand out what waits, wait up to `timeout` seconds, settle the workers: how many
        jobs got their result."""
        self._hand_out()
        busy = [p for p in self.procs if p.job is not None]
        waitables = [p.conn for p in busy] + [p.process.sentinel for p in busy]
        if not waitables:
            time.sleep(timeout if not self._pending else 0)
            return 0
        ready = wait(waitables, timeout=timeout)
        done = 0
        for index, proc in enumerate(self.procs):
            if proc.job is not None:
                result = self._settle(index, proc, ready, hard_limit)
                if result is not None:
                    done += 1
                    on_result(result)
        return done

    def _hand_out(self) -> None:
        for proc in self.procs:
            if proc.job is None and self._pending:
                proc.job = self._pending.popleft()
                proc.assigned, proc.started = time.monotonic(), None
                self._attempts[proc.job.id] = self._attempts.get(proc.job.id, 0) + 1
                proc.conn.send(proc.job.as_dict())

    def _checked(self, proc: _Proc, data: dict) -> Result:
        """The worker's result when its signature holds; else a failure saying so."""
        if state.verified(self.key, data):
            return Result.from_dict(data)
        why = "its result failed the grader's integrity check, so it was not recorded"
        return failure(proc.job, NEEDS_HUMAN, why)

    def _receive(self, proc: _Proc, ready) -> tuple[Result | None, bool]:
        """(the result the worker sent, or None; whether the worker is gone)."""
        if proc.conn in ready:
            try:
                while proc.conn.poll():
                    message = proc.conn.recv()
                    if message["type"] == "kernel":
                        proc.kernels.add(message["pid"])
                    elif message["type"] == "start":
                        proc.started = time.monotonic()
                    elif message["type"] == "done":
                        return self._checked(proc, message["result"]), False
            except (EOFError, OSError):
                return None, True
            return None, False
        if proc.process.sentinel in ready:
            return None, True
        # a worker that never starts its job is as good as gone
        return None, proc.started is None and time.monotonic() - proc.assigned > START_LIMIT

    def _settle(self, index: int, proc: _Proc, ready, hard_limit: float) -> Result | None:
        """The job's result when it has one (a worker's, or a failure), else None (running,
        or handed back to be tried once more)."""
        result, crashed = self._receive(proc, ready)
        if result is not None:
            proc.job = None
            proc.kernels.clear()
            return result
        running = proc.started is not None and time.monotonic() - proc.started <= hard_limit
        if not crashed and (proc.started is None or running):
            return None
        job = proc.job
        proc.kill()
        self.procs[index] = _Proc(self.ctx, self.setup, proc.index)
        if crashed and self._attempts[job.id] < 2:
            self._pending.appendleft(job)
            return None
        if crashed:
            why = f"the grading process stopped (exit code {proc.process.exitcode}) twice on it"
        else:
            why = (
                f"still running after {hard_limit:.0f} s (the notebook limit plus a margin); "
                "the grader stopped it"
            )
        return failure(job, NEEDS_HUMAN, why)

    def stop(self) -> None:
        """Ask every worker to finish (they stop their kernels while the caller goes on)."""
        self._starting.join()  # those that started, even when the others could not
        for proc in self._procs:
            if proc.process.is_alive() and not proc.stopping:
                proc.stopping = True
                try:
                    proc.conn.send(None)
                except (OSError, BrokenPipeError):
                    pass

    def close(self) -> None:
        """Stop the workers and wait for them (killing any that does not end)."""
        self.stop()
        deadline = time.monotonic() + 10
        for proc in self._procs:
            proc.process.join(max(0.1, deadline - time.monotonic()))
            if proc.process.is_alive() or proc.job is not None:
                proc.kill()
            proc._lifeline.close()
