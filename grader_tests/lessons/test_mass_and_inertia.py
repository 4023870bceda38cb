"""Unit tests of lesson 03's helpers (course/lessons/mass_and_inertia/inertia.py) and visible
checks (course/lessons/mass_and_inertia/checks.py).

The builders must compile to the numbers the lesson states, the readers must report what MuJoCo
compiled, and every visible check must pass a correct function and fail each typical wrong one
with a message naming the slip. Each function the grader calls takes plain values, so the
readers that make them (geom_parts, audit_table, default_classes and element_defaults) are
tested here against MuJoCo too. The correct functions are the source notebook's answer cells,
executed (support/lesson_code.py), and the wrong ones the fixtures of
grader_tests/mistakes/03-mass-and-inertia/; the few wrong answers no fixture holds are written
here as broken wrappers, never as a second copy of a solution.
"""

import ast
import contextlib

import lesson_code
import mujoco
import numpy as np
import pytest

from classroom import notebooks
from course import compiled, expect
from course.lessons.mass_and_inertia import checks as check
from course.lessons.mass_and_inertia import inertia as lab

LESSON = "03-mass-and-inertia"
Z_TO_X = check.Z_TO_X
# The source notebook's answer cells, executed: reference answers are never typed twice.
(
    capsule_inertia,
    rotate_inertia,
    body_inertia_from_geoms,
    principal_axes,
    fullinertia_from_origin,
    inertia_is_physical,
    resolve_attribute,
    audit_inertias,
) = lesson_code.answers(
    LESSON,
    "capsule_inertia",
    "rotate_inertia",
    "body_inertia_from_geoms",
    "principal_axes",
    "fullinertia_from_origin",
    "inertia_is_physical",
    "resolve_attribute",
    "audit_inertias",
)


def mistake(name, function):
    return lesson_code.mistake(LESSON, name, function)


@pytest.fixture(autouse=True)
def in_the_notebook(monkeypatch):
    """Every test starts with the checks as the learner's notebook runs them (whatever an
    earlier test in the session left), and leaves them so."""
    monkeypatch.setattr(expect, "_GRADING", False)


@contextlib.contextmanager
def strict():
    """Checks as the grader runs them (expect.grading): an unwritten function fails."""
    expect.grading(True)
    try:
        yield
    finally:
        expect.grading(False)


tensor_of = check.tensor_of


def audit(table):
    """The solution's audit_inertias on a table from lab.audit_table."""
    return audit_inertias(table["names"], table["masses"], table["inertias"], table["extents"])


def audit_with_factor(xml, factor):
    """The solution's audit_inertias with `factor` in place of its 2: every moment scaled by
    (2 / factor)^2 scales each equivalent box side by 2 / factor, and leaves the principal axes
    and the collision extents as they are."""
    table = lab.audit_table(compiled.compile_xml(xml))
    scaled = [[(2.0 / factor) ** 2 * i for i in moments] for moments in table["inertias"]]
    return audit(dict(table, inertias=scaled))


# --- lab (course/lessons/mass_and_inertia/inertia.py): builders and readers --------------


def test_geom_solid_reads_mujoco_in_the_geoms_own_axes():
    """A lone geom's moments come back in x, y, z order, equal to the textbook solids (lesson
    01's solid_inertia for the box, this lesson's capsule_inertia for the capsule)."""
    mass, moments = lab.geom_solid("box", (0.1, 0.05, 0.02), density=700.0)
    solid_inertia = lesson_code.namespace("01-world-as-text")["solid_inertia"]
    want_mass, want = solid_inertia("box", (0.1, 0.05, 0.02), 700.0)
    assert mass == pytest.approx(want_mass)
    assert len(set(np.round(want, 12))) == 3  # three different moments: the order shows
    np.testing.assert_allclose(moments, want)
    mass, moments = lab.geom_solid("capsule", (0.03, 0.1), density=1000.0)
    want_mass, want = capsule_inertia(0.03, 0.1, 1000.0)
    assert mass == pytest.approx(want_mass, rel=1e-12)
    np.testing.assert_allclose(moments, want, rtol=1e-12)


def test_a_given_mass_wins_over_density():
    """As in MJCF, Geom.mass replaces the density."""
    mass, _ = lab.geom_solid("sphere", (0.05,), density=8000.0, mass=0.3)
    assert mass == pytest.approx(0.3)


def test_geom_parts_are_plain_and_from_mujoco():
    """What body_inertia_from_geoms is given: plain floats and lists, MuJoCo's mass and
    moments of each geom alone, and the geom's own pos and quat."""
    geoms = lab.random_geoms(np.random.default_rng(4), 3)
    parts = lab.geom_parts(geoms)
    assert [sorted(part) for part in parts] == [["mass", "pos", "principal", "quat"]] * 3
    for geom, part in zip(geoms, parts, strict=True):
        mass, principal = lab.geom_solid(geom.kind, geom.size, geom.density, geom.mass)
        assert type(part["mass"]) is float and part["mass"] == mass
        assert all(type(p) is float for p in part["principal"] + part["pos"] + part["quat"])
        assert part["principal"] == principal.tolist()
        assert (tuple(part["pos"]), tuple(part["quat"])) == (geom.pos, geom.quat)


def test_body_properties_match_the_reference_combination():
    """A body of random turned geoms compiles to the reference mass, COM and tensor."""
    geoms = lab.random_geoms(np.random.default_rng(1), 4)
    props = lab.body_properties(geoms)
    mass, com, inertia = body_inertia_from_geoms(lab.geom_parts(geoms))
    assert props.mass == pytest.approx(mass, rel=1e-12)
    np.testing.assert_allclose(props.com, com, atol=1e-12)
    np.testing.assert_allclose(tensor_of(props), inertia, atol=1e-10 * np.abs(inertia).max())


def test_inertia_about_point_is_the_ball_joint_inertia():
    """About the COM it is the body's tensor; elsewhere the parallel-axis theorem holds."""
    geoms = lab.random_geoms(np.random.default_rng(2), 3)
    props = lab.body_properties(geoms)
    scale = props.principal.max()
    np.testing.assert_allclose(
        lab.inertia_about_point(geoms, props.com), tensor_of(props), atol=1e-9 * scale
    )
    # about `point`, the solution's fullinertia_from_origin (the COM seen from `point`)
    # takes the parallel-axis term off again and gives back the tensor about the COM
    point = np.array([0.1, -0.2, 0.05])
    about_point = lab.inertia_about_point(geoms, point)
    assert np.abs(about_point - tensor_of(props)).max() > 1e-3 * scale  # the point matters
    np.testing.assert_allclose(
        fullinertia_from_origin(props.mass, props.com - point, about_point),
        fullinertia_from_origin(props.mass, np.zeros(3), tensor_of(props)),
        atol=1e-9 * scale,
    )


def test_inertia_about_point_of_an_inertial_element():
    """diaginertia with a quat is rebuilt by MuJoCo as R D R^T."""
    quat = lab.random_unit_quat(np.random.default_rng(3))
    moments = [0.002, 0.003, 0.004]
    rebuilt = lab.inertia_about_point(lab.inertial_element(1.0, diaginertia=moments, quat=quat))
    np.testing.assert_allclose(rebuilt, rotate_inertia(moments, quat), atol=1e-15)


def test_inertial_element_needs_exactly_one_inertia():
    with pytest.raises(ValueError, match="exactly one"):
        lab.inertial_element(1.0)
    with pytest.raises(ValueError, match="exactly one"):
        lab.inertial_element(1.0, diaginertia=(1, 1, 1), fullinertia=(1, 1, 1, 0, 0, 0))


def test_compile_or_error_quotes_mujoco():
    model, error = compiled.compile_or_error(lab.massless_link())
    assert model is None
    assert error == "mass and inertia of moving bodies must be larger than mjMINVAL"
    model, error = compiled.compile_or_error(lab.massless_link(0.001, 1e-6))
    assert error is None and model.body_mass[1] == pytest.approx(0.001)


def test_boundmass_alone_does_not_rescue_a_massless_link():
    """The lesson's claim: the inertia stays zero, so the error stays."""
    assert compiled.compile_or_error(lab.massless_link(boundmass=0.001))[0] is None
    model, _ = compiled.compile_or_error(lab.massless_link(boundmass=0.001, boundinertia=1e-6))
    np.testing.assert_allclose(model.body_inertia[1], 1e-6)


def test_balanceinertia_replaces_a_broken_set_with_its_mean():
    assert compiled.compile_or_error(lab.diaginertia_link((0.002, 0.003, 0.006)))[0] is None
    model, _ = compiled.compile_or_error(lab.diaginertia_link((0.002, 0.003, 0.006), 1.0, True))
    np.testing.assert_allclose(model.body_inertia[1], 0.011 / 3)
    model, _ = compiled.compile_or_error(lab.diaginertia_link((0.002, 0.003, 0.004), 1.0, True))
    np.testing.assert_allclose(model.body_inertia[1], [0.002, 0.003, 0.004])


@pytest.mark.parametrize(
    ("moments", "compiles"),
    [
        ((0.01, 0.01, 0.02), True),  # exactly on the boundary
        ((0.25, 0.75, 0.5), True),
        ((0.01, 0.01, np.nextafter(0.02, 1.0)), False),
        ((0.002, 0.003, 0.006), False),
        ((0.0, 0.01, 0.01), False),
        ((-0.001, 0.003, 0.003), False),
    ],
)
def test_diaginertia_compiles_follows_the_compiler(moments, compiles):
    assert lab.diaginertia_compiles(moments) is compiles
    assert bool(inertia_is_physical(moments)) is compiles


def test_random_geoms_are_reproducible_and_unit():
    first = lab.random_geoms(np.random.default_rng(5), 6)
    again = lab.random_geoms(np.random.default_rng(5), 6)
    assert first == again
    for geom in first:
        assert np.linalg.norm(geom.quat) == pytest.approx(1.0)
        assert (geom.mass is None) or geom.mass > 0
    flat = lab.random_geoms(np.random.default_rng(5), 3, rotated=False)
    assert all(g.quat == (1.0, 0.0, 0.0, 0.0) for g in flat)


def test_offset_box_keeps_origin_com_and_axes_apart():
    """The lesson's numbers: COM 2 cm along x, a 30-degree turn about z, the box's moments."""
    model = compiled.compile_xml(lab.OFFSET_BOX)
    np.testing.assert_allclose(model.body_ipos[1], [0.02, 0, 0], atol=1e-12)
    np.testing.assert_allclose(
        model.body_iquat[1], [np.cos(np.pi / 12), 0, 0, np.sin(np.pi / 12)], atol=1e-9
    )
    np.testing.assert_allclose(model.body_inertia[1], [0.01 / 6, 0.025 / 6, 0.025 / 6], rtol=1e-9)


def test_inertiafromgeom_rules():
    masses = {
        rule: compiled.compile_xml(lab.inertial_and_geom(rule)).body_mass[1]
        for rule in ("auto", "true", "false")
    }
    assert masses == pytest.approx({"auto": 2.0, "true": 1.0, "false": 2.0})
    with pytest.raises(ValueError):
        lab.inertial_and_geom("yes")


def test_defaults_resolve_as_the_lesson_says():
    model = compiled.compile_xml(lab.NESTED_DEFAULTS)
    assert lab.resolved_geoms(model) == {
        "floor": (0.8, "grey"),
        "arm_shell": (0.3, "grey"),
        "arm_badge": (0.3, "red"),
        "arm_grip": (1.5, "black"),
        "arm_label": (1.0, "red"),
        "hand_pad": (0.3, "grey"),
    }
    assert lab.resolved_joints(model) == {
        "shoulder": (0.5, 0.01),
        "wrist": (2.0, 0.01),
        "wrist_roll": (0.1, 0.0),
    }
    assert lab.colour_name((0.3, 0.3, 0.3, 1)) == "0.3 0.3 0.3 1"


def test_option_values_are_mujocos_defaults():
    assert lab.option_values() == {
        "timestep": 0.002,
        "gravity": (0.0, 0.0, -9.81),
        "integrator": "Euler",
        "cone": "pyramidal",
        "impratio": 1.0,
        "solver": "Newton",
        "iterations": 100,
        "tolerance": 1e-8,
        "density": 0.0,
        "viscosity": 0.0,
    }
    options = lab.option_values('<mujoco><option cone="elliptic" solver="CG"/></mujoco>')
    assert (options["cone"], options["solver"]) == ("elliptic", "CG")


def test_capsule_link_exercise_numbers():
    alone = compiled.body_mass_properties(compiled.compile_xml(lab.capsule_link(False)), "link")
    both = compiled.body_mass_properties(compiled.compile_xml(lab.capsule_link(True)), "link")
    assert alone.mass == pytest.approx(0.5) and both.mass == pytest.approx(0.7)
    assert both.com[0] == pytest.approx((0.5 * 0.15 + 0.2 * 0.3) / 0.7)
    volume, _ = capsule_inertia(0.02, 0.15, 1.0)
    _, capsule = capsule_inertia(0.02, 0.15, 0.5 / volume)
    np.testing.assert_allclose(np.sort(alone.principal), np.sort(capsule), rtol=1e-9)


def test_collision_extent_of_a_turned_box_along_its_axes():
    half = np.array([0.03, 0.05, 0.08])
    quat = lab.random_unit_quat(np.random.default_rng(7))
    box = lab.Geom("box", tuple(half), quat=tuple(quat), mass=1.0)
    xml = lab.AUDIT_MODEL.format(
        bodies=lab.AUDIT_BODY.format(
            name="b", pos="0 0 0", body_quat="1 0 0 0", content=lab.geom_element(box)
        )
    )
    model = compiled.compile_xml(xml)
    extent = lab.collision_extent(model, "b")
    # the principal axes are the box's own, in body_inertia's order
    np.testing.assert_allclose(np.sort(extent), np.sort(2 * half), rtol=1e-9)
    order = np.argsort(model.body_inertia[1])  # smallest moment: about the longest side
    assert extent[order[0]] == pytest.approx(2 * half[2])


def test_collision_extent_is_none_without_collision_geoms():
    case = lab.audit_model(3)
    model = compiled.compile_xml(case.xml)
    assert lab.collision_extent(model, "link1") is None  # the visual-only body of seed 3


def test_audit_table_is_plain_and_from_mujoco():
    """What audit_inertias is given: one entry per body (no world body), plain floats."""
    model = compiled.compile_xml(lab.audit_model(3).xml)
    table = lab.audit_table(model)
    assert table["names"] == [f"link{i}" for i in range(1, model.nbody)]
    assert table["masses"] == model.body_mass[1:].tolist()
    assert table["inertias"] == model.body_inertia[1:].tolist()
    assert table["extents"][0] is None  # link1, the visual-only body
    for body, extent in enumerate(table["extents"][1:], start=2):
        assert extent == lab.collision_extent(model, body).tolist()


@pytest.mark.parametrize("seed", range(12))
def test_audit_models_have_clear_margins(seed):
    """Honest bodies stay below 1.5 times their geometry, planted ones above 2.3 times."""
    case = lab.audit_model(seed)
    assert audit(lab.audit_table(compiled.compile_xml(case.xml))) == list(case.suspects)
    assert audit_with_factor(case.xml, 1.5) == list(case.suspects)
    assert audit_with_factor(case.xml, 2.3) == list(case.suspects)
    assert case == lab.audit_model(seed)  # reproducible


# --- visible checks: a correct function passes, each wrong one fails with its hint --------


def test_capsule_checks():
    check.capsule_inertia_mass_and_axial(capsule_inertia)
    check.capsule_inertia_transverse(capsule_inertia)

    for name in ("capsule_hemispheres_at_centre", "capsule_caps_moved_from_flat_face"):
        caps_misplaced = mistake(name, "capsule_inertia")
        check.capsule_inertia_mass_and_axial(caps_misplaced)  # only the transverse part is wrong
        with pytest.raises(AssertionError, match="3r/8 beyond the end"):
            check.capsule_inertia_transverse(caps_misplaced)

    def full_length(r, half, rho):  # no fixture: size[1] taken as the whole length
        return capsule_inertia(r, 2 * half, rho)

    with pytest.raises(AssertionError, match="half-length of the cylindrical part"):
        check.capsule_inertia_mass_and_axial(full_length)
    with strict(), pytest.raises(expect.NotAnswered):
        check.capsule_inertia_mass_and_axial(lambda r, h, rho: None)


def test_rotate_checks():
    check.rotate_inertia(rotate_inertia)
    scalar_last = mistake("quaternion_read_scalar_last", "rotate_inertia")
    transposed = mistake("rotation_applied_transposed", "rotate_inertia")
    not_turned = lambda p, q: np.diag(p)  # noqa: E731 (no fixture: the quaternion ignored)
    for wrong in (scalar_last, transposed, not_turned):
        with pytest.raises(AssertionError, match="scalar first"):
            check.rotate_inertia(wrong)


def test_not_a_number_is_never_a_tensor():
    """NaN compares False with everything, so a NaN tensor must be refused outright."""

    def nan_tensor(*args):
        return np.full((3, 3), np.nan)

    def nan_body(geoms):  # no fixture: right mass and COM, NaN inertia
        mass, com, _ = body_inertia_from_geoms(geoms)
        return mass, com, np.full((3, 3), np.nan)

    with pytest.raises(AssertionError, match="finite numbers"):
        check.rotate_inertia(nan_tensor)
    with pytest.raises(AssertionError, match="finite numbers"):
        check.rotate_inertia(nan_tensor, geoms=(), moments=[([0.001, 0.002, 0.0025], Z_TO_X)])
    check.body_from_geoms_mass_and_com(nan_body)
    for run_check in (check.body_from_geoms_inertia_aligned, check.body_from_geoms_inertia_turned):
        with pytest.raises(AssertionError, match="finite numbers"):
            run_check(nan_body)


def test_transposed_rotation_is_invisible_for_half_turns():
    """Why hidden tests need general rotations: R^T D R = R D R^T for a half turn."""
    half_turn = (0.0, 1.0, 0.0, 0.0)
    moments = [0.001, 0.002, 0.0025]
    transposed = mistake("rotation_applied_transposed", "rotate_inertia")
    np.testing.assert_allclose(
        transposed(moments, half_turn), rotate_inertia(moments, half_turn), atol=1e-18
    )
    general = lab.random_unit_quat(np.random.default_rng(3))
    assert np.abs(transposed(moments, general) - rotate_inertia(moments, general)).max() > 1e-5


def test_body_from_geoms_checks():
    check.body_from_geoms_mass_and_com(body_inertia_from_geoms)
    check.body_from_geoms_inertia_aligned(body_inertia_from_geoms)
    check.body_from_geoms_inertia_turned(body_inertia_from_geoms)

    for name in ("parallel_axis_about_origin", "parallel_axis_term_missing"):
        wrong = mistake(name, "body_inertia_from_geoms")
        check.body_from_geoms_mass_and_com(wrong)
        with pytest.raises(AssertionError, match="not to the body origin"):
            check.body_from_geoms_inertia_aligned(wrong)

    def unweighted_com(geoms):  # no fixture: the solution's body with a plain mean for the COM
        mass, _, inertia = body_inertia_from_geoms(geoms)
        return mass, np.mean([g["pos"] for g in geoms], axis=0), inertia

    with pytest.raises(AssertionError, match="mass-weighted mean"):
        check.body_from_geoms_mass_and_com(unweighted_com)


def test_principal_axes_checks():
    check.principal_axes_moments(principal_axes)
    check.principal_axes_rebuild(principal_axes)
    scalar_last = mistake("principal_quaternion_scalar_last", "principal_axes")

    def not_unit(inertia):  # no fixture: the solution's quaternion doubled
        moments, quat = principal_axes(inertia)
        return moments, 2 * quat

    def diagonal(inertia):  # no fixture: the diagonal read as the moments
        return np.diag(inertia), np.array([1.0, 0, 0, 0])

    check.principal_axes_moments(scalar_last)
    with pytest.raises(AssertionError, match="scalar first"):
        check.principal_axes_rebuild(scalar_last)
    with pytest.raises(AssertionError, match="unit quaternion"):
        check.principal_axes_rebuild(not_unit)
    with pytest.raises(AssertionError, match="eigenvalues"):
        check.principal_axes_moments(diagonal)


def test_principal_axes_check_catches_a_mirror_image():
    """A tensor whose eigh eigenvectors are left-handed fails the rebuild unless fixed."""
    rng = np.random.default_rng(0)
    for _ in range(50):
        tensor = lab.body_tensor(lab.random_geoms(rng, 3))
        if np.linalg.det(np.linalg.eigh(tensor)[1]) < 0:
            break
    else:
        pytest.fail("no left-handed case found")
    mirrored = mistake("eigenvectors_mirrored", "principal_axes")
    check.principal_axes_rebuild(principal_axes, [tensor])
    with pytest.raises(AssertionError, match="determinant -1"):
        check.principal_axes_rebuild(mirrored, [tensor])


def test_principal_axes_quaternion_holds_near_half_turns():
    """The reference quaternion is read off the largest square, so principal axes a half turn
    (w = 0) or nearly from the body axes rebuild too, like any others; and it is MuJoCo's own
    mju_mat2Quat of the same matrix, up to sign."""
    rng = np.random.default_rng(8)
    moments = np.array([0.002, 0.003, 0.004])
    for angle in (np.pi, np.pi - 1e-6, np.pi / 2, 2.0):
        axis = lab.random_unit_quat(rng)[1:]
        axis /= np.linalg.norm(axis)
        quat = np.concatenate([[np.cos(angle / 2)], np.sin(angle / 2) * axis])
        tensor = rotate_inertia(moments, quat)
        check.principal_axes_rebuild(principal_axes, [tensor])
        got_moments, got_quat = principal_axes(tensor)
        axes = np.linalg.eigh(tensor)[1]
        if np.linalg.det(axes) < 0:
            axes[:, 0] = -axes[:, 0]
        want = np.zeros(4)
        mujoco.mju_mat2Quat(want, axes.flatten())
        assert min(np.abs(got_quat - want).max(), np.abs(got_quat + want).max()) < 1e-12


def test_fullinertia_checks():
    check.fullinertia_from_origin(fullinertia_from_origin)
    urdf_order = mistake("fullinertia_in_urdf_order", "fullinertia_from_origin")
    unshifted = mistake("cad_inertia_not_shifted", "fullinertia_from_origin")
    added = mistake("cad_shift_added", "fullinertia_from_origin")

    with pytest.raises(AssertionError, match="URDF's order"):
        check.fullinertia_from_origin(urdf_order)
    with pytest.raises(AssertionError, match="about the body origin, unchanged"):
        check.fullinertia_from_origin(unshifted)
    with pytest.raises(AssertionError, match="about the centre of mass"):
        check.fullinertia_from_origin(added)


def test_inertia_is_physical_checks():
    check.inertia_is_physical(inertia_is_physical)
    check.inertia_is_physical_boundary(inertia_is_physical)
    strict = mistake("triangle_strict_on_one_pair", "inertia_is_physical")
    no_positivity = mistake("zero_moment_accepted", "inertia_is_physical")

    check.inertia_is_physical(strict)
    with pytest.raises(AssertionError, match="AT LEAST"):
        check.inertia_is_physical_boundary(strict)
    with pytest.raises(AssertionError, match="not positive"):
        check.inertia_is_physical(no_positivity)
    with pytest.raises(AssertionError, match="True or False"):
        check.inertia_is_physical(lambda d: "yes")


def test_audit_checks():
    check.audit_inertias(audit_inertias)
    half_sides = mistake("audit_box_half_sides", "audit_inertias")

    def every_body(names, masses, inertias, extents):  # no fixture: every body reported
        return list(names)

    def judges_the_unjudgeable(names, masses, inertias, extents):  # no fixture: None as 0 m
        extents = [[0.0, 0.0, 0.0] if e is None else e for e in extents]
        return audit_inertias(names, masses, inertias, extents)

    for wrong in (half_sides, every_body, judges_the_unjudgeable):
        with pytest.raises(AssertionError, match="twice the collision extent"):
            check.audit_inertias(wrong)
    with pytest.raises(AssertionError, match="list of body names"):
        check.audit_inertias(lambda *lists: 3)


# --- default classes: what resolve_attribute is given, and its check ---------------------


def test_default_classes_read_the_file_as_written():
    """The lesson's example: hand_pad's friction, as the prose spells out its arguments."""
    xml = lab.NESTED_DEFAULTS
    assert lab.default_classes(xml, "geom", "friction") == {
        "main": (None, 0.8),
        "metal": ("main", 0.3),
        "painted": ("metal", None),
        "rubber": ("main", 1.5),
    }
    hand_pad = dict((c[0], c[1:]) for c in lab.element_defaults(xml, "geom", "friction"))
    assert hand_pad["hand_pad"] == (None, None, [None, "metal"])
    assert hand_pad["floor"] == (None, None, [])
    assert hand_pad["arm_label"] == (1.0, "painted", ["metal"])
    # main sets no armature: it carries MuJoCo's built-in default
    assert lab.default_classes(xml, "joint", "armature")["main"] == (None, 0.0)
    joints = {c[0]: c[1:] for c in lab.element_defaults(xml, "joint", "damping")}
    assert joints["wrist_roll"] == (None, "main", [None, "metal"])


@pytest.mark.parametrize("seed", range(40))
def test_random_defaults_resolve_as_the_rule_says(seed):
    """The reference answer agrees with MuJoCo on every element of random models, and the
    models are reproducible."""
    rng = np.random.default_rng(seed)
    xml = lab.random_defaults(rng, int(rng.integers(3, 7)))
    check.resolve_attribute(resolve_attribute, [xml], check.RANDOM_DEFAULT_ATTRIBUTES)
    again = np.random.default_rng(seed)
    assert lab.random_defaults(again, int(again.integers(3, 7))) == xml


@pytest.mark.parametrize(
    "name", ["childclass_stops_at_its_body", "childclass_wins_over_class", "class_parents_skipped"]
)
def test_hidden_default_models_alone_catch_each_slip(name):
    """The hidden test's random models (drawn as its cell draws them) catch each mistake even
    without the lesson's arm, so an answer fitted to the arm cannot pass them."""
    rng = np.random.default_rng(3801)
    models = [lab.random_defaults(rng, int(rng.integers(3, 7))) for _ in range(4)]
    hidden = _test_cells()["resolve_attribute_matches_mujoco"].split("### BEGIN HIDDEN TESTS")[1]
    assert "default_rng(3801)" in hidden and "range(4)" in hidden
    with pytest.raises(AssertionError, match="Walk up from the element"):
        check.resolve_attribute(
            mistake(name, "resolve_attribute"), models, check.RANDOM_DEFAULT_ATTRIBUTES
        )


def test_resolve_attribute_checks():
    check.resolve_attribute(resolve_attribute)
    for name in (
        "childclass_stops_at_its_body",
        "childclass_wins_over_class",
        "class_parents_skipped",
    ):
        with pytest.raises(AssertionError, match="Walk up from the element"):
            check.resolve_attribute(mistake(name, "resolve_attribute"))
    with strict(), pytest.raises(expect.NotAnswered):
        check.resolve_attribute(lambda *args: None)
    with pytest.raises(AssertionError, match="but MuJoCo gives"):
        check.resolve_attribute(lambda own, own_class, childclasses, classes: True)


def test_checks_survive_rebound_numpy(monkeypatch):
    """A learner who makes np.allclose and np.isclose accept anything still fails."""
    monkeypatch.setattr(np, "allclose", lambda *a, **k: True)
    monkeypatch.setattr(np, "isclose", lambda *a, **k: True)
    with pytest.raises(AssertionError):
        check.resolve_attribute(mistake("childclass_wins_over_class", "resolve_attribute"))
    with pytest.raises(AssertionError):
        check.fullinertia_from_origin(mistake("cad_inertia_not_shifted", "fullinertia_from_origin"))


# --- the contracts: plain values in, and the checks as test cells call them -----------------


LOOKS_UP = {
    "looks_up_capsule_inertia": (
        "capsule_inertia",
        [check.capsule_inertia_mass_and_axial, check.capsule_inertia_transverse],
    ),
    "looks_up_rotated_inertia": ("rotate_inertia", [check.rotate_inertia]),
    "looks_up_body_inertia": (
        "body_inertia_from_geoms",
        [
            check.body_from_geoms_mass_and_com,
            check.body_from_geoms_inertia_aligned,
            check.body_from_geoms_inertia_turned,
        ],
    ),
    "looks_up_principal_axes": (
        "principal_axes",
        [check.principal_axes_moments, check.principal_axes_rebuild],
    ),
    "looks_up_physical_inertia": (
        "inertia_is_physical",
        [check.inertia_is_physical, check.inertia_is_physical_boundary],
    ),
}


@pytest.mark.parametrize("fixture", sorted(LOOKS_UP))
def test_looks_up_fixtures_are_right_where_mujoco_is(fixture, capsys):
    """Each looks_up_* fixture is a real answer by lookup: with MuJoCo and the course package
    at hand (the learner's kernel) it passes the visible checks it loses in the grader, where
    its function is called without them."""
    function, checks = LOOKS_UP[fixture]
    for run_check in checks:
        run_check(mistake(fixture, function))
    assert capsys.readouterr().out.count("OK:") == len(checks)
    found = {m.name: m for m in notebooks.load_mistakes(LESSON)}
    assert set(LOOKS_UP) == {name for name in found if name.startswith("looks_up_")}


def _test_cells():
    source = notebooks.read_lesson(LESSON)
    return {notebooks.grade_id(c): c.source for c in source.cells if notebooks.is_test(c)}


def _check_calls(text):
    """Names of the `check.<name>(...)` calls in a cell's source."""
    return [
        node.func.attr
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "check"
    ]


def test_test_cells_call_only_visible_checks():
    """Every check a test cell calls is a visible_check, so in the notebook it reports instead
    of stopping Run All, and in the grader it is strict."""
    called = {name for text in _test_cells().values() for name in _check_calls(text)}
    assert called, "no test cell calls a check"
    plain = sorted(name for name in called if not hasattr(getattr(check, name), "__wrapped__"))
    assert not plain, f"test cells call checks that are not visible_check: {plain}"


def test_test_cells_use_only_setup_names_and_answers():
    """A test cell's free names are the set-up's imports, the answer names and builtins: never a
    variable another cell computed (it does not exist in the grader)."""
    import builtins

    allowed = set(dir(builtins)) | set(lesson_code.namespace(LESSON))
    for grade_id, text in _test_cells().items():
        tree = ast.parse(text)
        bound = {
            node.id
            for node in ast.walk(tree)
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)
        }
        used = {
            node.id
            for node in ast.walk(tree)
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)
        }
        unknown = sorted(used - bound - allowed)
        assert not unknown, f"{grade_id} uses names no set-up or answer cell defines: {unknown}"


@pytest.mark.parametrize(
    ("run_check", "stub"),
    [
        (check.capsule_inertia_transverse, lambda r, h, rho: None),
        (check.rotate_inertia, lambda principal, quat: None),
        (check.body_from_geoms_inertia_turned, lambda geoms: None),
        (check.principal_axes_rebuild, lambda inertia: None),
        (check.fullinertia_from_origin, lambda mass, com, about_origin: None),
        (check.inertia_is_physical_boundary, lambda diaginertia: None),
        (check.resolve_attribute, lambda own, own_class, childclasses, classes: None),
        (check.audit_inertias, lambda names, masses, inertias, extents: None),
    ],
)
def test_a_check_of_an_unwritten_function_reports_and_goes_on(run_check, stub, capsys):
    """In the notebook one line says what is not checked yet, and nothing claims OK; in the
    grader the same check fails."""
    run_check(stub)
    printed = capsys.readouterr().out
    assert printed.startswith("… Not checked yet:") and printed.count("…") == 1, printed
    assert "OK" not in printed
    with strict(), pytest.raises(expect.NotAnswered):
        run_check(stub)


def test_a_quiz_letter_not_chosen_yet_reports_and_goes_on(capsys):
    check.letter("quiz_cad_inertia", None)
    assert capsys.readouterr().out.startswith("… Not checked yet: quiz_cad_inertia is None")
    with pytest.raises(expect.CheckFailed, match="one of A, B, C"):
        check.letter("quiz_cad_inertia", "D")
