"""Lesson 04's plot: the spinning box's origin and centre of mass, seen from above.

The numbers the prose states (how far the centre of mass drifts, how far the origin strays)
are computed and printed in the lesson's cells from `spin.run_spin`; this helper only draws
the paths those runs recorded and shows them. While nbgrader grades a notebook it prints one
line instead (`course.runtime.plot_skipped`): no one sees a figure there.
"""

from __future__ import annotations

import numpy as np

from course.runtime import plot_skipped


def spin_paths_plot(paths: dict) -> None:
    """Show the box spinning at one turn per second for 2 s, seen from above: one panel per
    label of `paths` (label -> (origin, com), the world positions of the body's origin, xpos,
    and of its centre of mass, xipos, in m, each of shape n x 3 or n x 2, one row a step),
    y (m) against x (m) at equal scales, the centre of mass's start as a dot. The first
    panel's limits fit a drift of 0.25 m, the others' a circle of 2 cm about (0.02, 0):
    note the scales. Returns None; prints one line instead while grading."""
    if plot_skipped():
        return
    import matplotlib.pyplot as plt

    widths = [1.2] + [1] * (len(paths) - 1)
    fig, axes = plt.subplots(
        1, len(paths), figsize=(11, 4.2), gridspec_kw={"width_ratios": widths}, squeeze=False
    )
    axes = axes[0]
    for ax, (label, (origin, com)) in zip(axes, paths.items(), strict=True):
        origin, com = np.asarray(origin, float), np.asarray(com, float)
        ax.plot(origin[:, 0], origin[:, 1], lw=1, color="tab:red", label="origin (xpos)")
        ax.plot(com[:, 0], com[:, 1], lw=2.5, color="black", label="centre of mass (xipos)")
        ax.plot(*com[0, :2], "o", color="black", ms=4)
        ax.set_title(label, fontsize=10)
        ax.set_xlabel("x (m)")
        ax.set_aspect("equal")
        ax.grid(alpha=0.3)
    axes[0].set(xlim=(-0.15, 0.19), ylim=(-0.02, 0.27), ylabel="y (m)")
    for ax in axes[1:]:
        ax.set(xlim=(-0.03, 0.07), ylim=(-0.04, 0.04))
    axes[0].legend(loc="upper left", fontsize=8)
    fig.suptitle(
        "The box spinning at one turn per second for 2 s, seen from above (note the scales)"
    )
    fig.tight_layout()
    plt.show()
