"""Lesson 01's pictures: the two drops near landing, a slow-motion video, inertia boxes.

Every picture comes from MuJoCo (mj_step for the heights, MuJoCo's renderer on the CPU for the
images); none needs the learner's code. As with `course.render`, a picture is a treat, never a
requirement: while nbgrader grades a notebook nothing is rendered, and when no OpenGL back
end or ffmpeg is available one line says why and the lesson goes on. The matplotlib plot is
drawn everywhere a person can see it; while grading (a headless back end, no figure in the
graded notebook) it is not built at all.
"""

from __future__ import annotations

import numpy as np

from course import render
from course.lessons.world_as_text import drop, scenes
from course.runtime import in_grader, plot_skipped

_SKIPPED = "The numbers above do not depend on it."

# Where the free camera looks at the two-cube scene from (m, degrees): from the front, the
# table top a little below the middle of the frame, the floor in the bottom part only.
DROP_CAMERA = {"lookat": (0.0, 0.0, 0.62), "distance": 1.0, "azimuth": 90.0, "elevation": -4.0}
GRIPPER_CAMERA = {
    "lookat": (0.0, 0.0, 0.265),
    "distance": 0.22,
    "azimuth": 120.0,
    "elevation": -20.0,
}


def landing_plot(pairs=((0.1, 1.0), (0.005, 1.0)), air_density: float = drop.AIR_DENSITY):
    """Show one panel per (light kg, heavy kg) pair: the bottom faces' heights (cm) above
    the table top against time (ms) near landing, from mj_step with air density
    `air_density` (kg/m^3). Each curve stops at its cube's landing step. Returns None.

    While grading it prints one line instead: no one sees a figure there, and building this
    one was about a sixth of a graded notebook's kernel time (0.19 s)."""
    if plot_skipped():
        return
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(pairs), figsize=(4.6 * len(pairs), 3.4), sharey=True)
    for ax, (light_kg, heavy_kg) in zip(np.atleast_1d(axes), pairs, strict=True):
        run = drop.run_two_cube_drop(light_kg, heavy_kg, air_density)
        t_ms = 1000 * scenes.DEFAULT_TIMESTEP * np.arange(len(run.heights))
        for column, step, label, color in (
            (0, run.light_step, f"{light_kg * 1000:g} g", "tab:blue"),
            (1, run.heavy_step, f"{heavy_kg * 1000:g} g", "tab:red"),
        ):
            ax.plot(
                t_ms[: step + 1], 100 * run.heights[: step + 1, column], color=color, label=label
            )
        landed = t_ms[run.heavy_step]
        ax.axvline(landed, color="gray", lw=0.8, ls=":")
        ax.annotate(
            f"{run.gap_cm:.2f} cm",
            (landed, 100 * run.heights[run.heavy_step, 0]),
            xytext=(6, 6),
            textcoords="offset points",
        )
        ax.set_xlim(200, t_ms[run.light_step] + 10)
        ax.set_ylim(-1, 16)
        ax.set_xlabel("time (ms)")
        ax.set_title(
            f"{light_kg * 1000:g} g beside {heavy_kg * 1000:g} g: {run.delay_ms:.2f} ms late"
        )
        ax.legend(loc="upper right")
        ax.grid(True, alpha=0.3)
    np.atleast_1d(axes)[0].set_ylabel("bottom face above the table (cm)")
    fig.tight_layout()
    plt.show()


def delay_plot(masses_kg, mujoco_ms, yours_ms=None) -> None:
    """Show the landing delays behind a 1 kg cube (ms) against the light cube's mass (kg,
    drawn in g) on log-log axes: MuJoCo's `mujoco_ms`, the learner's `yours_ms` when given,
    and a 1/m guide line through the first point. The 1 kg row, which has no delay, is left
    out. Returns None; prints one line instead while grading."""
    if plot_skipped():
        return
    import matplotlib.pyplot as plt

    masses_kg, mujoco_ms = np.asarray(masses_kg, float), np.asarray(mujoco_ms, float)
    light = masses_kg < 1.0  # a 1 kg cube beside a 1 kg cube has no delay: nothing to plot
    grams = masses_kg[light] * 1000
    fig, ax = plt.subplots(figsize=(5.5, 3.8))
    ax.loglog(grams, mujoco_ms[light], "o-", label="mj_step, with air")
    if yours_ms is not None:
        ax.loglog(grams, np.asarray(yours_ms, float)[light], "x", ms=9, label="your integrator")
    guide = mujoco_ms[0] * masses_kg[0] / masses_kg[light]
    ax.loglog(grams, guide, "--", color="gray", label="1/m guide")
    ax.set_xlabel("light cube mass (g)")
    ax.set_ylabel("landing delay behind 1 kg (ms)")
    ax.set_title("Air delays light cubes roughly as 1/m")
    ax.legend()
    ax.grid(True, which="both", alpha=0.3)
    plt.show()


def slow_drop_frames(light_kg, heavy_kg, air_density, start, stop, frame_dt, width, height):
    """Frames (uint8, height x width x 3) of the two-cube drop from `start` to `stop` s of
    simulated time, one every `frame_dt` s, seen from DROP_CAMERA."""
    import mujoco

    model = render.picture_model(
        scenes.two_cube_drop(light_kg, heavy_kg, air_density), width, height
    )
    data = mujoco.MjData(model)
    renderer, frames = render.open_renderer(model, width, height), []
    camera = render.free_camera(**DROP_CAMERA)
    try:
        for k in range(int(round((stop - start) / frame_dt)) + 1):
            while data.time < start + k * frame_dt - 0.5 * model.opt.timestep:
                mujoco.mj_step(model, data)
            mujoco.mj_forward(model, data)
            renderer.update_scene(data, camera=camera)
            frames.append(renderer.render().copy())
    finally:
        renderer.close()
    return frames


def show_slow_drop(
    light_kg: float = 0.005,
    heavy_kg: float = 1.0,
    air_density: float = drop.AIR_DENSITY,
    start: float = 0.18,
    stop: float = 0.40,
    slower: int = 10,
    fps: int = 20,
    size: tuple[int, int] = (640, 360),
) -> bool:
    """Show the two-cube drop from `start` to `stop` s, `slower` times slower than real time,
    at `fps` frames per second of video and `size` (width, height) pixels; True when shown.

    Skipped while grading; one line instead of a video when rendering is impossible."""
    if in_grader():
        print("Video skipped while grading.")
        return False
    width, height = size
    try:
        render.ensure_ffmpeg()
        frames = slow_drop_frames(
            light_kg, heavy_kg, air_density, start, stop, 1 / (fps * slower), width, height
        )
        render.show_video(frames, fps=fps)
    except render.RenderingUnavailable as exc:
        print(f"Video skipped: {exc}. {_SKIPPED}")
        return False
    except (RuntimeError, OSError) as exc:  # mediapy reports a failed ffmpeg as RuntimeError
        print(f"Video skipped: ffmpeg could not encode the clip ({type(exc).__name__}). {_SKIPPED}")
        return False
    return True


def show_inertia_boxes(titled_xml: dict[str, str], view: dict = GRIPPER_CAMERA) -> bool:
    """Show one picture per {title: MJCF text}, side by side, with MuJoCo's inertia boxes
    (course.render.show_inertia_boxes) at 320 x 240 pixels, seen from `view`."""
    return render.show_inertia_boxes(titled_xml, size=(320, 240), **view)
