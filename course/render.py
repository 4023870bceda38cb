"""Short videos of a simulation, shown in the notebook with mediapy.

A video is a treat, never a requirement: every number a lesson computes comes from the physics,
not from pixels. So `show_simulation` never raises because rendering is impossible (no OpenGL
back end, no ffmpeg); it prints one line saying why and returns False, and the notebook goes on.
While nbgrader grades a notebook it renders nothing at all.

mujoco is imported inside the functions, not at the top of this module: with a broken
MUJOCO_GL (for example `osmesa` without the OSMesa library) `import mujoco` itself fails, and
that too must end in the one-line message rather than a traceback.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from course.runtime import in_grader

if TYPE_CHECKING:
    import mujoco

__all__ = [
    "RenderingUnavailable",
    "encode_video",
    "ensure_ffmpeg",
    "show_simulation",
    "show_video",
    "simulate_frames",
]

# Keeps the embedded clip small: a 1.5 s drop at 320x240 is a few tens of kilobytes.
DEFAULT_FPS = 30
DEFAULT_WIDTH = 320
DEFAULT_HEIGHT = 240

_SKIPPED_TAIL = "The numbers above do not depend on it."


class RenderingUnavailable(RuntimeError):
    """No OpenGL back end could start in this process, or no ffmpeg program was found."""


def ensure_ffmpeg() -> None:
    """Make sure mediapy can find an ffmpeg program.

    An ffmpeg on PATH (or one already given to mediapy.set_ffmpeg) wins. Otherwise mediapy is
    pointed at the binary that imageio-ffmpeg ships (pip installs it with the course), so
    learners need no system package. Raises RenderingUnavailable when neither exists.
    """
    import mediapy

    if mediapy.video_is_available():
        return
    try:
        import imageio_ffmpeg

        path = imageio_ffmpeg.get_ffmpeg_exe()
    except (ImportError, RuntimeError) as exc:
        raise RenderingUnavailable(
            f"no ffmpeg program found ({_short(exc)}); `pip install imageio-ffmpeg` provides one"
        ) from exc
    mediapy.set_ffmpeg(path)


def _import_mujoco():
    """Import mujoco; a back end that fails at import time becomes RenderingUnavailable."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import mujoco
    except Exception as exc:  # the GL back end is loaded at import: any error is possible
        raise RenderingUnavailable(_backend_reason(exc)) from exc
    return mujoco


def _backend_reason(exc: BaseException) -> str:
    backend = os.environ.get("MUJOCO_GL") or "default"
    return f"no OpenGL back end could start (MUJOCO_GL={backend}): {_short(exc)}"


def _short(exc: BaseException, limit: int = 120) -> str:
    """First line of an exception, with its type, cut at a word to about `limit` characters."""
    lines = str(exc).strip().splitlines()
    text = f"{type(exc).__name__}: {lines[0].strip()}" if lines else type(exc).__name__
    text = text.rstrip(".")  # the caller ends the sentence
    if len(text) > limit:
        text = text[:limit].rsplit(" ", 1)[0].rstrip(",;:") + " (...)"
    return text


def _as_model(xml_or_model: str | mujoco.MjModel) -> mujoco.MjModel:
    _import_mujoco()
    from course.compiled import as_model

    return as_model(xml_or_model)


def simulate_frames(
    xml_or_model: str | mujoco.MjModel,
    seconds: float,
    *,
    fps: float = DEFAULT_FPS,
    width: int = DEFAULT_WIDTH,
    height: int = DEFAULT_HEIGHT,
    camera: str | int | None = None,
    setup: Callable[[mujoco.MjModel, mujoco.MjData], None] | None = None,
) -> list[np.ndarray]:
    """Simulate a scene from rest and render it; return the frames.

    Args:
      xml_or_model: MJCF text or a compiled mujoco.MjModel.
      seconds: simulated time covered by the clip, in seconds (> 0).
      fps: frames per simulated second. Frame k shows the state at time k / fps, for
        k = 0 .. round(seconds * fps), so the first and the last state are both in the clip.
      width, height: frame size in pixels; both even (H.264 video needs even sizes). The
        model's offscreen buffer (visual/global offwidth, offheight) is enlarged if smaller.
      camera: a camera name or id from the model; None is MuJoCo's default free camera.
      setup: called once as setup(model, data) on the fresh MjData, before the first frame,
        to set an initial state (qpos, qvel, ctrl). Time is counted from data.time after it.

    Returns:
      A list of uint8 arrays of shape (height, width, 3).

    Raises:
      RenderingUnavailable: no OpenGL back end could start.
      ValueError: a bad size, duration, rate or camera name.
    """
    mujoco = _import_mujoco()
    model = _checked_model(mujoco, xml_or_model, seconds, fps, width, height, camera)
    data = mujoco.MjData(model)
    if setup is not None:
        setup(model, data)
    mujoco.mj_forward(model, data)  # positions for the first frame, before any step

    renderer = _open_renderer(mujoco, model, int(width), int(height))
    frames = []
    start = data.time
    half_step = 0.5 * model.opt.timestep
    try:
        for k in range(int(round(seconds * fps)) + 1):
            # Step until the state is the one nearest to the frame's time.
            while data.time < start + k / fps - half_step:
                mujoco.mj_step(model, data)
            if camera is None:
                renderer.update_scene(data)
            else:
                renderer.update_scene(data, camera=camera)
            frames.append(renderer.render().copy())
    finally:
        renderer.close()
    return frames


def _checked_model(mujoco, xml_or_model, seconds, fps, width, height, camera):
    """The model to film, its offscreen buffer large enough; ValueError for a bad request."""
    if seconds <= 0 or fps <= 0:
        raise ValueError(f"seconds and fps must be positive, got {seconds} and {fps}")
    for label, size in (("width", width), ("height", height)):
        if int(size) != size or size <= 0 or size % 2:
            raise ValueError(f"{label} must be a positive even number of pixels, got {size}")
    model = _as_model(xml_or_model)
    if isinstance(camera, str) and mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_CAMERA, camera) < 0:
        raise ValueError(f"the model has no camera named {camera!r}")
    # The Renderer refuses sizes above the offscreen buffer; enlarging it changes no physics.
    model.vis.global_.offwidth = max(model.vis.global_.offwidth, int(width))
    model.vis.global_.offheight = max(model.vis.global_.offheight, int(height))
    return model


def _open_renderer(mujoco, model, width: int, height: int):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # glfw warns on stderr before it fails
            return mujoco.Renderer(model, height=height, width=width)
    except Exception as exc:  # FatalError, RuntimeError, ImportError... depend on the back end
        raise RenderingUnavailable(_backend_reason(exc)) from exc


def encode_video(frames: list[np.ndarray], fps: float = DEFAULT_FPS) -> bytes:
    """Encode frames as an H.264 MP4 file in memory; return its bytes.

    This is what `show_video` embeds in the notebook (base64 adds a third), so its length is
    the cost of a clip in the saved notebook. Raises RenderingUnavailable without ffmpeg.
    """
    import mediapy

    ensure_ffmpeg()
    return mediapy.compress_video(frames, fps=fps)


def show_video(
    frames: list[np.ndarray], fps: float = DEFAULT_FPS, title: str | None = None
) -> None:
    """Display frames as a looping video in the notebook, played at `fps` frames per second.

    Raises RenderingUnavailable without ffmpeg; `show_simulation` turns that into a message.
    """
    import mediapy

    ensure_ffmpeg()
    mediapy.show_video(frames, fps=fps, title=title)


def show_simulation(
    xml_or_model: str | mujoco.MjModel, seconds: float, *, title: str | None = None, **options
) -> bool:
    """Simulate a scene from rest and show it as a video; return True when a video was shown.

    Arguments are those of `simulate_frames` (`options`: fps, width, height, camera, setup),
    plus an optional `title` above the video.
    When no video can be made (no OpenGL back end, no ffmpeg, ffmpeg failed) it prints one
    line saying why and returns False; it never raises for those reasons. While nbgrader grades
    the notebook it prints "Video skipped while grading." and renders nothing.
    Errors in the scene itself (invalid MJCF, unknown camera) still raise: they need fixing.
    """
    if in_grader():
        print("Video skipped while grading.")
        return False
    try:
        ensure_ffmpeg()
        frames = simulate_frames(xml_or_model, seconds, **options)
    except RenderingUnavailable as exc:
        print(f"Video skipped: {exc}. {_SKIPPED_TAIL}")
        return False
    try:
        show_video(frames, fps=options.get("fps", DEFAULT_FPS), title=title)
    except (RuntimeError, OSError) as exc:  # mediapy reports a failed ffmpeg as RuntimeError
        print(f"Video skipped: ffmpeg could not encode the clip: {_short(exc)}. {_SKIPPED_TAIL}")
        return False
    return True
