"""The worker's handling of its own failures: a kernel that did not start is graded once more
and said so; any other failure is one NOT GRADED row whose reason is nbgrader's error line."""

from __future__ import annotations

from classroom.grading import worker
from classroom.grading.plan import GraderSetup
from classroom.grading.results import NEEDS_HUMAN, Job


def setup_in(folder) -> GraderSetup:
    """A grading process's setup with its staging course and course in `folder`."""
    return GraderSetup(
        staging=folder, root=folder, key="00", notebook_timeout=60, max_output_chars=1000
    )


def _worker(tmp_path, attempts):
    """A worker whose grading step is `attempts`, called in turn (each logs, then raises or
    returns)."""
    grader = worker.Worker(setup_in(tmp_path), index=0)
    calls = iter(attempts)

    def fake_grade(job, result):
        next(calls)(grader.log, result)

    grader._grade = fake_grade
    return grader


def _job():
    return Job(id=1, lesson="01-world-as-text", student="ada", files=[], cell_timeout=30)


def _kernel_did_not_start(log, result):
    log.error("Error occurred while starting new kernel client: Kernel didn't respond in 60 s")
    raise RuntimeError("Please see the the above traceback")


def _graded(log, result):
    result.status = "graded"


def _broken(log, result):
    log.error("There was an error processing assignment: no such cell")
    raise RuntimeError("Please see the the above traceback")


def test_kernel_that_did_not_start_is_graded_again_and_noted(tmp_path):
    result = _worker(tmp_path, [_kernel_did_not_start, _graded]).grade(_job())
    assert result.status == "graded"
    retried = [note for note in result.notes if note.kind == "retried"]
    assert len(retried) == 1 and "Kernel didn't respond" in retried[0].text


def test_kernel_that_never_starts_is_not_graded_with_the_reason(tmp_path):
    attempts = [_kernel_did_not_start, _kernel_did_not_start]
    result = _worker(tmp_path, attempts).grade(_job())
    assert result.status == NEEDS_HUMAN
    assert "Kernel didn't respond" in result.reason


def test_other_failures_are_not_retried_and_name_nbgrader_s_error(tmp_path):
    result = _worker(tmp_path, [_broken, _graded]).grade(_job())
    assert result.status == NEEDS_HUMAN
    assert "no such cell" in result.reason and "above traceback" not in result.reason


def test_a_worker_takes_the_environment_the_pool_saw_not_the_fork_server_s(monkeypatch):
    """A worker forked from the fork server starts with the server's environment, read when
    the server started (in a long-lived parent, long ago); it takes the pool's instead, as a
    spawned worker would have."""
    import os
    import sys
    import types

    from classroom.grading import pool

    monkeypatch.setattr(os, "environ", {"SET_LATER": "the parent's"})
    setup = pool.with_environment(setup_in("course"))
    os.environ.clear()
    os.environ["STALE"] = "the fork server's"
    seen = {}
    fake = types.SimpleNamespace(main=lambda conn, setup, index: seen.update(os.environ))
    monkeypatch.setitem(sys.modules, "fake_worker_module", fake)
    monkeypatch.setattr(pool, "WORKER_MODULE", "fake_worker_module")
    pool._worker_entry(None, setup, 0)
    assert seen == {"SET_LATER": "the parent's"}


def test_workers_start_from_a_fork_server_that_preloads_the_worker_module():
    import multiprocessing

    from classroom.grading import pool

    context = pool.start_context()
    if "forkserver" in multiprocessing.get_all_start_methods():
        assert context.get_start_method() == "forkserver"
        assert pool.WORKER_MODULE == worker.__name__
    else:
        assert context.get_start_method() == "spawn"
