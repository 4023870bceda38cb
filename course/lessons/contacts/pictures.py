"""Lesson 08's plot: boxes on slopes of increasing angle, MuJoCo's acceleration beside the
learner's law.

The accelerations are simulated and computed in the lesson's cell; this helper only draws
them. While nbgrader grades a notebook it prints one line instead
(`course.runtime.plot_skipped`): no one sees a figure there.
"""

from __future__ import annotations

import numpy as np

from course.runtime import plot_skipped


def slope_plot(angles, measured, law, mu: float):
    """The acceleration along the slope (m/s^2) against the slope's angle (degrees,
    `angles`): MuJoCo's boxes as dots (`measured`), the law as a line (`law`, one value per
    angle), and the edge arctan(mu) as a dotted vertical line. Returns None; prints one line
    instead while grading."""
    if plot_skipped():
        return
    import matplotlib.pyplot as plt

    angles = np.asarray(angles, float)
    fig, ax = plt.subplots(figsize=(6.5, 4))
    ax.plot(angles, np.asarray(law, float), "-", color="C0", label="your slope_acceleration")
    ax.plot(angles, np.asarray(measured, float), "o", color="C1", label="MuJoCo's box")
    edge = np.degrees(np.arctan(mu))
    ax.axvline(edge, linestyle=":", color="gray", label=f"the edge, arctan {mu:g}")
    ax.set_xlabel("slope (degrees)")
    ax.set_ylabel("acceleration along the slope (m/s²)")
    ax.set_title(f"A box with friction {mu:g} on slopes of increasing angle")
    ax.legend()
    fig.tight_layout()
    plt.show()
