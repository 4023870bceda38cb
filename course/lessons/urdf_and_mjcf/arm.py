"""The lesson's two-link arm, written in URDF and in MJCF, and the experiments run on it.

The arm: a 2 kg base box, a shoulder and an elbow that both turn about +y, an upper arm of
0.30 m and 1.0 kg and a forearm of 0.25 m and 0.6 kg (solid cylinders), a tool frame at the
forearm's tip. Every figure the lesson quotes comes from running these models in MuJoCo.
Units: metres, kilograms, seconds, radians.
"""

from __future__ import annotations

from dataclasses import dataclass

import mujoco
import numpy as np

from course import compiled, mjcf, urdf

URDF_AXIS = '\n    <axis xyz="0 1 0"/>'
TOOL_ANGLES = (0.5, -0.8)  # shoulder, elbow (rad): where the lesson reads the tool frame
TARGETS = (0.8, -1.2)  # the servos' targets (rad)
KP, KV = (50.0, 30.0), (2.0, 1.0)  # the servos' gains: N m/rad and N m s/rad
BASE_HEIGHT, LENGTHS = 0.1, (0.3, 0.25)  # the shoulder's height and the links' lengths (m)
EXCLUDE = """
  <contact>
    <exclude body1="base_link" body2="upper_arm"/>
  </contact>"""


def urdf_text(axes: bool = True) -> str:
    """The arm in URDF. axes=False leaves out both joints' <axis> elements."""
    return mjcf.fill(mjcf.template(__file__, "two_link_arm.urdf"), {"axis": URDF_AXIS * axes})


def mjcf_text(
    *,
    radian: bool = True,
    axis_default: bool = True,
    exclude: bool = True,
    kp=KP,
    kv=KV,
    gravcomp: bool = False,
    actuatorgravcomp: bool = False,
) -> str:
    """The arm in hand-written MJCF, as the lesson shows it, or with one thing changed:
    radian=False drops angle="radian"; axis_default=False drops the joints' default axis;
    exclude=False drops the base/upper-arm <exclude>; kp, kv: the two servos' gains;
    gravcomp: gravcomp="1" on both moving bodies; actuatorgravcomp: on both joints."""
    compiler = 'angle="radian" autolimits="true"' if radian else 'autolimits="true"'
    values = {
        "compiler": compiler,
        "joint_axis": ' axis="0 1 0"' if axis_default else "",
        "gravcomp": ' gravcomp="1"' if gravcomp else "",
        "actuatorgravcomp": ' actuatorgravcomp="true"' if actuatorgravcomp else "",
        "contact": EXCLUDE if exclude else "",
        "kp_shoulder": kp[0],
        "kp_elbow": kp[1],
        "kv_shoulder": kv[0],
        "kv_elbow": kv[1],
    }
    return mjcf.fill(mjcf.template(__file__, "two_link_arm"), values)


def tool_position(xml: str, angles=TOOL_ANGLES) -> np.ndarray:
    """World position (m) of the tool frame at these joint angles, after mj_kinematics.

    For MJCF it is the site tool0; for URDF, MuJoCo's import is loaded with fusestatic off so
    the tool0 link survives as a body.
    """
    if "<robot" in xml:
        model = urdf.compile_urdf(urdf.with_mujoco_block(xml, fusestatic=False))
    else:
        model = compiled.compile_xml(xml)
    data = mujoco.MjData(model)
    urdf.set_joints(model, data, dict(zip(("shoulder", "elbow"), angles, strict=True)))
    if model.nsite:
        return data.site("tool0").xpos.copy()
    return data.body("tool0").xpos.copy()


def link_points(xml: str, angles=TOOL_ANGLES) -> np.ndarray:
    """World positions (m) of the shoulder, the elbow and the tool frame (3 x 3), for a
    picture of the arm's pose."""
    model = compiled.compile_xml(xml)
    data = mujoco.MjData(model)
    urdf.set_joints(model, data, dict(zip(("shoulder", "elbow"), angles, strict=True)))
    joints = [data.joint(name).xanchor.copy() for name in ("shoulder", "elbow")]
    return np.array([*joints, data.site("tool0").xpos.copy()])


@dataclass(frozen=True)
class Run:
    """A simulation of the arm from rest with the servos holding `targets`.

    times (s), qpos (rad, one row per sample, shoulder and elbow), contacts: the number of
    active contacts at each sample.
    """

    times: np.ndarray
    qpos: np.ndarray
    contacts: np.ndarray

    @property
    def final(self) -> np.ndarray:
        return self.qpos[-1]


def run(xml: str, seconds: float, targets=TARGETS, samples_per_second: int = 50) -> Run:
    """Simulate `xml` for `seconds` from rest with ctrl = targets; sample the joints."""
    model = compiled.compile_xml(xml)
    data = mujoco.MjData(model)
    data.ctrl[:] = targets
    steps = int(round(seconds / model.opt.timestep))
    every = max(1, int(round(1 / (samples_per_second * model.opt.timestep))))
    times, qpos, contacts = [0.0], [data.qpos.copy()], [data.ncon]
    samples, rest = divmod(steps, every)
    for chunk in [every] * samples + [rest] * (rest > 0):
        mujoco.mj_step(model, data, nstep=chunk)
        times.append(data.time)
        qpos.append(data.qpos.copy())
        contacts.append(data.ncon)
    return Run(np.array(times), np.array(qpos), np.array(contacts))


def hold_targets(model: mujoco.MjModel, data: mujoco.MjData) -> None:
    """Set the servos' controls to TARGETS (a `setup` for render.show_simulation)."""
    data.ctrl[:] = TARGETS


def gravity_torque(xml: str):
    """A function q -> the generalised force gravity exerts at joint angles q with the arm at
    rest (N m per joint), read from MuJoCo as -qfrc_bias. `xml` is MJCF or URDF."""
    model = compiled.compile_xml(xml)
    data = mujoco.MjData(model)

    def torque(q):
        data.qpos[:] = np.asarray(q, dtype=float)
        data.qvel[:] = 0.0
        mujoco.mj_forward(model, data)
        return -data.qfrc_bias.copy()

    return torque


def servo_storage(xml: str) -> list[dict]:
    """How MuJoCo stored each actuator: gain and bias types and their first three
    parameters, force range, control range."""
    model = compiled.compile_xml(xml)
    rows = []
    for a in range(model.nu):
        rows.append(
            {
                "name": model.actuator(a).name,
                "gain": mujoco.mjtGain(model.actuator_gaintype[a]).name.removeprefix("mjGAIN_"),
                "gainprm": model.actuator_gainprm[a, :3].copy(),
                "bias": mujoco.mjtBias(model.actuator_biastype[a]).name.removeprefix("mjBIAS_"),
                "biasprm": model.actuator_biasprm[a, :3].copy(),
                "forcerange": model.actuator_forcerange[a].copy(),
                "ctrlrange": model.actuator_ctrlrange[a].copy(),
            }
        )
    return rows


# The remedies the lesson measures, each a change to the arm's MJCF.
REMEDIES = {
    "as written": {},
    "kv x10": {"kv": (20.0, 10.0)},
    "kp x10": {"kp": (500.0, 300.0)},
    'gravcomp="1"': {"gravcomp": True},
    "actuatorgravcomp alone": {"actuatorgravcomp": True},
    "gravcomp + actuatorgravcomp": {"gravcomp": True, "actuatorgravcomp": True},
}


def remedies(seconds: float = 20.0) -> dict[str, np.ndarray]:
    """{remedy: joint angles (rad) after `seconds` with the servos at TARGETS}."""
    return {name: run(mjcf_text(**change), seconds).final for name, change in REMEDIES.items()}


def largest_actuator_force(xml: str, seconds: float = 3.0) -> np.ndarray:
    """The largest |qfrc_actuator| (N m) per joint over a run from rest to TARGETS."""
    model = compiled.compile_xml(xml)
    data = mujoco.MjData(model)
    data.ctrl[:] = TARGETS
    largest = np.zeros(model.nv)
    for _ in range(int(round(seconds / model.opt.timestep))):
        mujoco.mj_step(model, data)
        largest = np.maximum(largest, np.abs(data.qfrc_actuator))
    return largest


def summary(model: mujoco.MjModel) -> dict:
    """Counts a loaded model is judged by: bodies (the world included), geoms, sites,
    actuators, joints, total mass (kg), and the names of its bodies."""
    return {
        "nbody": model.nbody,
        "ngeom": model.ngeom,
        "nsite": model.nsite,
        "nu": model.nu,
        "njnt": model.njnt,
        "mass": compiled.total_mass(model),
        "bodies": [model.body(b).name for b in range(model.nbody)],
    }
