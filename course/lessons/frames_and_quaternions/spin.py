"""The experiment of lesson 04: the seed's free box spun in zero gravity.

The box's origin and its centre of mass are 2 cm apart. A free joint's qvel is
(v, omega): v, the first three numbers, is the velocity of the body's ORIGIN in the world
frame; omega, the last three, is the angular velocity in the body's own frame. So which point
stays put depends on v, and on where the body frame sits (freejoint align).
"""

from dataclasses import dataclass

import mujoco
import numpy as np

from course import compiled
from course.lessons.frames_and_quaternions import scenes


@dataclass(frozen=True)
class SpinRun:
    """Paths of a spinning body: times (s, shape n), its origin and its centre of mass in the
    world (m, shape n x 3), sampled after 0, 1, 2 ... steps."""

    times: np.ndarray
    origin: np.ndarray
    com: np.ndarray

    @property
    def com_drift(self) -> float:
        """How far the centre of mass moved from its start, m."""
        return float(np.linalg.norm(self.com[-1] - self.com[0]))

    @property
    def com_speed(self) -> float:
        """The centre of mass's mean speed over the run, m/s."""
        return self.com_drift / float(self.times[-1] - self.times[0])

    @property
    def origin_radius(self) -> float:
        """The largest distance of the origin from the centre of mass's start, m."""
        return float(np.linalg.norm(self.origin - self.com[0], axis=1).max())


def set_velocity(model: mujoco.MjModel, data: mujoco.MjData, linear, angular) -> None:
    """Give the free body qvel = (linear, angular): the origin's velocity in the world (m/s)
    and the angular velocity in the body frame (rad/s)."""
    data.qvel[0:3] = np.asarray(linear, dtype=float)
    data.qvel[3:6] = np.asarray(angular, dtype=float)


def run_spin(
    angular, linear=(0.0, 0.0, 0.0), align: bool = False, seconds: float = 2.0, integrator="Euler"
):
    """Spin the free box: qvel (linear, angular) at t = 0, then `seconds` of mj_step with
    `integrator` at the default timestep, 0.002 s."""
    model = compiled.compile_xml(scenes.spin_box(align, integrator))
    data = mujoco.MjData(model)
    set_velocity(model, data, linear, angular)
    steps = int(round(seconds / model.opt.timestep))
    times, origin, com = np.empty(steps + 1), np.empty((steps + 1, 3)), np.empty((steps + 1, 3))
    box = model.body("box").id
    for k in range(steps + 1):
        if k:
            mujoco.mj_step(model, data)
        mujoco.mj_kinematics(model, data)  # positions of the current qpos
        times[k] = data.time
        origin[k] = data.xpos[box]
        com[k] = data.xipos[box]
    return SpinRun(times, origin, com)


def start_offset(align: bool = False) -> np.ndarray:
    """xipos - xpos of the box at rest, in the world frame (m): where its mass sits."""
    model = compiled.compile_xml(scenes.spin_box(align))
    data = mujoco.MjData(model)
    mujoco.mj_kinematics(model, data)
    box = model.body("box").id
    return data.xipos[box] - data.xpos[box]


def setup(linear, angular):
    """A `setup(model, data)` for course.render.show_simulation: the box's start velocity."""

    def start(model, data):
        set_velocity(model, data, linear, angular)

    return start
