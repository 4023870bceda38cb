"""Lesson 08's scenes, and what MuJoCo does with them: the contact it makes between two
geoms, a box on a slope, a ball at rest on a floor and a ball rolling to a stop.

These functions only build MJCF and ask MuJoCo; none computes a quantity the learner is asked
to derive. A slope is simulated with a level floor and gravity tilted by the slope's angle:
in the slope's own frame the physics is the same, and the box moves along x.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import mujoco
import numpy as np

from course import compiled

STEP = 0.002  # s: MuJoCo's default timestep, used by every scene here
# A stiff, elliptic contact for the rolling ball: with MuJoCo's default soft contact the
# rolling friction gives way at low speed (the lesson measures it), and the law is for a hard one.
STIFF = 'solref="0.004 1" solimp="0.99 0.99 0.001"'


def attributes(geom: dict) -> str:
    """A geom's attributes as MJCF text: {"friction": [0.3, 0.01, 0.001]} ->
    'friction="0.3 0.01 0.001"'. Lists are written space-separated."""
    out = []
    for name, value in geom.items():
        text = " ".join(repr(float(v)) for v in value) if isinstance(value, list | tuple) else value
        out.append(f'{name}="{text}"')
    return " ".join(out)


def pair_xml(geom1: dict, geom2: dict, distance: float = -0.05) -> str:
    """Two spheres of radius 0.1 m on free bodies, `distance` m apart surface to surface
    (negative: overlapping), with the attributes of geom1 and geom2; no gravity."""
    return f"""<mujoco><option gravity="0 0 0"/><worldbody>
  <body><freejoint/><geom name="geom1" type="sphere" size="0.1" {attributes(geom1)}/></body>
  <body pos="0 0 {0.2 + distance}"><freejoint/>
    <geom name="geom2" type="sphere" size="0.1" {attributes(geom2)}/></body>
</worldbody></mujoco>"""


@dataclass(frozen=True)
class Contact:
    """What MuJoCo's data.contact holds for one contact: condim, friction (5: sliding twice,
    torsional, rolling twice), solref (2), solimp (5), includemargin (m), dist (m, negative
    when the geoms overlap) and exclude (1: kept in data.contact, but given no force)."""

    condim: int
    friction: tuple[float, ...]
    solref: tuple[float, ...]
    solimp: tuple[float, ...]
    includemargin: float
    dist: float
    exclude: int


@compiled.remembered
def pair_contact(geom1: dict, geom2: dict, distance: float = -0.05) -> Contact | None:
    """The contact MuJoCo makes between the two spheres of `pair_xml`, or None when it makes
    none (mj_forward at the initial pose)."""
    model = compiled.compile_xml(pair_xml(geom1, geom2, distance))
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    if data.ncon == 0:
        return None
    c = data.contact[0]
    return Contact(
        int(c.dim),
        tuple(float(v) for v in c.friction),
        tuple(float(v) for v in c.solref),
        tuple(float(v) for v in c.solimp),
        float(c.includemargin),
        float(c.dist),
        int(c.exclude),
    )


def collides(contype1: int, conaffinity1: int, contype2: int, conaffinity2: int) -> bool:
    """Whether MuJoCo makes a contact between two overlapping spheres with these bit masks."""
    geom1 = {"contype": contype1, "conaffinity": conaffinity1}
    geom2 = {"contype": contype2, "conaffinity": conaffinity2}
    return pair_contact(geom1, geom2) is not None


def slope_xml(mu: float, slope: float, g: float, mass: float = 1.0, cone: str = "pyramidal"):
    """A flat box (20 x 20 x 4 cm) of `mass` kg resting on a floor, gravity `g` (m/s^2)
    tilted by `slope` (rad) towards +x, friction `mu` on both geoms. Flat, so that it slides
    without tipping over: a cube tips on slopes steeper than 45 degrees."""
    gx, gz = g * math.sin(slope), -g * math.cos(slope)
    friction = f'friction="{mu!r} 0.005 0.0001"'
    return f"""<mujoco><option timestep="{STEP}" gravity="{gx!r} 0 {gz!r}" cone="{cone}"/>
<worldbody><geom type="plane" size="20 20 0.1" {friction}/>
  <body name="box" pos="0 0 0.02"><freejoint/>
    <geom type="box" size="0.1 0.1 0.02" mass="{mass!r}" {friction}/></body>
</worldbody></mujoco>"""


@dataclass(frozen=True)
class Slide:
    """A box on a slope: its acceleration along the slope (m/s^2, a quadratic fitted to the
    second half of the run) and how far it moved (m) in `seconds`."""

    acceleration: float
    distance: float
    seconds: float


@compiled.remembered
def slide(mu: float, slope: float, g: float = 9.81, seconds: float = 1.0, cone="pyramidal"):
    """Simulate the box of `slope_xml` for `seconds`, from rest. Returns a Slide."""
    model = compiled.compile_xml(slope_xml(mu, slope, g, cone=cone))
    data = mujoco.MjData(model)
    steps = round(seconds / STEP)
    x = np.empty(steps)
    for i in range(steps):
        mujoco.mj_step(model, data)
        x[i] = data.qpos[0]
    t = STEP * np.arange(1, steps + 1)
    half = steps // 2
    curve = np.polyfit(t[half:], x[half:], 2)  # x = a t^2 / 2 + ...
    return Slide(float(2 * curve[0]), float(x[-1]), seconds)


def normal_forces(model: mujoco.MjModel, data: mujoco.MjData) -> np.ndarray:
    """The normal force (N) of each active contact, read with mj_contactForce: the first of
    its six numbers, in the contact's own frame."""
    force = np.zeros(6)
    found = []
    for i in range(data.ncon):
        if data.contact[i].efc_address >= 0:
            mujoco.mj_contactForce(model, data, i, force)
            found.append(force[0])
    return np.array(found)


@compiled.remembered
def resting_normal_force(mass: float, slope: float, g: float = 9.81) -> float:
    """The total normal force (N) on the box of `slope_xml` (friction 1, so that it holds)
    after it has settled for 0.5 s."""
    model = compiled.compile_xml(slope_xml(1.0, slope, g, mass))
    data = mujoco.MjData(model)
    mujoco.mj_step(model, data, nstep=round(0.5 / STEP))
    return float(normal_forces(model, data).sum())


def ball_on_floor_xml(contact: str, mass: float = 1.0, g: float = 9.81, timestep=STEP) -> str:
    """A ball (radius 5 cm, `mass` kg) resting on a floor, both geoms with the attributes
    `contact` (MJCF text: solref, solimp, condim...), gravity g (m/s^2)."""
    return f"""<mujoco><option timestep="{timestep!r}" gravity="0 0 {-g!r}"/>
<worldbody><geom type="plane" size="5 5 0.1" {contact}/>
  <body name="ball" pos="0 0 0.05"><freejoint/>
    <geom type="sphere" size="0.05" mass="{mass!r}" {contact}/></body>
</worldbody></mujoco>"""


@compiled.remembered
def settled_penetration(xml: str, seconds: float = 2.0) -> float:
    """How deep (m) the first contact of a scene sits after `seconds` from its initial pose:
    minus data.contact.dist."""
    model = compiled.compile_xml(xml)
    data = mujoco.MjData(model)
    mujoco.mj_step(model, data, nstep=round(seconds / model.opt.timestep))
    return float(-data.contact[0].dist)


def resting_ball_penetration(mass, g, timeconst, dampratio, impedance, timestep=STEP) -> float:
    """The depth (m) at which a ball rests on one frictionless contact (condim 1) with
    solref (timeconst, dampratio) and a flat impedance (solimp d0 = dwidth = impedance) on
    both geoms, as MuJoCo simulates it."""
    contact = (
        f'condim="1" solref="{timeconst!r} {dampratio!r}" '
        f'solimp="{impedance!r} {impedance!r} 0.001 0.5 2"'
    )
    return settled_penetration(ball_on_floor_xml(contact, mass, g, timestep))


@dataclass(frozen=True)
class Roll:
    """A ball rolled across a floor: how far it went (m) until its speed fell below 1 % of
    the start (or the time ran out), the time that took (s), and its speed then (m/s)."""

    distance: float
    seconds: float
    speed: float


@compiled.remembered
def roll(v0, radius, mu_roll, g=9.81, condim=6, contact=STIFF, cone="elliptic", limit=30.0):
    """Roll a ball (0.2 kg) of `radius` m at `v0` m/s, spinning at v0 / radius so that it
    rolls from the start, on a floor with sliding friction 1 and rolling friction `mu_roll`
    (m) on both geoms; `contact`: extra MJCF attributes of both geoms. Returns a Roll."""
    friction = f'friction="1 0.0001 {mu_roll!r}" condim="{condim}" {contact}'
    xml = f"""<mujoco><option timestep="{STEP}" gravity="0 0 {-g!r}" cone="{cone}"/>
<worldbody><geom type="plane" size="100 100 0.1" {friction}/>
  <body name="ball" pos="0 0 {radius!r}"><freejoint/>
    <geom type="sphere" size="{radius!r}" mass="0.2" {friction}/></body>
</worldbody></mujoco>"""
    model = compiled.compile_xml(xml)
    data = mujoco.MjData(model)
    mujoco.mj_step(model, data, nstep=100)  # settle into the floor first
    start = data.qpos[0]
    data.qvel[0], data.qvel[4] = v0, v0 / radius
    steps = 0
    while data.qvel[0] > 0.01 * v0 and steps * STEP < limit:
        mujoco.mj_step(model, data)
        steps += 1
    return Roll(float(data.qpos[0] - start), steps * STEP, float(data.qvel[0]))


def slope_video_xml(slope_deg: float = 30.0, frictions=(0.3, 0.7)) -> str:
    """A real slope for the lesson's video: a plane tilted by `slope_deg` degrees under plain
    gravity, and one box (12 x 12 x 8 cm) per friction coefficient, side by side, resting on
    it 60 cm uphill; camera "side" looks across the slope. The plane's friction is 0.01, so
    that each contact takes its box's own coefficient, the larger."""
    half = math.radians(slope_deg) / 2
    quat = f"{math.cos(half)!r} 0 {-math.sin(half)!r} 0"  # turned about y: uphill is +x
    normal = np.array([-math.sin(2 * half), 0.0, math.cos(2 * half)])
    uphill = np.array([math.cos(2 * half), 0.0, math.sin(2 * half)])
    boxes = []
    for k, mu in enumerate(frictions):
        across = 0.35 * (k - (len(frictions) - 1) / 2)
        start = 0.6 * uphill + 0.04 * normal + [0, across, 0]
        pos = " ".join(repr(float(v)) for v in start)
        boxes.append(
            f'<body pos="{pos}" quat="{quat}"><freejoint/><geom type="box" '
            f'size="0.06 0.06 0.04" friction="{mu!r} 0.005 0.0001" rgba="{0.3 + 0.5 * k} 0.4 '
            f'{0.8 - 0.5 * k} 1"/></body>'
        )
    return f"""<mujoco><visual><global offwidth="640" offheight="480"/></visual>
<asset><texture name="grid" type="2d" builtin="checker" rgb1="0.8 0.8 0.8" rgb2="0.6 0.6 0.6"
  width="64" height="64"/><material name="grid" texture="grid" texrepeat="8 8"/></asset>
<worldbody><light pos="0 -1 3" dir="0 0.3 -1"/>
  <camera name="side" pos="0 -2.6 0.7" xyaxes="1 0 0 0 0.3 1"/>
  <geom type="plane" size="2 1 0.1" quat="{quat}" material="grid"
    friction="0.01 0.005 0.0001"/>
  {"".join(boxes)}
</worldbody></mujoco>"""
