"""The plot of lesson 07: an arm held level by its servo. Nothing is drawn while grading."""

import numpy as np

from course import runtime


def hold_plot(times: np.ndarray, angles: dict[str, np.ndarray]) -> None:
    """The arm's angle below level (degrees) against time (s), one line per run in `angles`;
    its target, level, dotted."""
    if runtime.plot_skipped():
        return
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 3.2))
    for label, run in angles.items():
        ax.plot(times, np.degrees(run), label=label)
    ax.axhline(0.0, color="grey", linestyle=":", label="target: level")
    ax.set_xlabel("time (s)")
    ax.set_ylabel("angle below level (°)")
    ax.legend()
    fig.tight_layout()
    plt.show()
