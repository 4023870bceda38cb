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
import signal
import time
from collections import deque
from multiprocessing.connection import wait

START_LIMIT = 300  # seconds a worker may take to start (imports, first gradebook copy)


def _kill_group(pid: int) -> None:
    try:
        if hasattr(os, "killpg"):
            os.killpg(pid, signal.SIGKILL)
        else:
            os.kill(pid, signal.SIGTERM)
    except (ProcessLookupError, PermissionError, OSError):
        pass


def _worker_entry(conn, setup: dict, index: int) -> None:
    """The child's entry point; the worker module (nbgrader, nbformat) is imported there,
    so the parent can start workers before it loads them itself."""
    from course.classroom import worker

    worker.main(conn, setup, index)


class _Proc:
    def __init__(self, ctx, setup: dict, index: int):
        self.index = index
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=_worker_entry, args=(child, setup, index), daemon=True)
        self.process.start()
        child.close()
        self.job: dict | None = None
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


def failure(job: dict, status: str, reason: str) -> dict:
    """A result for a submission that produced none."""
    return {
        "id": job["id"],
        "student": job["student"],
        "lesson": job["lesson"],
        "status": status,
        "reason": reason,
        "notes": list(job.get("notes", [])),
        "grades": [],
        "comments": [],
        "late_penalties": {},
        "timestamp": job.get("timestamp"),
        "autograded": None,
        "feedback": None,
        "seconds": 0.0,
    }


class Pool:
    """`workers` grading processes, started at once so that they load nbgrader while the
    parent prepares the lessons; `run` hands them jobs, `close` stops them."""

    def __init__(self, setup: dict, workers: int):
        self.ctx = multiprocessing.get_context("spawn")
        self.setup = setup
        self.procs = [_Proc(self.ctx, setup, i) for i in range(max(1, workers))]

    def run(self, jobs: list[dict], on_result, hard_limit: float, tick=None) -> None:
        """Grade every job; call on_result(result) for each, in this process, one at a time.
        Returns when every job has a result."""
        pending = deque(jobs)
        attempts: dict = {}
        procs = self.procs
        remaining = len(jobs)
        while remaining:
            for proc in procs:
                if proc.job is None and pending:
                    proc.job = pending.popleft()
                    proc.assigned, proc.started = time.monotonic(), None
                    attempts[proc.job["id"]] = attempts.get(proc.job["id"], 0) + 1
                    proc.conn.send(proc.job)
            busy = [p for p in procs if p.job is not None]
            waitables = [p.conn for p in busy] + [p.process.sentinel for p in busy]
            ready = wait(waitables, timeout=1.0) if waitables else []
            for index, proc in enumerate(procs):
                if proc.job is None:
                    continue
                result, crashed = None, False
                if proc.conn in ready:
                    try:
                        while proc.conn.poll():
                            message = proc.conn.recv()
                            if message["type"] == "kernel":
                                proc.kernels.add(message["pid"])
                            elif message["type"] == "start":
                                proc.started = time.monotonic()
                            elif message["type"] == "done":
                                result = message["result"]
                                break
                    except (EOFError, OSError):
                        crashed = True
                elif proc.process.sentinel in ready:
                    crashed = True
                elif proc.started is None and time.monotonic() - proc.assigned > START_LIMIT:
                    crashed = True  # a worker that never starts its job
                overtime = (
                    result is None
                    and not crashed
                    and proc.started is not None
                    and time.monotonic() - proc.started > hard_limit
                )
                if result is not None:
                    proc.job = None
                    proc.kernels.clear()
                    remaining -= 1
                    on_result(result)
                elif crashed or overtime:
                    job = proc.job
                    proc.kill()
                    procs[index] = _Proc(self.ctx, self.setup, proc.index)
                    if crashed and attempts[job["id"]] < 2:
                        pending.appendleft(job)
                        continue
                    remaining -= 1
                    if overtime:
                        reason = (
                            f"still running after {hard_limit:.0f} s (the notebook limit plus a "
                            "margin); the grader stopped it"
                        )
                    else:
                        reason = (
                            f"the grading process stopped (exit code {proc.process.exitcode}) "
                            "twice on it"
                        )
                    on_result(failure(job, "not graded", reason))
            if tick is not None:
                tick()

    def stop(self) -> None:
        """Ask every worker to finish (they stop their kernels while the caller goes on)."""
        for proc in self.procs:
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
        for proc in self.procs:
            proc.process.join(max(0.1, deadline - time.monotonic()))
            if proc.process.is_alive() or proc.job is not None:
                proc.kill()
