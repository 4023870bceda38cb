"""Fixtures the lessons' own tests share."""

import pytest

from course import expect


@pytest.fixture
def strict():
    """Checks as the grader runs them (expect.grading) for one test: an unwritten function
    fails instead of printing one line; the learner's notebook mode is restored after."""
    expect.grading(True)
    yield
    expect.grading(False)


@pytest.fixture
def drawn(monkeypatch):
    """The one figure a lesson's plot helper draws outside the grader: call it after the
    helper, to get the figure (failing unless exactly one was drawn). plt.show does nothing,
    so the figure stays open to inspect; the figures drawn are closed after the test."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)
    monkeypatch.setattr(plt, "show", lambda: None)
    before = set(plt.get_fignums())

    def figure():
        new = sorted(set(plt.get_fignums()) - before)
        assert len(new) == 1, f"{len(new)} figures drawn"
        return plt.figure(new[0])

    yield figure
    for number in set(plt.get_fignums()) - before:
        plt.close(number)


@pytest.fixture
def in_tmp(tmp_path, monkeypatch):
    """The test runs in its own empty folder: MuJoCo writes MUJOCO_LOG.TXT in the current
    folder when a simulation goes unstable, never into the repository."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def no_mujoco_log(in_tmp):
    """As in_tmp, and no simulation of the test may go unstable (MuJoCo would write its log)."""
    yield
    assert not (in_tmp / "MUJOCO_LOG.TXT").exists(), "a simulation went unstable"
