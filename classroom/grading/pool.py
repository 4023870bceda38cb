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

from classroom.grading import state
from classroom.grading.results import NOT_GRADED, Job, Result, failure

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
    from classroom.grading import worker

    worker.main(conn, setup, index)


class _Proc:
    def __init__(self, ctx, setup: dict, index: int):
        self.index = index
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=_worker_entry, args=(child, setup, index), daemon=True)
        self.process.start()
        child.close()
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


class Pool:
    """`workers` grading processes, started at once so that they load nbgrader while the
    parent prepares the lessons; `run` hands them jobs, `close` stops them."""

    def __init__(self, setup: dict, workers: int):
        self.ctx = multiprocessing.get_context("spawn")
        self.setup = setup
        self.key = bytes.fromhex(setup["key"])
        self.procs = [_Proc(self.ctx, setup, i) for i in range(max(1, workers))]

    def run(self, jobs: list[Job], on_result, hard_limit: float, tick=None) -> None:
        """Grade every job; call on_result(result) for each, in this process, one at a time.
        Returns when every job has a result."""
        self._pending, self._attempts = deque(jobs), {}
        remaining = len(jobs)
        while remaining:
            self._hand_out()
            busy = [p for p in self.procs if p.job is not None]
            waitables = [p.conn for p in busy] + [p.process.sentinel for p in busy]
            ready = wait(waitables, timeout=1.0) if waitables else []
            for index, proc in enumerate(self.procs):
                if proc.job is not None:
                    result = self._settle(index, proc, ready, hard_limit)
                    if result is not None:
                        remaining -= 1
                        on_result(result)
            if tick is not None:
                tick()

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
        return failure(proc.job, NOT_GRADED, why)

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
        return failure(job, NOT_GRADED, why)

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
