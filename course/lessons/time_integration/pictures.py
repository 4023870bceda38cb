"""Lesson 02's plots: energy drift against time, error against timestep, the stiff spring
either side of its stability edge.

The numbers the prose states are computed and printed in the lesson's cells; these helpers
only draw them (and MuJoCo's own runs beside them) and show them. While nbgrader grades a
notebook each prints one line instead (`course.runtime.plot_skipped`): no one sees a figure
there, and the four together were about 0.5 s of a graded notebook's kernel time.
"""

from __future__ import annotations

import numpy as np

from course.lessons.time_integration import dynamics
from course.runtime import plot_skipped


def energy_drift_plot(times, runs: dict, start: float, timestep: float):
    """The learner's energy change (J) against time (s), one curve per stepper in `runs`
    (name -> energies, J), with MuJoCo's Euler and RK4 on the same 0.5 m, 1 kg pendulum
    released at 1 rad every 25th step. Right panel: the same without explicit Euler."""
    if plot_skipped():
        return
    import matplotlib.pyplot as plt

    fig, (ax_all, ax_zoom) = plt.subplots(1, 2, figsize=(10, 3.8))
    for name, energy in runs.items():
        ax_all.plot(times, energy - start, label=f"your {name}")
        if name != "explicit Euler":
            color = "C1" if name.startswith("semi") else "C2"
            ax_zoom.plot(times, energy - start, label=f"your {name}", color=color)
    steps = len(times) - 1
    for integrator, marker in (("Euler", "o"), ("RK4", "s")):
        xml = dynamics.pendulum(length=0.5, mass=1.0, timestep=timestep, integrator=integrator)
        positions, velocities = dynamics.trajectory(xml, steps, 1.0, 0.0)
        energy = dynamics.energies(xml, positions, velocities)
        for ax in (ax_all, ax_zoom):
            ax.plot(
                times[::25],
                energy[::25] - start,
                marker,
                mfc="none",
                color="black",
                label=f"MuJoCo {integrator}",
            )
    ax_all.set_title(f"Pendulum released at 1 rad, h = {timestep * 1000:g} ms")
    ax_zoom.set_title("The two that do not drift, enlarged")
    for ax in (ax_all, ax_zoom):
        ax.set_xlabel("time (s)")
        ax.set_ylabel("energy change (J)")
        ax.legend(fontsize=8)
        ax.grid(alpha=0.3)
    plt.show()


def convergence_plot(timesteps, drift: dict, slopes: dict):
    """Largest energy error (J) against timestep (given in s, drawn in ms) on log axes, one
    line per stepper (name -> errors, `slopes`: name -> fitted slope), with dashed guides of
    slopes 1 and 4 through semi-implicit Euler's and RK4's first points."""
    if plot_skipped():
        return
    import matplotlib.pyplot as plt

    timesteps = np.asarray(timesteps)
    fig, ax = plt.subplots(figsize=(6.0, 4.0))
    for name, errors in drift.items():
        ax.loglog(timesteps * 1000, errors, "o-", label=f"{name} (slope {slopes[name]:.2f})")
    for order, anchor in ((1, drift["semi-implicit Euler"][0]), (4, drift["RK4"][0])):
        guide = anchor * (timesteps / timesteps[0]) ** order * 0.5
        ax.loglog(timesteps * 1000, guide, "--", color="gray")
    ax.set_xticks(timesteps * 1000, labels=[f"{t * 1000:g}" for t in timesteps])
    ax.tick_params(axis="x", which="minor", labelbottom=False)
    ax.set_xlabel("timestep h (ms)")
    ax.set_ylabel("largest energy error over 2 s (J)")
    ax.set_title("Dashed guides: slopes 1 and 4")
    ax.legend(fontsize=8)
    ax.grid(True, which="both", alpha=0.3)
    plt.show()


def stiff_spring_plot(stiffness: float, mass: float, timesteps=(0.0195, 0.0205), steps=150):
    """|x| (m, log axis) against time (s) of the spring (N/m, kg) released at 1 m under
    MuJoCo's Euler, one curve per timestep (s): the two sides of the edge 2/w."""
    if plot_skipped():
        return
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.0, 3.6))
    for h in timesteps:
        run = dynamics.spring_run(stiffness, mass, h, "Euler", steps=steps, autoreset=False)
        ax.semilogy(np.arange(steps + 1) * h, np.abs(run.positions) + 1e-12, label=f"h = {h} s")
    ax.axhline(1.0, color="gray", lw=0.8)
    ax.set_xlabel("time (s)")
    ax.set_ylabel("|x| (m)")
    ax.set_title("Stiff spring under MuJoCo's Euler, either side of 2/w")
    ax.legend()
    ax.grid(alpha=0.3)
    plt.show()


def stability_edge_plot(amplitudes: dict):
    """The largest |x| so far (m) against steps, log axes, one curve per label (label ->
    amplitudes, one a step from the first)."""
    if plot_skipped():
        return
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.0, 3.6))
    for label, amplitude in amplitudes.items():
        ax.loglog(np.arange(1, len(amplitude) + 1), amplitude, label=label)
    ax.set_xlabel("steps")
    ax.set_ylabel("largest |x| so far (m)")
    ax.set_title("MuJoCo's Euler at its stability edge")
    ax.legend()
    ax.grid(True, which="both", alpha=0.3)
    plt.show()
