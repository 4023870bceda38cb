"""Visible checks for lesson 03, "Mass, inertia and default classes": the cases the lesson shows.

Every reference number is read from MuJoCo: its compiled body_mass, body_ipos, body_inertia and
body_iquat, whether it compiles an <inertial>, the joint-space inertia of a ball joint (see
`inertia.inertia_about_point`), or the friction and damping it resolved from default classes.
A hint that names a particular slip recognises it by comparing with MuJoCo too: the hollow
capsule's caps in the two wrong places are built from MuJoCo's own shapes
(`inertia.hollow_capsule_caps`), never from a formula here.

Each check a test cell calls is a `visible_check` that takes the lesson's cases by default;
hidden tests call the same checks with cases drawn from a seed, which the lesson never shows.
What MuJoCo knows (a geom's mass, a body's inertia, a collision extent) is computed here and
handed to the learner's function as plain numbers, lists and dicts.
"""

from math import isclose as _isclose
from math import isfinite as _isfinite

import numpy as np

from course import compiled, expect
from course.expect import letter  # noqa: F401 (test cells call check.letter)
from course.frames import MJCF_ORDER, URDF_ORDER, tensor_from_six
from course.frames import unit as _unit
from course.lessons.mass_and_inertia import inertia as lab

# --- the lesson's cases --------------------------------------------------------------------

# Hollow capsules (shellinertia): (radius m, half-length m, density kg per m^2 of surface):
# a 1 mm aluminium wall (2.7 kg/m^2), a stubby 1.5 mm plastic one and a long thin tube with a
# 2 mm steel wall.
HOLLOW_CASES = ((0.03, 0.1, 2.7), (0.05, 0.02, 1.9), (0.01, 0.3, 15.6))


# A geom turned into the body frame: (kind, size, density, quat).
ROTATE_CASES = (
    ("box", (0.1, 0.05, 0.02), 700.0, _unit((0.9, 0.1, 0.3, 0.2))),
    ("cylinder", (0.02, 0.12), 2700.0, _unit((0.6, -0.5, 0.1, 0.4))),
)

# A hammer: a 30 cm wooden handle along x (a cylinder turned from z to x), a steel head across
# its far end (a box turned 20 degrees about x) and a rubber grip ring given by mass. The body
# origin is at the handle's free end, where the hand holds it.
Z_TO_X = _unit((1.0, 0.0, 1.0, 0.0))  # 90 degrees about y
HAMMER = (
    lab.Geom("cylinder", (0.015, 0.15), (0.15, 0.0, 0.0), Z_TO_X, density=700.0),
    lab.Geom(
        "box",
        (0.02, 0.06, 0.02),
        (0.31, 0.0, 0.0),
        _unit((np.cos(0.17), np.sin(0.17), 0, 0)),
        density=7800.0,
    ),
    lab.Geom("capsule", (0.02, 0.04), (0.05, 0.0, 0.0), Z_TO_X, mass=0.05),
)

# A three-legged stool, all geoms axis-aligned: a seat disk and three legs given by mass.
STOOL = (
    lab.Geom("cylinder", (0.15, 0.015), (0.0, 0.0, 0.45), density=600.0),
    lab.Geom("box", (0.015, 0.015, 0.22), (0.1, 0.0, 0.22), mass=0.3),
    lab.Geom("box", (0.015, 0.015, 0.22), (-0.05, 0.087, 0.22), mass=0.3),
    lab.Geom("box", (0.015, 0.015, 0.22), (-0.05, -0.087, 0.22), mass=0.6),
)

# A CAD export of a bracket: mass (kg), centre of mass (m) and the inertia about it (kg m^2)
# in MJCF's fullinertia order Ixx Iyy Izz Ixy Ixz Iyz, in the body frame.
BRACKET_FULLINERTIA = (2.1e-3, 1.6e-3, 2.9e-3, -4.0e-4, 2.5e-4, 3.0e-4)

# Moment sets for inertia_is_physical that are clearly inside or outside what MuJoCo accepts.
PHYSICAL_CASES = (
    (0.002, 0.003, 0.004),
    (0.05, 0.01, 0.05),
    (0.002, 0.003, 0.006),
    (0.009, 0.001, 0.002),
    (0.0, 0.01, 0.01),
    (-0.001, 0.003, 0.003),
)
# A flat disk: one moment exactly the sum of the other two.
BOUNDARY_CASES = ((0.01, 0.01, 0.02),)

# (element, attribute) pairs resolve_attribute is checked on, in the lesson's defaults model
# and in the random ones of the hidden tests (which never set an armature).
DEFAULT_ATTRIBUTES = (("geom", "friction"), ("joint", "damping"), ("joint", "armature"))
RANDOM_DEFAULT_ATTRIBUTES = (("geom", "friction"), ("joint", "damping"))

AUDIT_SEED = 3  # the model Build it, Step 7 audits


def _many(count: int, one: str, many: str) -> str:
    """'1 body', '4 bodies'."""
    return f"{count} {one if count == 1 else many}"


def _scale(values) -> float:
    return float(np.max(np.abs(np.asarray(values, dtype=float))))


def _finite_matrix(got, what: str) -> list:
    """`got` as plain floats, refused unless every entry is a finite number: a NaN compares
    False with everything, so expect.inertia_matches alone would let it through."""
    if got is None:
        raise expect.NotAnswered(f"{what} returned None: write its body.")
    values = expect.as_floats(got, what)
    flat = values if not values or not isinstance(values[0], list) else sum(values, [])
    if any(isinstance(v, list) or not _isfinite(v) for v in flat):
        raise AssertionError(f"{what} should be a 3x3 matrix of finite numbers, got {values}")
    return values


def tensor_of(props: compiled.MassProperties) -> np.ndarray:
    """The 3x3 inertia about the COM, in body axes, that MuJoCo's principal moments and axes
    describe."""
    return props.axes @ np.diag(props.principal) @ props.axes.T


# --- Step 1: the hollow capsule ------------------------------------------------------------

HOLLOW_MASS_HINT = (
    "With shellinertia the mass is all on the surface: density is in kg per square metre, "
    "times the area of the open tube and of the two caps, which together make one sphere."
)
HOLLOW_SOLID_HINT = (
    "That is the solid capsule's mass, the volume times the density. With shellinertia the "
    "density is per square metre of surface: weigh the area instead."
)
HOLLOW_CLOSED_HINT = (
    "That mass counts two end disks the tube does not have: the caps close its ends."
)
HOLLOW_AXIAL_HINT = (
    "About the axis, every bit of the tube is at distance r from it, and the caps together "
    "make a hollow sphere (not a solid one)."
)
HOLLOW_CENTRE_HINT = (
    "Your caps sit at the capsule's centre. Each hemispherical shell lies beyond an end of the "
    "tube: move it out with the parallel-axis theorem."
)
HOLLOW_FLAT_FACE_HINT = (
    "Your caps are moved out from their flat face, but the parallel-axis theorem moves a "
    "moment from the centre of mass: first take the term off at the cap's own COM."
)
HOLLOW_TRANSVERSE_HINT = (
    "Across the axis: the open tube's own moment, plus each hemispherical shell moved from its "
    "own centre of mass, which for a thin shell lies r/2 from its flat face (3r/8 is a solid "
    "hemisphere's)."
)


def _capsule_result(hollow_capsule_inertia, radius, half_length, density):
    what = f"hollow_capsule_inertia({radius:g}, {half_length:g}, {density:g})"
    result = hollow_capsule_inertia(radius, half_length, density)
    if result is None:
        raise expect.NotAnswered(f"{what} returned None: write its body.")
    mass, principal = expect.sequence_of(result, 2, what)
    principal = expect.as_floats(principal, f"the inertia from {what}")
    if len(principal) != 3 or isinstance(principal[0], list):
        raise AssertionError(f"the inertia from {what} should be 3 numbers, got {principal}")
    return what, mass, principal


def _mass_hint(mass, radius, half_length, density) -> str:
    """The hint for a wrong mass: the solid capsule's, a tube closed by disks, or else."""
    solid, _ = lab.geom_solid("capsule", (radius, half_length), density=density)
    tube, _ = lab.geom_solid("cylinder", (radius, half_length), density=density, shell=True)
    caps, _ = lab.geom_solid("sphere", (radius,), density=density, shell=True)
    for wrong, hint in ((solid, HOLLOW_SOLID_HINT), (tube + caps, HOLLOW_CLOSED_HINT)):
        if _isclose(float(mass), wrong, rel_tol=1e-6):
            return hint
    return HOLLOW_MASS_HINT


def _transverse_hint(moment, radius, half_length, density) -> str:
    """The hint for a wrong I_xx: the caps left at the centre, moved from their flat face, or
    else the general one. The wrong placements are built from MuJoCo's shapes."""
    placed = lab.hollow_capsule_caps(radius, half_length, density)
    for key, hint in (("at_centre", HOLLOW_CENTRE_HINT), ("from_flat_face", HOLLOW_FLAT_FACE_HINT)):
        if _isclose(float(moment), placed[key], rel_tol=1e-6):
            return hint
    return HOLLOW_TRANSVERSE_HINT


def _compare_capsule(hollow_capsule_inertia, radius, half_length, density, part: str) -> None:
    """Assert hollow_capsule_inertia matches MuJoCo's compiled hollow capsule (shellinertia);
    part is "mass_and_axial" (mass and the moment about the axis, z) or "transverse" (about
    x and y)."""
    size = (radius, half_length)
    want_mass, want = lab.geom_solid("capsule", size, density=density, shell=True)
    what, mass, principal = _capsule_result(hollow_capsule_inertia, radius, half_length, density)
    if part == "mass_and_axial":
        expect.as_floats(mass, f"the mass from {what}")
        hint = _mass_hint(mass, radius, half_length, density)
        expect.close(mass, want_mass, f"the mass from {what}", rtol=1e-9, hint=hint)
        expect.close(principal[2], want[2], f"I_zz from {what}", rtol=1e-9, hint=HOLLOW_AXIAL_HINT)
    elif part == "transverse":
        for axis in (0, 1):
            if not _isclose(principal[axis], want[axis], rel_tol=1e-9):
                hint = _transverse_hint(principal[axis], radius, half_length, density)
                expect.close(principal[:2], want[:2], f"I_xx, I_yy from {what}", hint=hint)
    else:
        raise ValueError(f"part is 'mass_and_axial' or 'transverse', not {part!r}")


@expect.visible_check
def hollow_capsule_mass_and_axial(hollow_capsule_inertia, cases=HOLLOW_CASES) -> None:
    """Compare hollow_capsule_inertia's mass and axial moment with MuJoCo on hollow capsules
    `cases` ((radius m, half_length m, density kg/m^2) each; by default the lesson's)."""
    for case in cases:
        _compare_capsule(hollow_capsule_inertia, *case, part="mass_and_axial")
    expect.ok(
        f"mass and I_zz match MuJoCo for {_many(len(cases), 'hollow capsule', 'hollow capsules')}."
    )


@expect.visible_check
def hollow_capsule_transverse(hollow_capsule_inertia, cases=HOLLOW_CASES) -> None:
    """Compare hollow_capsule_inertia's moments across the axis with MuJoCo on `cases`."""
    for case in cases:
        _compare_capsule(hollow_capsule_inertia, *case, part="transverse")
    expect.ok(
        f"I_xx and I_yy match MuJoCo for {_many(len(cases), 'hollow capsule', 'hollow capsules')}."
    )


# --- Step 2: a turned geom -----------------------------------------------------------------

ROTATE_HINT = (
    "MJCF quaternions are scalar first, (w, x, y, z). The quaternion turns the geom's own "
    "axes into the body frame; check the direction of your rotation as well as the order."
)


def _compare_rotate_inertia(rotate_inertia, principal, quat) -> None:
    """Assert rotate_inertia(principal, quat) is the body-frame inertia MuJoCo compiles for
    principal moments `principal` (kg m^2) along axes turned by the unit quaternion `quat`."""
    inertial = lab.inertial_element(1.0, diaginertia=principal, quat=quat)
    model = compiled.compile_xml(lab.body_xml(inertial, model="turned"))
    want = compiled.body_mass_properties(model, "body")
    what = f"rotate_inertia({[round(p, 8) for p in principal]}, {[round(q, 4) for q in quat]})"
    got = rotate_inertia(np.array(principal, dtype=float), np.array(quat, dtype=float))
    if got is None:
        raise expect.NotAnswered(f"{what} returned None: write the body of rotate_inertia.")
    got = _finite_matrix(got, what)
    expect.inertia_matches(got, want.principal, want.axes, what, hint=ROTATE_HINT)


def _compare_turned_geom(rotate_inertia, kind, size, density, quat) -> None:
    """Assert rotate_inertia turns a geom's own principal inertia into the inertia MuJoCo
    compiles for that geom with `quat` in a body of its own."""
    _, principal = lab.geom_solid(kind, size, density=density)
    want = lab.body_properties([lab.Geom(kind, tuple(size), quat=tuple(quat), density=density)])
    turn = [round(q, 4) for q in quat]
    what = f"rotate_inertia for the {kind} of size {list(size)} turned by {turn}"
    got = rotate_inertia(principal.copy(), np.array(quat, dtype=float))
    if got is None:
        raise expect.NotAnswered(f"{what} returned None: write the body of rotate_inertia.")
    got = _finite_matrix(got, what)
    expect.inertia_matches(got, want.principal, want.axes, what, hint=ROTATE_HINT)


@expect.visible_check
def rotate_inertia(rotate_inertia, geoms=ROTATE_CASES, moments=()) -> None:
    """Compare rotate_inertia with MuJoCo on turned geoms `geoms` ((kind, size, density, quat)
    each; by default the lesson's box and cylinder) and on turned moment sets `moments`
    ((principal, quat) each, stated as an <inertial>)."""
    for kind, size, density, quat in geoms:
        _compare_turned_geom(rotate_inertia, kind, size, density, quat)
    for principal, quat in moments:
        _compare_rotate_inertia(rotate_inertia, principal, quat)
    turns = _many(len(geoms) + len(moments), "turn", "turns")
    expect.ok(f"rotate_inertia gives MuJoCo's body-frame inertia for {turns}.")


# --- Step 3: a body from geoms -------------------------------------------------------------


def _compare_body_from_geoms(body_inertia_from_geoms, geoms, check_inertia: bool) -> None:
    """Assert body_inertia_from_geoms, given each geom's mass and principal moments (read from
    MuJoCo, lab.geom_parts) with its pos and quat, gives MuJoCo's body_mass and body_ipos for
    the body of `geoms` and, when check_inertia, the inertia about the centre of mass that its
    body_inertia and body_iquat describe."""
    geoms = [lab.Geom(*g) for g in geoms]
    want = lab.body_properties(geoms)
    result = body_inertia_from_geoms(lab.geom_parts(geoms))
    what = f"body_inertia_from_geoms for {len(geoms)} geoms"
    if result is None:
        raise expect.NotAnswered(f"{what} returned None: write its body.")
    mass, com, inertia = expect.sequence_of(result, 3, what)
    expect.close(
        mass,
        want.mass,
        f"the mass from {what}",
        rtol=1e-9,
        hint="The body weighs what its geoms weigh together.",
    )
    expect.close(
        com,
        want.com,
        f"the centre of mass from {what}",
        rtol=1e-9,
        atol=1e-12,
        hint="The centre of mass is the mass-weighted mean of the geoms' centres, in the body "
        "frame.",
    )
    if check_inertia:
        expect.inertia_matches(
            _finite_matrix(inertia, f"the inertia from {what}"),
            want.principal,
            want.axes,
            f"the inertia from {what}",
            hint="Turn each geom's inertia into the body frame, then move it from the geom's "
            "centre to the body's centre of mass (not to the body origin).",
        )


def _bodies_from_geoms(body_inertia_from_geoms, bodies, check_inertia: bool, said: str) -> None:
    """_compare_body_from_geoms on each of `bodies`, then one OK line: "body_inertia_from_geoms
    gives MuJoCo's <said>", its {} filled with how many bodies were checked."""
    for geoms in bodies:
        _compare_body_from_geoms(body_inertia_from_geoms, geoms, check_inertia)
    checked = _many(len(bodies), "body", "bodies")
    expect.ok(f"body_inertia_from_geoms gives MuJoCo's {said.format(checked)}.")


@expect.visible_check
def body_from_geoms_mass_and_com(body_inertia_from_geoms, bodies=(STOOL, HAMMER)) -> None:
    """Compare mass and centre of mass with MuJoCo for `bodies` (each a sequence of lab.Geom;
    by default the lesson's stool and hammer)."""
    _bodies_from_geoms(body_inertia_from_geoms, bodies, False, "mass and COM for {}")


@expect.visible_check
def body_from_geoms_inertia_aligned(body_inertia_from_geoms, bodies=(STOOL,)) -> None:
    """Compare the inertia with MuJoCo for `bodies` of unturned geoms (by default the stool)."""
    _bodies_from_geoms(body_inertia_from_geoms, bodies, True, "inertia for {} of unturned geoms")


@expect.visible_check
def body_from_geoms_inertia_turned(body_inertia_from_geoms, bodies=(HAMMER,)) -> None:
    """Compare the inertia with MuJoCo for `bodies` of turned geoms (by default the hammer)."""
    _bodies_from_geoms(body_inertia_from_geoms, bodies, True, "inertia for {} of turned geoms")


# --- Step 4: principal axes ----------------------------------------------------------------


def tensor_from_fullinertia(fullinertia) -> np.ndarray:
    """The symmetric 3x3 matrix of six numbers in MJCF's order Ixx Iyy Izz Ixy Ixz Iyz."""
    return tensor_from_six(fullinertia)


PRINCIPAL_HINT = (
    "The quaternion (scalar first) must turn the body axes onto your principal axes, in the "
    "order of your moments. A set of eigenvectors with determinant -1 is a mirror image, not "
    "a rotation, and no quaternion describes it."
)


def _compare_principal_axes(principal_axes, tensor, part: str) -> None:
    """Assert principal_axes(tensor) gives what MuJoCo stores for this inertia tensor (kg m^2,
    about the centre of mass). part "moments": the sorted moments equal MuJoCo's body_inertia,
    sorted. part "rebuild": MuJoCo, given the learner's moments as diaginertia and quaternion as
    quat, rebuilds this tensor, and the quaternion has unit length."""
    tensor = np.array(tensor, dtype=float)
    full = [tensor[i, j] for i, j in MJCF_ORDER]
    want = compiled.body_mass_properties(
        compiled.compile_xml(lab.body_xml(lab.inertial_element(1.0, fullinertia=full))), "body"
    )
    what = "principal_axes(tensor)"
    result = principal_axes(tensor.copy())
    if result is None:
        raise expect.NotAnswered(f"{what} returned None: write the body of principal_axes.")
    moments, quat = expect.sequence_of(result, 2, what)
    moments = expect.as_floats(moments, f"the moments from {what}")
    quat = expect.as_floats(quat, f"the quaternion from {what}")
    if len(moments) != 3 or len(quat) != 4:
        raise AssertionError(f"{what} should return 3 moments and a 4-number quaternion")
    scale = _scale(want.principal)
    if part == "moments":
        expect.close(
            sorted(moments),
            sorted(want.principal),
            f"the sorted moments from {what}",
            rtol=1e-7,
            atol=1e-9 * scale,
            hint="The principal moments are the eigenvalues of the symmetric tensor.",
        )
        return
    if part != "rebuild":
        raise ValueError(f"part is 'moments' or 'rebuild', not {part!r}")
    try:
        inertial = lab.inertial_element(1.0, diaginertia=moments, quat=quat)
        rebuilt = lab.inertia_about_point(inertial)
    except (compiled.ModelError, ValueError) as error:
        raise AssertionError(
            f"MuJoCo refuses your moments {moments} and quaternion {quat} ({error}). "
            f"{PRINCIPAL_HINT}"
        ) from None
    what_rebuilt = f"the tensor MuJoCo rebuilds from the moments and quaternion of {what}"
    expect.close(rebuilt, tensor, what_rebuilt, rtol=1e-7, atol=1e-9 * scale, hint=PRINCIPAL_HINT)
    expect.close(
        sum(q * q for q in quat),
        1.0,
        f"the squared length of the quaternion from {what}",
        rtol=1e-9,
        hint="Return a unit quaternion, as MuJoCo stores in body_iquat.",
    )


def _bracket() -> tuple[np.ndarray]:
    return (tensor_from_fullinertia(BRACKET_FULLINERTIA),)


@expect.visible_check
def principal_axes_moments(principal_axes, tensors=None) -> None:
    """Compare principal_axes' moments with MuJoCo for `tensors` (3x3 inertias about the COM;
    by default the lesson's bracket)."""
    tensors = _bracket() if tensors is None else tensors
    for tensor in tensors:
        _compare_principal_axes(principal_axes, tensor, "moments")
    checked = _many(len(tensors), "tensor", "tensors")
    expect.ok(f"principal_axes gives MuJoCo's principal moments for {checked}.")


@expect.visible_check
def principal_axes_rebuild(principal_axes, tensors=None) -> None:
    """Check MuJoCo rebuilds `tensors` (by default the bracket's) from principal_axes' moments
    and quaternion."""
    tensors = _bracket() if tensors is None else tensors
    for tensor in tensors:
        _compare_principal_axes(principal_axes, tensor, "rebuild")
    rebuilt = _many(len(tensors), "tensor", "tensors")
    expect.ok(f"MuJoCo rebuilds {rebuilt} from your moments and unit quaternion.")


# --- Step 5: CAD data about the body origin ------------------------------------------------


def cad_data(geoms) -> tuple[float, np.ndarray, np.ndarray]:
    """What a CAD tool reports for a body of `geoms`: mass (kg), centre of mass (m, body
    frame) and the 3x3 inertia about the body ORIGIN (kg m^2, body frame), read from MuJoCo."""
    props = lab.body_properties(geoms)
    return props.mass, props.com, lab.inertia_about_point(geoms, (0.0, 0.0, 0.0))


def _compare_fullinertia(fullinertia_from_origin, geoms) -> None:
    """Assert fullinertia_from_origin turns the CAD data of `geoms` into the six numbers of an
    MJCF fullinertia for which MuJoCo compiles the body it compiles from the geoms."""
    geoms = [lab.Geom(*g) for g in geoms]
    mass, com, about_origin = cad_data(geoms)
    about_com = lab.inertia_about_point(geoms, com)
    want = [about_com[i, j] for i, j in MJCF_ORDER]
    what = "fullinertia_from_origin(mass, com, inertia_about_origin)"
    got = fullinertia_from_origin(mass, com.copy(), about_origin.copy())
    if got is None:
        raise expect.NotAnswered(f"{what} returned None: write its body.")
    got = expect.as_floats(got, what)
    if len(got) != 6 or isinstance(got[0], list):
        raise AssertionError(f"{what} should be 6 numbers, got {got}")
    scale = _scale(about_com)
    close = dict(rtol=1e-7, atol=1e-9 * scale)
    hint = (
        "fullinertia is about the centre of mass, in MJCF's order Ixx Iyy Izz Ixy Ixz Iyz; "
        "the CAD inertia is about the body origin."
    )
    if np.allclose(got, [about_com[i, j] for i, j in URDF_ORDER], **close):
        hint = (
            "These are URDF's order (ixx ixy ixz iyy iyz izz); MJCF's is Ixx Iyy Izz Ixy Ixz Iyz."
        )
    elif np.allclose(got, [about_origin[i, j] for i, j in MJCF_ORDER], **close):
        hint = (
            "These are the inertia about the body origin, unchanged: fullinertia must be "
            "about the centre of mass (parallel-axis theorem)."
        )
    expect.close(got, want, what, hint=hint, **close)


@expect.visible_check
def fullinertia_from_origin(fullinertia_from_origin, bodies=(HAMMER,)) -> None:
    """Compare fullinertia_from_origin with MuJoCo for `bodies` held at their origin (each a
    sequence of lab.Geom; by default the hammer held at its handle's end)."""
    for geoms in bodies:
        _compare_fullinertia(fullinertia_from_origin, geoms)
    checked = _many(len(bodies), "body", "bodies")
    expect.ok(f"fullinertia_from_origin gives the inertia about the COM of {checked}.")


# --- Step 6: is this inertia possible? -----------------------------------------------------


def _compare_inertia_is_physical(inertia_is_physical, diaginertia, on_boundary=False) -> None:
    """Assert inertia_is_physical(diaginertia) says whether MuJoCo compiles that diaginertia
    on a moving body."""
    want = lab.diaginertia_compiles(diaginertia)
    got = inertia_is_physical(list(diaginertia))
    what = f"inertia_is_physical({list(diaginertia)})"
    if got is None:
        raise expect.NotAnswered(f"{what} returned None: write the body of inertia_is_physical.")
    if not (got is True or got is False or isinstance(got, np.bool_)):
        raise AssertionError(f"{what} should be True or False, got {got!r}")
    if bool(got) == want:
        return
    if on_boundary:
        hint = (
            "MuJoCo compiles a moment set exactly on the boundary (a flat plate): every "
            "two moments must add up to AT LEAST the third, for each of the three pairs."
        )
    elif want:
        hint = (
            "MuJoCo compiles it: every moment is positive and no pair adds up to less than "
            "the third."
        )
    else:
        hint = (
            "MuJoCo refuses it: a moment that is not positive, or a pair that adds up to less "
            "than the third."
        )
    raise AssertionError(
        f"{what} = {bool(got)}, but MuJoCo {'compiles' if want else 'refuses'} it. {hint}"
    )


@expect.visible_check
def inertia_is_physical(inertia_is_physical, cases=PHYSICAL_CASES) -> None:
    """Compare inertia_is_physical with MuJoCo on moment sets `cases` off the boundary (by
    default the lesson's)."""
    for case in cases:
        _compare_inertia_is_physical(inertia_is_physical, case)
    checked = _many(len(cases), "moment set", "moment sets")
    expect.ok(f"inertia_is_physical agrees with MuJoCo's compiler on {checked}.")


@expect.visible_check
def inertia_is_physical_boundary(inertia_is_physical, cases=BOUNDARY_CASES) -> None:
    """Compare inertia_is_physical with MuJoCo on moment sets exactly on the boundary (by
    default the flat disk)."""
    for case in cases:
        _compare_inertia_is_physical(inertia_is_physical, case, on_boundary=True)
    checked = _many(len(cases), "flat body", "flat bodies")
    expect.ok(f"inertia_is_physical accepts {checked}, as MuJoCo does.")


# --- Default classes -----------------------------------------------------------------------


def _same(got, want: float) -> bool:
    """Whether a number is MuJoCo's (math.isclose bound when this module loaded)."""
    if isinstance(got, bool):
        return False
    try:
        return _isclose(float(got), want, rel_tol=1e-9, abs_tol=1e-12)
    except (TypeError, ValueError):
        return False


def _resolved(model, element: str, attribute: str) -> dict[str, float]:
    """{element name: the value of `attribute` MuJoCo resolved} for geoms or joints."""
    if element == "geom":
        return {name: values[0] for name, values in lab.resolved_geoms(model).items()}
    index = {"damping": 0, "armature": 1}[attribute]
    return {name: values[index] for name, values in lab.resolved_joints(model).items()}


DEFAULTS_HINT = (
    "Walk up from the element: its own attribute, then its own class (or, without one, the "
    "childclass of the nearest body around it that has one, or main), then that class's "
    "parents, up to main."
)


def _compare_resolve_attribute(resolve_attribute, xml: str, element: str, attribute: str):
    """Assert resolve_attribute gives, for every named `element` of the MJCF `xml`, the value
    of `attribute` MuJoCo compiles, given what the file writes (lab.default_classes and
    lab.element_defaults)."""
    want = _resolved(compiled.compile_xml(xml), element, attribute)
    classes = lab.default_classes(xml, element, attribute)
    for name, own, own_class, childclasses in lab.element_defaults(xml, element, attribute):
        what = f"resolve_attribute for the {attribute} of {element} {name!r}"
        got = resolve_attribute(own, own_class, list(childclasses), dict(classes))
        if got is None:
            raise expect.NotAnswered(f"{what} returned None: write the body of resolve_attribute.")
        if not _same(got, want[name]):
            raise AssertionError(
                f"{what} (own {own}, class {own_class}, childclasses {list(childclasses)}) "
                f"= {got!r}, but MuJoCo gives {want[name]:g}. {DEFAULTS_HINT}"
            )
    return len(want)


@expect.visible_check
def resolve_attribute(resolve_attribute, models=None, attributes=DEFAULT_ATTRIBUTES) -> None:
    """Compare resolve_attribute with what MuJoCo compiles for every geom and joint of
    `models` (MJCF text; by default the lesson's defaults model), for each (element,
    attribute) of `attributes`."""
    models = (lab.NESTED_DEFAULTS,) if models is None else models
    checked = 0
    for xml in models:
        for element, attribute in attributes:
            checked += _compare_resolve_attribute(resolve_attribute, xml, element, attribute)
    where = _many(len(models), "model", "models")
    expect.ok(f"resolve_attribute gives MuJoCo's value for {checked} attributes in {where}.")


# --- Step 7: auditing a model --------------------------------------------------------------


def _compare_audit(audit_inertias, case: lab.AuditCase) -> None:
    """Assert audit_inertias, given the audit model's bodies as plain lists (lab.audit_table),
    lists exactly the bodies planted in it."""
    table = lab.audit_table(compiled.compile_xml(case.xml))
    got = audit_inertias(table["names"], table["masses"], table["inertias"], table["extents"])
    if got is None:
        raise expect.NotAnswered("audit_inertias returned None: write its body.")
    if not isinstance(got, (list, tuple)) or not all(isinstance(name, str) for name in got):
        raise AssertionError(f"audit_inertias should return a list of body names, got {got!r}")
    missed = sorted(set(case.suspects) - set(got))
    extra = sorted(set(got) - set(case.suspects))
    if missed or extra or len(set(got)) != len(got):
        raise AssertionError(
            f"audit_inertias listed {list(got)}; the suspects are {list(case.suspects)} "
            f"(missed {missed}, wrongly listed {extra}). Compare each full side of the "
            "equivalent uniform box with twice the collision extent along the same principal "
            "axis, and skip bodies without collision geometry."
        )


@expect.visible_check
def audit_inertias(audit_inertias, cases=None) -> None:
    """Compare audit_inertias with the bodies planted in audit models `cases` (lab.AuditCase
    each; by default the lesson's, lab.audit_model(AUDIT_SEED))."""
    cases = (lab.audit_model(AUDIT_SEED),) if cases is None else cases
    for case in cases:
        _compare_audit(audit_inertias, case)
    planted = sum(len(case.suspects) for case in cases)
    where = _many(len(cases), "model", "models")
    expect.ok(f"audit_inertias finds the {planted} planted bodies in {where}, and no other.")
