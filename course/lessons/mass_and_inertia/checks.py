"""Visible checks for lesson 03, "Mass, inertia and default classes": the cases the lesson shows.

Every reference number is read from MuJoCo: its compiled body_mass, body_ipos, body_inertia and
body_iquat, whether it compiles an <inertial>, or the joint-space inertia of a ball joint (see
`inertia.inertia_about_point`). Hidden tests call the same compare_* functions on cases the
lesson never shows.
"""

from math import isclose as _isclose

import numpy as np

from course import compiled, expect
from course.frames import MJCF_ORDER, URDF_ORDER, tensor_from_six
from course.frames import unit as _unit
from course.lessons.mass_and_inertia import inertia as lab

# --- the lesson's cases --------------------------------------------------------------------

# (radius m, half-length m, density kg/m^3): the seed's 1000 kg/m^3 capsule, a stubby
# aluminium one and a long thin steel rod.
CAPSULE_CASES = ((0.03, 0.1, 1000.0), (0.05, 0.02, 2700.0), (0.01, 0.3, 7800.0))


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

AUDIT_SEED = 3  # the model Build it, Step 7 audits


def _ok(message: str) -> None:
    print(f"OK: {message}")


def _scale(values) -> float:
    return float(np.max(np.abs(np.asarray(values, dtype=float))))


# --- Step 1: the capsule -------------------------------------------------------------------


def _capsule_result(capsule_inertia, radius, half_length, density):
    what = f"capsule_inertia({radius:g}, {half_length:g}, {density:g})"
    result = capsule_inertia(radius, half_length, density)
    if result is None:
        raise expect.NotAnswered(f"{what} returned None: write the body of capsule_inertia.")
    mass, principal = expect.sequence_of(result, 2, what)
    principal = expect.as_floats(principal, f"the inertia from {what}")
    if len(principal) != 3 or isinstance(principal[0], list):
        raise AssertionError(f"the inertia from {what} should be 3 numbers, got {principal}")
    return what, mass, principal


def compare_capsule(capsule_inertia, radius, half_length, density, part: str) -> None:
    """Assert capsule_inertia matches MuJoCo's compiled capsule; part is "mass_and_axial"
    (mass and the moment about the capsule's axis, z) or "transverse" (about x and y)."""
    want_mass, want = lab.geom_solid("capsule", (radius, half_length), density=density)
    what, mass, principal = _capsule_result(capsule_inertia, radius, half_length, density)
    if part == "mass_and_axial":
        hint = (
            "size[1] is the half-length of the cylindrical part only, and the two caps "
            "together add a whole sphere of the same radius."
        )
        expect.close(mass, want_mass, f"the mass from {what}", rtol=1e-9, hint=hint)
        expect.close(
            principal[2], want[2], f"I_zz (about the axis) from {what}", rtol=1e-9, hint=hint
        )
    elif part == "transverse":
        hint = (
            "Each hemisphere's centre of mass lies 3r/8 beyond the end of the cylinder, not at "
            "the capsule's centre; move its own moment to its centroid first, then out to the "
            "capsule's centre."
        )
        expect.close(
            principal[:2],
            want[:2],
            f"I_xx and I_yy (across the axis) from {what}",
            rtol=1e-9,
            hint=hint,
        )
    else:
        raise ValueError(f"part is 'mass_and_axial' or 'transverse', not {part!r}")


def capsule_inertia_mass_and_axial(capsule_inertia) -> None:
    """Compare capsule_inertia's mass and axial moment with MuJoCo on the lesson's capsules."""
    for case in CAPSULE_CASES:
        compare_capsule(capsule_inertia, *case, part="mass_and_axial")
    _ok(f"mass and I_zz match MuJoCo for {len(CAPSULE_CASES)} capsules.")


def capsule_inertia_transverse(capsule_inertia) -> None:
    """Compare capsule_inertia's transverse moments with MuJoCo on the lesson's capsules."""
    for case in CAPSULE_CASES:
        compare_capsule(capsule_inertia, *case, part="transverse")
    _ok(f"I_xx and I_yy match MuJoCo for {len(CAPSULE_CASES)} capsules.")


# --- Step 2: a turned geom -----------------------------------------------------------------

ROTATE_HINT = (
    "MJCF quaternions are scalar first, (w, x, y, z). The quaternion turns the geom's own "
    "axes into the body frame; check the direction of your rotation as well as the order."
)


def compare_rotate_inertia(rotate_inertia, principal, quat) -> None:
    """Assert rotate_inertia(principal, quat) is the body-frame inertia MuJoCo compiles for
    principal moments `principal` (kg m^2) along axes turned by the unit quaternion `quat`."""
    inertial = lab.inertial_element(1.0, diaginertia=principal, quat=quat)
    model = compiled.compile_xml(lab.body_xml(inertial, model="turned"))
    want = compiled.body_mass_properties(model, "body")
    what = f"rotate_inertia({[round(p, 8) for p in principal]}, {[round(q, 4) for q in quat]})"
    got = rotate_inertia(np.array(principal, dtype=float), np.array(quat, dtype=float))
    if got is None:
        raise expect.NotAnswered(f"{what} returned None: write the body of rotate_inertia.")
    expect.inertia_matches(got, want.principal, want.axes, what, hint=ROTATE_HINT)


def compare_turned_geom(rotate_inertia, kind, size, density, quat) -> None:
    """Assert rotate_inertia turns a geom's own principal inertia into the inertia MuJoCo
    compiles for that geom with `quat` in a body of its own."""
    _, principal = lab.geom_solid(kind, size, density=density)
    want = lab.body_properties([lab.Geom(kind, tuple(size), quat=tuple(quat), density=density)])
    turn = [round(q, 4) for q in quat]
    what = f"rotate_inertia for the {kind} of size {list(size)} turned by {turn}"
    got = rotate_inertia(principal.copy(), np.array(quat, dtype=float))
    if got is None:
        raise expect.NotAnswered(f"{what} returned None: write the body of rotate_inertia.")
    expect.inertia_matches(got, want.principal, want.axes, what, hint=ROTATE_HINT)


def rotate_inertia(rotate_inertia) -> None:
    """Compare rotate_inertia with MuJoCo on the lesson's turned box and cylinder."""
    for kind, size, density, quat in ROTATE_CASES:
        compare_turned_geom(rotate_inertia, kind, size, density, quat)
    _ok("rotate_inertia gives MuJoCo's body-frame inertia for the turned box and cylinder.")


# --- Step 3: a body from geoms -------------------------------------------------------------


def compare_body_from_geoms(body_inertia_from_geoms, geoms, check_inertia: bool) -> None:
    """Assert body_inertia_from_geoms(geoms) gives MuJoCo's body_mass and body_ipos and, when
    check_inertia, the inertia about the centre of mass that body_inertia and body_iquat
    describe."""
    geoms = [lab.Geom(*g) for g in geoms]
    want = lab.body_properties(geoms)
    result = body_inertia_from_geoms([lab.Geom(*g) for g in geoms])
    what = f"body_inertia_from_geoms for {len(geoms)} geoms"
    if result is None:
        raise expect.NotAnswered(f"{what} returned None: write its body.")
    mass, com, inertia = expect.sequence_of(result, 3, what)
    expect.close(
        mass,
        want.mass,
        f"the mass from {what}",
        rtol=1e-9,
        hint="A geom given a mass keeps it; the others weigh their density times their volume.",
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
            inertia,
            want.principal,
            want.axes,
            f"the inertia from {what}",
            hint="Turn each geom's inertia into the body frame, then move it from the geom's "
            "centre to the body's centre of mass (not to the body origin).",
        )


def body_from_geoms_mass_and_com(body_inertia_from_geoms) -> None:
    """Compare mass and centre of mass with MuJoCo for the lesson's stool and hammer."""
    for geoms in (STOOL, HAMMER):
        compare_body_from_geoms(body_inertia_from_geoms, geoms, check_inertia=False)
    _ok("body_inertia_from_geoms gives MuJoCo's mass and centre of mass for the stool and hammer.")


def body_from_geoms_inertia_aligned(body_inertia_from_geoms) -> None:
    """Compare the inertia with MuJoCo for the stool, whose geoms are not turned."""
    compare_body_from_geoms(body_inertia_from_geoms, STOOL, check_inertia=True)
    _ok("body_inertia_from_geoms gives MuJoCo's inertia for the stool.")


def body_from_geoms_inertia_turned(body_inertia_from_geoms) -> None:
    """Compare the inertia with MuJoCo for the hammer, whose geoms are turned."""
    compare_body_from_geoms(body_inertia_from_geoms, HAMMER, check_inertia=True)
    _ok("body_inertia_from_geoms gives MuJoCo's inertia for the hammer.")


# --- Step 4: principal axes ----------------------------------------------------------------


def tensor_from_fullinertia(fullinertia) -> np.ndarray:
    """The symmetric 3x3 matrix of six numbers in MJCF's order Ixx Iyy Izz Ixy Ixz Iyz."""
    return tensor_from_six(fullinertia)


def compare_principal_axes(principal_axes, tensor, part: str) -> None:
    """Assert principal_axes(tensor) gives what MuJoCo stores for this inertia tensor (kg m^2,
    about the centre of mass). part "moments": the sorted moments equal MuJoCo's body_inertia,
    sorted. part "rebuild": MuJoCo, given the learner's moments as diaginertia and quaternion as
    quat, rebuilds this tensor, and the quaternion has unit length."""
    tensor = np.array(tensor, dtype=float)
    full = [tensor[0, 0], tensor[1, 1], tensor[2, 2], tensor[0, 1], tensor[0, 2], tensor[1, 2]]
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
    expect.close(
        sum(q * q for q in quat),
        1.0,
        f"the squared length of the quaternion from {what}",
        rtol=1e-9,
        hint="Return a unit quaternion, as MuJoCo stores in body_iquat.",
    )
    hint = (
        "The quaternion (scalar first) must turn the body axes onto your principal axes, in "
        "the order of your moments. A set of eigenvectors with determinant -1 is a mirror "
        "image, not a rotation, and no quaternion describes it."
    )
    try:
        rebuilt = lab.inertia_about_point(lab.inertial_element(1.0, diaginertia=moments, quat=quat))
    except compiled.ModelError as error:
        raise AssertionError(
            f"MuJoCo refuses your moments {moments} as a diaginertia ({error}). {hint}"
        ) from None
    expect.close(
        rebuilt,
        tensor,
        f"the tensor MuJoCo rebuilds from the moments and quaternion of {what}",
        rtol=1e-7,
        atol=1e-9 * scale,
        hint=hint,
    )


def principal_axes_moments(principal_axes) -> None:
    """Compare principal_axes' moments with MuJoCo for the lesson's bracket."""
    compare_principal_axes(principal_axes, tensor_from_fullinertia(BRACKET_FULLINERTIA), "moments")
    _ok("principal_axes gives MuJoCo's principal moments for the bracket.")


def principal_axes_rebuild(principal_axes) -> None:
    """Check MuJoCo rebuilds the bracket's tensor from principal_axes' moments and quaternion."""
    compare_principal_axes(principal_axes, tensor_from_fullinertia(BRACKET_FULLINERTIA), "rebuild")
    _ok("MuJoCo rebuilds the bracket's tensor from your moments and quaternion.")


# --- Step 5: CAD data about the body origin ------------------------------------------------


def cad_data(geoms) -> tuple[float, np.ndarray, np.ndarray]:
    """What a CAD tool reports for a body of `geoms`: mass (kg), centre of mass (m, body
    frame) and the 3x3 inertia about the body ORIGIN (kg m^2, body frame), read from MuJoCo."""
    props = lab.body_properties(geoms)
    return props.mass, props.com, lab.inertia_about_point(geoms, (0.0, 0.0, 0.0))


def compare_fullinertia(fullinertia_from_origin, geoms) -> None:
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


def fullinertia_from_origin(fullinertia_from_origin) -> None:
    """Compare fullinertia_from_origin with MuJoCo for the hammer held at its handle's end."""
    compare_fullinertia(fullinertia_from_origin, HAMMER)
    _ok("fullinertia_from_origin gives the hammer's inertia about its centre of mass.")


# --- Step 6: is this inertia possible? -----------------------------------------------------


def compare_inertia_is_physical(inertia_is_physical, diaginertia, on_boundary=False) -> None:
    """Assert inertia_is_physical(diaginertia) says whether MuJoCo compiles that diaginertia
    on a moving body."""
    want = lab.diaginertia_compiles(diaginertia)
    got = inertia_is_physical(list(diaginertia))
    what = f"inertia_is_physical({list(diaginertia)})"
    if got is None:
        raise expect.NotAnswered(f"{what} returned None: write the body of inertia_is_physical.")
    if got not in (True, False):  # also numpy booleans
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


def inertia_is_physical(inertia_is_physical) -> None:
    """Compare inertia_is_physical with MuJoCo on the lesson's moment sets."""
    for case in PHYSICAL_CASES:
        compare_inertia_is_physical(inertia_is_physical, case)
    _ok(f"inertia_is_physical agrees with MuJoCo's compiler on {len(PHYSICAL_CASES)} moment sets.")


def inertia_is_physical_boundary(inertia_is_physical) -> None:
    """Compare inertia_is_physical with MuJoCo on the flat disk, exactly on the boundary."""
    for case in BOUNDARY_CASES:
        compare_inertia_is_physical(inertia_is_physical, case, on_boundary=True)
    _ok("inertia_is_physical accepts the flat disk, as MuJoCo does.")


# --- Step 7: auditing a model --------------------------------------------------------------


def compare_audit(audit_inertias, case: lab.AuditCase) -> None:
    """Assert audit_inertias lists exactly the bodies planted in the audit model."""
    model = compiled.compile_xml(case.xml)
    got = audit_inertias(model)
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


def audit_inertias(audit_inertias) -> None:
    """Compare audit_inertias with the bodies planted in the lesson's audit model."""
    case = lab.audit_model(AUDIT_SEED)
    compare_audit(audit_inertias, case)
    _ok(f"audit_inertias finds the {len(case.suspects)} planted bodies and nothing else.")


# --- Default classes -----------------------------------------------------------------------


def _same(got, want: float) -> bool:
    """Whether a predicted number is MuJoCo's (math.isclose bound when this module loaded)."""
    try:
        return _isclose(float(got), want, rel_tol=1e-9, abs_tol=1e-12)
    except (TypeError, ValueError):
        return False


def predictions_filled(predicted: dict, model) -> None:
    """Assert every geom and joint of the defaults model has a prediction (no answer shown)."""
    names = list(lab.resolved_geoms(model)) + list(lab.resolved_joints(model))
    if not isinstance(predicted, dict):
        raise AssertionError(f"predicted should be a dict, got {type(predicted).__name__}")
    empty = [
        name
        for name in names
        if name not in predicted
        or predicted[name] is None
        or any(value is None for value in predicted[name])
    ]
    if empty:
        raise expect.NotAnswered(f"fill in your prediction for {', '.join(empty)}.")


def compare_predictions(predicted: dict, model) -> None:
    """Assert the predicted (friction, colour) of each geom and (damping, armature) of each
    joint are what MuJoCo compiled."""
    predictions_filled(predicted, model)
    wrong = []
    for name, (friction, colour) in lab.resolved_geoms(model).items():
        got_friction, got_colour = predicted[name]
        if not _same(got_friction, friction) or str(got_colour) != colour:
            wrong.append(name)
    for name, (damping, armature) in lab.resolved_joints(model).items():
        got_damping, got_armature = predicted[name]
        if not (_same(got_damping, damping) and _same(got_armature, armature)):
            wrong.append(name)
    if wrong:
        raise AssertionError(
            f"MuJoCo resolved {', '.join(wrong)} differently. Walk up from each element: its "
            "own attribute, then its class (or the nearest childclass above it), then that "
            "class's parents, then the top-level default."
        )
