"""Visible checks for lesson 04, "Frames, quaternions and where the mass sits".

Each `compare_*` asserts that the learner's function gives what MuJoCo computes for one case
(mju_* functions, a compiled model, mj_kinematics) and names the likely mistake when it does
not; the visible checks run them on the cases the lesson shows, and the hidden tests on
seeded cases it never shows. Quaternions are compared up to sign: q and -q are one rotation.
"""

import math

import mujoco
import numpy as np

from course import compiled, expect, frames
from course.expect import letter as answer  # noqa: F401 (test cells call check.answer)
from course.lessons.frames_and_quaternions import bodies, scenes, trees

TOL = 1e-9  # m, rad, and for the numbers of a quaternion or a rotation matrix

# --------------------------------------------------------------------------------------------
# The cases the lesson shows

AXIS_ANGLE_CASES = (
    ((0.0, 0.0, 1.0), math.pi / 2),
    ((1.0, 1.0, 0.0), 2.0),  # an axis of length sqrt(2)
    ((0.0, 3.0, 4.0), -1.0),
    ((1.0, -2.0, 0.5), 4.5),  # beyond pi: MuJoCo's w is negative
)
MULTIPLY_CASES = (
    (
        (0.7071067811865476, 0.0, 0.0, 0.7071067811865476),
        (0.7071067811865476, 0.7071067811865476, 0.0, 0.0),
    ),
    ((0.5, 0.5, 0.5, 0.5), (0.0, 0.6, 0.0, 0.8)),
    ((0.8775825618903728, 0.0, 0.479425538604203, 0.0), (0.5, -0.5, 0.5, 0.5)),
)
MATRIX_CASES = (
    (0.7071067811865476, 0.0, 0.0, 0.7071067811865476),
    (0.5, 0.5, 0.5, 0.5),
    (0.8775825618903728, 0.1, -0.4, 0.2373),
)
EULER_CASES = (
    ((0.3, 0.5, 0.7), "xyz"),  # MuJoCo's default eulerseq
    ((0.3, 0.5, 0.7), "XYZ"),  # URDF's rpy
    ((1.2, -0.4, 2.0), "zyx"),
    ((1.2, -0.4, 2.0), "xYz"),  # letters may be mixed
)
ANGLE_CASES = (
    ((1.0, 0.0, 0.0, 0.0), (0.7071067811865476, 0.0, 0.0, 0.7071067811865476)),
    ((0.5, 0.5, 0.5, 0.5), (-0.5, -0.5, -0.5, 0.5)),  # a sign apart from a 2 pi / 3 turn
    (
        (0.7071067811865476, 0.0, 0.0, 0.7071067811865476),
        (-0.7071067811865476, 0.7071067811865476, 0.0, 0.0),
    ),
)
# Prediction 1 (a parent turned 90 degrees about z at (1, 0, 0), a child at (1, 0, 0) in it)
# and a child that is turned too.
COMPOSE_CASES = (
    (
        (1.0, 0.0, 0.0),
        (0.7071067811865476, 0.0, 0.0, 0.7071067811865476),
        (1.0, 0.0, 0.0),
        (1.0, 0.0, 0.0, 0.0),
    ),
    (
        (0.2, -0.1, 0.5),
        (0.5, 0.5, 0.5, 0.5),
        (0.3, 0.1, -0.2),
        (0.8775825618903728, 0.479425538604203, 0.0, 0.0),
    ),
)

# --------------------------------------------------------------------------------------------
# Comparisons


def _same_up_to_sign(got, want, tol: float = 1e-6) -> bool:
    """Whether two 4-vectors are equal or opposite, for diagnosing a wrong answer."""
    try:
        got = np.asarray(expect.as_floats(got, "a quaternion"), dtype=float).reshape(4)
    except (AssertionError, ValueError):
        return False
    want = np.asarray(want, dtype=float)
    return bool(min(np.abs(got - want).max(), np.abs(got + want).max()) < tol)


def _near(got, want, tol: float = 1e-6) -> bool:
    """Whether `got` has `want`'s shape and numbers, for diagnosing a wrong answer."""
    try:
        got = np.asarray(expect.as_floats(got, "a value"), dtype=float)
    except (AssertionError, ValueError):
        return False
    want = np.asarray(want, dtype=float)
    return got.shape == want.shape and bool(np.abs(got - want).max() < tol)


def quat_close(got, want, what: str, hint: str = "") -> None:
    """Assert `got` is the unit quaternion `want` or its opposite (the same rotation)."""
    values = expect.as_floats(got, what)
    want = [float(v) for v in want]
    if (
        isinstance(values, list)
        and len(values) == 4
        and all(not isinstance(v, list) for v in values)
    ):
        if sum(g * w for g, w in zip(values, want, strict=True)) < 0:
            want = [-w for w in want]  # q and -q are one rotation
    expect.close(values, want, what, rtol=0, atol=TOL, hint=hint)


def _first_hint(got, candidates, default: str) -> str:
    """The hint of the first (predicate, hint) whose predicate holds for `got`, else default."""
    for holds, hint in candidates:
        try:
            if holds(got):
                return hint
        except (AssertionError, ValueError, TypeError):  # not numbers of the right shape
            continue
    return default


def compare_axis_angle(quat_from_axis_angle, axis, angle: float) -> None:
    """Assert quat_from_axis_angle(axis, angle) is MuJoCo's quaternion (up to sign)."""
    want = frames.axis_angle_quat(axis, angle)
    what = f"quat_from_axis_angle({list(axis)}, {angle:.6g})"
    got = expect.answered(quat_from_axis_angle(list(axis), float(angle)), what)
    length = float(np.linalg.norm(axis))
    hint = _first_hint(
        got,
        [
            (
                lambda g: _near(g, np.roll(want, -1)) or _near(g, -np.roll(want, -1)),
                "MuJoCo writes the scalar part first, (w, x, y, z); yours has it last.",
            ),
            (
                lambda g: _same_up_to_sign(g, frames.axis_angle_quat(axis, 2 * angle)),
                "A quaternion holds HALF the turning angle.",
            ),
            (
                lambda g: (
                    _same_up_to_sign(np.asarray(g, dtype=float) / length, want)
                    or _same_up_to_sign(g, want * np.r_[1.0, [length] * 3])
                ),
                "The axis may have any length: use its direction only (a unit vector).",
            ),
            (
                lambda g: _same_up_to_sign(g, frames.axis_angle_quat(axis, math.radians(angle))),
                "The angle is in radians already.",
            ),
        ],
        "Check the order (w, x, y, z), the half angle, and that the axis is made unit length.",
    )
    quat_close(got, want, what, hint)


def compare_multiply(quat_multiply, q1, q2) -> None:
    """Assert quat_multiply(q1, q2) is mju_mulQuat's product (up to sign)."""
    want = frames.multiply(q1, q2)
    what = f"quat_multiply({list(q1)}, {list(q2)})"
    got = expect.answered(quat_multiply(list(q1), list(q2)), what)
    hint = _first_hint(
        got,
        [
            (
                lambda g: _same_up_to_sign(g, frames.multiply(q2, q1)),
                "That is q2 q1: the product is in the wrong order (the cross product's sign).",
            ),
        ],
        "Check the scalar part (the dot product's sign) and the vector part term by term.",
    )
    quat_close(got, want, what, hint)


def compare_matrix(quat_to_matrix, quat) -> None:
    """Assert quat_to_matrix(quat) is mju_quat2Mat's matrix."""
    want = frames.quat_matrix(quat)
    what = f"quat_to_matrix({list(quat)})"
    got = expect.answered(quat_to_matrix(list(quat)), what)
    hint = _first_hint(
        got,
        [
            (
                lambda g: _near(g, want.T),
                "That is the transpose, the inverse rotation: R^T in "
                "place of R. Column k of R is the body's axis k written in the parent's frame.",
            ),
            (
                lambda g: _near(g, frames.quat_matrix(np.roll(quat, -1))),
                "The quaternion is scalar first, (w, x, y, z): you read it as (x, y, z, w).",
            ),
        ],
        "Check each entry against the rotation of the unit vectors x, y and z.",
    )
    expect.close(got, want, what, rtol=0, atol=TOL, hint=hint)


def compiled_euler_quat(angles, seq: str) -> np.ndarray:
    """The body_quat MuJoCo compiles from euler = `angles` (rad) with eulerseq = `seq`."""
    return compiled.compile_xml(scenes.euler_body(angles, seq)).body_quat[1].copy()


def compare_euler(euler_to_quat, angles, seq: str) -> None:
    """Assert euler_to_quat(angles, seq) is the body_quat MuJoCo compiles (up to sign)."""
    want = compiled_euler_quat(angles, seq)
    what = f"euler_to_quat({[round(a, 6) for a in angles]}, {seq!r})"
    got = expect.answered(euler_to_quat(list(angles), seq), what)
    hint = _first_hint(
        got,
        [
            (
                lambda g: _same_up_to_sign(g, compiled_euler_quat(angles, seq.swapcase())),
                "Lowercase letters turn about the moving (body) axes and uppercase ones about the "
                "fixed (parent) axes: yours are the other way round.",
            ),
            (
                lambda g: _same_up_to_sign(g, compiled_euler_quat(np.radians(angles), seq)),
                "The angles are radians already (MuJoCo converts degrees when it compiles).",
            ),
        ],
        "Turn by each letter in order; where each turn goes in the product depends on the case "
        "of its letter.",
    )
    quat_close(got, want, what, hint)


def compare_angle_between(rotation_angle_between, q1, q2) -> None:
    """Assert rotation_angle_between(q1, q2) is MuJoCo's angle in [0, pi]."""
    want = frames.rotation_angle(q1, q2)
    what = f"rotation_angle_between({list(q1)}, {list(q2)})"
    got = expect.answered(rotation_angle_between(list(q1), list(q2)), what)
    value = expect.as_floats(got, what)
    hint = "The angle of the rotation from q1 to q2, in radians, between 0 and pi."
    if isinstance(value, float) and value > math.pi + 1e-9:
        hint = (
            "Above pi: q and -q are one rotation, so the angle between must not depend on the "
            "sign of either quaternion."
        )
    expect.close(value, want, what, rtol=0, atol=1e-6, hint=hint)


def mujoco_compose(parent_pos, parent_quat, child_pos, child_quat):
    """(xpos, xquat) MuJoCo's mj_kinematics gives a child posed in a posed parent."""
    model = compiled.compile_xml(scenes.pose_pair(parent_pos, parent_quat, child_pos, child_quat))
    data = mujoco.MjData(model)
    mujoco.mj_kinematics(model, data)
    return data.body("child").xpos.copy(), data.body("child").xquat.copy()


def compare_compose(compose_pose, parent_pos, parent_quat, child_pos, child_quat) -> None:
    """Assert compose_pose gives the child's world pose that mj_kinematics gives."""
    want_pos, want_quat = mujoco_compose(parent_pos, parent_quat, child_pos, child_quat)
    args = (list(parent_pos), list(parent_quat), list(child_pos), list(child_quat))
    what = "compose_pose(" + ", ".join(str(a) for a in args) + ")"
    result = expect.answered(compose_pose(*args), what)
    pos, quat = expect.sequence_of(result, 2, what)
    added = np.add(parent_pos, child_pos)
    pos_hint = _first_hint(
        pos,
        [
            (
                lambda g: _near(g, added),
                "The child's position is in the parent's frame: turn it "
                "into the world frame with the parent's orientation before adding.",
            )
        ],
        "The child's origin is the parent's origin plus the child's offset, seen in the world.",
    )
    expect.close(pos, want_pos, f"the position from {what}", rtol=0, atol=TOL, hint=pos_hint)
    quat_hint = _first_hint(
        quat,
        [
            (
                lambda g: _same_up_to_sign(g, frames.multiply(child_quat, parent_quat)),
                "The product is in the wrong order: the parent's orientation comes first.",
            )
        ],
        "The child's orientation in the world is a product of the two orientations.",
    )
    quat_close(quat, want_quat, f"the orientation from {what}", quat_hint)


# --------------------------------------------------------------------------------------------
# Forward kinematics

FK_HINTS = {
    "static": "With no joints every body's pose is its parent's pose composed with its own "
    "pos and quat, from the root down the list.",
    "slides": "A slide moves the body frame along its axis (made unit length), the axis seen "
    "in the body frame as the previous joints left it.",
    "hinges": "A hinge turns the body frame about its own axis (in the body frame as the "
    "previous joints left it), through its anchor: the anchor must not move.",
}


def _anchors_at_origin(tree):
    return [{**b, "joints": [{**j, "pos": [0.0, 0.0, 0.0]} for j in b["joints"]]} for b in tree]


def compare_forward_kinematics(forward_kinematics, tree, qpos, kind: str) -> None:
    """Assert forward_kinematics(tree, qpos) gives every body's xpos and xquat (up to sign).

    kind: "static", "slides" or "hinges", which hint a wrong answer gets.
    """
    want = trees.mujoco_poses(tree, qpos)
    what = f"forward_kinematics on a tree of {len(tree)} bodies"
    result = expect.answered(forward_kinematics(tree, [float(q) for q in qpos]), what)
    if not isinstance(result, dict):
        raise AssertionError(
            f"{what} should return a dict {{name: (pos, quat)}}, got {result!r:.80}"
        )
    missing = [name for name in want if name not in result]
    if missing:
        raise AssertionError(f"{what}: no pose for {missing}; return one for every body.")
    hint = FK_HINTS[kind]
    if kind == "hinges":
        about_origin = trees.mujoco_poses(_anchors_at_origin(tree), qpos)
        if all(_near(expect.sequence_of(result[n], 2, what)[0], about_origin[n][0]) for n in want):
            hint = (
                "Your hinges turn about the body origin; a hinge turns about its anchor "
                "(the joint's pos), which stays where it is."
            )
    for name, (want_pos, want_quat) in want.items():
        pos, quat = expect.sequence_of(result[name], 2, f"the pose of {name!r}")
        expect.close(pos, want_pos, f"the position of {name!r}", rtol=0, atol=TOL, hint=hint)
        quat_close(quat, want_quat, f"the orientation of {name!r}", hint)


def lesson_tree(kind: str):
    """(tree, qpos) of the lesson's puck, arm and gripper for one kind of check: "static"
    (its joints removed), "slides" (its hinges removed) or "hinges" (the whole tree)."""
    if kind == "static":
        return trees.without_joints(trees.LESSON_TREE), []
    if kind == "hinges":
        return trees.LESSON_TREE, list(trees.LESSON_QPOS)
    joints = [j for b in trees.LESSON_TREE for j in b["joints"]]
    slides = [q for j, q in zip(joints, trees.LESSON_QPOS, strict=True) if j["type"] == "slide"]
    return trees.without_joints(trees.LESSON_TREE, "hinge"), slides


# --------------------------------------------------------------------------------------------
# Where the mass sits


def compare_com(com_in_world, case: bodies.MassCase, flat_xmat: bool) -> None:
    """Assert com_in_world gives MuJoCo's xipos; xmat passed as 9 numbers or as 3x3."""
    state = bodies.mass_state(case)
    xmat = state.xmat.reshape(9) if flat_xmat else state.xmat
    what = "com_in_world(xpos, xmat, body_ipos)"
    got = expect.answered(com_in_world(state.xpos, xmat, state.body_ipos), what)
    hint = _first_hint(
        got,
        [
            (
                lambda g: _near(g, state.xpos + state.body_ipos),
                "body_ipos is in the body frame: turn it into the world frame with xmat first.",
            ),
            (
                lambda g: _near(g, state.xpos + state.xmat.T @ state.body_ipos),
                "xmat's 9 numbers are row by row: yours turn the other way (the transpose).",
            ),
        ],
        "The centre of mass is the origin plus body_ipos turned into the world frame.",
    )
    expect.close(got, state.xipos, what, rtol=0, atol=TOL, hint=hint)


def compare_world_inertia(inertia_in_world, case: bodies.MassCase, flat_xmat: bool) -> None:
    """Assert inertia_in_world gives the tensor whose principal axes are MuJoCo's ximat."""
    state = bodies.mass_state(case)
    xmat = state.xmat.reshape(9) if flat_xmat else state.xmat
    what = "inertia_in_world(xmat, body_iquat, body_inertia)"
    got = expect.answered(inertia_in_world(xmat, state.body_iquat, state.body_inertia), what)
    hint = (
        "The principal axes in the world are the body's axes turned by xmat and then by "
        "body_iquat's rotation; the tensor has the principal moments along them."
    )
    try:
        expect.inertia_matches(got, state.body_inertia, state.ximat.T, what)
        hint = "That tensor is turned the wrong way: R^T in place of R (or the other way round)."
    except AssertionError:
        pass
    expect.inertia_matches(got, state.body_inertia, state.ximat, what, rtol=1e-7, hint=hint)


# --------------------------------------------------------------------------------------------
# The visible checks, one per test cell


@expect.visible_check
def quat_from_axis_angle(function) -> None:
    """The lesson's axes and angles against mju_axisAngle2Quat."""
    for axis, angle in AXIS_ANGLE_CASES:
        compare_axis_angle(function, axis, angle)
    expect.ok(f"quat_from_axis_angle matches MuJoCo on {len(AXIS_ANGLE_CASES)} turns (up to sign).")


@expect.visible_check
def quat_multiply(function) -> None:
    """The lesson's pairs against mju_mulQuat."""
    for q1, q2 in MULTIPLY_CASES:
        compare_multiply(function, q1, q2)
    expect.ok(f"quat_multiply matches mju_mulQuat on {len(MULTIPLY_CASES)} pairs.")


@expect.visible_check
def quat_to_matrix(function) -> None:
    """The lesson's quaternions against mju_quat2Mat."""
    for quat in MATRIX_CASES:
        compare_matrix(function, frames.unit(quat))
    expect.ok(f"quat_to_matrix matches mju_quat2Mat on {len(MATRIX_CASES)} quaternions.")


@expect.visible_check
def euler_to_quat(function) -> None:
    """The lesson's angles and sequences against the compiled body_quat."""
    for angles, seq in EULER_CASES:
        compare_euler(function, angles, seq)
    expect.ok(f"euler_to_quat matches the compiler on {len(EULER_CASES)} eulerseq cases.")


@expect.visible_check
def rotation_angle_between(function) -> None:
    """The lesson's pairs against MuJoCo's mju_subQuat."""
    for q1, q2 in ANGLE_CASES:
        compare_angle_between(function, q1, q2)
    expect.ok(f"rotation_angle_between matches MuJoCo on {len(ANGLE_CASES)} pairs.")


@expect.visible_check
def compose_pose(function) -> None:
    """Prediction 1 and a turned child against mj_kinematics."""
    for case in COMPOSE_CASES:
        compare_compose(function, *case)
    expect.ok("compose_pose matches mj_kinematics, prediction 1 included.")


@expect.visible_check
def forward_kinematics(function, kind: str) -> None:
    """The lesson's puck, arm and gripper against mj_kinematics, for one kind of joint."""
    tree, qpos = lesson_tree(kind)
    compare_forward_kinematics(function, tree, qpos, kind)
    expect.ok(f"forward_kinematics matches mj_kinematics on the lesson's tree ({kind}).")


@expect.visible_check
def com_in_world(function) -> None:
    """The lesson's box against xipos."""
    for flat in (True, False):
        compare_com(function, bodies.LESSON_CASE, flat)
    expect.ok("com_in_world gives MuJoCo's xipos for the lesson's box (xmat flat and 3x3).")


@expect.visible_check
def inertia_in_world(function) -> None:
    """The lesson's box against the principal axes in ximat."""
    for flat in (True, False):
        compare_world_inertia(function, bodies.LESSON_CASE, flat)
    expect.ok("inertia_in_world has MuJoCo's principal moments along ximat's axes.")
