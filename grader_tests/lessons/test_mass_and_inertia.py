"""Unit tests of lesson 03's helpers (course/lessons/mass_and_inertia/inertia.py) and visible
checks (course/lessons/mass_and_inertia/checks.py).

The builders must compile to the numbers the lesson states, the readers must report what MuJoCo
compiled, and every visible check must pass a correct function and fail each typical wrong one
with a message naming the slip. The correct functions are the source notebook's answer cells,
executed (support/lesson_code.py), and the wrong ones the fixtures of
grader_tests/mistakes/03-mass-and-inertia/; the few wrong answers no fixture holds are written
here as broken wrappers, never as a second copy of a solution.
"""

import lesson_code
import numpy as np
import pytest

from course import compiled, expect
from course.lessons.mass_and_inertia import checks as check
from course.lessons.mass_and_inertia import inertia as lab

LESSON = "03-mass-and-inertia"
# The source notebook's answer cells, executed: reference answers are never typed twice.
(
    capsule_inertia,
    rotate_inertia,
    body_inertia_from_geoms,
    principal_axes,
    fullinertia_from_origin,
    inertia_is_physical,
    audit_inertias,
) = lesson_code.answers(
    LESSON,
    "capsule_inertia",
    "rotate_inertia",
    "body_inertia_from_geoms",
    "principal_axes",
    "fullinertia_from_origin",
    "inertia_is_physical",
    "audit_inertias",
)


def mistake(name, function):
    return lesson_code.mistake(LESSON, name, function)


def tensor_of(props):
    return props.axes @ np.diag(props.principal) @ props.axes.T


def audit_with_factor(xml, factor):
    """The solution's audit_inertias with `factor` in place of its 2: every moment scaled by
    (2 / factor)^2 scales each equivalent box side by 2 / factor, and leaves the principal axes
    and the collision extents as they are."""
    model = compiled.compile_xml(xml)
    model.body_inertia[:] *= (2.0 / factor) ** 2
    return audit_inertias(model)


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


def test_body_properties_match_the_reference_combination():
    """A body of random turned geoms compiles to the reference mass, COM and tensor."""
    geoms = lab.random_geoms(np.random.default_rng(1), 4)
    props = lab.body_properties(geoms)
    mass, com, inertia = body_inertia_from_geoms(geoms)
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


@pytest.mark.parametrize("seed", range(12))
def test_audit_models_have_clear_margins(seed):
    """Honest bodies stay below 1.5 times their geometry, planted ones above 2.3 times."""
    case = lab.audit_model(seed)
    model = compiled.compile_xml(case.xml)
    assert audit_inertias(model) == list(case.suspects)
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
    with pytest.raises(expect.NotAnswered):
        check.capsule_inertia_mass_and_axial(lambda r, h, rho: None)


def test_rotate_checks():
    check.rotate_inertia(rotate_inertia)
    scalar_last = mistake("quaternion_read_scalar_last", "rotate_inertia")
    transposed = mistake("rotation_applied_transposed", "rotate_inertia")
    not_turned = lambda p, q: np.diag(p)  # noqa: E731 (no fixture: the quaternion ignored)
    for wrong in (scalar_last, transposed, not_turned):
        with pytest.raises(AssertionError, match="scalar first"):
            check.rotate_inertia(wrong)


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
        return mass, np.mean([g.pos for g in geoms], axis=0), inertia

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
        geoms = lab.random_geoms(rng, 3)
        tensor = lab.inertia_about_point(geoms, lab.body_properties(geoms).com)
        if np.linalg.det(np.linalg.eigh(tensor)[1]) < 0:
            break
    else:
        pytest.fail("no left-handed case found")
    mirrored = mistake("eigenvectors_mirrored", "principal_axes")
    check.compare_principal_axes(principal_axes, tensor, "rebuild")
    with pytest.raises(AssertionError, match="determinant -1"):
        check.compare_principal_axes(mirrored, tensor, "rebuild")


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

    def every_body(model):  # no fixture: every body reported
        return [model.body(b).name for b in range(1, model.nbody)]

    for wrong in (half_sides, every_body):
        with pytest.raises(AssertionError, match="twice the collision extent"):
            check.audit_inertias(wrong)
    with pytest.raises(AssertionError, match="list of body names"):
        check.audit_inertias(lambda model: 3)


def test_prediction_checks():
    model = compiled.compile_xml(lab.NESTED_DEFAULTS)
    right = {**lab.resolved_geoms(model), **lab.resolved_joints(model)}
    check.compare_predictions(right, model)
    blank = {name: (None, None) for name in right}
    with pytest.raises(expect.NotAnswered, match="hand_pad"):
        check.predictions_filled(blank, model)
    wrong = dict(right, hand_pad=(0.8, "grey"))
    check.predictions_filled(wrong, model)  # the visible part never tells
    with pytest.raises(AssertionError, match="hand_pad"):
        check.compare_predictions(wrong, model)


def test_checks_survive_rebound_numpy(monkeypatch):
    """A learner who makes np.allclose and np.isclose accept anything still fails."""
    monkeypatch.setattr(np, "allclose", lambda *a, **k: True)
    monkeypatch.setattr(np, "isclose", lambda *a, **k: True)
    model = compiled.compile_xml(lab.NESTED_DEFAULTS)
    right = {**lab.resolved_geoms(model), **lab.resolved_joints(model)}
    with pytest.raises(AssertionError):
        check.compare_predictions(dict(right, hand_pad=(0.8, "grey")), model)
    with pytest.raises(AssertionError):
        check.fullinertia_from_origin(mistake("cad_inertia_not_shifted", "fullinertia_from_origin"))
