"""Lesson 01's MJCF scenes, as named templates and small builders.

Every builder returns an MJCF string; compile it with `course.compiled.compile_xml`. Sizes
follow MJCF (see `course.mjcf`). Units: metres, kilograms, seconds. The one-shape drop is
shared with other lessons: `course.falls.shape_drop`.
"""

from collections.abc import Sequence

from course import mjcf
from course.mjcf import INERTIA_FROM_GEOM, check_shape, numbers, one_of

# Lesson 01, Experiment A: two 20 cm cubes whose bottom faces start 40 cm above a table top.
# The table is a box of half-height 0.4 standing on the floor, so its top is at z = 0.4;
# the cubes' origins are at z = 0.9, their bottom faces at 0.8.
TWO_CUBE_DROP = mjcf.template(__file__, "two_cube_drop")
TABLE_TOP_Z = 0.4
CUBE_HALF_SIDE = 0.1
DEFAULT_TIMESTEP = 0.002  # s, MuJoCo's option/timestep when a file does not set it

# One body built from parts; zero gravity so nothing moves while it is inspected.
PARTS_BODY = mjcf.template(__file__, "parts_body")

# Lesson 01, Use it: a box and a ball off each other's axes, so that the principal axes
# (body_iquat) are turned against the body frame. Parts as for parts_body: (kind, size, pos,
# mass), in m and kg.
OFFSET_PARTS = (
    ("box", (0.05, 0.02, 0.03), (0.1, -0.05, 0.02), 0.7),
    ("sphere", (0.03,), (-0.04, 0.08, -0.1), 0.3),
)

# A block on a slide joint with viscous damping, for comparing time steps with mj_step.
DAMPED_SLIDER = mjcf.template(__file__, "damped_slider")

# Lesson 01, Break it: a small gripper whose links state their mass in <inertial> and also
# carry decorative visual geoms (group 2, no collisions). With inertiafromgeom="true" the
# compiler ignores the <inertial> elements and weighs every geom, shells included, as solid
# water (the default density, 1000 kg/m^3).
GRIPPER = mjcf.template(__file__, "gripper")


def two_cube_drop(
    light_kg: float = 0.1,
    heavy_kg: float = 1.0,
    air_density: float = 0.0,
    drop_height: float = 0.40,
    timestep: float = 0.002,
    gravity: float = 9.81,
) -> str:
    """The two-cube scene: masses in kg, air density in kg/m^3 (0 is vacuum, 1.2 is air),
    drop height of the bottom faces above the table top in m, timestep in s, gravity in m/s^2.

    Its `<option>` writes gravity, and the timestep and the air density only where they
    differ from MuJoCo's defaults (0.002 s, 0), as a hand-written file would.
    """
    start_z = TABLE_TOP_Z + drop_height + CUBE_HALF_SIDE
    option = [f'gravity="0 0 -{gravity:g}"']
    if timestep != DEFAULT_TIMESTEP:
        option.append(f'timestep="{timestep:g}"')
    if air_density:
        option.append(f'density="{air_density:g}"')
    return mjcf.fill(TWO_CUBE_DROP, {**locals(), "option": " ".join(option)})


def parts_body(parts: Sequence[tuple]) -> str:
    """One free body (named "body") from geoms given as (kind, size, pos, mass).

    pos is the geom centre in the body frame (m); each geom is axis-aligned.
    """
    lines = []
    for kind, size, pos, mass in parts:
        check_shape(kind, size)
        lines.append(
            f'      <geom type="{kind}" size="{numbers(size)}" pos="{numbers(pos)}" '
            f'mass="{float(mass)!r}"/>'
        )
    return PARTS_BODY.format(geoms="\n".join(lines))


def shape_body(kind: str, size: Sequence[float], density: float) -> str:
    """One free body (named "body") made of one shape of uniform `density` (kg/m^3)."""
    check_shape(kind, size)
    geom = f'      <geom type="{kind}" size="{numbers(size)}" density="{float(density)!r}"/>'
    return PARTS_BODY.format(geoms=geom)


def damped_slider(
    mass: float, damping: float, timestep: float = 0.002, gravity: float = 9.81
) -> str:
    """A block of `mass` kg on a vertical slide joint with `damping` in N s/m, Euler steps."""
    return mjcf.fill(DAMPED_SLIDER, locals())


def gripper(inertiafromgeom: str = "auto") -> str:
    """The Break-it gripper, compiled with compiler/inertiafromgeom = "auto", "true" or "false"."""
    one_of(inertiafromgeom, INERTIA_FROM_GEOM, "compiler/inertiafromgeom")
    return GRIPPER.format(inertiafromgeom=inertiafromgeom)
