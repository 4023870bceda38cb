"""Every lesson plot drawn through a helper: a figure where a person looks, one line instead
while grading (`course.runtime.plot_skipped`), and no lesson cell that builds a figure itself.

`PLOTS` is the registry: each helper with arguments of its lesson's shapes. `LESSONS` names
every lesson with the number of helper calls its cells make (0: it draws nothing); a new lesson
adds its helpers and itself."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from classroom.nbgrader_ext import notebooks
from course.lessons.actuators_and_sensors import pictures as actuators_and_sensors
from course.lessons.contacts import pictures as contacts
from course.lessons.frames_and_quaternions import pictures as frames_and_quaternions
from course.lessons.slender_parts import pictures as slender_parts
from course.lessons.time_integration import pictures as time_integration
from course.lessons.urdf_and_mjcf import pictures as urdf_and_mjcf
from course.lessons.world_as_text import pictures as world_as_text

SKIPPED = "Plot skipped while grading. Nothing graded depends on it.\n"
# lesson folder: the number of helper calls its cells make
LESSONS = {
    "01-world-as-text": 2,
    "02-time-integration": 4,
    "03-mass-and-inertia": 0,
    "04-frames-and-quaternions": 1,
    "05-urdf-and-mjcf": 3,
    "06-slender-parts": 2,
    "07-actuators-and-sensors": 1,
    "08-contacts": 1,
}


def _plots() -> dict:
    times = 0.01 * np.arange(51)
    runs = {"explicit Euler": np.linspace(0, 1, 51), "RK4": np.zeros(51)}
    steps = np.array([0.01, 0.005])
    drift = {"semi-implicit Euler": [1e-3, 5e-4], "RK4": [1e-6, 6e-8]}
    masses, delays = np.array([0.005, 0.1, 1.0]), np.array([30.0, 1.5, 0.0])
    return {
        "01 landing_plot": lambda: world_as_text.landing_plot(),
        "01 delay_plot": lambda: world_as_text.delay_plot(masses, delays, delays * 1.01),
        "02 energy_drift_plot": lambda: time_integration.energy_drift_plot(times, runs, 0.0, 0.01),
        "02 convergence_plot": lambda: time_integration.convergence_plot(
            steps, drift, {"semi-implicit Euler": 1.0, "RK4": 4.0}
        ),
        "02 stiff_spring_plot": lambda: time_integration.stiff_spring_plot(10000.0, 1.0, steps=20),
        "02 stability_edge_plot": lambda: time_integration.stability_edge_plot({"h": np.ones(30)}),
        "04 spin_paths_plot": lambda: frames_and_quaternions.spin_paths_plot(
            {"spins": (np.zeros((5, 3)), np.full((5, 3), 0.01)), "still": (np.zeros((5, 2)),) * 2}
        ),
        "05 arm_pose_plot": lambda: urdf_and_mjcf.arm_pose_plot(
            np.array([[0, 0, 0.1], [0.14, 0, 0.36], [0.07, 0, 0.6]]), np.array([0.07, 0, 0.6])
        ),
        "05 servo_plot": lambda: urdf_and_mjcf.servo_plot(
            times, np.outer(1 - np.exp(-times), [0.8, -1.2])
        ),
        "05 exclude_plot": lambda: urdf_and_mjcf.exclude_plot(
            {"with the exclude": (times, 0.8 * (1 - np.exp(-times))), "without it": (times, times)},
            0.8,
        ),
        "06 strike_plot": lambda: slender_parts.strike_plot(
            times[:5], {"plain": np.array([0, 0.35, 0.34, 0.4, 0.5])}, {"plain": np.ones(5)}
        ),
        "06 race_plot": lambda: slender_parts.race_plot(
            times, {"marker": 0.6 * times**2, "tube": 0.43 * times**2}, {"marker": 1.2, "tube": 0.9}
        ),
        "07 hold_plot": lambda: actuators_and_sensors.hold_plot(
            times, {"kp 50": 0.08 * (1 - np.exp(-10 * times)), "kp 200": 0.02 * times}
        ),
        "08 slope_plot": lambda: contacts.slope_plot(
            [20.0, 30.0, 40.0], [0.0, 0.66, 2.0], [0.0, 0.65, 2.0], 0.5
        ),
    }


PLOTS = _plots()


@pytest.mark.parametrize("name", sorted(PLOTS))
def test_plot_draws_one_figure_outside_the_grader(name, drawn):
    assert PLOTS[name]() is None
    figure = drawn()
    assert all(ax.lines for ax in figure.axes) and figure.axes[0].get_xlabel()


@pytest.mark.parametrize("name", sorted(PLOTS))
def test_plot_is_not_built_while_grading(name, monkeypatch, capsys):
    """The grader's kernel draws nothing anyone sees: one line instead of a figure."""
    import matplotlib.pyplot as plt

    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    figures = plt.get_fignums()
    assert PLOTS[name]() is None
    assert capsys.readouterr().out == SKIPPED
    assert plt.get_fignums() == figures


def test_every_lesson_is_listed():
    assert sorted(LESSONS) == notebooks.discover_lessons()


@pytest.mark.parametrize("lesson", sorted(LESSONS))
def test_the_lesson_draws_only_through_its_helpers(lesson):
    """No cell builds a figure or imports matplotlib (a cold kernel and the grader's trusted
    set-up would load pyplot for nothing); the cells call the helpers."""
    path = Path(__file__).resolve().parents[2] / "source" / lesson / f"{lesson}.ipynb"
    cells = [c.source for c in notebooks.read(path).cells if c.cell_type == "code"]
    assert [c for c in cells if "plt." in c or "import matplotlib" in c] == []
    helpers = {name.split()[1] for name in PLOTS if name.startswith(lesson[:2])}
    calls = sum(c.count(f"pictures.{helper}(") for c in cells for helper in helpers)
    assert calls == LESSONS[lesson]
