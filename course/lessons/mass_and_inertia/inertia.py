"""MJCF builders and MuJoCo readers for lesson 03, "Mass, inertia and default classes".

Builders return MJCF text; readers compile it and report what MuJoCo stored or computed.
Nothing here derives a mass property by formula: every number comes from MuJoCo's compiler
(body_mass, body_ipos, body_inertia, body_iquat) or from its joint-space inertia matrix. The
readers of default classes read the MJCF text as it is written (what a learner's function is
given); what an attribute resolves to is read from the compiled model.

Units: metres, kilograms, seconds; inertias in kg m^2. Sizes follow MJCF: half-lengths for a
box, (radius,) for a sphere, (radius, half-length of the cylindrical part along z) for a
cylinder or a capsule. Quaternions are scalar first, (w, x, y, z), as MJCF writes them. A
hollow geom (`shellinertia="true"`, Geom.shell) has all its mass on its surface, and its
density is then in kg per square metre of surface.
"""

import xml.etree.ElementTree as ElementTree
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

import mujoco
import numpy as np

from course import compiled, mjcf
from course.frames import random_unit_quat
from course.mjcf import SHAPE_SIZES, check_shape, numbers

# --------------------------------------------------------------------------------------------
# Geoms and bodies built from them


class Geom(NamedTuple):
    """One geom of a body, with the attributes that decide its mass properties.

    kind: "box", "sphere", "cylinder" or "capsule".
    size: MJCF size in m (half-lengths for a box; radius; radius and half-length).
    pos: the geom's centre in the body frame, m.
    quat: the geom's orientation in the body frame, a unit quaternion (w, x, y, z).
    density: kg/m^3, used when mass is None (MuJoCo's default is 1000, water); kg/m^2 of
        surface for a hollow geom.
    mass: kg; when it is given the density is ignored, as in MJCF.
    shell: a hollow geom, all its mass on its surface (MJCF shellinertia="true").
    """

    kind: str
    size: tuple
    pos: tuple = (0.0, 0.0, 0.0)
    quat: tuple = (1.0, 0.0, 0.0, 0.0)
    density: float = 1000.0
    mass: float | None = None
    shell: bool = False


# One body holding `content` (geoms and/or an <inertial>); zero gravity, so nothing moves
# while it is read. `joint` is a <freejoint/> or the ball joint of BALL_PROBE_JOINT.
BODY = mjcf.template(__file__, "body")
FREE_JOINT = "<freejoint/>"
# A ball joint's three dofs turn the body about `pos`, so MuJoCo's joint-space inertia matrix
# for them is the body's 3x3 inertia about that point, in the body frame (no armature).
BALL_PROBE_JOINT = '<joint name="probe" type="ball" pos="{point}"/>'


def geom_element(geom: Geom) -> str:
    """The MJCF <geom> element of one Geom."""
    check_shape(geom.kind, geom.size)
    amount = (
        f'density="{float(geom.density)!r}"'
        if geom.mass is None
        else f'mass="{float(geom.mass)!r}"'
    )
    hollow = ' shellinertia="true"' if geom.shell else ""
    return (
        f'      <geom type="{geom.kind}" size="{numbers(geom.size)}" pos="{numbers(geom.pos)}" '
        f'quat="{numbers(geom.quat)}" {amount}{hollow}/>'
    )


def _content(content) -> str:
    """MJCF text for a body's content: a string as is, or a sequence of Geom."""
    if isinstance(content, str):
        return content
    return "\n".join(geom_element(Geom(*g)) for g in content)


def body_xml(content, joint: str = FREE_JOINT, compiler: str = "", model: str = "body") -> str:
    """One body named "body" holding `content` (MJCF text, or a sequence of Geom)."""
    return BODY.format(model=model, compiler=compiler, joint=joint, content=_content(content))


def geoms_body(geoms: Sequence[Geom]) -> str:
    """One free body (named "body") made of `geoms`."""
    return body_xml(geoms, model="geoms")


def body_properties(geoms: Sequence[Geom]) -> compiled.MassProperties:
    """MuJoCo's compiled mass, centre of mass and principal inertia of a body of `geoms`."""
    return compiled.body_mass_properties(compiled.compile_xml(geoms_body(geoms)), "body")


def geom_solid(
    kind: str,
    size: Sequence[float],
    density: float = 1000.0,
    mass: float | None = None,
    shell: bool = False,
) -> tuple[float, np.ndarray]:
    """Mass (kg) and principal inertia (kg m^2, about the geom's own x, y, z axes through its
    centre) of one uniform geom, as MuJoCo's compiler computes them: a solid, or with `shell`
    a hollow one (density then in kg/m^2 of surface).

    The geom is compiled alone at the body origin with no rotation; MuJoCo then puts the
    body's inertial frame on the geom's own frame, so the three moments come in x, y, z order.
    """
    geom = Geom(kind, tuple(size), density=density, mass=mass, shell=shell)
    props = body_properties([geom])
    if not np.allclose(props.axes, np.eye(3)):
        raise RuntimeError("MuJoCo rotated the inertial frame of a lone axis-aligned geom")
    return props.mass, props.principal


def geom_parts(geoms: Sequence[Geom]) -> list[dict]:
    """What body_inertia_from_geoms is given for a body of `geoms`: one dict per geom, in
    plain floats, with the geom's mass ("mass", kg) and principal moments ("principal", kg
    m^2, about its own x, y, z axes through its centre), both as MuJoCo's compiler weighs the
    geom, and where it is ("pos", its centre in the body frame, m) and how it is turned
    ("quat", unit quaternion (w, x, y, z), scalar first)."""
    parts = []
    for geom in (Geom(*g) for g in geoms):
        mass, principal = geom_solid(geom.kind, geom.size, geom.density, geom.mass, geom.shell)
        parts.append(
            {
                "mass": float(mass),
                "principal": [float(p) for p in principal],
                "pos": [float(p) for p in geom.pos],
                "quat": [float(q) for q in geom.quat],
            }
        )
    return parts


def inertial_element(
    mass: float,
    pos: Sequence[float] = (0.0, 0.0, 0.0),
    diaginertia: Sequence[float] | None = None,
    quat: Sequence[float] | None = None,
    fullinertia: Sequence[float] | None = None,
) -> str:
    """An MJCF <inertial> element: mass in kg, pos (the centre of mass) in m in the body frame,
    and either diaginertia (principal moments, kg m^2, along the axes rotated by quat) or
    fullinertia (six numbers in MJCF's order Ixx Iyy Izz Ixy Ixz Iyz, about the centre of mass,
    in the body frame)."""
    if (diaginertia is None) == (fullinertia is None):
        raise ValueError("give exactly one of diaginertia and fullinertia")
    attributes = [f'pos="{numbers(pos)}"', f'mass="{float(mass)!r}"']
    if diaginertia is not None:
        attributes.append(f'diaginertia="{numbers(diaginertia)}"')
        if quat is not None:
            attributes.append(f'quat="{numbers(quat)}"')
    else:
        attributes.append(f'fullinertia="{numbers(fullinertia)}"')
    return f"      <inertial {' '.join(attributes)}/>"


def inertia_about_point(content, point: Sequence[float] = (0.0, 0.0, 0.0)) -> np.ndarray:
    """The 3x3 inertia (kg m^2) of one body about `point` (m, body frame), in the body frame.

    content: the body's geoms (a sequence of Geom) or MJCF text (e.g. an inertial_element).
    Read from MuJoCo, not computed: the body turns on a ball joint placed at `point`, and the
    joint-space inertia matrix of its three dofs is that inertia.
    Raises compiled.ModelError, quoting MuJoCo, when the content does not compile.
    """
    joint = BALL_PROBE_JOINT.format(point=numbers(point))
    model = compiled.compile_xml(body_xml(content, joint=joint, model="ball probe"))
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    matrix = np.zeros((model.nv, model.nv))
    mujoco.mj_fullM(model, data, matrix)
    return matrix


def body_tensor(geoms: Sequence[Geom]) -> np.ndarray:
    """MuJoCo's 3x3 inertia (kg m^2) of a body of `geoms` about its centre of mass, in the body
    frame (the tensor that body_inertia and body_iquat describe)."""
    return inertia_about_point(geoms, body_properties(geoms).com)


def diaginertia_compiles(diaginertia: Sequence[float]) -> bool:
    """Whether MuJoCo compiles a moving 1 kg body whose <inertial> states this diaginertia."""
    xml = body_xml(inertial_element(1.0, diaginertia=diaginertia), model="diaginertia")
    return compiled.compile_or_error(xml)[0] is not None


def random_geoms(rng: np.random.Generator, count: int, rotated: bool = True) -> list[Geom]:
    """`count` random geoms: any kind, 1 to 10 cm sizes, centres within 25 cm of the origin,
    random orientations (identity when rotated is False), about half given a mass (0.05 to 3
    kg) and the others a density (200 to 8000 kg/m^3)."""
    geoms = []
    for _ in range(count):
        kind = str(rng.choice(list(SHAPE_SIZES)))
        size = tuple(float(s) for s in rng.uniform(0.01, 0.1, SHAPE_SIZES[kind]))
        pos = tuple(float(p) for p in rng.uniform(-0.25, 0.25, 3))
        quat = tuple(float(q) for q in random_unit_quat(rng)) if rotated else (1.0, 0.0, 0.0, 0.0)
        if rng.uniform() < 0.5:
            geoms.append(Geom(kind, size, pos, quat, mass=float(rng.uniform(0.05, 3.0))))
        else:
            geoms.append(Geom(kind, size, pos, quat, density=float(rng.uniform(200, 8000))))
    return geoms


# --------------------------------------------------------------------------------------------
# A hollow capsule, and its caps in two wrong places

# An end disk is modelled as a solid cylinder this many times as high as it is wide: its moment
# across its axis then differs from a flat disk's by about a part in 1e12.
THIN_DISK = 1e-6


def _moment_across(geoms: Sequence[Geom]) -> float:
    """I_xx (kg m^2) of a body of `geoms` about its centre of mass, as MuJoCo compiles it."""
    props = body_properties(geoms)
    return float((props.axes @ np.diag(props.principal) @ props.axes.T)[0, 0])


def hollow_capsule_caps(radius: float, half_length: float, density: float) -> dict[str, float]:
    """The moment across the axis (I_xx, kg m^2, about the centre) of a hollow capsule of
    `radius` and `half_length` (m) at `density` kg per m^2 of surface: "mujoco", as MuJoCo
    compiles it (shellinertia="true"); and two wrong places for its two hemispherical shells,
    each built from MuJoCo's own shapes around the same open tube:

    "at_centre": the caps left at the capsule's centre, one hollow sphere there;
    "from_flat_face": each cap moved out by the half-length as if its moment about its flat
    face were about its centre of mass, i.e. a hollow sphere of half the density centred on
    each end of the tube.

    The open tube is MuJoCo's closed hollow cylinder less its two end disks (thin solid
    cylinders of the same mass per area of face). Every body here is symmetric about the
    capsule's centre, so its centre of mass is there.
    """
    r, ell, rho = float(radius), float(half_length), float(density)
    ends = ((0.0, 0.0, ell), (0.0, 0.0, -ell))
    closed = _moment_across([Geom("cylinder", (r, ell), density=rho, shell=True)])
    disk_density = rho / (2 * THIN_DISK * r)  # per volume, so each disk weighs rho per area
    disks = _moment_across(
        [Geom("cylinder", (r, THIN_DISK * r), pos, density=disk_density) for pos in ends]
    )
    tube = closed - disks
    centred = _moment_across([Geom("sphere", (r,), density=rho, shell=True)])
    at_ends = _moment_across(
        [Geom("sphere", (r,), pos, density=rho / 2, shell=True) for pos in ends]
    )
    return {
        "mujoco": _moment_across([Geom("capsule", (r, ell), density=rho, shell=True)]),
        "at_centre": tube + centred,
        "from_flat_face": tube + at_ends,
    }


# --------------------------------------------------------------------------------------------
# Body origin, centre of mass and principal axes


# A 1 kg box, 20 x 10 x 10 cm, hung on a hinge at the body origin: its centre sits 2 cm along
# x from the origin and it is turned 30 degrees about z. MuJoCo stores the three things apart:
# body_ipos (the centre), body_iquat (the box's axes) and body_inertia (its moments).
OFFSET_BOX = mjcf.template(__file__, "offset_box")

# One body with an <inertial> that states 2 kg and a box geom that weighs 1 kg (10 cm cube of
# water): which one the compiler uses depends on compiler/inertiafromgeom.
INERTIAL_AND_GEOM = mjcf.template(__file__, "inertial_and_geom")


def inertial_and_geom(rule: str) -> str:
    """The body with both an <inertial> (2 kg) and a 1 kg geom, under inertiafromgeom=rule."""
    if rule not in ("auto", "true", "false"):
        raise ValueError(f'inertiafromgeom is "auto", "true" or "false", not {rule!r}')
    return INERTIAL_AND_GEOM.format(rule=rule)


# --------------------------------------------------------------------------------------------
# Default classes


# Nested classes (metal > painted, and rubber beside metal), a childclass on the arm, a class
# on single geoms, an attribute written on a geom, and a joint sent back to the top level with
# class="main". Colours: grey .6 .6 .6, red .8 .2 .2, black .1 .1 .1.
NESTED_DEFAULTS = mjcf.template(__file__, "nested_defaults")

COLOURS = {"grey": (0.6, 0.6, 0.6, 1.0), "red": (0.8, 0.2, 0.2, 1.0), "black": (0.1, 0.1, 0.1, 1.0)}


def colour_name(rgba: Sequence[float]) -> str:
    """The name of an rgba from COLOURS, or the four numbers when it is none of them."""
    for name, value in COLOURS.items():
        if np.allclose(rgba, value, atol=1e-6):
            return name
    return " ".join(f"{c:g}" for c in rgba)


def resolved_geoms(model: mujoco.MjModel) -> dict[str, tuple[float, str]]:
    """{geom name: (sliding friction, colour name)} as MuJoCo compiled them."""
    return {
        model.geom(g).name: (float(model.geom_friction[g][0]), colour_name(model.geom_rgba[g]))
        for g in range(model.ngeom)
    }


def resolved_joints(model: mujoco.MjModel) -> dict[str, tuple[float, float]]:
    """{joint name: (damping in N m s/rad, armature in kg m^2)} as MuJoCo compiled them."""
    resolved = {}
    for j in range(model.njnt):
        dof = model.jnt_dofadr[j]
        resolved[model.joint(j).name] = (
            float(model.dof_damping[dof]),
            float(model.dof_armature[dof]),
        )
    return resolved


# What resolve_attribute is given: the MJCF text read as it is written, before MuJoCo resolves
# anything. A value is the first number of the attribute (friction's sliding friction).


# A model that sets nothing: what MuJoCo compiles for it is each attribute's built-in default.
BUILTIN_DEFAULT_PROBE = (
    '<mujoco><worldbody><body><joint/><geom size=".1"/></body></worldbody></mujoco>'
)


def _first_number(text: str | None) -> float | None:
    return None if text is None else float(text.split()[0])


@cache
def builtin_default(element: str, attribute: str) -> float:
    """MuJoCo's own default for `attribute` of a geom or joint (no default class setting it):
    the value it compiles for a model that sets nothing. Supported: geom friction (the first
    number), joint damping and joint armature."""
    model = compiled.compile_xml(BUILTIN_DEFAULT_PROBE)
    values = {
        ("geom", "friction"): float(model.geom_friction[0][0]),
        ("joint", "damping"): float(model.dof_damping[0]),
        ("joint", "armature"): float(model.dof_armature[0]),
    }
    return values[(element, attribute)]


def default_classes(xml: str, element: str, attribute: str) -> dict[str, tuple]:
    """{class name: (the class it is nested in, or None for "main"; the value of `attribute`
    the class sets on `element`, or None)} as the MJCF text writes its <default> tree. The
    top level is "main", and its value is never None: where the file sets none it is MuJoCo's
    built-in default."""
    classes: dict[str, tuple] = {}

    def walk(node, parent):
        name = "main" if parent is None else node.get("class")
        found = node.find(element)
        classes[name] = (parent, _first_number(None if found is None else found.get(attribute)))
        for child in node.findall("default"):
            walk(child, name)

    top = ElementTree.fromstring(xml).find("default")
    if top is not None:
        walk(top, None)
    if classes.get("main", (None, None))[1] is None:
        classes["main"] = (None, builtin_default(element, attribute))
    return classes


def element_defaults(xml: str, element: str, attribute: str) -> list[tuple]:
    """(name, own, own_class, childclasses) of every named `element` ("geom" or "joint") of the
    MJCF text, in file order: the value of `attribute` written on it (or None), its class
    attribute (or None) and the childclass attributes of the bodies around it, its own body
    first and outwards (None for a body without one; empty in the world body)."""
    found = []

    def walk(node, childclasses):
        for child in node:
            if child.tag == element and child.get("name"):
                own = _first_number(child.get(attribute))
                found.append((child.get("name"), own, child.get("class"), list(childclasses)))
            elif child.tag == "body":
                walk(child, [child.get("childclass"), *childclasses])

    walk(ElementTree.fromstring(xml).find("worldbody"), [])
    return found


def _random_default_tree(rng: np.random.Generator, names: list[str]) -> str:
    """A <default> tree of `names` ("main" first), each nested in a random earlier one, each
    setting geom friction and joint damping about half the time."""
    parent = {"main": None}
    for i, name in enumerate(names[1:], start=1):
        parent[name] = names[int(rng.integers(0, i))]

    def default(name: str) -> str:
        sets = ""
        if rng.uniform() < 0.5:
            sets += f'<geom friction="{rng.uniform(0.1, 2.0):.3f}"/>'
        if rng.uniform() < 0.5:
            sets += f'<joint damping="{rng.uniform(0.0, 5.0):.3f}"/>'
        nested = "".join(default(child) for child in names if parent[child] == name)
        label = "" if name == "main" else f' class="{name}"'
        return f"<default{label}>{sets}{nested}</default>"

    return default("main")


def random_defaults(rng: np.random.Generator, n_classes: int = 5) -> str:
    """MJCF of a random model for resolve_attribute: nested default classes, nested bodies with
    and without a childclass, geoms and joints with and without a class (sometimes "main") and
    with and without their own friction or damping. The same generator state gives the same
    model."""
    names = ["main"] + [f"class{i}" for i in range(1, n_classes + 1)]
    tree = _random_default_tree(rng, names)
    count = {"geom": 0, "joint": 0}

    def element(tag: str) -> str:
        count[tag] += 1
        attributes = [f'name="{tag}{count[tag]}"']
        if rng.uniform() < 0.4:
            attributes.append(f'class="{names[int(rng.integers(0, len(names)))]}"')
        if rng.uniform() < 0.2:
            own = ("friction", 0.1, 2.0) if tag == "geom" else ("damping", 0.0, 5.0)
            attributes.append(f'{own[0]}="{rng.uniform(own[1], own[2]):.3f}"')
        shape = 'type="sphere" size=".05"' if tag == "geom" else 'type="hinge"'
        return f"<{tag} {' '.join(attributes)} {shape}/>"

    def body(depth: int) -> str:
        childclass = ""
        if rng.uniform() < 0.5:
            childclass = f' childclass="{names[int(rng.integers(1, len(names)))]}"'
        inner = (
            element("joint") + element("geom") + (element("geom") if rng.uniform() < 0.5 else "")
        )
        children = 0
        if depth < 3 and rng.uniform() < 0.8:
            children = int(rng.integers(1, 3))
        for _ in range(children):
            inner += body(depth + 1)
        return f'<body pos="0 0 .2"{childclass}>{inner}</body>'

    world = element("geom") + body(0) + body(0)
    return f'<mujoco model="random defaults">{tree}<worldbody>{world}</worldbody></mujoco>'


def inherited_defaults(rng: np.random.Generator) -> str:
    """MJCF of a random model for resolve_attribute in which every value comes from past one
    level: a class that sets nothing, nested one or two deep in a class (not main) that sets
    geom friction and joint damping, given to a geom and a joint; and a geom and a joint with
    no class of their own, one to three bodies inside the body whose childclass is that class.
    Main's own friction (0.1 to 0.9) and damping (0 to 2) never equal the class's (1.1 to 2.0
    and 3 to 5)."""
    empty = int(rng.integers(1, 3))
    chain = "".join(f'<default class="empty{i}">' for i in range(1, empty + 1))
    chain += "</default>" * empty  # empty1 holds empty2: neither sets anything
    tree = (
        f'<default><geom friction="{rng.uniform(0.1, 0.9):.3f}"/>'
        f'<joint damping="{rng.uniform(0.0, 2.0):.3f}"/><default class="setter">'
        f'<geom friction="{rng.uniform(1.1, 2.0):.3f}"/>'
        f'<joint damping="{rng.uniform(3.0, 5.0):.3f}"/>{chain}</default></default>'
    )
    elements = (
        '<joint name="joint{0}" {1}type="hinge"/><geom name="geom{0}" {1}type="sphere" size=".05"/>'
    )
    depth = int(rng.integers(1, 4))
    inside = '<body pos="0 0 .2">' * depth + elements.format(1, "") + "</body>" * depth
    classed = elements.format(2, f'class="empty{int(rng.integers(1, empty + 1))}" ')
    world = (
        f'<body pos="0 0 .2" childclass="setter">{inside}</body>'
        f'<body pos=".3 0 .2">{classed}</body>'
    )
    return f'<mujoco model="inherited defaults">{tree}<worldbody>{world}</worldbody></mujoco>'


# --------------------------------------------------------------------------------------------
# Global options


CONE_KEYWORDS = {
    mujoco.mjtCone.mjCONE_PYRAMIDAL: "pyramidal",
    mujoco.mjtCone.mjCONE_ELLIPTIC: "elliptic",
}
SOLVER_KEYWORDS = {
    mujoco.mjtSolver.mjSOL_PGS: "PGS",
    mujoco.mjtSolver.mjSOL_CG: "CG",
    mujoco.mjtSolver.mjSOL_NEWTON: "Newton",
}


def option_values(xml: str = "<mujoco/>") -> dict:
    """The global options MuJoCo compiled for `xml` (by default a file that sets nothing), as
    MJCF writes them: {attribute: value}, enums as their MJCF keyword."""
    opt = compiled.compile_xml(xml).opt
    return {
        "timestep": float(opt.timestep),
        "gravity": tuple(float(g) for g in opt.gravity),
        "integrator": compiled.INTEGRATOR_KEYWORDS[mujoco.mjtIntegrator(opt.integrator)],
        "cone": CONE_KEYWORDS[mujoco.mjtCone(opt.cone)],
        "impratio": float(opt.impratio),
        "solver": SOLVER_KEYWORDS[mujoco.mjtSolver(opt.solver)],
        "iterations": int(opt.iterations),
        "tolerance": float(opt.tolerance),
        "density": float(opt.density),
        "viscosity": float(opt.viscosity),
    }


# --------------------------------------------------------------------------------------------
# Compiler errors and the compiler's quick fixes


# A hinged link whose only geom has mass 0: a moving body without mass.
MASSLESS_LINK = mjcf.template(__file__, "massless_link")


def _compiler_attributes(**attributes) -> str:
    return " ".join(f'{name}="{value}"' for name, value in attributes.items() if value is not None)


def massless_link(boundmass: float | None = None, boundinertia: float | None = None) -> str:
    """The massless hinged link, with compiler/boundmass (kg) and boundinertia (kg m^2) when
    given: the compiler raises a body's mass and each principal moment to at least these."""
    return MASSLESS_LINK.format(
        compiler=_compiler_attributes(boundmass=boundmass, boundinertia=boundinertia)
    )


# A hinged link with an explicit diagonal inertia, e.g. one typed from a datasheet.
DIAGINERTIA_LINK = mjcf.template(__file__, "diaginertia_link")


def diaginertia_link(
    diaginertia: Sequence[float], mass: float = 1.0, balanceinertia: bool = False
) -> str:
    """The hinged link with <inertial diaginertia=...>, optionally compiled with
    compiler/balanceinertia="true" (a moment set that breaks the triangle inequality is
    replaced by three equal moments, their mean)."""
    compiler = 'balanceinertia="true"' if balanceinertia else ""
    return DIAGINERTIA_LINK.format(
        compiler=compiler, mass=float(mass), diaginertia=numbers(diaginertia)
    )


# --------------------------------------------------------------------------------------------
# The exercise: a hollow capsule link with a sphere at its far end


# A 0.5 kg hollow capsule (shellinertia) whose axis runs 0.3 m along x from the joint (fromto
# gives the centres of its end caps), radius 2 cm, and optionally a solid 0.2 kg ball of radius
# 3 cm centred at its end.
CAPSULE_LINK = mjcf.template(__file__, "capsule_link")
BALL_AT_END = '      <geom type="sphere" pos=".3 0 0" size=".03" mass=".2"/>'


def capsule_link(with_ball: bool = True) -> str:
    """The exercise's link: the hollow capsule alone, or with the ball at its end."""
    return CAPSULE_LINK.format(ball=BALL_AT_END if with_ball else "")


# --------------------------------------------------------------------------------------------
# Auditing a model's inertias


def collision_extent(model: mujoco.MjModel, body: int | str) -> np.ndarray | None:
    """Full lengths (m) of the box that holds the body's collision geoms, measured along the
    body's principal inertia axes (the axes of body_iquat, in the order of body_inertia).

    Collision geoms are those with a nonzero contype or conaffinity; each contributes the
    corners of MuJoCo's bounding box of it (geom_aabb), so a turned round shape counts a
    little larger than it is. None when the body has no collision geom.
    """
    b = model.body(body).id
    geoms = [
        g
        for g in range(model.ngeom)
        if model.geom_bodyid[g] == b and (model.geom_contype[g] or model.geom_conaffinity[g])
    ]
    if not geoms:
        return None
    data = mujoco.MjData(model)
    mujoco.mj_kinematics(model, data)
    signs = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)])
    inertial_axes = data.ximat[b].reshape(3, 3)
    points = []
    for g in geoms:
        centre, half = model.geom_aabb[g, :3], model.geom_aabb[g, 3:]
        corners = centre + signs * half  # in the geom's frame
        world = data.geom_xpos[g] + corners @ data.geom_xmat[g].reshape(3, 3).T
        points.append((world - data.xipos[b]) @ inertial_axes)  # in the inertial frame
    points = np.vstack(points)
    return points.max(axis=0) - points.min(axis=0)


def audit_table(model: mujoco.MjModel) -> dict[str, list]:
    """What audit_inertias is given for a model, as plain lists over its bodies (the world body
    left out), in body order: "names"; "masses", kg (body_mass); "inertias", the three
    principal moments of each body, kg m^2 (body_inertia); "extents", each body's
    collision_extent (full lengths in m along the same principal axes, in the same order), or
    None for a body without collision geoms."""
    bodies = range(1, model.nbody)
    extents = [collision_extent(model, b) for b in bodies]
    return {
        "names": [model.body(b).name for b in bodies],
        "masses": [float(model.body_mass[b]) for b in bodies],
        "inertias": [[float(i) for i in model.body_inertia[b]] for b in bodies],
        "extents": [None if e is None else [float(x) for x in e] for e in extents],
    }


@dataclass(frozen=True)
class AuditCase:
    """A model to audit: its MJCF text and the names of the bodies planted with inertias
    whose equivalent box is more than twice their collision geometry along some axis."""

    xml: str
    suspects: tuple[str, ...]


AUDIT_MODEL = mjcf.template(__file__, "audit_model")
AUDIT_BODY = mjcf.template(__file__, "audit_body")

# What kind of body each audit body is. "suspect" kinds are the planted ones.
AUDIT_HONEST = ("from_geom", "honest_inertial", "small_shell", "visual_only")
AUDIT_SUSPECT = ("inflated_inertia", "other_part", "light_mass", "shell_weighed")


def _audit_body(kind: str, rng: np.random.Generator) -> str:
    """MJCF content of one audit body of `kind`, with random sizes."""
    half = rng.uniform(0.02, 0.12, 3)
    quat = random_unit_quat(rng)
    mass = float(rng.uniform(0.2, 3.0))
    box = Geom("box", tuple(half), quat=tuple(quat), mass=mass)
    if kind == "from_geom":  # inertia from a collision geom of any shape
        shape = str(rng.choice(["box", "sphere", "cylinder", "capsule"]))
        size = tuple(half[: SHAPE_SIZES[shape]])
        return geom_element(Geom(shape, size, quat=tuple(quat), mass=mass))
    if kind == "small_shell":  # a visual shell 1.2x the box, weighed too: still honest
        shell = geom_element(Geom("box", tuple(1.2 * half), quat=tuple(quat), density=50.0))
        return geom_element(box) + "\n" + shell.replace("<geom ", '<geom class="visual" ')
    if kind == "shell_weighed":  # a visual shell 3x the box at the box's density, weighed
        shell = geom_element(Geom("box", tuple(3 * half), quat=tuple(quat), mass=27 * mass))
        return geom_element(box) + "\n" + shell.replace("<geom ", '<geom class="visual" ')
    # The others state an <inertial> along the box's axes beside the collision box.
    stated_mass, inertia_half, scale = mass, half.copy(), 1.0
    if kind == "honest_inertial":  # a datasheet within a factor of 1.6 of the geometry
        scale = float(rng.uniform(0.6, 1.6))
    elif kind == "inflated_inertia":  # every moment 6 to 10 times too large
        scale = float(rng.uniform(6.0, 10.0))
    elif kind == "other_part":  # the inertia of a part 2.6 to 4 times longer on one axis
        inertia_half[rng.integers(3)] *= rng.uniform(2.6, 4.0)
    elif kind == "light_mass":  # the moments of the box, but a mass 6 to 10 times too small
        stated_mass = mass / float(rng.uniform(6.0, 10.0))
    elif kind == "visual_only":  # no collision geom at all: nothing to compare with
        _, moments = geom_solid("box", tuple(half), mass=mass)
        visual = geom_element(box).replace("<geom ", '<geom class="visual" ')
        return inertial_element(mass, diaginertia=8.0 * moments, quat=quat) + "\n" + visual
    else:
        raise ValueError(f"unknown audit body kind {kind!r}")
    _, moments = geom_solid("box", tuple(inertia_half), mass=mass)
    inertial = inertial_element(stated_mass, diaginertia=scale * moments, quat=quat)
    return inertial + "\n" + geom_element(box)


def audit_model(seed: int, n_honest: int = 4, n_suspect: int = 3) -> AuditCase:
    """A random model of hinged bodies named link1, link2, ...: n_honest bodies whose
    inertia fits their collision geometry (or that have none) and n_suspect planted ones,
    shuffled. The same seed gives the same model."""
    rng = np.random.default_rng(seed)
    kinds = [AUDIT_HONEST[i % len(AUDIT_HONEST)] for i in range(n_honest)]
    kinds += [str(k) for k in rng.choice(AUDIT_SUSPECT, n_suspect)]
    rng.shuffle(kinds)
    bodies, suspects = [], []
    for i, kind in enumerate(kinds, start=1):
        name = f"link{i}"
        bodies.append(
            AUDIT_BODY.format(
                name=name,
                pos=numbers([0.5 * i, 0.0, 0.5]),
                body_quat=numbers(random_unit_quat(rng)),
                content=_audit_body(kind, rng),
            )
        )
        if kind in AUDIT_SUSPECT:
            suspects.append(name)
    return AuditCase(AUDIT_MODEL.format(bodies="\n".join(bodies)), tuple(suspects))
