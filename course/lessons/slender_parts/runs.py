"""Lesson 06's experiments, simulated by MuJoCo: spin from a blow at the rim, a struck marker
on the floor, a part spinning alone, and parts rolling down a slope.

Every function returns what MuJoCo simulated (angular velocities, energies, distances); the
floor, where an experiment uses it, is applied by `parts.floor_bodies`.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import mujoco
import numpy as np

from course import compiled
from course.lessons.slender_parts import parts
from course.lessons.slender_parts.parts import RIGID_STEP


@dataclass(frozen=True)
class SpinUp:
    """What one blow at the rim did: spin about the part's own axis (rad/s) and how far that
    turns it in one step (rad)."""

    spin: float
    rotation_per_step: float


def spin_after_impulse(name_or_part, impulse: float, timestep: float = RIGID_STEP) -> SpinUp:
    """Strike a part, alone in zero gravity, with `impulse` N s at its rim, tangentially,
    within one step: a force impulse / timestep at the rim point (radius, 0, 0) along y."""
    chosen = parts.part(name_or_part)
    model = compiled.compile_xml(parts.free_part(chosen.content, timestep))
    data = mujoco.MjData(model)
    force = impulse / timestep
    # xfrc_applied acts at the centre of mass: the force, and its moment about the centre
    data.xfrc_applied[1, :3] = (0.0, force, 0.0)
    data.xfrc_applied[1, 3:] = np.cross((chosen.radius, 0.0, 0.0), (0.0, force, 0.0))
    mujoco.mj_step(model, data)
    spin = float(data.qvel[5])  # a free joint's angular velocity is in the body's own axes
    return SpinUp(spin, abs(spin) * timestep)


@dataclass(frozen=True)
class Strike:
    """A struck part, step by step: times (s) at the start of each step, the rotation of that
    step |omega| h (rad), the kinetic energy (J, MuJoCo's: armature included) and the height
    of the centre (m)."""

    times: np.ndarray
    rotation_per_step: np.ndarray
    kinetic_energy: np.ndarray
    height: np.ndarray


def strike(
    name_or_part="marker",
    impulse: float = 0.02,
    r0: float | None = None,
    seconds: float = 0.4,
    integrator: str = "Euler",
    timestep: float = RIGID_STEP,
) -> Strike:
    """Strike a part lying on the floor at the top of its rim with `impulse` N s, along x
    (across its axis), within the first step, and simulate `seconds`; with `r0` (m) the floor
    is applied first."""
    chosen = parts.part(name_or_part)
    model = compiled.compile_xml(parts.part_on_floor(chosen, integrator, timestep))
    if r0 is not None:
        parts.floor_bodies(model, ["part"], r0)
    data = mujoco.MjData(model)
    force = impulse / timestep
    data.xfrc_applied[1, :3] = (force, 0.0, 0.0)
    data.xfrc_applied[1, 3:] = np.cross((0.0, 0.0, chosen.radius), (force, 0.0, 0.0))
    rows = []
    for _ in range(int(round(seconds / timestep))):
        time, turn = data.time, float(np.linalg.norm(data.qvel[3:6])) * timestep
        height = float(data.qpos[2])
        mujoco.mj_step(model, data)  # data.energy: the state at the start of this step
        data.xfrc_applied[:] = 0.0
        rows.append((time, turn, float(data.energy[1]), height))
    times, turns, energies, heights = np.array(rows).T
    return Strike(times, turns, energies, heights)


def free_spin_energy_gain(
    name_or_part="marker",
    spin: float = 300.0,
    tumble: float = 1e-3,
    integrator: str = "Euler",
    seconds: float = 0.4,
    timestep: float = RIGID_STEP,
) -> float:
    """A part alone in zero gravity spins at `spin` rad/s about its own axis with a small
    `tumble` (rad/s) about a cross axis; the largest kinetic energy over `seconds` divided by
    the first. Without contacts or gravity, any gain is the integrator's."""
    chosen = parts.part(name_or_part)
    model = compiled.compile_xml(parts.free_part(chosen.content, timestep))
    model.opt.integrator = {v: k for k, v in compiled.INTEGRATOR_KEYWORDS.items()}[integrator]
    model.opt.enableflags |= mujoco.mjtEnableBit.mjENBL_ENERGY
    data = mujoco.MjData(model)
    data.qvel[3:6] = (tumble, 0.0, spin)
    energies = []
    for _ in range(int(round(seconds / timestep))):
        mujoco.mj_step(model, data)
        energies.append(float(data.energy[1]))
    return max(energies) / energies[0]


# --------------------------------------------------------------------------------------------
# Rolling down a slope


@dataclass(frozen=True)
class Roll:
    """One part rolling down the slope: times (s) after each step, distance travelled down
    the slope (m), speed down the slope (m/s) and spin about the part's own axis (rad/s)."""

    times: np.ndarray
    distances: np.ndarray
    speeds: np.ndarray
    spins: np.ndarray

    def acceleration(self, after: float = 0.1) -> float:
        """MuJoCo's mean acceleration down the slope (m/s^2) from `after` (s) to the end: the
        change of speed over the time it took (the first moments, as the contact settles, are
        left out)."""
        k = int(np.searchsorted(self.times, after))
        return float((self.speeds[-1] - self.speeds[k]) / (self.times[-1] - self.times[k]))

    def acceleration_between(self, start: float, stop: float) -> float:
        """MuJoCo's mean acceleration (m/s^2) between the first step at or after `start` and
        the last at or before `stop` (s)."""
        inside = np.flatnonzero((self.times >= start - 1e-12) & (self.times <= stop + 1e-12))
        first, last = inside[0], inside[-1]
        return float(
            (self.speeds[last] - self.speeds[first]) / (self.times[last] - self.times[first])
        )

    def rolling_radius(self) -> float:
        """Speed over spin at the end (m): the radius the part really rolls on."""
        return float(self.speeds[-1] / self.spins[-1])

    def window(self, start: float, stop: float, every: int = 1) -> tuple[list, list]:
        """(times, distances) between `start` and `stop` (s), every `every`-th step."""
        inside = (self.times >= start - 1e-12) & (self.times <= stop + 1e-12)
        return self.times[inside][::every].tolist(), self.distances[inside][::every].tolist()


def roll_model(model: mujoco.MjModel, names: Sequence[str], slope_deg: float, seconds: float):
    """Simulate a compiled slope scene for `seconds`; {body name: Roll}."""
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    down = parts.slope_downhill(slope_deg)
    joints = [model.body(name).jntadr[0] for name in names]
    qpos = [model.jnt_qposadr[j] for j in joints]
    dofs = [model.jnt_dofadr[j] for j in joints]
    start = [data.qpos[q : q + 3].copy() for q in qpos]
    steps = int(round(seconds / model.opt.timestep))
    times = np.empty(steps)
    distances, speeds, spins = (np.empty((steps, len(names))) for _ in range(3))
    for k in range(steps):
        mujoco.mj_step(model, data)
        times[k] = data.time
        for i, (q, v) in enumerate(zip(qpos, dofs, strict=True)):
            distances[k, i] = (data.qpos[q : q + 3] - start[i]) @ down
            speeds[k, i] = data.qvel[v : v + 3] @ down  # a free joint's linear velocity: world
            spins[k, i] = abs(data.qvel[v + 5])  # its angular velocity: in the body's axes
    return {
        name: Roll(times, distances[:, i], speeds[:, i], spins[:, i])
        for i, name in enumerate(names)
    }


def roll(
    lanes: Mapping[str, object],
    slope_deg: float = 10.0,
    seconds: float = 0.6,
    floored: Sequence[str] = (),
    r0: float = 0.009,
    timestep: float = RIGID_STEP,
    gravity: float = 9.81,
) -> dict[str, Roll]:
    """Roll parts down a slope side by side, from rest; the bodies named in `floored` get the
    floor at `r0` (m) first. lanes: {body name: a Part or the name of one of the lesson's};
    gravity in m/s^2."""
    chosen = {name: parts.part(p) for name, p in lanes.items()}
    model = compiled.compile_xml(parts.slope(chosen, slope_deg, timestep, gravity))
    if floored:
        parts.floor_bodies(model, floored, r0)
    return roll_model(model, list(chosen), slope_deg, seconds)


# The race of the lesson: the marker's size and mass three ways, and the marker with the floor.
RACE = {
    "solid cylinder": "solid cylinder",
    "tube": "tube",
    "marker": "marker",
    "floored marker": parts.FLOORED_MARKER,
}


def race(slope_deg: float = 10.0, seconds: float = 0.6, r0: float = 0.009) -> dict[str, Roll]:
    """The lesson's race down the slope: {lane: Roll}."""
    return roll(RACE, slope_deg, seconds, floored=["floored marker"], r0=r0)


def race_model(slope_deg: float = 10.0, r0: float = 0.009) -> mujoco.MjModel:
    """The race's compiled scene, the floor applied to its floored marker (for the video)."""
    chosen = {name: parts.part(p) for name, p in RACE.items()}
    model = compiled.compile_xml(parts.slope(chosen, slope_deg))
    return parts.floor_bodies(model, ["floored marker"], r0)
