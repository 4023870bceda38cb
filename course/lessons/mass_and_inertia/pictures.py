"""Still pictures for lesson 03: MuJoCo's own drawing of each body's equivalent inertia box.

With the visual flag `mjVIS_INERTIA` on, MuJoCo draws every body that has mass as the uniform
box with the body's mass and principal moments (full side along principal axis k:
sqrt(6 / m * (I1 + I2 + I3 - 2 Ik))), centred on its centre of mass (`data.xipos`) and turned
onto its principal axes (`data.ximat`). A picture is a treat, never a requirement: like
`course.render.show_simulation` it prints one line instead of raising when no OpenGL back end
can start, and while nbgrader grades the notebook it renders nothing.

mujoco is imported inside the functions (see course/render.py: a broken MUJOCO_GL makes
`import mujoco` itself fail).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from course.render import RenderingUnavailable
from course.runtime import in_grader

# A pale sky behind the bodies, a light above them (no shadows), translucent red boxes.
SKY = ((0.95, 0.96, 1.0), (0.6, 0.68, 0.8))
BOX_RGBA = (0.85, 0.25, 0.2, 0.35)
WIDTH, HEIGHT = 480, 300


def _scene_model(mujoco, xml: str, width: int, height: int):
    """The model of `xml` with a sky, a light and translucent inertia boxes added for the
    picture (its bodies, masses and inertias unchanged)."""
    spec = mujoco.MjSpec.from_string(xml)
    spec.add_texture(
        name="picture_sky",
        type=mujoco.mjtTexture.mjTEXTURE_SKYBOX,
        builtin=mujoco.mjtBuiltin.mjBUILTIN_GRADIENT,
        rgb1=list(SKY[0]),
        rgb2=list(SKY[1]),
        width=32,
        height=192,
    )
    # no shadow: on a CPU its pass over a 4096 x 4096 map costs more than the picture
    light = dict(pos=[0.0, -1.0, 3.0], dir=[0.0, 0.3, -1.0], diffuse=[0.6] * 3)
    spec.worldbody.add_light(castshadow=False, **light)
    model = spec.compile()
    model.vis.rgba.inertia[:] = BOX_RGBA
    model.vis.quality.offsamples = 0  # no multisampling: a CPU renders it in a third of the time
    model.vis.global_.offwidth = max(model.vis.global_.offwidth, width)
    model.vis.global_.offheight = max(model.vis.global_.offheight, height)
    return model


def inertia_box_image(
    xml: str,
    lookat: Sequence[float],
    distance: float,
    azimuth: float = 120.0,
    elevation: float = -25.0,
    width: int = WIDTH,
    height: int = HEIGHT,
    labels: bool = False,
) -> np.ndarray:
    """Render the MJCF `xml` at rest with MuJoCo's inertia boxes (mjVIS_INERTIA) drawn over
    its geoms; return the picture, a uint8 array of shape (height, width, 3).

    The free camera looks at `lookat` (m, world frame) from `distance` m, turned `azimuth`
    degrees about the vertical and tilted `elevation` degrees (negative: from above).
    `labels` writes each body's name on its box. Raises RenderingUnavailable when no OpenGL
    back end can start.
    """
    try:
        import mujoco
    except Exception as exc:  # the GL back end is loaded at import: any error is possible
        raise RenderingUnavailable(f"mujoco could not be imported: {exc}") from exc
    model = _scene_model(mujoco, xml, width, height)  # a bad model raises: it needs fixing
    try:
        renderer = mujoco.Renderer(
            model, height=height, width=width, font_scale=mujoco.mjtFontScale.mjFONTSCALE_50
        )
    except Exception as exc:  # FatalError, RuntimeError... depend on the back end
        raise RenderingUnavailable(f"no OpenGL back end could start: {exc}") from exc
    try:
        data = mujoco.MjData(model)
        mujoco.mj_forward(model, data)
        option = mujoco.MjvOption()
        option.flags[mujoco.mjtVisFlag.mjVIS_INERTIA] = True
        if labels:
            option.label = mujoco.mjtLabel.mjLABEL_BODY
        camera = mujoco.MjvCamera()
        camera.lookat[:] = lookat
        camera.distance, camera.azimuth, camera.elevation = distance, azimuth, elevation
        renderer.update_scene(data, camera=camera, scene_option=option)
        return renderer.render().copy()
    finally:
        renderer.close()


def png_bytes(image: np.ndarray) -> bytes:
    """A picture (uint8, height x width x 3) as the bytes of a PNG file."""
    import io

    from PIL import Image

    buffer = io.BytesIO()
    Image.fromarray(image).save(buffer, format="png")
    return buffer.getvalue()


def show_inertia_boxes(xml: str, **view) -> bool:
    """Show `xml` with MuJoCo's inertia boxes as a still PNG picture; True when one was shown.

    `view`: the camera and size arguments of `inertia_box_image`. Prints one line and returns
    False, never raising, when no picture can be made; while nbgrader grades the notebook it
    prints "Picture skipped while grading." and renders nothing.
    """
    if in_grader():
        print("Picture skipped while grading.")
        return False
    try:
        from IPython.display import Image, display

        display(Image(data=png_bytes(inertia_box_image(xml, **view)), format="png"))
    except (RenderingUnavailable, ImportError, OSError) as exc:
        print(f"Picture skipped: {str(exc).splitlines()[0][:160]}. The numbers do not need it.")
        return False
    return True
