"""URDF as MuJoCo reads it: loading, the `<mujoco>` extension block, the saved MJCF, and the
world-frame quantities two models of one robot are compared by.

MuJoCo compiles URDF text itself (`MjModel.from_xml_string` recognises the `<robot>` root).
Every function here asks MuJoCo; none computes a conversion a lesson asks the learner to write.
Units: metres, kilograms, radians; quaternions scalar first.
"""

from __future__ import annotations

import os
import re
import tempfile

import mujoco
import numpy as np

from course import compiled

_ROBOT_TAG = re.compile(r"<robot\b[^>]*>")


def compile_urdf(urdf_text: str) -> mujoco.MjModel:
    """MuJoCo's own import of URDF text, or compiled.ModelError quoting MuJoCo."""
    return compiled.compile_xml(urdf_text)


def with_mujoco_block(urdf_text: str, **compiler: str | bool) -> str:
    """The URDF with a `<mujoco><compiler .../></mujoco>` child first inside `<robot>`: the
    extension MuJoCo reads from a URDF file (e.g. fusestatic=False, discardvisual=False)."""
    attributes = " ".join(
        f'{name}="{str(value).lower() if isinstance(value, bool) else value}"'
        for name, value in compiler.items()
    )
    block = f"\n  <mujoco>\n    <compiler {attributes}/>\n  </mujoco>"
    found = _ROBOT_TAG.search(urdf_text)
    if found is None:
        raise ValueError("not URDF text: no <robot> element")
    return urdf_text[: found.end()] + block + urdf_text[found.end() :]


def saved_mjcf(xml: str) -> str:
    """The MJCF MuJoCo writes for a model (mj_saveLastXML), loaded from `xml` (URDF or MJCF).

    mj_saveLastXML saves the model MuJoCo parsed last, so this loads `xml` itself just before.
    """
    model = compiled.compile_xml(xml)
    handle, path = tempfile.mkstemp(suffix=".xml")
    os.close(handle)
    try:
        mujoco.mj_saveLastXML(path, model)
        with open(path, encoding="utf-8") as saved:
            return saved.read()
    finally:
        os.remove(path)


def moving_bodies(model: mujoco.MjModel) -> list[str]:
    """Names of the bodies that are not welded to the world, in body order."""
    return [model.body(b).name for b in range(1, model.nbody) if model.body_weldid[b] != 0]


def weld_name(model: mujoco.MjModel, body: int) -> str:
    """The name of the moving body a body is welded to ("world" for static bodies)."""
    weld = int(model.body_weldid[body])
    return "world" if weld == 0 else model.body(weld).name


def world_inertia(model: mujoco.MjModel, data: mujoco.MjData, body: str | int) -> np.ndarray:
    """A body's inertia tensor about its centre of mass in world axes (kg m^2), after
    mj_kinematics: the principal moments turned by the principal frame's world orientation."""
    b = model.body(body).id
    frame = data.ximat[b].reshape(3, 3)
    return frame @ np.diag(model.body_inertia[b]) @ frame.T


def set_joints(model: mujoco.MjModel, data: mujoco.MjData, angles: dict[str, float]) -> None:
    """Set one-dof joints by name (radians for hinges, metres for slides), then run
    mj_kinematics. Joints not named stay at their qpos0."""
    data.qpos[:] = model.qpos0
    for name, value in angles.items():
        data.qpos[model.jnt_qposadr[model.joint(name).id]] = value
    mujoco.mj_kinematics(model, data)


def joint_summary(model: mujoco.MjModel) -> dict[str, dict]:
    """{joint name: its type keyword, limited flag, range, damping, frictionloss, armature,
    force-range flag and force range}, as compiled (ranges in radians or metres)."""
    kinds = {mujoco.mjtJoint.mjJNT_HINGE: "hinge", mujoco.mjtJoint.mjJNT_SLIDE: "slide"}
    kinds |= {mujoco.mjtJoint.mjJNT_BALL: "ball", mujoco.mjtJoint.mjJNT_FREE: "free"}
    summary = {}
    for j in range(model.njnt):
        dof = model.jnt_dofadr[j]
        summary[model.joint(j).name] = {
            "type": kinds[mujoco.mjtJoint(model.jnt_type[j])],
            "limited": bool(model.jnt_limited[j]),
            "range": model.jnt_range[j].copy(),
            "damping": float(model.dof_damping[dof]),
            "frictionloss": float(model.dof_frictionloss[dof]),
            "armature": float(model.dof_armature[dof]),
            "force_limited": bool(model.jnt_actfrclimited[j]),
            "force_range": model.jnt_actfrcrange[j].copy(),
        }
    return summary
