"""Visible checks for lesson 05, "URDF and MJCF": the cases the lesson shows.

Each check compares the learner's function with what MuJoCo compiles or simulates: its URDF
import (geom sizes, body poses, inertias, joints), site positions after mj_kinematics, and long
simulations of servo-held arms. Hidden tests call the same `compare_*` functions on cases the
lesson never shows (arms drawn from seeds in `arms`).
"""

from __future__ import annotations

import functools
import xml.etree.ElementTree as ET

import mujoco
import numpy as np

from course import compiled, expect, mjcf, urdf
from course.expect import letter  # noqa: F401 (test cells call check.letter)
from course.lessons.urdf_and_mjcf import arm, arms

# Build it, Step 1: the upper arm's inertia, and a CAD export's tensor with products of inertia
# (ixx ixy ixz iyy iyz izz, kg m^2).
INERTIA_CASES = (
    (0.007725, 0.0, 0.0, 0.007725, 0.0, 0.00045),
    (0.021, -0.0012, 0.0008, 0.018, 0.0015, 0.012),
)
# Step 2: URDF shapes (full dimensions, m): the arm's base box and its two cylinders.
GEOMETRY_CASES = {
    "box": ((0.2, 0.2, 0.1), (0.15, 0.08, 0.06)),
    "cylinder": ((0.03, 0.3), (0.025, 0.25)),
    "sphere": ((0.04,),),
}
# Step 3: URDF joint origins' roll, pitch, yaw (rad).
RPY_CASES = ((0.3, 0.2, 0.1), (np.pi / 2, 0.0, np.pi / 2), (0.0, 0.5, 0.0), (-1.0, 0.4, 2.5))
# Step 4: the lesson's arm at these joint angles (rad).
TIP_ANGLES = (arm.TOOL_ANGLES, (0.0, 0.0), (1.2, 0.9), (-0.7, -1.5))
GEOMETRY_TYPES = {
    mujoco.mjtGeom.mjGEOM_BOX: "box",
    mujoco.mjtGeom.mjGEOM_CYLINDER: "cylinder",
    mujoco.mjtGeom.mjGEOM_SPHERE: "sphere",
}
MAX_MJCF_CHARS = 1_000_000
FORBIDDEN_MJCF = ("include", "asset", "plugin", "extension", "robot")


def _answer(result, what: str):
    """`result`, or NotAnswered ("<what> returned None: write its body.") when it is None."""
    return expect.answered(result, what, "its body")


# What a wrong answer of Steps 3 to 5 most likely got wrong.
HINTS = {
    "rpy": "URDF turns about the fixed x axis by roll, then the fixed y axis by pitch, then the "
    "fixed z axis by yaw; MJCF's quaternion is (w, x, y, z).",
    "tip": "Each link points along the angle of its own joint plus all the joints before it; a "
    "positive angle turns +z toward +x.",
    "servo": "At rest the servo's torque kp (target - q) must hold up what gravity_torque(q) says "
    "gravity does at the angles where the arm rests, not at the targets.",
}


def _numbers(values) -> str:
    return " ".join(repr(float(v)) for v in values)


def _one_link_urdf(link: str, rpy=(0.0, 0.0, 0.0)) -> str:
    """URDF of a base link and one link on a revolute joint whose origin turns it by `rpy`;
    MuJoCo imports the link as body 1."""
    return arms.URDF_ROBOT.format(
        name="one_link",
        links=arms.URDF_LINK.format(name="base", inertial="", visual="", collisions="")
        + arms.URDF_LINK.format(name="link", inertial=link, visual="", collisions=""),
        joints=arms.URDF_JOINT.format(
            name="j",
            kind="revolute",
            parent="base",
            child="link",
            xyz="0 0 0",
            rpy=_numbers(rpy),
            axis="",
            dynamics="",
            limit='\n    <limit lower="-1" upper="1" effort="1" velocity="1"/>',
        ),
    )


UNIT_LINK = arms.URDF_INERTIAL.format(
    xyz="0 0 0", rpy="0 0 0", mass=1.0, ixx=0.01, ixy=0.0, ixz=0.0, iyy=0.01, iyz=0.0, izz=0.01
)


# --------------------------------------------------------------------------------------------
# Step 1 · urdf_inertia_to_fullinertia


def _tensor_of(model: mujoco.MjModel, body: int = 1) -> np.ndarray:
    data = mujoco.MjData(model)
    mujoco.mj_kinematics(model, data)
    return urdf.world_inertia(model, data, body)


def compare_inertia(urdf_inertia_to_fullinertia, six) -> None:
    """Assert the learner's six numbers, written as MJCF fullinertia, compile to the tensor
    MuJoCo's URDF import makes of URDF <inertia ixx ixy ixz iyy iyz izz> = six."""
    names = ("ixx", "ixy", "ixz", "iyy", "iyz", "izz")
    inertia = " ".join(f'{n}="{float(v)!r}"' for n, v in zip(names, six, strict=True))
    link = f'\n    <inertial>\n      <mass value="1"/>\n      <inertia {inertia}/>\n    </inertial>'
    want = _tensor_of(urdf.compile_urdf(_one_link_urdf(link)))
    what = f"urdf_inertia_to_fullinertia{tuple(float(v) for v in six)}"
    got = _answer(urdf_inertia_to_fullinertia(*[float(v) for v in six]), what)
    got = expect.as_floats(got, what)
    hint = "Look at the element map's inertia row: the two formats list the six numbers in "
    hint += "different orders."
    if len(got) != 6 or any(isinstance(g, list) for g in got):
        raise AssertionError(f"{what} should be 6 numbers, got {got}. {hint}")
    model, error = compiled.compile_or_error(
        "<mujoco><worldbody><body><joint/>"
        f'<inertial pos="0 0 0" mass="1" fullinertia="{_numbers(got)}"/>'
        "</body></worldbody></mujoco>"
    )
    if model is None:
        raise AssertionError(
            f'MuJoCo refuses fullinertia="{_numbers(got)}" from {what}: {error}. {hint}'
        )
    expect.close(
        _tensor_of(model),
        want,
        f"the tensor of fullinertia from {what}",
        rtol=1e-9,
        atol=1e-15,
        hint=hint,
    )


@expect.visible_check
def urdf_inertia(urdf_inertia_to_fullinertia) -> None:
    """Compare urdf_inertia_to_fullinertia with MuJoCo's URDF import on the lesson's tensors."""
    for six in INERTIA_CASES:
        compare_inertia(urdf_inertia_to_fullinertia, six)
    expect.ok("fullinertia from your six numbers is the tensor MuJoCo imports from the URDF.")


# --------------------------------------------------------------------------------------------
# Step 2 · urdf_geometry_to_mjcf

GEOMETRY_XML = {
    "box": '<box size="{0!r} {1!r} {2!r}"/>',
    "cylinder": '<cylinder radius="{0!r}" length="{1!r}"/>',
    "sphere": '<sphere radius="{0!r}"/>',
}
GEOMETRY_HINTS = {
    "box": "URDF gives a box's full side lengths; MJCF's box size is something else.",
    "cylinder": "URDF gives a cylinder's full length; what does MJCF's second size number hold?",
    "sphere": "A sphere is its radius in both formats.",
}


def compare_geometry(urdf_geometry_to_mjcf, kind: str, dims) -> None:
    """Assert urdf_geometry_to_mjcf(kind, dims) gives the geom type and the first numbers of
    the geom_size MuJoCo's import compiles from the URDF shape."""
    dims = [float(value) for value in dims]
    shape = GEOMETRY_XML[kind].format(*dims)
    link = UNIT_LINK + f"\n    <collision>\n      <geometry>{shape}</geometry>\n    </collision>"
    model = urdf.compile_urdf(_one_link_urdf(link))
    want_type = GEOMETRY_TYPES[mujoco.mjtGeom(model.geom_type[0])]
    want_size = model.geom_size[0][: mjcf.SHAPE_SIZES[want_type]]
    what = f"urdf_geometry_to_mjcf({kind!r}, {dims})"
    result = _answer(urdf_geometry_to_mjcf(kind, dims), what)
    mjcf_type, size = expect.sequence_of(result, 2, what)
    if mjcf_type != want_type:
        raise AssertionError(f"{what} gives type {mjcf_type!r}; MuJoCo makes a {want_type!r}.")
    expect.close(size, want_size, f"the size from {what}", rtol=1e-12, hint=GEOMETRY_HINTS[kind])


@expect.visible_check
def urdf_geometry(urdf_geometry_to_mjcf, kinds=("box",)) -> None:
    """Compare urdf_geometry_to_mjcf with MuJoCo's URDF import on the lesson's shapes."""
    count = 0
    for kind in kinds:
        for dims in GEOMETRY_CASES[kind]:
            compare_geometry(urdf_geometry_to_mjcf, kind, dims)
            count += 1
    expect.ok(
        f"{count} {' and '.join(kinds)} shape(s) give the geom_size MuJoCo's import compiles."
    )


# --------------------------------------------------------------------------------------------
# Step 3 · rpy_to_quat


def compare_rpy(rpy_to_quat, rpy) -> None:
    """Assert rpy_to_quat(rpy) is, up to sign, the body_quat MuJoCo compiles for the child of a
    URDF joint whose origin has this rpy."""
    rpy = [float(a) for a in rpy]
    want = urdf.compile_urdf(_one_link_urdf(UNIT_LINK, rpy)).body_quat[1]
    what = f"rpy_to_quat({[round(a, 4) for a in rpy]})"
    got = expect.as_floats(_answer(rpy_to_quat(rpy), what), what)
    if (
        len(got) == 4
        and all(isinstance(g, float) for g in got)
        and sum(g * w for g, w in zip(got, want, strict=True)) < 0
    ):
        got = [-g for g in got]  # q and -q are the same rotation
    expect.close(got, want, what, rtol=0, atol=1e-9, hint=HINTS["rpy"])


@expect.visible_check
def rpy(rpy_to_quat) -> None:
    """Compare rpy_to_quat with MuJoCo's import of URDF joint origins on the lesson's angles."""
    for angles in RPY_CASES:
        compare_rpy(rpy_to_quat, angles)
    expect.ok(f"{len(RPY_CASES)} joint origins give the body quaternions MuJoCo's import compiles.")


# --------------------------------------------------------------------------------------------
# Step 4 · planar_arm_tip


def compare_tip(planar_arm_tip, base_height: float, lengths, q) -> None:
    """Assert planar_arm_tip matches site_xpos of a planar chain after mj_kinematics."""
    lengths, q = [float(v) for v in lengths], [float(v) for v in q]
    want = arms.chain_tip(arms.planar_chain(base_height, lengths), q)
    what = f"planar_arm_tip({base_height:g}, {lengths}, {[round(a, 4) for a in q]})"
    got = _answer(planar_arm_tip(float(base_height), lengths, q), what)
    expect.close(got, want, what, rtol=0, atol=1e-12, hint=HINTS["tip"])


@expect.visible_check
def planar_tip(planar_arm_tip) -> None:
    """Compare planar_arm_tip with the site tool0 of the lesson's arm."""
    for q in TIP_ANGLES:
        compare_tip(planar_arm_tip, arm.BASE_HEIGHT, arm.LENGTHS, q)
    expect.ok(f"the tip matches MuJoCo's site at {len(TIP_ANGLES)} poses of the lesson's arm.")


# --------------------------------------------------------------------------------------------
# Step 5 · servo_rest_angles


@functools.cache
def lesson_rest(seconds: float = 20.0) -> tuple:
    """Where the lesson's arm rests after `seconds` with its servos at arm.TARGETS (rad)."""
    return tuple(float(q) for q in arm.run(arm.mjcf_text(), seconds).final)


def compare_servo(servo_rest_angles, xml: str, kp, targets, rest) -> None:
    """Assert servo_rest_angles(kp, targets, gravity_torque) gives `rest`, where a long
    simulation of `xml` came to rest; gravity_torque is MuJoCo's, -qfrc_bias at rest."""
    kp, targets = [float(k) for k in kp], [float(t) for t in targets]
    what = f"servo_rest_angles({[round(k, 2) for k in kp]}, {[round(t, 4) for t in targets]}, ...)"
    got = _answer(servo_rest_angles(kp, targets, arm.gravity_torque(xml)), what)
    expect.close(got, list(rest), what, rtol=0, atol=1e-6, hint=HINTS["servo"])


@expect.visible_check
def servo(servo_rest_angles) -> None:
    """Compare servo_rest_angles with 20 s of the lesson's arm."""
    compare_servo(servo_rest_angles, arm.mjcf_text(), arm.KP, arm.TARGETS, lesson_rest())
    expect.ok("your rest angles are where the simulated arm comes to rest, to 1e-6 rad.")


@functools.lru_cache(maxsize=256)  # bounded: hidden cases differ per submission
def servo_case(seed: int) -> arms.ServoCase:
    """A servo-held planar chain drawn from `seed` (cached: its simulation takes a moment)."""
    return arms.servo_case(seed)


def compare_servo_case(servo_rest_angles, seed: int) -> None:
    """compare_servo on the servo-held chain drawn from `seed`."""
    case = servo_case(seed)
    compare_servo(servo_rest_angles, case.xml, case.kp, case.targets, case.rest)


# --------------------------------------------------------------------------------------------
# Step 6 · urdf_to_mjcf

CONVERTER_HINTS = {
    "kinematics": "Place each child body at its joint's origin (xyz, and rpy as fixed-axis "
    "angles), and give each joint its axis; a URDF joint without <axis> turns about x.",
    "mass": "Give each body its link's mass, centre of mass and inertia; an inertial origin's "
    "rpy turns the tensor itself, and links on fixed joints are fused into their parent.",
    "limits": "Ranges come from lower and upper (radians), force ranges from effort (none for "
    "0), damping and frictionloss from <dynamics>.",
    "geoms": "Only <collision> elements become geoms (MuJoCo drops visuals); MJCF sizes are "
    "half-lengths.",
}


def learner_model(urdf_to_mjcf, urdf_text: str) -> mujoco.MjModel:
    """Compile what urdf_to_mjcf returns for `urdf_text`: MJCF text, plainly MJCF."""
    result = _answer(urdf_to_mjcf(urdf_text), "urdf_to_mjcf")
    if not isinstance(result, str) or len(result) > MAX_MJCF_CHARS:
        raise AssertionError("urdf_to_mjcf should return MJCF text (a string of a <mujoco> model).")
    try:
        tree = ET.fromstring(result)
    except ET.ParseError as error:
        raise AssertionError(f"urdf_to_mjcf returned text that is not XML: {error}") from None
    if tree.tag != "mujoco":
        raise AssertionError(
            f"urdf_to_mjcf should return MJCF, a <mujoco> document, not <{tree.tag}>."
        )
    used = {element.tag for element in tree.iter()} & set(FORBIDDEN_MJCF)
    files = [k for element in tree.iter() for k in element.attrib if "file" in k or "dir" in k]
    if used or files:
        raise AssertionError(
            f"urdf_to_mjcf's MJCF uses {sorted(used) + files}: write the model itself, in plain "
            "bodies, joints, inertials and geoms."
        )
    try:
        return compiled.compile_xml(result)
    except compiled.ModelError as error:
        raise AssertionError(f"MuJoCo cannot compile urdf_to_mjcf's MJCF: {error}") from None


def _configurations(model: mujoco.MjModel, rng: np.random.Generator, count: int) -> list[dict]:
    """`count` joint configurations {joint name: value} within each joint's range, the first
    all zeros."""
    found = [{model.joint(j).name: 0.0 for j in range(model.njnt)}]
    for _ in range(count - 1):
        angles = {}
        for j in range(model.njnt):
            if model.jnt_limited[j]:
                low, high = model.jnt_range[j]
            elif model.jnt_type[j] == mujoco.mjtJoint.mjJNT_SLIDE:
                low, high = -0.2, 0.2
            else:
                low, high = -np.pi, np.pi
            angles[model.joint(j).name] = float(rng.uniform(low, high))
        found.append(angles)
    return found


def _same_names(want: mujoco.MjModel, got: mujoco.MjModel, hint: str) -> None:
    bodies = {got.body(b).name for b in range(got.nbody)}
    missing = [b for b in urdf.moving_bodies(want) if b not in bodies]
    if missing:
        raise AssertionError(f"Your MJCF has no body named {missing} (keep the link names). {hint}")
    joints = {got.joint(j).name for j in range(got.njnt)}
    missing = [want.joint(j).name for j in range(want.njnt) if want.joint(j).name not in joints]
    if missing:
        raise AssertionError(f"Your MJCF has no joint named {missing} (keep the joint names).")
    for j in range(want.njnt):
        name = want.joint(j).name
        if got.joint(name).type[0] != want.jnt_type[j]:
            kind = urdf.joint_summary(want)[name]["type"]
            raise AssertionError(f"Joint {name} should be a {kind}, as MuJoCo's import makes it.")


def compare_kinematics(urdf_to_mjcf, urdf_text: str, seed: int = 0) -> None:
    """Assert the learner's MJCF has MuJoCo's import's moving bodies and joints (names, types)
    and puts every body, joint anchor and joint axis where the import does, at qpos = 0 and at
    random joint values."""
    hint = CONVERTER_HINTS["kinematics"]
    want, got = urdf.compile_urdf(urdf_text), learner_model(urdf_to_mjcf, urdf_text)
    _same_names(want, got, hint)
    dw, dg = mujoco.MjData(want), mujoco.MjData(got)
    for k, angles in enumerate(_configurations(want, np.random.default_rng(seed), 4)):
        urdf.set_joints(want, dw, angles)
        urdf.set_joints(got, dg, angles)
        where = "at qpos = 0" if k == 0 else f"at joint values {_rounded(angles)}"
        for what, w, g in _placements(want, dw, dg):
            expect.close(g, w, f"{what} {where}", rtol=0, atol=1e-9, hint=hint)


def _placements(want: mujoco.MjModel, dw: mujoco.MjData, dg: mujoco.MjData):
    """(what, the import's value, the learner's) for every moving body's world position and
    orientation, then every joint's world axis and anchor: the order compare_kinematics checks
    them in. Both models must have want's body and joint names (_same_names)."""
    for body in urdf.moving_bodies(want):
        yield f"body {body}'s world position", dw.body(body).xpos, dg.body(body).xpos
        yield f"body {body}'s world orientation (xmat)", dw.body(body).xmat, dg.body(body).xmat
    for name in (want.joint(j).name for j in range(want.njnt)):
        yield f"joint {name}'s world axis", dw.joint(name).xaxis, dg.joint(name).xaxis
        yield f"joint {name}'s world anchor", dw.joint(name).xanchor, dg.joint(name).xanchor


def _rounded(angles: dict) -> dict:
    return {name: round(value, 3) for name, value in angles.items()}


def compare_mass(urdf_to_mjcf, urdf_text: str) -> None:
    """Assert the learner's moving bodies are MuJoCo's import's, with the same masses, world
    centres of mass and world inertia tensors at qpos = 0."""
    hint = CONVERTER_HINTS["mass"]
    want, got = urdf.compile_urdf(urdf_text), learner_model(urdf_to_mjcf, urdf_text)
    _same_names(want, got, hint)
    extra = sorted(set(urdf.moving_bodies(got)) - set(urdf.moving_bodies(want)))
    if extra:
        raise AssertionError(
            f"Your MJCF keeps moving bodies that MuJoCo's import fuses into their parent: "
            f"{extra}. {hint}"
        )
    dw, dg = mujoco.MjData(want), mujoco.MjData(got)
    mujoco.mj_kinematics(want, dw)
    mujoco.mj_kinematics(got, dg)
    for body in urdf.moving_bodies(want):
        expect.close(
            got.body(body).mass, want.body(body).mass, f"body {body}'s mass", rtol=1e-9, hint=hint
        )
        expect.close(
            dg.body(body).xipos,
            dw.body(body).xipos,
            f"body {body}'s world centre of mass",
            rtol=0,
            atol=1e-9,
            hint=hint,
        )
        tensor = urdf.world_inertia(want, dw, body)
        expect.close(
            urdf.world_inertia(got, dg, body),
            tensor,
            f"body {body}'s inertia in world axes",
            rtol=0,
            atol=1e-9 * float(np.abs(tensor).max()),
            hint=hint,
        )


def compare_limits(urdf_to_mjcf, urdf_text: str) -> None:
    """Assert each joint's limit flag and range, force-range flag and range, damping and
    frictionloss are those of MuJoCo's import."""
    hint = CONVERTER_HINTS["limits"]
    want, got = urdf.compile_urdf(urdf_text), learner_model(urdf_to_mjcf, urdf_text)
    _same_names(want, got, hint)
    mine = urdf.joint_summary(got)
    for name, theirs in urdf.joint_summary(want).items():
        ours = mine[name]
        for flag, values, label in (
            ("limited", "range", "a position limit"),
            ("force_limited", "force_range", "a force range"),
        ):
            if ours[flag] != theirs[flag]:
                has = "has" if theirs[flag] else "has no"
                raise AssertionError(f"Joint {name} {has} {label} in MuJoCo's import. {hint}")
            if theirs[flag]:
                expect.close(
                    ours[values], theirs[values], f"joint {name}'s {label}", rtol=1e-9, hint=hint
                )
        for quantity in ("damping", "frictionloss"):
            expect.close(
                ours[quantity],
                theirs[quantity],
                f"joint {name}'s {quantity}",
                rtol=1e-9,
                atol=1e-12,
                hint=hint,
            )


def _geoms(model: mujoco.MjModel) -> dict[str, list]:
    """{the body a geom moves with: [(type, size, world position, world axes)]} at qpos = 0."""
    data = mujoco.MjData(model)
    mujoco.mj_kinematics(model, data)
    found: dict[str, list] = {}
    for g in range(model.ngeom):
        kind = GEOMETRY_TYPES.get(mujoco.mjtGeom(model.geom_type[g]), "other")
        size = model.geom_size[g][: mjcf.SHAPE_SIZES.get(kind, 3)].copy()
        axes = data.geom_xmat[g].reshape(3, 3).copy()
        owner = urdf.weld_name(model, int(model.geom_bodyid[g]))
        found.setdefault(owner, []).append((kind, size, data.geom_xpos[g].copy(), axes))
    return found


def _same_geom(a, b) -> bool:
    """Whether two geoms are the same shape in the same place (axes compared up to sign, and
    only as far as the shape can tell them apart)."""
    if a[0] != b[0] or not np.allclose(a[1], b[1], rtol=1e-9, atol=1e-12):
        return False
    if not np.allclose(a[2], b[2], atol=1e-9):
        return False
    columns = {"box": (0, 1, 2), "cylinder": (2,), "sphere": ()}.get(a[0], (0, 1, 2))
    return all(abs(abs(a[3][:, c] @ b[3][:, c]) - 1) < 1e-9 for c in columns)


def compare_geoms(urdf_to_mjcf, urdf_text: str) -> None:
    """Assert the learner's MJCF has the collision geoms of MuJoCo's import, on the same
    bodies, with the same types, sizes and world poses at qpos = 0."""
    hint = CONVERTER_HINTS["geoms"]
    want, got = urdf.compile_urdf(urdf_text), learner_model(urdf_to_mjcf, urdf_text)
    theirs, ours = _geoms(want), _geoms(got)
    for owner in sorted(set(theirs) | set(ours)):
        left = list(ours.get(owner, []))
        for geom in theirs.get(owner, []):
            match = next((i for i, mine in enumerate(left) if _same_geom(geom, mine)), None)
            if match is None:
                raise AssertionError(
                    f"MuJoCo's import has a {geom[0]} of size {np.round(geom[1], 6).tolist()} at "
                    f"{np.round(geom[2], 6).tolist()} on {owner}; your MJCF has no geom like it "
                    f"there. {hint}"
                )
            left.pop(match)
        if left:
            raise AssertionError(
                f"Your MJCF has {len(left)} geom(s) on {owner} that MuJoCo's import does not "
                f"make. {hint}"
            )


ASPECTS = {
    "kinematics": compare_kinematics,
    "mass": compare_mass,
    "limits": compare_limits,
    "geoms": compare_geoms,
}


def lesson_urdfs() -> dict[str, str]:
    """The URDF files the lesson shows: the two-link arm and the lift-and-wrist arm."""
    return {
        "two_link_arm": arm.urdf_text(),
        "lift_and_wrist": mjcf.template(arm.__file__, "showcase_arm.urdf"),
    }


def compare_converter(urdf_to_mjcf, urdf_text: str, aspect: str) -> None:
    """One aspect of urdf_to_mjcf ("kinematics", "mass", "limits", "geoms") against MuJoCo's
    import of `urdf_text`."""
    ASPECTS[aspect](urdf_to_mjcf, urdf_text)


@expect.visible_check
def converter(urdf_to_mjcf, aspect: str) -> None:
    """Compare one aspect of urdf_to_mjcf with MuJoCo's import of the lesson's two URDF arms."""
    for text in lesson_urdfs().values():
        compare_converter(urdf_to_mjcf, text, aspect)
    said = {
        "kinematics": "bodies, joint axes and anchors sit where MuJoCo's import puts them",
        "mass": "masses, centres of mass and inertias are MuJoCo's import's",
        "limits": "ranges, force ranges, damping and frictionloss are MuJoCo's import's",
        "geoms": "the collision geoms are MuJoCo's import's",
    }
    expect.ok(f"on both arms of the lesson, {said[aspect]}.")
