"""Lesson 05's plots: the arm's pose beside the learner's tip, the servos settling under
gravity, the shoulder with and without the base's contact exclude.

The numbers the prose states are computed and printed in the lesson's cells (MuJoCo's runs of
`arm`, the learner's planar_arm_tip); these helpers only draw them and show them. While
nbgrader grades a notebook each prints one line instead (`course.runtime.plot_skipped`): no
one sees a figure there.
"""

from __future__ import annotations

import numpy as np

from course.lessons.urdf_and_mjcf import arm
from course.runtime import plot_skipped


def arm_pose_plot(points, your_tip, angles=arm.TOOL_ANGLES) -> None:
    """The arm in its x-z plane (m): MuJoCo's shoulder, elbow and tool frame `points` (3 x 3,
    world x y z, m, as `arm.link_points` gives them) joined as links, the learner's tool
    position `your_tip` (x y z, m) as a cross, the base box, and the upright arm at zero
    angles. `angles` (shoulder, elbow, rad) name the pose in the title. Returns None; prints
    one line instead while grading."""
    if plot_skipped():
        return
    import matplotlib.pyplot as plt

    points, your_tip = np.asarray(points, float), np.asarray(your_tip, float)
    reach = arm.BASE_HEIGHT + sum(arm.LENGTHS)
    fig, ax = plt.subplots(figsize=(4.2, 4.2))
    base = plt.Rectangle((-0.1, 0.0), 0.2, arm.BASE_HEIGHT, color="0.6", label="base box")
    ax.add_patch(base)
    ax.plot(points[:, 0], points[:, 2], "o-", lw=4, color="tab:blue", label="MuJoCo's links")
    ax.plot(*your_tip[[0, 2]], "x", ms=14, mew=3, color="tab:red", label="your tip")
    ax.plot([0, 0], [arm.BASE_HEIGHT, reach], ":", color="0.5", label="at zero angles")
    ax.set(xlabel="x (m)", ylabel="z (m)", xlim=(-0.35, 0.45), ylim=(0, 0.7), aspect="equal")
    ax.set_title(f"shoulder {angles[0]:g} rad, elbow {angles[1]:g} rad")
    ax.legend(loc="lower right", fontsize=8)
    plt.show()


def servo_plot(times, qpos, targets=arm.TARGETS) -> None:
    """The shoulder's and the elbow's angles (rad, the two columns of `qpos`, one row per
    sample) against `times` (s), each with its servo's target (rad, `targets`) dashed in the
    same colour. Returns None; prints one line instead while grading."""
    if plot_skipped():
        return
    import matplotlib.pyplot as plt

    qpos = np.asarray(qpos, float)
    fig, ax = plt.subplots(figsize=(6, 3.2))
    for index, (name, target) in enumerate(zip(("shoulder", "elbow"), targets, strict=True)):
        ax.plot(times, qpos[:, index], label=name)
        ax.axhline(target, ls="--", lw=1, color=f"C{index}")
    ax.set(xlabel="time (s)", ylabel="joint angle (rad)", title="P servos under gravity")
    ax.legend()
    plt.show()


def exclude_plot(runs: dict, target: float = arm.TARGETS[0]) -> None:
    """The shoulder's angle (rad) against time (s), one curve per run in `runs` (label ->
    (times in s, shoulder angles in rad), drawn as given), with the shoulder's target (rad)
    dashed in grey. Returns None; prints one line instead while grading."""
    if plot_skipped():
        return
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.2))
    for label, (times, shoulder) in runs.items():
        ax.plot(times, shoulder, label=label)
    ax.axhline(target, ls="--", lw=1, color="0.4")
    ax.set(xlabel="time (s)", ylabel="shoulder angle (rad)", title="The shoulder against the base")
    ax.legend()
    plt.show()
