"""One free body whose mass sits off its origin, posed by MuJoCo: what each field holds.

`mass_state` compiles the body, sets its free joint's qpos, runs mj_kinematics and returns the
compiled fields (body_ipos, body_iquat, body_inertia) beside the state MuJoCo computed (xpos,
xmat, xquat, xipos, ximat). Nothing here combines them: the lesson does that.
"""

from dataclasses import dataclass

import mujoco
import numpy as np

from course import compiled
from course.frames import random_unit_quat
from course.lessons.frames_and_quaternions import scenes


@dataclass(frozen=True)
class MassState:
    """A posed body: compiled fields and the state after mj_kinematics (world frame, SI).

    xmat and ximat are 3x3 matrices here (data.xmat[b] holds the same 9 numbers row by row).
    """

    body_ipos: np.ndarray
    body_iquat: np.ndarray
    body_inertia: np.ndarray
    xpos: np.ndarray
    xquat: np.ndarray
    xmat: np.ndarray
    xipos: np.ndarray
    ximat: np.ndarray


@dataclass(frozen=True)
class MassCase:
    """The inputs of `mass_state`: the body's mass properties and the free joint's pose."""

    ipos: tuple
    iquat: tuple
    mass: float
    diaginertia: tuple
    pos: tuple
    quat: tuple


def mass_state(case: MassCase) -> MassState:
    """Compile `case`'s body, put its free joint at (pos, quat) and ask MuJoCo for the state."""
    model = compiled.compile_xml(
        scenes.mass_body(case.ipos, case.iquat, case.mass, case.diaginertia)
    )
    data = mujoco.MjData(model)
    data.qpos[:3] = case.pos
    data.qpos[3:7] = case.quat
    mujoco.mj_kinematics(model, data)
    b = model.body("body").id
    return MassState(
        body_ipos=model.body_ipos[b].copy(),
        body_iquat=model.body_iquat[b].copy(),
        body_inertia=model.body_inertia[b].copy(),
        xpos=data.xpos[b].copy(),
        xquat=data.xquat[b].copy(),
        xmat=data.xmat[b].reshape(3, 3).copy(),
        xipos=data.xipos[b].copy(),
        ximat=data.ximat[b].reshape(3, 3).copy(),
    )


def random_mass_case(rng: np.random.Generator) -> MassCase:
    """A body of 0.2..5 kg, its centre of mass up to 0.3 m from its origin, random principal
    axes and moments (each two adding up to more than the third), at a random pose."""
    moments = np.sort(rng.uniform(0.01, 0.05, 3))
    moments[2] = min(moments[2], 0.95 * (moments[0] + moments[1]))
    return MassCase(
        ipos=tuple(rng.uniform(-0.3, 0.3, 3)),
        iquat=tuple(random_unit_quat(rng)),
        mass=float(rng.uniform(0.2, 5.0)),
        diaginertia=tuple(rng.permutation(moments)),
        pos=tuple(rng.uniform(-1.0, 1.0, 3)),
        quat=tuple(random_unit_quat(rng)),
    )


# The lesson's body: the seed's box (1 kg, centre of mass 2 cm along x, principal axes turned
# 30 degrees about z from the body frame), held at (0.5, 0.2, 0.3) m and turned 90 degrees
# about z.
LESSON_CASE = MassCase(
    ipos=(0.02, 0.0, 0.0),
    iquat=(0.9659258262890683, 0.0, 0.0, 0.25881904510252074),
    mass=1.0,
    diaginertia=(0.0016667, 0.0041667, 0.0041667),
    pos=(0.5, 0.2, 0.3),
    quat=(0.7071067811865476, 0.0, 0.0, 0.7071067811865476),
)
