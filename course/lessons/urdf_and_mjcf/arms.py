"""Arms the lesson's checks compare with: planar chains, planar chains held by position servos,
and URDF arms drawn from a seed.

Each builder writes model text for MuJoCo to compile; none computes what a learner's function
is asked for. The checks read the answers from MuJoCo (site_xpos, a long simulation, the URDF
import). Units: metres, kilograms, seconds, radians.
"""

from __future__ import annotations

from dataclasses import dataclass

import mujoco
import numpy as np

from course import compiled, frames, mjcf

# --------------------------------------------------------------------------------------------
# Planar chains: every joint turns about +y, links along +z at q = 0

CHAIN_LINK = """
<body name="link{index}" pos="0 0 {offset!r}">
  <joint name="joint{index}" type="hinge" axis="0 1 0" damping="{damping!r}"/>
  <inertial pos="0 0 {com!r}" mass="{mass!r}" diaginertia="{across!r} {across!r} {along!r}"/>
  <geom type="capsule" fromto="0 0 0 0 0 {length!r}" size="0.015" contype="0" conaffinity="0"/>
  {inner}
</body>"""
CHAIN_TIP = '<site name="tip" pos="0 0 {length!r}"/>'
CHAIN_SERVO = '<position name="servo{index}" joint="joint{index}" kp="{kp!r}" kv="{kv!r}"/>'


def planar_chain(
    base_height: float,
    lengths,
    masses=None,
    com_fractions=None,
    kp=None,
    kv=None,
    damping=None,
) -> str:
    """MJCF of a planar chain: joint 1 at (0, 0, base_height), link i of lengths[i] (m) along
    +z at q = 0, joint i+1 at its end, a site "tip" at the last link's end; every hinge about
    +y. masses (kg) sit at com_fractions of each link (0.5 if not given); kp, kv (one per
    joint) add a position servo per joint; damping (N m s/rad) per joint. Contacts are off and
    nothing is limited."""
    n = len(lengths)
    masses = [0.5] * n if masses is None else list(masses)
    com_fractions = [0.5] * n if com_fractions is None else list(com_fractions)
    damping = [0.0] * n if damping is None else list(damping)
    inner = CHAIN_TIP.format(length=float(lengths[-1]))
    for i in reversed(range(n)):
        length, mass = float(lengths[i]), float(masses[i])
        inner = CHAIN_LINK.format(
            index=i + 1,
            offset=float(base_height) if i == 0 else float(lengths[i - 1]),
            damping=float(damping[i]),
            com=float(com_fractions[i]) * length,
            mass=mass,
            across=mass * length**2 / 12 + 1e-4,
            along=1e-4,
            length=length,
            inner=inner.replace("\n", "\n  "),
        )
    servos = ""
    if kp is not None:
        servos = "\n".join(
            CHAIN_SERVO.format(index=i + 1, kp=float(kp[i]), kv=float(kv[i])) for i in range(n)
        )
    return mjcf.fill(
        mjcf.template(__file__, "planar_chain"), {"bodies": inner, "actuators": servos}
    )


def chain_tip(xml: str, q) -> np.ndarray:
    """World position (m) of a planar chain's site "tip" at joint angles q, after
    mj_kinematics."""
    model = compiled.compile_xml(xml)
    data = mujoco.MjData(model)
    data.qpos[:] = q
    mujoco.mj_kinematics(model, data)
    return data.site("tip").xpos.copy()


@dataclass(frozen=True)
class ServoCase:
    """A planar chain held by P servos (kv only damps), and where MuJoCo lets it come to rest.

    xml: the MJCF; kp (N m/rad) and targets (rad), one per joint; rest: the joint angles after
    `seconds` of simulation from the targets, at rest; sag: the largest |rest - target|.
    """

    xml: str
    kp: tuple
    targets: tuple
    rest: tuple
    seconds: float

    @property
    def sag(self) -> float:
        return float(np.max(np.abs(np.subtract(self.rest, self.targets))))


def settle(xml: str, targets, seconds: float) -> tuple[np.ndarray, float]:
    """(joint angles, largest |qvel|) after `seconds` with ctrl = targets, starting at rest at
    the targets."""
    model = compiled.compile_xml(xml)
    data = mujoco.MjData(model)
    data.qpos[:] = targets
    data.ctrl[:] = targets
    mujoco.mj_step(model, data, nstep=int(round(seconds / model.opt.timestep)))
    return data.qpos.copy(), float(np.max(np.abs(data.qvel)))


def servo_case(seed: int, seconds: float = 12.0, min_sag: float = 0.03) -> ServoCase:
    """A servo-held chain of 2 to 4 links drawn from `seed`, which MuJoCo brings to rest
    (|qvel| < 1e-9) with a sag of at least `min_sag` rad."""
    rng = np.random.default_rng(seed)
    for _ in range(50):
        n = int(rng.integers(2, 5))
        lengths = rng.uniform(0.15, 0.4, n)
        masses = rng.uniform(0.2, 1.5, n)
        fractions = rng.uniform(0.3, 0.7, n)
        load = [9.81 * masses[i:].sum() * lengths[i:].sum() for i in range(n)]  # N m, at most
        kp = np.array(load) * rng.uniform(3.0, 6.0, n)
        reach = [masses[i:].sum() * lengths[i:].sum() ** 2 for i in range(n)]  # kg m^2, roughly
        damping = 2 * np.sqrt(kp * np.array(reach))  # about critical
        targets = rng.uniform(-1.2, 1.2, n)
        xml = planar_chain(
            float(rng.uniform(0.0, 0.5)), lengths, masses, fractions, kp, 0.1 * damping, damping
        )
        rest, speed = settle(xml, targets, seconds)
        plain = [tuple(float(v) for v in values) for values in (kp, targets, rest)]
        case = ServoCase(xml, *plain, seconds)
        if speed < 1e-9 and case.sag >= min_sag:
            return case
    raise RuntimeError(f"no servo case settled for seed {seed}")


# --------------------------------------------------------------------------------------------
# URDF arms drawn from a seed

URDF_LINK = """
  <link name="{name}">{inertial}{visual}{collisions}
  </link>"""
URDF_INERTIAL = """
    <inertial>
      <origin xyz="{xyz}" rpy="{rpy}"/>
      <mass value="{mass!r}"/>
      <inertia ixx="{ixx!r}" ixy="{ixy!r}" ixz="{ixz!r}" iyy="{iyy!r}" iyz="{iyz!r}" izz="{izz!r}"/>
    </inertial>"""
URDF_GEOMETRY = {
    "box": '<box size="{a!r} {b!r} {c!r}"/>',
    "cylinder": '<cylinder radius="{a!r}" length="{b!r}"/>',
    "sphere": '<sphere radius="{a!r}"/>',
}
URDF_SHAPE = """
    <{role}>
      <origin xyz="{xyz}" rpy="{rpy}"/>
      <geometry>{geometry}</geometry>
    </{role}>"""
URDF_JOINT = """
  <joint name="{name}" type="{kind}">
    <parent link="{parent}"/>
    <child link="{child}"/>
    <origin xyz="{xyz}" rpy="{rpy}"/>{axis}{limit}{dynamics}
  </joint>"""
URDF_ROBOT = '<?xml version="1.0"?>\n<robot name="{name}">{links}{joints}\n</robot>\n'


def _text(values) -> str:
    return " ".join(repr(float(v)) for v in values)


def random_tensor(rng: np.random.Generator) -> np.ndarray:
    """A physical inertia tensor (kg m^2) with principal axes turned at random."""
    a, b = rng.uniform(0.002, 0.05, 2)
    low, high = abs(a - b), a + b
    c = low + (high - low) * rng.uniform(0.2, 0.8)
    turn = frames.quat_matrix(frames.random_unit_quat(rng))
    return turn @ np.diag([a, b, c]) @ turn.T


def _inertial(rng: np.random.Generator) -> str:
    six = frames.six_from_tensor(random_tensor(rng), frames.URDF_ORDER)
    names = ("ixx", "ixy", "ixz", "iyy", "iyz", "izz")
    return URDF_INERTIAL.format(
        xyz=_text(rng.uniform(-0.1, 0.1, 3)),
        rpy=_text(rng.uniform(-np.pi, np.pi, 3)),
        mass=float(rng.uniform(0.2, 3.0)),
        **dict(zip(names, six, strict=True)),
    )


def _shape(rng: np.random.Generator, role: str, kind: str | None = None) -> str:
    kind = kind or str(rng.choice(list(URDF_GEOMETRY)))
    a, b, c = rng.uniform(0.02, 0.3, 3)
    return URDF_SHAPE.format(
        role=role,
        xyz=_text(rng.uniform(-0.15, 0.15, 3)),
        rpy=_text(rng.uniform(-np.pi, np.pi, 3)),
        geometry=URDF_GEOMETRY[kind].format(a=float(a), b=float(b), c=float(c)),
    )


def _link(rng: np.random.Generator, name: str, massive: bool = True, shapes: int = 1) -> str:
    return URDF_LINK.format(
        name=name,
        inertial=_inertial(rng) if massive else "",
        visual=_shape(rng, "visual") if massive else "",
        collisions="".join(_shape(rng, "collision") for _ in range(shapes * massive)),
    )


def _limit(rng: np.random.Generator, kind: str) -> str:
    effort = 0.0 if rng.uniform() < 0.25 else float(rng.uniform(1.0, 50.0))
    bounds = ""
    if kind == "prismatic" or (kind == "revolute" and rng.uniform() < 0.7):
        low, high = sorted(rng.uniform(-2.0, 2.0, 2) * (0.2 if kind == "prismatic" else 1.0))
        bounds = f'lower="{float(low)!r}" upper="{float(high) + 0.05!r}" '
    if kind == "continuous" and rng.uniform() < 0.5:
        return ""
    return f'\n    <limit {bounds}effort="{effort!r}" velocity="1.0"/>'


def _joint(
    rng: np.random.Generator, name: str, kind: str, parent: str, child: str, axisless=False
) -> str:
    axis = ""
    if kind != "fixed" and rng.uniform() < 0.7 and not axisless:  # else URDF's default, x
        direction = rng.normal(size=3)
        axis = f'\n    <axis xyz="{_text(direction / np.linalg.norm(direction))}"/>'
    dynamics = ""
    if kind != "fixed" and rng.uniform() < 0.7:
        damping, friction = rng.uniform(0.0, 2.0), rng.uniform(0.0, 0.5)
        dynamics = f'\n    <dynamics damping="{damping!r}" friction="{friction!r}"/>'
    return URDF_JOINT.format(
        name=name,
        kind=kind,
        parent=parent,
        child=child,
        xyz=_text(rng.uniform(-0.2, 0.2, 3) + [0.0, 0.0, 0.2]),
        rpy=_text(rng.uniform(-np.pi, np.pi, 3)),
        axis=axis,
        limit="" if kind == "fixed" else _limit(rng, kind),
        dynamics=dynamics,
    )


def urdf_arm(seed: int, moving: int | None = None, axisless: bool = False) -> str:
    """URDF text of a serial arm drawn from `seed`: a base link, 2 to 4 moving joints
    (revolute, continuous, prismatic, with and without <axis>, limits, effort, dynamics),
    links with rotated inertial origins, full inertia tensors and box / cylinder / sphere
    collisions and visuals, some fixed links between them and a massless tool link at the end.
    axisless: the first moving joint has no <axis> (URDF's default, x); otherwise each has
    one with probability 0.7. The same seed draws the same arm but for that axis.
    """
    rng = np.random.default_rng(seed)
    moving = int(rng.integers(2, 5)) if moving is None else moving
    links, joints, parent = [_link(rng, "base")], [], "base"
    for i in range(1, moving + 1):
        if rng.uniform() < 0.4:  # a fixed link between two moving ones
            mount = f"mount{i}"
            links.append(_link(rng, mount, massive=rng.uniform() < 0.6))
            joints.append(_joint(rng, f"mount{i}_joint", "fixed", parent, mount))
            parent = mount
        kind = str(rng.choice(["revolute", "revolute", "continuous", "prismatic"]))
        links.append(_link(rng, f"link{i}", shapes=int(rng.integers(1, 3))))
        joints.append(_joint(rng, f"joint{i}", kind, parent, f"link{i}", axisless and i == 1))
        parent = f"link{i}"
    links.append(URDF_LINK.format(name="tool", inertial="", visual="", collisions=""))
    joints.append(_joint(rng, "tool_joint", "fixed", parent, "tool"))
    return URDF_ROBOT.format(name=f"arm_{seed}", links="".join(links), joints="".join(joints))
