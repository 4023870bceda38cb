"""Kinematic trees as plain data, their MJCF, and the poses MuJoCo computes for them.

A tree is a list of bodies in tree order (every parent before its children), each a dict

    {"name": "arm", "parent": "world" or an earlier body's name,
     "pos": [x, y, z], "quat": [w, x, y, z],            # the body in its parent (MJCF pos, quat)
     "joints": [{"type": "hinge" or "slide", "axis": [x, y, z], "pos": [x, y, z]}, ...]}

which is what MJCF nesting says: `pos` and `quat` of a <body> are relative to its parent, a
joint's `axis` and `pos` (its anchor) are in the body's frame. `qpos` holds one number per joint,
in the order the bodies and their joints are listed (rad for a hinge, m for a slide), measured
from the pose the MJCF states (ref 0). `mujoco_poses` asks MuJoCo (mj_kinematics) for the pose
of every body in the world; nothing here composes a pose itself.
"""

from collections.abc import Sequence

import mujoco
import numpy as np

from course import compiled, mjcf
from course.frames import random_unit_quat
from course.mjcf import numbers

TREE = mjcf.template(__file__, "tree")
JOINT_TYPES = ("hinge", "slide")


def body(name, parent, pos, quat=(1.0, 0.0, 0.0, 0.0), joints=()) -> dict:
    """One body of a tree, as plain lists (see the module docstring)."""
    return {
        "name": name,
        "parent": parent,
        "pos": [float(v) for v in pos],
        "quat": [float(v) for v in quat],
        "joints": [
            {
                "type": j["type"],
                "axis": [float(v) for v in j["axis"]],
                "pos": [float(v) for v in j["pos"]],
            }
            for j in joints
        ],
    }


def joint(kind: str, axis, pos=(0.0, 0.0, 0.0)) -> dict:
    """One joint: "hinge" or "slide", its axis (any length) and anchor in the body frame (m)."""
    mjcf.one_of(kind, JOINT_TYPES, "a joint's type")
    return {"type": kind, "axis": [float(v) for v in axis], "pos": [float(v) for v in pos]}


def joint_count(bodies: Sequence[dict]) -> int:
    """How many numbers qpos holds for this tree."""
    return sum(len(b["joints"]) for b in bodies)


def without_joints(bodies: Sequence[dict], kind: str | None = None) -> list[dict]:
    """The same tree with every joint of `kind` removed (every joint when kind is None)."""
    return [
        {**b, "joints": [j for j in b["joints"] if kind is not None and j["type"] != kind]}
        for b in bodies
    ]


def random_tree(rng: np.random.Generator, n_bodies: int, kinds=JOINT_TYPES, max_joints=3):
    """A random tree of `n_bodies` bodies in tree order, each with 0..max_joints joints of the
    given kinds (none when kinds is empty): random parents, poses, axes of any length and
    anchors. The first body's parent is the world."""
    bodies = []
    for index in range(n_bodies):
        parent = "world" if index == 0 else bodies[int(rng.integers(0, index))]["name"]
        joints = []
        for _ in range(int(rng.integers(1, max_joints + 1)) if kinds else 0):
            axis = rng.normal(size=3)
            axis *= rng.uniform(0.3, 2.0) / np.linalg.norm(axis)  # not of unit length
            joints.append(joint(str(rng.choice(kinds)), axis, rng.uniform(-0.3, 0.3, 3)))
        bodies.append(
            body(f"b{index}", parent, rng.uniform(-0.5, 0.5, 3), random_unit_quat(rng), joints)
        )
    return bodies


def random_qpos(rng: np.random.Generator, bodies: Sequence[dict]) -> list[float]:
    """One random joint value per joint: hinges -3..3 rad, slides -0.5..0.5 m."""
    values = []
    for b in bodies:
        for j in b["joints"]:
            span = 3.0 if j["type"] == "hinge" else 0.5
            values.append(float(rng.uniform(-span, span)))
    return values


def _body_xml(b: dict, children: dict, depth: int) -> list[str]:
    pad = "  " * depth
    lines = [
        f'{pad}<body name="{b["name"]}" pos="{numbers(b["pos"])}" quat="{numbers(b["quat"])}">'
    ]
    for k, j in enumerate(b["joints"]):
        lines.append(
            f'{pad}  <joint name="{b["name"]}_j{k}" type="{j["type"]}" '
            f'axis="{numbers(j["axis"])}" pos="{numbers(j["pos"])}"/>'
        )
    lines.append(f'{pad}  <geom type="sphere" size=".02" mass=".1"/>')
    for child in children.get(b["name"], []):
        lines += _body_xml(child, children, depth + 1)
    lines.append(f"{pad}</body>")
    return lines


def tree_xml(bodies: Sequence[dict]) -> str:
    """The MJCF of a tree: nested bodies, joints named <body>_j<k>, a 100 g ball on each."""
    children: dict[str, list[dict]] = {}
    names = {"world"}
    for b in bodies:
        if b["parent"] not in names:
            raise ValueError(f"{b['name']}'s parent {b['parent']!r} is not listed before it")
        names.add(b["name"])
        children.setdefault(b["parent"], []).append(b)
    lines = []
    for root in children.get("world", []):
        lines += _body_xml(root, children, 2)
    return TREE.format(bodies="\n".join(lines))


def mujoco_poses(bodies: Sequence[dict], qpos: Sequence[float]) -> dict:
    """{body name: (xpos, xquat)} that MuJoCo's mj_kinematics gives the tree at `qpos`."""
    model = compiled.compile_xml(tree_xml(bodies))
    data = mujoco.MjData(model)
    values = iter(float(v) for v in qpos)
    for b in bodies:
        for k in range(len(b["joints"])):
            data.qpos[model.jnt_qposadr[model.joint(f"{b['name']}_j{k}").id]] = next(values)
    if next(values, None) is not None:
        raise ValueError(f"qpos has more numbers than the tree's {joint_count(bodies)} joints")
    mujoco.mj_kinematics(model, data)
    return {
        b["name"]: (data.body(b["name"]).xpos.copy(), data.body(b["name"]).xquat.copy())
        for b in bodies
    }


# The lesson's own tree: a puck that slides and turns in the plane (slide x, slide y,
# hinge z), an arm on a hinge at the puck's rim, and a gripper that slides out along the arm
# and rolls about it. The hidden tests use random trees instead.
LESSON_TREE = [
    body(
        "puck",
        "world",
        (0.0, 0.0, 0.05),
        joints=[joint("slide", (1, 0, 0)), joint("slide", (0, 1, 0)), joint("hinge", (0, 0, 1))],
    ),
    body(
        "arm",
        "puck",
        (0.1, 0.0, 0.0),
        (0.9238795325112867, 0.0, -0.3826834323650898, 0.0),  # tilted 45 degrees up
        [joint("hinge", (0, 0, 2), (-0.05, 0.0, 0.0))],
    ),
    body(
        "gripper",
        "arm",
        (0.4, 0.0, 0.0),
        joints=[joint("slide", (1, 0, 0)), joint("hinge", (1, 0, 0), (0.0, 0.0, 0.02))],
    ),
]
LESSON_QPOS = [0.3, -0.2, 0.6, -0.8, 0.05, 0.4]  # m, m, rad, rad, m, rad
