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
    "free_camera",
    "inertia_box_image",
    "open_renderer",
    "picture_model",
    "png_bytes",
    "show_inertia_boxes",
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


def open_renderer(model, width: int, height: int):
    """A mujoco.Renderer of width x height pixels (close it after use); RenderingUnavailable
    when no OpenGL back end can start."""
    return _open_renderer(_import_mujoco(), model, width, height)


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


# --------------------------------------------------------------------------------------------
# Still pictures: MuJoCo's own drawing of each body's equivalent inertia box

# A pale sky behind the scene, so translucent boxes and dark faces stand out; only drawn.
_SKY = {"rgb1": [1.0, 1.0, 1.0], "rgb2": [0.72, 0.8, 0.9], "width": 64, "height": 64}
INERTIA_BOX_RGBA = (0.85, 0.25, 0.2, 0.35)  # translucent red


def picture_model(xml: str, width: int, height: int) -> mujoco.MjModel:
    """The model of `xml` dressed to be drawn on a CPU: a sky, a light when it has none, no
    shadows, no multisampling, an offscreen buffer of at least width x height pixels. Nothing
    that is simulated changes (bodies, masses, inertias, options)."""
    mujoco = _import_mujoco()
    spec = mujoco.MjSpec.from_string(xml)
    spec.add_texture(
        name="picture_sky",
        type=mujoco.mjtTexture.mjTEXTURE_SKYBOX,
        builtin=mujoco.mjtBuiltin.mjBUILTIN_GRADIENT,
        **_SKY,
    )
    if not spec.lights:  # the headlight alone leaves translucent boxes dark
        spec.worldbody.add_light(pos=[0.3, -0.5, 0.8], dir=[-0.3, 0.5, -0.8], diffuse=[0.6] * 3)
    model = spec.compile()
    model.light_castshadow[:] = 0  # a shadow pass costs ten times the rest of a frame on a CPU
    model.vis.quality.offsamples = 0  # multisampling triples a CPU's time per picture
    model.vis.rgba.inertia[:] = INERTIA_BOX_RGBA
    model.vis.global_.offwidth = max(model.vis.global_.offwidth, width)
    model.vis.global_.offheight = max(model.vis.global_.offheight, height)
    return model


def free_camera(lookat, distance: float, azimuth: float = 120.0, elevation: float = -25.0):
    """A free camera looking at `lookat` (m, world frame) from `distance` m, turned `azimuth`
    degrees about the vertical and tilted `elevation` degrees (negative: from above)."""
    mujoco = _import_mujoco()
    camera = mujoco.MjvCamera()
    camera.lookat[:] = lookat
    camera.distance, camera.azimuth, camera.elevation = distance, azimuth, elevation
    return camera


def inertia_box_image(
    xml: str, lookat, distance: float, size=(480, 300), labels: bool = False, **turn
) -> np.ndarray:
    """The MJCF `xml` at rest with MuJoCo's inertia boxes (mjVIS_INERTIA) drawn over its
    geoms: each body with mass as the uniform box of its mass and principal moments, on its
    centre of mass and principal axes. A uint8 array of shape (height, width, 3).

    The camera is `free_camera(lookat, distance, **turn)`; `size` is (width, height) pixels;
    `labels` writes each body's name. Raises RenderingUnavailable without an OpenGL back end.
    """
    mujoco = _import_mujoco()
    width, height = size
    model = picture_model(xml, width, height)  # a bad model raises: it needs fixing
    renderer = _open_renderer(mujoco, model, width, height)
    try:
        data = mujoco.MjData(model)
        mujoco.mj_forward(model, data)
        option = mujoco.MjvOption()
        option.flags[mujoco.mjtVisFlag.mjVIS_INERTIA] = True
        if labels:
            option.label = mujoco.mjtLabel.mjLABEL_BODY
        camera = free_camera(lookat, distance, **turn)
        renderer.update_scene(data, camera=camera, scene_option=option)
        return renderer.render().copy()
    finally:
        renderer.close()


def show_inertia_boxes(models: str | dict[str, str], lookat, distance: float, **view) -> bool:
    """Show MJCF text (or {title: MJCF text}, side by side) with MuJoCo's inertia boxes as
    still pictures; True when shown. `view`: the camera, size and labels of
    `inertia_box_image`. Prints one line and returns False, never raising, when no picture can
    be made; while nbgrader grades the notebook it renders nothing."""
    if in_grader():
        print("Picture skipped while grading.")
        return False
    titled = {None: models} if isinstance(models, str) else dict(models)
    try:
        images = [inertia_box_image(xml, lookat, distance, **view) for xml in titled.values()]
        _show_images(images, None if isinstance(models, str) else list(titled))
    except RenderingUnavailable as exc:
        print(f"Picture skipped: {str(exc).splitlines()[0][:160]}. {_SKIPPED_TAIL}")
        return False
    except (ImportError, OSError) as exc:
        print(f"Picture skipped: {_short(exc)}. {_SKIPPED_TAIL}")
        return False
    return True


def _show_images(images: list[np.ndarray], titles: list[str] | None) -> None:
    """One picture as a PNG output; several side by side, titled (mediapy's HTML)."""
    if titles is None and len(images) == 1:
        from IPython.display import Image, display

        display(Image(data=png_bytes(images[0]), format="png"))
        return
    import mediapy

    mediapy.show_images(images, titles=titles)


def png_bytes(image: np.ndarray) -> bytes:
    """A picture (uint8, height x width x 3) as the bytes of a PNG file."""
    import io

    from PIL import Image

    buffer = io.BytesIO()
    Image.fromarray(image).save(buffer, format="png")
    return buffer.getvalue()
