"""Lesson 06's plots: the struck marker's rotation per step and kinetic energy with and
without the floor, and the race down the slope beside the rolling law.

The numbers the prose states are computed and printed in the lesson's cells (the race's laws
with the learner's functions); these helpers only draw them and show them. While nbgrader
grades a notebook each prints one line instead (`course.runtime.plot_skipped`): no one sees
a figure there.
"""

from __future__ import annotations

import numpy as np

from course.runtime import plot_skipped


def strike_plot(times, rotation_per_step: dict, kinetic_energy: dict):
    """Two panels sharing the time axis (s, `times`: the start of each step of the struck
    marker, `runs.Strike.times`): above, the rotation per step |w| h (rad); below, the
    kinetic energy (J, log axis); one curve per label of `rotation_per_step` and
    `kinetic_energy` (label -> one value a step, as long as `times`). The first step's row,
    the marker at rest before the blow (energy 0, which a log axis cannot show), is left out.
    Returns None; prints one line instead while grading."""
    if plot_skipped():
        return
    import matplotlib.pyplot as plt

    times = np.asarray(times, float)
    fig = plt.figure(figsize=(7, 5.5))
    # The bottom panel, the one with the time label, is made first: it is fig.axes[0].
    energy = fig.add_subplot(2, 1, 2)
    turn = fig.add_subplot(2, 1, 1, sharex=energy)
    turn.label_outer()  # as plt.subplots(sharex=True): no time tick labels between the panels
    for label, turns in rotation_per_step.items():
        turn.plot(times[1:], np.asarray(turns, float)[1:], label=label)
    for label, energies in kinetic_energy.items():
        energy.semilogy(times[1:], np.asarray(energies, float)[1:], label=label)
    turn.set_ylabel("rotation per step |ω| h (rad)")
    turn.set_title("The marker struck at its rim, Euler at 1.25 ms")
    turn.legend()
    energy.set_ylabel("kinetic energy (J)")
    energy.set_xlabel("time (s)")
    for axes in (turn, energy):
        axes.grid(True, alpha=0.3)
    plt.show()


def race_plot(times, distances: dict, laws: dict):
    """The distance down the 10 degree slope (m, drawn in cm) against time (s, `times`,
    shared by every lane), one solid curve per lane of `distances` (lane -> one distance a
    step), and dashed in the same colour the law's parabola a t^2 / 2 with `laws[lane]`
    (m/s^2). Returns None; prints one line instead while grading."""
    if plot_skipped():
        return
    import matplotlib.pyplot as plt

    times = np.asarray(times, float)
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for lane, distance in distances.items():
        (line,) = ax.plot(times, np.asarray(distance, float) * 100, label=lane)
        law = float(laws[lane])
        ax.plot(times, 0.5 * law * times**2 * 100, "--", color=line.get_color())
    ax.set_xlabel("time (s)")
    ax.set_ylabel("distance down the slope (cm)")
    ax.set_title("Down a 10 degree slope: simulated (solid) and the law (dashed)")
    ax.legend()
    ax.grid(True, alpha=0.3)
    plt.show()
