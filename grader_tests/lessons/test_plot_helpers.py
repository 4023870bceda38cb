"""Every lesson plot drawn through a helper: a figure where a person looks, one line instead
while grading (`course.runtime.plot_skipped`), and no lesson cell that builds a figure itself.

Nothing here names a lesson. A lesson's plot helpers are the functions of its `pictures.py`
whose names end in `_plot`; its own test module (grader_tests/lessons/test_<package>.py)
declares `PLOTS`, each helper with a call on arguments of the lesson's shapes, so the lessons
of the registry (`course.lessons.registry()`) give every sample run here."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import re
from collections.abc import Callable

import lesson_code
import pytest

from classroom.nbgrader_ext import notebooks
from course import lessons

SKIPPED = "Plot skipped while grading. Nothing graded depends on it.\n"
HELPER_CALL = re.compile(r"\bpictures\.(\w+_plot)\(")  # how a lesson's cell calls its helper


def helpers(lesson: str) -> set[str]:
    """The plot helpers of the lesson: the functions its pictures.py defines ending in _plot."""
    name = f"{lessons.package(lesson).__name__}.pictures"
    if importlib.util.find_spec(name) is None:
        return set()  # a lesson that draws nothing needs no pictures.py
    pictures = importlib.import_module(name)
    return {
        name
        for name, function in inspect.getmembers(pictures, inspect.isfunction)
        if name.endswith("_plot") and function.__module__ == pictures.__name__
    }


def samples(lesson: str) -> dict[str, Callable[[], None]]:
    """{helper name: a call of it on arguments of the lesson's shapes}, from its test module;
    a test module without PLOTS declares none (checked against `helpers`)."""
    return dict(getattr(importlib.import_module(lesson_code.own_tests(lesson)), "PLOTS", {}))


SAMPLES = {
    f"{lesson}:{name}": call
    for lesson in lessons.registry()
    for name, call in samples(lesson).items()
}


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_plot_draws_one_figure_outside_the_grader(name, drawn):
    assert SAMPLES[name]() is None
    figure = drawn()
    assert all(ax.lines for ax in figure.axes) and figure.axes[0].get_xlabel()


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_plot_is_not_built_while_grading(name, monkeypatch, capsys):
    """The grader's kernel draws nothing anyone sees: one line instead of a figure."""
    import matplotlib.pyplot as plt

    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    figures = plt.get_fignums()
    assert SAMPLES[name]() is None
    assert capsys.readouterr().out == SKIPPED
    assert plt.get_fignums() == figures


def test_every_helper_has_a_sample(lesson):
    """A new helper in pictures.py without a sample in the lesson's PLOTS would go undrawn."""
    wanted = f"{lesson}: PLOTS in {lesson_code.own_tests(lesson)} calls each helper of pictures.py"
    assert sorted(samples(lesson)) == sorted(helpers(lesson)), wanted


def test_the_lesson_draws_only_through_its_helpers(lesson):
    """No cell builds a figure or imports matplotlib (a cold kernel and the grader's trusted
    set-up would load pyplot for nothing); the cells call every helper of the lesson, and no
    helper call in them names a function the lesson lacks."""
    cells = [c.source for c in notebooks.read_lesson(lesson).cells if c.cell_type == "code"]
    assert [c for c in cells if "plt." in c or "import matplotlib" in c] == []
    called = {name for cell in cells for name in HELPER_CALL.findall(cell)}
    assert sorted(called) == sorted(helpers(lesson))
