"""Lesson 01's drop experiments, run by MuJoCo.

A drop is described by heights (m) of a body's lowest point above the table top after 0, 1,
2, ... steps, as in `course.falls`, whose landing arithmetic is used here.
"""

import functools
from dataclasses import dataclass

import mujoco
import numpy as np

from course import falls
from course.compiled import compile_xml, free_body_dofs, free_body_heights, remembered
from course.lessons.world_as_text import scenes

# Lesson 01's mass sweep: the light cube's masses (kg), always dropped beside a 1 kg cube.
SWEEP_MASSES_KG = (0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0)
AIR_DENSITY = 1.2  # kg/m^3, sea-level air


@dataclass(frozen=True)
class TwoCubeDrop:
    """What the two-cube experiment measures.

    light_step, heavy_step: landing steps; delay_ms: light landing time minus heavy landing
    time (interpolated, ms); gap_cm: how much higher the light cube is when the heavy one
    lands (cm); heights: (steps + 1, 2) array, columns light and heavy.
    """

    light_step: int
    heavy_step: int
    delay_ms: float
    gap_cm: float
    heights: np.ndarray


@remembered
def run_two_cube_drop(
    light_kg: float = 0.1, heavy_kg: float = 1.0, air_density: float = 0.0, **scene
) -> TwoCubeDrop:
    """Simulate the two-cube scene with mj_step until both cubes reach the table top.

    Masses in kg, air density in kg/m^3; `scene` takes drop_height (m), timestep (s) and
    gravity (m/s^2) as `scenes.two_cube_drop` does.
    """
    model = compile_xml(scenes.two_cube_drop(light_kg, heavy_kg, air_density, **scene))
    timestep, gravity = float(model.opt.timestep), float(-model.opt.gravity[2])
    data = mujoco.MjData(model)
    z_light = model.jnt_qposadr[model.body("light").jntadr[0]] + 2
    z_heavy = model.jnt_qposadr[model.body("heavy").jntadr[0]] + 2
    bottom = scenes.TABLE_TOP_Z + scenes.CUBE_HALF_SIDE  # origin height when a cube touches
    rows = [(data.qpos[z_light] - bottom, data.qpos[z_heavy] - bottom)]
    max_steps = falls.fall_steps(rows[0][1], gravity, timestep)  # ample for any mass here
    landed = [False, False]
    while not all(landed):  # a landed cube may bounce back up: remember that it landed
        if len(rows) > max_steps:
            raise RuntimeError("a cube did not land in twice the vacuum fall time")
        mujoco.mj_step(model, data)
        rows.append((data.qpos[z_light] - bottom, data.qpos[z_heavy] - bottom))
        landed = [was or now <= 0 for was, now in zip(landed, rows[-1], strict=True)]
    heights = np.array(rows)
    light, heavy = heights[:, 0], heights[:, 1]
    heavy_step = falls.landing_step(heavy)
    return TwoCubeDrop(
        light_step=falls.landing_step(light),
        heavy_step=heavy_step,
        delay_ms=1000 * (falls.landing_time(light, timestep) - falls.landing_time(heavy, timestep)),
        gap_cm=float(100 * (light[heavy_step] - heavy[heavy_step])),
        heights=heights,
    )


@functools.lru_cache(maxsize=256)  # bounded: hidden cases differ per submission
def delay_sweep(
    light_masses_kg=SWEEP_MASSES_KG,
    heavy_kg: float = 1.0,
    air_density: float = AIR_DENSITY,
    drop_height: float = 0.40,
    timestep: float = 0.002,
) -> dict[float, float]:
    """Landing delay (ms) of each light cube behind the heavy one, simulated by MuJoCo."""
    return {
        m: run_two_cube_drop(
            m, heavy_kg, air_density, drop_height=drop_height, timestep=timestep
        ).delay_ms
        for m in light_masses_kg
    }


@remembered
def shape_drop_heights(
    kind: str,
    size,
    mass: float,
    air_density: float = 0.0,
    drop_height: float = 0.40,
    timestep: float = 0.002,
    gravity: float = 9.81,
) -> np.ndarray:
    """Heights (m) of one falling shape's lowest point above the table top, from mj_step.

    The body falls straight down from rest with its lowest point `drop_height` above the
    table top; the array ends at the landing step.
    """
    xml = falls.shape_drop(kind, size, mass, air_density, timestep, gravity)
    steps = falls.fall_steps(drop_height, gravity, timestep, margin=3.0)
    heights = drop_height + free_body_heights(xml, steps)
    return heights[: falls.landing_step(heights) + 1]


def drag_on(model: mujoco.MjModel, velocity, body: str = "body") -> np.ndarray:
    """MuJoCo's fluid force (N, world frame) on a free body of a compiled `model`, set moving
    at `velocity` (m/s, world frame) without rotation at its initial pose: qfrc_fluid after
    mj_forward, so no time passes. Reads the model as it is now, edits included."""
    data = mujoco.MjData(model)
    dofs = free_body_dofs(model, body)
    data.qvel[dofs.start : dofs.start + 3] = velocity
    mujoco.mj_forward(model, data)
    return data.qfrc_fluid[dofs.start : dofs.start + 3].copy()


def acceleration_at_rest(model: mujoco.MjModel, body: str = "body") -> float:
    """Vertical acceleration (m/s^2) of a free body of a compiled `model` released at rest at
    its initial pose, from mj_forward: what the model as it is now (edits included) makes of
    its weight and its mass matrix."""
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    return float(data.qacc[free_body_dofs(model, body).start + 2])
