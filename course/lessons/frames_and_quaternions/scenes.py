"""Lesson 04's MJCF scenes, as named templates and small builders.

Every builder returns MJCF (or URDF) text; compile it with `course.compiled.compile_xml`.
Units: metres, kilograms, seconds, radians unless a scene says degrees. Quaternions are
scalar first, (w, x, y, z), as MJCF writes them.
"""

from collections.abc import Sequence

from course import mjcf
from course.mjcf import numbers

# Text, spec, model, data: a free box; the lesson adds a ball to its spec.
FREE_DEFAULTS = mjcf.template(__file__, "free_defaults")  # default joint damping 3, both free
WELDED = mjcf.template(__file__, "welded")  # a free hull with a mast and a keel, no joints
PLANAR = mjcf.template(__file__, "planar")  # slide x, slide y, hinge z on one body
FRAME_ELEMENT = mjcf.template(__file__, "frame_element")  # a <frame> around a hinged arm
URDF_LINK = mjcf.template(__file__, "urdf_link")  # a URDF link with rpy, a visual, a collision
ANGLES = mjcf.template(__file__, "angles")
EULER_BODY = mjcf.template(__file__, "euler_body")
QUAT_BODY = mjcf.template(__file__, "quat_body")
POSE_PAIR = mjcf.template(__file__, "pose_pair")
MASS_BODY = mjcf.template(__file__, "mass_body")
SPIN_BOX = mjcf.template(__file__, "spin_box")
MESH_PRISM = mjcf.template(__file__, "mesh_prism")
MESH_CUP = mjcf.template(__file__, "mesh_cup")

EULER_LETTERS = "xyzXYZ"
MESH_INERTIA = ("legacy", "convex", "exact", "shell")

# Outlines of prisms in the x-z plane (m), counter-clockwise, and their triangles. Each is
# extruded 10 cm along y. The U is 15 x 15 cm with a notch 5 cm wide and 12.5 cm deep, open
# towards +z: a cup seen from the side.
U_OUTLINE = (
    (-0.075, 0.0),
    (0.075, 0.0),
    (0.075, 0.15),
    (0.025, 0.15),
    (0.025, 0.025),
    (-0.025, 0.025),
    (-0.025, 0.15),
    (-0.075, 0.15),
)
U_TRIANGLES = ((0, 1, 4), (1, 2, 3), (1, 3, 4), (0, 4, 5), (0, 5, 6), (0, 6, 7))


def l_outline(arm: float, side: float = 0.15) -> tuple:
    """An L of two arms `arm` m thick and `side` m long, corner at the origin."""
    return ((0.0, 0.0), (side, 0.0), (side, arm), (arm, arm), (arm, side), (0.0, side))


L_TRIANGLES = ((0, 1, 2), (0, 2, 3), (0, 3, 4), (0, 4, 5))
PRISM_LENGTH = 0.1


def angles(angle: str | None = None) -> str:
    """A hinged link with euler="0 0 90" and range="0 90", compiled with <compiler angle>
    set to `angle` ("degree" or "radian"), or left out (None: MuJoCo's default)."""
    if angle is not None:
        mjcf.one_of(angle, ("degree", "radian"), "compiler/angle")
    return ANGLES.format(compiler="" if angle is None else f'angle="{angle}"')


def urdf_link(rpy: Sequence[float]) -> str:
    """A one-link URDF whose joint origin is turned by `rpy` (roll, pitch, yaw, rad)."""
    return URDF_LINK.format(rpy=numbers(rpy))


def euler_body(angles_rad: Sequence[float], seq: str) -> str:
    """One body turned by `euler` = `angles_rad` (radians) in the order `seq` (eulerseq)."""
    if len(seq) != 3 or any(letter not in EULER_LETTERS for letter in seq):
        raise ValueError(f"eulerseq is three letters of {EULER_LETTERS!r}, not {seq!r}")
    return EULER_BODY.format(seq=seq, angles=numbers(angles_rad))


def quat_body(quat: Sequence[float]) -> str:
    """One body whose MJCF `quat` attribute is `quat`, as written (four numbers)."""
    return QUAT_BODY.format(quat=numbers(quat))


def pose_pair(parent_pos, parent_quat, child_pos, child_quat) -> str:
    """A body "parent" posed in the world and a body "child" posed in the parent."""
    return POSE_PAIR.format(
        parent_pos=numbers(parent_pos),
        parent_quat=numbers(parent_quat),
        child_pos=numbers(child_pos),
        child_quat=numbers(child_quat),
    )


def mass_body(ipos, iquat, mass: float, diaginertia) -> str:
    """A free body "body" with its centre of mass at `ipos` (m, body frame), its principal
    axes turned by `iquat` (w, x, y, z) from the body frame, `mass` kg and principal moments
    `diaginertia` (kg m^2)."""
    return MASS_BODY.format(
        ipos=numbers(ipos),
        iquat=numbers(iquat),
        mass=repr(float(mass)),
        diaginertia=numbers(diaginertia),
    )


def spin_box(align: bool = False, integrator: str = "Euler") -> str:
    """The seed's free box in zero gravity, its freejoint aligned to the inertial frame or not,
    stepped with `integrator` (MuJoCo's default is "Euler")."""
    mjcf.one_of(integrator, mjcf.INTEGRATORS, "option/integrator")
    return SPIN_BOX.format(align="true" if align else "false", integrator=integrator)


def prism_mesh(outline, triangles, length: float = PRISM_LENGTH) -> tuple[str, str]:
    """(vertex, face) attribute text of a prism: `outline` (x, z points, counter-clockwise)
    extruded from y = -length/2 to +length/2, its caps cut into `triangles`. Every face is
    turned outwards, so the mesh is closed and well oriented (MuJoCo's exact inertia needs it).
    """
    n = len(outline)
    half = length / 2
    points = [(x, -half, z) for x, z in outline] + [(x, half, z) for x, z in outline]
    faces = [tuple(t) for t in triangles]  # front cap, seen from -y
    faces += [(a + n, c + n, b + n) for a, b, c in triangles]  # back cap, seen from +y
    for i in range(n):
        j = (i + 1) % n
        faces += [(i, j + n, j), (i, i + n, j + n)]
    vertex = " ".join(f"{c:g}" for point in points for c in point)
    face = " ".join(str(index) for triangle in faces for index in triangle)
    return vertex, face


def mesh_prism(outline, triangles, inertia: str | None = None) -> str:
    """A free body holding one prism mesh (density 1000 kg/m^3), its mesh inertia mode
    `inertia` ("legacy", "convex", "exact" or "shell"; None leaves MuJoCo's default)."""
    vertex, face = prism_mesh(outline, triangles)
    mode = ""
    if inertia is not None:
        mode = f' inertia="{mjcf.one_of(inertia, MESH_INERTIA, "mesh/inertia")}"'
    return MESH_PRISM.format(vertex=vertex, face=face, inertia=mode)


def ball_in_cup(ball_z: float = 0.08, ball_radius: float = 0.02) -> str:
    """The U prism fixed in the world, open upwards, and a free ball centred in its notch at
    height `ball_z` (m): clear of every wall of the U, but inside its convex hull."""
    vertex, face = prism_mesh(U_OUTLINE, U_TRIANGLES)
    return MESH_CUP.format(vertex=vertex, face=face, ball_z=ball_z, ball_radius=ball_radius)
