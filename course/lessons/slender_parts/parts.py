"""Lesson 06's parts and scenes: light slender parts, the ring, the slope and the workbench.

A part is one free body whose own axis (the thin axis of a slender part, the axis of a round
one) is its body z axis. Builders return MJCF text, each filling the template (models/*.xml)
loaded just above it; readers compile it and report what MuJoCo stored. No number a learner
is asked to derive is computed here by formula: inertias come from MuJoCo's compiler
(body_inertia) or from its joint-space inertia matrix (mj_fullM).

Units: metres, kilograms, seconds; inertias in kg m^2. Sizes follow MJCF: (radius,
half-length) for a cylinder, half-lengths for a box.
"""

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import mujoco
import numpy as np

from course import compiled, mjcf
from course.mjcf import numbers

RIGID_STEP = 0.00125  # s: the seed's default rigid step
FREE = mujoco.mjtJoint.mjJNT_FREE  # jnt_type of a free joint (0)


@dataclass(frozen=True)
class Part:
    """One light part.

    content: MJCF inside the part's <body> (geoms, or an <inertial> and a collision geom), its
        own axis along body z; radius: distance (m) from that axis to the rim, the rolling
        radius of a round part; what: a few words for tables.
    """

    name: str
    content: str
    radius: float
    what: str


def cylinder(radius: float, half_length: float, mass: float, rgba: str, shell=False) -> str:
    """A cylinder geom along z of `mass` kg, a uniform solid, or a thin shell with end caps
    (MuJoCo's shellinertia: all the mass on the surface)."""
    shell_attribute = ' shellinertia="true"' if shell else ""
    return (
        f'      <geom type="cylinder" size="{numbers((radius, half_length))}" '
        f'mass="{float(mass)!r}" rgba="{rgba}"{shell_attribute}/>'
    )


def stated_rod(mass: float, length: float, axial_rg: float, radius: float, rgba: str) -> str:
    """A part whose mass properties are stated, not inferred: an <inertial> of `mass` kg with
    the axial radius of gyration `axial_rg` (m), its mass spread evenly along `length` (m),
    and a collision cylinder of `radius` (m) that carries no mass of its own."""
    axial = mass * axial_rg**2
    # A body of revolution whose mass is even along its length: each thin slice has half its
    # axial moment about a diameter, and the slices add m L^2 / 12 about the centre.
    across = axial / 2 + mass * length**2 / 12
    return (
        f'      <inertial pos="0 0 0" mass="{float(mass)!r}" '
        f'diaginertia="{numbers((across, across, axial))}"/>\n'
        f'      <geom type="cylinder" size="{numbers((radius, length / 2))}" rgba="{rgba}"/>'
    )


# The seed's marker: YCB's large marker, 15.8 g, 121 mm long, axial radius of gyration 6.2 mm,
# rolling on its 9.9 mm barrel. The other parts are typical sizes and masses.
MARKER_MASS, MARKER_LENGTH, MARKER_RG, MARKER_RADIUS = 0.0158, 0.121, 0.0062, 0.0099

PARTS = {
    part.name: part
    for part in (
        Part(
            "marker",
            stated_rod(MARKER_MASS, MARKER_LENGTH, MARKER_RG, MARKER_RADIUS, "0.2 0.3 0.8 1"),
            MARKER_RADIUS,
            "YCB's large marker (the seed's figures)",
        ),
        Part("pencil", cylinder(0.0036, 0.0875, 0.005, "0.9 0.7 0.2 1"), 0.0036, "7.2 mm x 175 mm"),
        Part("coin", cylinder(0.0129, 0.0011, 0.0085, "0.8 0.7 0.3 1"), 0.0129, "26 mm coin"),
        Part(
            "die",
            '      <geom type="box" size="0.008 0.008 0.008" mass="0.005" rgba="0.9 0.9 0.9 1"/>',
            0.008,
            "16 mm die",
        ),
        Part(
            "marble",
            '      <geom type="sphere" size="0.008" mass="0.0054" rgba="0.3 0.7 0.9 1"/>',
            0.008,
            "16 mm glass marble",
        ),
        Part(
            "short cylinder",
            cylinder(0.009, 0.009, 0.011, "0.6 0.6 0.6 1"),
            0.009,
            "18 mm x 18 mm",
        ),
        Part("rod 9 mm", cylinder(0.009, 0.05, 0.02, "0.7 0.4 0.3 1"), 0.009, "solid, 100 mm"),
        Part("dowel", cylinder(0.015, 0.1, 0.085, "0.7 0.5 0.3 1"), 0.015, "30 mm x 200 mm"),
        Part(
            "solid cylinder",
            cylinder(MARKER_RADIUS, MARKER_LENGTH / 2, MARKER_MASS, "0.8 0.3 0.2 1"),
            MARKER_RADIUS,
            "the marker's size and mass, solid",
        ),
        Part(
            "tube",
            cylinder(MARKER_RADIUS, MARKER_LENGTH / 2, MARKER_MASS, "0.3 0.7 0.3 1", shell=True),
            MARKER_RADIUS,
            "the same, a thin shell",
        ),
    )
}


# The marker as the race's floored lane shows it: the same part, another colour.
FLOORED_MARKER = Part(
    "floored marker",
    PARTS["marker"].content.replace("0.2 0.3 0.8 1", "0.6 0.2 0.7 1"),
    MARKER_RADIUS,
    "the marker, to be floored",
)


def part(name_or_part) -> Part:
    """A Part as given, or the lesson's part of that name."""
    if isinstance(name_or_part, Part):
        return name_or_part
    if name_or_part not in PARTS:
        raise KeyError(f"no part {name_or_part!r}; the lesson's parts are {list(PARTS)}")
    return PARTS[name_or_part]


# --------------------------------------------------------------------------------------------
# One part alone, and the ring


FREE_PART = mjcf.template(__file__, "free_part")


def free_part(content: str, timestep: float = RIGID_STEP) -> str:
    """One free body named "part" holding `content`, in zero gravity."""
    return mjcf.fill(FREE_PART, {"content": content, "timestep": timestep})


@functools.lru_cache(maxsize=256)  # bounded: hidden cases differ per submission
def _content_properties(content: str) -> compiled.MassProperties:
    return compiled.body_mass_properties(compiled.compile_xml(free_part(content)), "part")


def properties(name_or_part) -> compiled.MassProperties:
    """MuJoCo's compiled mass (kg) and principal inertia (kg m^2) of a part (cached)."""
    return _content_properties(part(name_or_part).content)


RING = mjcf.template(__file__, "ring")


def ring(mass: float, radius: float, dot: float = 1e-4) -> str:
    """A thin ring: `mass` kg as four small balls (radius `dot`, m) whose centres are `radius`
    m from the body's z axis. (MuJoCo refuses balls much smaller than a tenth of a mm.)"""
    return mjcf.fill(RING, {"quarter": mass / 4, "radius": radius, "dot": dot})


@functools.lru_cache(maxsize=256)  # bounded: hidden cases differ per submission
def ring_inertia(mass: float, radius: float) -> float:
    """The moment of inertia (kg m^2) MuJoCo compiles for a thin ring of `mass` kg and
    `radius` m about its axis: what a part of that mass has about an axis when its radius of
    gyration about that axis is `radius`.

    Measured as the ring's axial moment minus that of the same four balls gathered at the
    centre, so the balls' own small moments cancel and only the ring's radius counts.
    """
    moments = []
    for where in (float(radius), 0.0):
        model = compiled.compile_xml(ring(float(mass), where))
        moments.append(float(np.max(model.body("ring").inertia)))
    return moments[0] - moments[1]


# --------------------------------------------------------------------------------------------
# What MuJoCo's arrays say about free bodies


def body_names(model: mujoco.MjModel) -> list[str]:
    """Every body's name, in body order (body 0 is "world")."""
    return [model.body(b).name for b in range(model.nbody)]


def model_arrays(model: mujoco.MjModel) -> dict:
    """Copies of the arrays apply_inertia_floor reads, and the body names, as a dict."""
    keys = ("body_mass", "body_inertia", "body_jntadr", "jnt_type", "jnt_dofadr", "dof_armature")
    arrays = {key: np.array(getattr(model, key)) for key in keys}
    arrays["body_names"] = body_names(model)
    return arrays


def free_bodies(model: mujoco.MjModel) -> list[int]:
    """The bodies that move on a free joint."""
    return [
        b
        for b in range(model.nbody)
        if model.body_jntadr[b] >= 0 and model.jnt_type[model.body_jntadr[b]] == FREE
    ]


def rotational_dofs(model: mujoco.MjModel, body: int | str) -> slice:
    """The three rotational dofs of a free body (its dofs 3, 4, 5)."""
    start = model.jnt_dofadr[model.body(body).jntadr[0]] + 3
    return slice(start, start + 3)


def mass_matrix(model: mujoco.MjModel) -> np.ndarray:
    """MuJoCo's joint-space inertia matrix (nv x nv, armature included) at the model's qpos0."""
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    matrix = np.zeros((model.nv, model.nv))
    mujoco.mj_fullM(model, data, matrix)
    return matrix


def rotational_moments(model: mujoco.MjModel, body: int | str) -> np.ndarray:
    """The principal moments (kg m^2, ascending) MuJoCo's mass matrix gives a free body's
    rotation: its inertia plus whatever armature its rotational dofs carry."""
    dofs = rotational_dofs(model, body)
    return np.linalg.eigvalsh(mass_matrix(model)[dofs, dofs])


def floor_bodies(
    model: mujoco.MjModel, bodies: Sequence[str], r0: float, set_const: bool = True
) -> mujoco.MjModel:
    """The floor as this lesson's experiments apply it (the stack's build step, done with
    MuJoCo's own numbers): each named free body gets, on its three rotational dofs, the
    armature that brings its smallest moment up to the ring of its own mass at `r0` (m); then
    mj_setConst, without which a simple body ignores it (set_const=False leaves it out, to
    show that). Changes `model`; returns it."""
    for name in bodies:
        body = model.body(name)
        target = ring_inertia(float(body.mass[0]), float(r0))
        model.dof_armature[rotational_dofs(model, name)] = target - float(np.min(body.inertia))
    if set_const:
        mujoco.mj_setConst(model, mujoco.MjData(model))
    return model


# --------------------------------------------------------------------------------------------
# Scenes


PART_ON_FLOOR = mjcf.template(__file__, "part_on_floor")


def part_on_floor(name_or_part, integrator: str = "Euler", timestep: float = RIGID_STEP) -> str:
    """A part lying on the floor, its own axis along the world's y axis, resting on its rim."""
    chosen = part(name_or_part)
    mjcf.one_of(integrator, mjcf.INTEGRATORS, "option/integrator")
    values = {"content": chosen.content, "height": chosen.radius, "timestep": timestep}
    return mjcf.fill(PART_ON_FLOOR, {**values, "integrator": integrator})


LANE_WIDTH = 0.16  # m between the lanes of the slope, wider than the longest part


def slope_downhill(slope_deg: float) -> np.ndarray:
    """The unit vector pointing down the slope of the slope scene."""
    angle = np.radians(slope_deg)
    return np.array([np.cos(angle), 0.0, -np.sin(angle)])


SLOPE = mjcf.template(__file__, "slope")


def slope(
    lanes: Mapping[str, Part], slope_deg: float = 10.0, timestep=RIGID_STEP, gravity=9.81
) -> str:
    """Parts side by side on a plane tilted by `slope_deg` degrees, each resting on its round
    face with its axis across the slope, in lanes far enough apart never to touch.

    lanes: {body name: Part}. The bodies start at rest, at the same distance down the slope.
    gravity: m/s^2, straight down.
    """
    angle = np.radians(slope_deg)
    normal = np.array([np.sin(angle), 0.0, np.cos(angle)])
    start = -0.25 * slope_downhill(slope_deg)
    bodies = []
    for k, (name, chosen) in enumerate(lanes.items()):
        across = (k - (len(lanes) - 1) / 2) * LANE_WIDTH
        pos = start + chosen.radius * normal + np.array([0.0, across, 0.0])
        bodies.append(
            f'    <body name="{name}" pos="{numbers(pos)}" euler="90 0 0">\n'
            f"      <freejoint/>\n{chosen.content}\n    </body>"
        )
    values = {"bodies": "\n".join(bodies), "slope_deg": slope_deg, "timestep": timestep}
    return mjcf.fill(SLOPE, {**values, "gravity": gravity})


FREE_JOINT_ARMATURE = mjcf.template(__file__, "free_joint_armature")


def free_joint_armature(joint: str) -> str:
    """A marker-sized cylinder on `joint` (a <freejoint/> or <joint type="free" .../>)."""
    return FREE_JOINT_ARMATURE.format(joint=joint)


# --------------------------------------------------------------------------------------------
# The workbench: free parts beside a robot arm of slender links on hinges


@dataclass(frozen=True)
class Link:
    """One link of the arm: a capsule of `radius`, `length` (m) and `mass` (kg) along x,
    turning on a joint of `kind` ("hinge", "slide" or "ball") about `axis`."""

    name: str
    radius: float
    length: float
    mass: float
    kind: str = "hinge"
    axis: tuple = (0.0, 0.0, 1.0)
    armature: float = 0.0


def _free_body(name: str, content: str, pos, armature: float = 0.0) -> str:
    joint = "<freejoint/>" if armature == 0 else f'<joint type="free" armature="{armature!r}"/>'
    return f'    <body name="{name}" pos="{numbers(pos)}">\n      {joint}\n{content}\n    </body>'


def _arm(links: Sequence[Link], base) -> str:
    """The arm as nested bodies: each link hangs at the end of the one before."""
    text, closing, pos = [], [], base
    for link in links:
        mjcf.one_of(link.kind, ("hinge", "slide", "ball"), "an arm joint's type")
        axis = "" if link.kind == "ball" else f' axis="{numbers(link.axis)}"'
        armature = f' armature="{link.armature!r}"' if link.armature else ""
        text.append(
            f'    <body name="{link.name}" pos="{numbers(pos)}">\n'
            f'      <joint type="{link.kind}"{axis}{armature}/>\n'
            f'      <geom type="capsule" fromto="0 0 0 {link.length!r} 0 0" '
            f'size="{link.radius!r}" mass="{link.mass!r}" rgba="0.5 0.5 0.6 1"/>'
        )
        closing.append("    </body>")
        pos = (link.length, 0.0, 0.0)
    return "\n".join(text + closing[::-1])


WORKBENCH = mjcf.template(__file__, "workbench")


def workbench(free_parts: Sequence[tuple], links: Sequence[Link] = (), timestep=RIGID_STEP):
    """A model of free parts and an arm, in zero gravity.

    free_parts: (body name, MJCF content, armature written on its <joint type="free">, or 0
    for a plain <freejoint/>) each; they sit 0.2 m apart along x. links: the arm's links,
    based at y = 0.5 m.
    """
    bodies = [
        _free_body(name, content, (0.2 * k, 0.0, 0.0), armature)
        for k, (name, content, armature) in enumerate(free_parts)
    ]
    if links:
        bodies.append(_arm(links, (0.0, 0.5, 0.0)))
    return mjcf.fill(WORKBENCH, {"bodies": "\n".join(bodies), "timestep": timestep})


# The lesson's workbench: four of its parts and a two-link arm whose links are slender
# capsules on hinges (robot links: the stack's floor leaves them alone).
LESSON_ARM = (
    Link("upper_arm", 0.006, 0.15, 0.03, axis=(0.0, 0.0, 1.0)),
    Link("forearm", 0.005, 0.12, 0.02, axis=(0.0, 1.0, 0.0)),
)


def lesson_workbench() -> str:
    """The workbench the lesson shows: marker, pencil, coin and die beside the arm."""
    chosen = [(name, PARTS[name].content, 0.0) for name in ("marker", "pencil", "coin", "die")]
    return workbench(chosen, LESSON_ARM)
