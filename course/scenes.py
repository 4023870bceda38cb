"""MJCF scenes the lessons compile, as named templates and small builders.

Every builder returns an MJCF string; compile it with `course.compiled.compile_xml`. Sizes
follow MJCF: half-lengths for boxes, (radius,) for spheres, (radius, half-length along z)
for cylinders and capsules. Units: metres, kilograms, seconds.
"""

from collections.abc import Sequence

SHAPE_KINDS = ("box", "sphere", "cylinder", "capsule")

# Lesson 01, Experiment A: two 20 cm cubes whose bottom faces start 40 cm above a table top.
# The table is a box of half-height 0.4 standing on the floor, so its top is at z = 0.4;
# the cubes' origins are at z = 0.9, their bottom faces at 0.8.
TWO_CUBE_DROP = """\
<mujoco model="two-cube drop">
  <option gravity="0 0 -{gravity:g}" timestep="{timestep:g}" density="{air_density:g}"/>
  <worldbody>
    <light pos="0 -1 2" dir="0 .5 -1"/>
    <geom type="plane" size="2 2 .1" rgba=".85 .85 .85 1"/>
    <geom name="table" type="box" size=".35 .25 .4" rgba=".55 .4 .3 1"/>
    <body name="light" pos="-.13 0 {start_z:g}">
      <freejoint/>
      <geom type="box" size=".1 .1 .1" mass="{light_kg:g}" rgba=".3 .6 .9 1"/>
    </body>
    <body name="heavy" pos=".13 0 {start_z:g}">
      <freejoint/>
      <geom type="box" size=".1 .1 .1" mass="{heavy_kg:g}" rgba=".9 .4 .3 1"/>
    </body>
  </worldbody>
</mujoco>
"""
TABLE_TOP_Z = 0.4
CUBE_HALF_SIDE = 0.1

# One free body made of one shape, falling straight down from rest; no floor, since a drop
# is followed only until the body reaches the (virtual) table top.
SHAPE_DROP = """\
<mujoco model="shape drop">
  <option gravity="0 0 -{gravity!r}" timestep="{timestep!r}" density="{air_density!r}"/>
  <worldbody>
    <body name="body" pos="0 0 1">
      <freejoint/>
      <geom type="{kind}" size="{size}" mass="{mass!r}"/>
    </body>
  </worldbody>
</mujoco>
"""

# One body built from parts; zero gravity so nothing moves while it is inspected.
PARTS_BODY = """\
<mujoco model="parts">
  <option gravity="0 0 0"/>
  <worldbody>
    <body name="body">
      <freejoint/>
{geoms}
    </body>
  </worldbody>
</mujoco>
"""

# A block on a slide joint with viscous damping, for comparing time steps with mj_step.
DAMPED_SLIDER = """\
<mujoco model="damped slider">
  <option gravity="0 0 -{gravity!r}" timestep="{timestep!r}" integrator="Euler"/>
  <worldbody>
    <body name="block">
      <joint name="slide" type="slide" axis="0 0 1" damping="{damping!r}"/>
      <geom type="box" size=".05 .05 .05" mass="{mass!r}"/>
    </body>
  </worldbody>
</mujoco>
"""

# Lesson 01, Break it: a small gripper whose links state their mass in <inertial> and also
# carry decorative visual geoms (group 2, no collisions). With inertiafromgeom="true" the
# compiler ignores the <inertial> elements and weighs every geom, shells included, as solid
# water (the default density, 1000 kg/m^3).
GRIPPER = """\
<mujoco model="gripper">
  <compiler inertiafromgeom="{inertiafromgeom}"/>
  <default>
    <default class="visual">
      <geom group="2" contype="0" conaffinity="0" rgba=".8 .8 .85 .4"/>
    </default>
  </default>
  <worldbody>
    <body name="palm" pos="0 0 .3">
      <inertial pos="0 0 0" mass="0.12" diaginertia="6e-5 6e-5 8e-5"/>
      <geom type="box" size=".04 .03 .015"/>
      <geom class="visual" type="box" size=".05 .04 .025"/>
      <body name="finger_left" pos="-.025 0 -.05">
        <joint type="slide" axis="1 0 0" range="0 .02"/>
        <inertial pos="0 0 -.01" mass="0.02" diaginertia="4e-6 4e-6 1e-6"/>
        <geom type="box" size=".006 .012 .03"/>
        <geom class="visual" type="capsule" size=".012 .03"/>
      </body>
      <body name="finger_right" pos=".025 0 -.05">
        <joint type="slide" axis="-1 0 0" range="0 .02"/>
        <inertial pos="0 0 -.01" mass="0.02" diaginertia="4e-6 4e-6 1e-6"/>
        <geom type="box" size=".006 .012 .03"/>
        <geom class="visual" type="capsule" size=".012 .03"/>
      </body>
    </body>
  </worldbody>
</mujoco>
"""


def _numbers(values: Sequence[float]) -> str:
    """MJCF attribute text for numbers, at full double precision."""
    return " ".join(repr(float(v)) for v in values)


def check_shape(kind: str, size: Sequence[float]) -> None:
    """Raise ValueError with a plain message when `kind` or `size` is not a valid MJCF shape."""
    if kind not in SHAPE_KINDS:
        raise ValueError(f"kind must be one of {SHAPE_KINDS}, not {kind!r}")
    needed = {"box": 3, "sphere": 1, "cylinder": 2, "capsule": 2}[kind]
    if len(size) != needed:
        raise ValueError(f"a {kind} needs {needed} size numbers (MJCF half-lengths), got {size}")
    if any(not float(s) > 0 for s in size):
        raise ValueError(f"sizes must be positive, got {size}")


def two_cube_drop(
    light_kg: float = 0.1,
    heavy_kg: float = 1.0,
    air_density: float = 0.0,
    drop_height: float = 0.40,
    timestep: float = 0.002,
    gravity: float = 9.81,
) -> str:
    """The two-cube scene: masses in kg, air density in kg/m^3 (0 is vacuum, 1.2 is air)."""
    start_z = TABLE_TOP_Z + drop_height + CUBE_HALF_SIDE
    return TWO_CUBE_DROP.format(
        light_kg=light_kg,
        heavy_kg=heavy_kg,
        air_density=air_density,
        start_z=start_z,
        timestep=timestep,
        gravity=gravity,
    )


def shape_drop(
    kind: str,
    size: Sequence[float],
    mass: float,
    air_density: float = 0.0,
    timestep: float = 0.002,
    gravity: float = 9.81,
) -> str:
    """One upright shape of `mass` kg on a free joint, released from rest (body named "body")."""
    check_shape(kind, size)
    return SHAPE_DROP.format(
        kind=kind,
        size=_numbers(size),
        mass=float(mass),
        air_density=float(air_density),
        timestep=float(timestep),
        gravity=float(gravity),
    )


def parts_body(parts: Sequence[tuple]) -> str:
    """One free body (named "body") from geoms given as (kind, size, pos, mass).

    pos is the geom centre in the body frame (m); each geom is axis-aligned.
    """
    lines = []
    for kind, size, pos, mass in parts:
        check_shape(kind, size)
        lines.append(
            f'      <geom type="{kind}" size="{_numbers(size)}" pos="{_numbers(pos)}" '
            f'mass="{float(mass)!r}"/>'
        )
    return PARTS_BODY.format(geoms="\n".join(lines))


def shape_body(kind: str, size: Sequence[float], density: float) -> str:
    """One free body (named "body") made of one shape of uniform `density` (kg/m^3)."""
    check_shape(kind, size)
    geom = f'      <geom type="{kind}" size="{_numbers(size)}" density="{float(density)!r}"/>'
    return PARTS_BODY.format(geoms=geom)


def damped_slider(
    mass: float, damping: float, timestep: float = 0.002, gravity: float = 9.81
) -> str:
    """A block of `mass` kg on a vertical slide joint with `damping` in N s/m, Euler steps."""
    return DAMPED_SLIDER.format(
        mass=float(mass), damping=float(damping), timestep=float(timestep), gravity=float(gravity)
    )


def gripper(inertiafromgeom: str = "auto") -> str:
    """The Break-it gripper, compiled with compiler/inertiafromgeom = "auto", "true" or "false"."""
    if inertiafromgeom not in ("auto", "true", "false"):
        raise ValueError(f'inertiafromgeom is "auto", "true" or "false", not {inertiafromgeom!r}')
    return GRIPPER.format(inertiafromgeom=inertiafromgeom)
