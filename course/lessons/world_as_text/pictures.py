"""Lesson 01's pictures: the two drops near landing, a slow-motion video, inertia boxes.

Every picture comes from MuJoCo (mj_step for the heights, MuJoCo's renderer on the CPU for the
images); none needs the learner's code. As with `course.render`, a picture is a treat, never a
requirement: while nbgrader grades a notebook nothing is rendered, and when no OpenGL back
end or ffmpeg is available one line says why and the lesson goes on. The matplotlib plot is
drawn in every case, like the lesson's other plots.
"""

from __future__ import annotations

import warnings

import numpy as np

from course import render
from course.lessons.world_as_text import drop, scenes
from course.runtime import in_grader

# A pale sky behind the scenes, so translucent boxes and dark faces stand out; it is only
# drawn, never simulated.
_SKY = {"rgb1": [1.0, 1.0, 1.0], "rgb2": [0.72, 0.8, 0.9], "width": 64, "height": 64}
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
    """A matplotlib figure, one panel per (light kg, heavy kg) pair: the bottom faces' heights
    (cm) above the table top against time (ms) near landing, from mj_step with air density
    `air_density` (kg/m^3). Each curve stops at its cube's landing step."""
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
    return fig


def _dressed_model(xml: str, width: int, height: int):
    """The model of `xml` with a sky to draw against, no shadows and an offscreen buffer of at
    least width x height pixels; nothing that is simulated changes."""
    import mujoco

    spec = mujoco.MjSpec.from_string(xml)
    spec.add_texture(
        name="lesson_sky",
        type=mujoco.mjtTexture.mjTEXTURE_SKYBOX,
        builtin=mujoco.mjtBuiltin.mjBUILTIN_GRADIENT,
        **_SKY,
    )
    if not spec.lights:  # the headlight alone leaves translucent boxes dark
        spec.worldbody.add_light(pos=[0.3, -0.5, 0.8], dir=[-0.3, 0.5, -0.8], diffuse=[0.6] * 3)
    model = spec.compile()
    model.light_castshadow[:] = 0  # shadows cost ten times the rest of a frame on a CPU
    model.vis.global_.offwidth = max(model.vis.global_.offwidth, width)
    model.vis.global_.offheight = max(model.vis.global_.offheight, height)
    return model


def _camera(view: dict):
    import mujoco

    camera = mujoco.MjvCamera()
    camera.lookat[:] = view["lookat"]
    camera.distance, camera.azimuth, camera.elevation = (
        view["distance"],
        view["azimuth"],
        view["elevation"],
    )
    return camera


def _renderer(model, width: int, height: int):
    """A mujoco.Renderer, or RenderingUnavailable when no OpenGL back end can start."""
    try:
        import mujoco

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return mujoco.Renderer(model, height=height, width=width)
    except Exception as exc:  # the error depends on the back end
        raise render.RenderingUnavailable(f"no OpenGL back end could start: {exc}") from exc


def slow_drop_frames(light_kg, heavy_kg, air_density, start, stop, frame_dt, width, height):
    """Frames (uint8, height x width x 3) of the two-cube drop from `start` to `stop` s of
    simulated time, one every `frame_dt` s, seen from DROP_CAMERA."""
    import mujoco

    model = _dressed_model(scenes.two_cube_drop(light_kg, heavy_kg, air_density), width, height)
    data = mujoco.MjData(model)
    renderer, camera, frames = _renderer(model, width, height), _camera(DROP_CAMERA), []
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


def inertia_box_image(xml: str, view: dict = GRIPPER_CAMERA, size=(320, 240)) -> np.ndarray:
    """One image (uint8) of the model of `xml` at rest with MuJoCo's inertia boxes drawn
    (mjVIS_INERTIA: each body's uniform box of the same mass and principal inertia)."""
    import mujoco

    width, height = size
    model = _dressed_model(xml, width, height)
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    option = mujoco.MjvOption()
    option.flags[mujoco.mjtVisFlag.mjVIS_INERTIA] = True
    renderer = _renderer(model, width, height)
    try:
        renderer.update_scene(data, camera=_camera(view), scene_option=option)
        return renderer.render().copy()
    finally:
        renderer.close()


def show_inertia_boxes(titled_xml: dict[str, str], view: dict = GRIPPER_CAMERA) -> bool:
    """Show one image per {title: MJCF text}, side by side, with the inertia boxes drawn;
    True when shown. Skipped while grading; one line when rendering is impossible."""
    if in_grader():
        print("Picture skipped while grading.")
        return False
    try:
        images = {title: inertia_box_image(xml, view) for title, xml in titled_xml.items()}
    except render.RenderingUnavailable as exc:
        print(f"Picture skipped: {exc}. {_SKIPPED}")
        return False
    import mediapy

    mediapy.show_images(images)
    return True
