"""Unit tests of lesson 03's helpers (course/inertia.py) and visible checks
(course/checks/mass_and_inertia.py).

The builders must compile to the numbers the lesson states, the readers must report what MuJoCo
compiled, and every visible check must pass a correct function and fail each typical wrong one
with a message naming the slip. The reference implementations live here, never in course/.
"""

import re
from pathlib import Path

import mujoco
import numpy as np
import pytest

from course import compiled, expect
from course import inertia as lab
from course.checks import mass_and_inertia as check

COURSE = Path(__file__).resolve().parents[1] / "course"

# --- reference implementations (this file is not part of the learner-readable package) ---


def ref_capsule(radius, half_length, density):
    r, h = radius, 2 * half_length
    m_c, m_s = density * np.pi * r * r * h, density * 4 / 3 * np.pi * r**3
    across = m_c * (3 * r * r + h * h) / 12 + m_s * (0.4 * r * r + h * h / 4 + 3 * h * r / 8)
    return m_c + m_s, np.array([across, across, m_c * r * r / 2 + 0.4 * m_s * r * r])


def quat_matrix(quat):
    matrix = np.zeros(9)
    mujoco.mju_quat2Mat(matrix, np.asarray(quat, dtype=float))
    return matrix.reshape(3, 3)


def ref_rotate(principal, quat):
    rotation = quat_matrix(quat)
    return rotation @ np.diag(principal) @ rotation.T


def shift(mass, offset):
    offset = np.asarray(offset, dtype=float)
    return mass * (offset @ offset * np.eye(3) - np.outer(offset, offset))


def ref_body(geoms):
    parts = [lab.geom_solid(g.kind, g.size, g.density, g.mass) for g in geoms]
    masses = np.array([m for m, _ in parts])
    centres = np.array([g.pos for g in geoms], dtype=float)
    mass = masses.sum()
    com = masses @ centres / mass
    inertia = sum(
        ref_rotate(p, g.quat) + shift(m, c - com)
        for (m, p), g, c in zip(parts, geoms, centres, strict=True)
    )
    return mass, com, inertia


def ref_principal(inertia):
    moments, axes = np.linalg.eigh(inertia)
    if np.linalg.det(axes) < 0:
        axes[:, 2] *= -1
    quat = np.zeros(4)
    mujoco.mju_mat2Quat(quat, axes.flatten())
    return moments, quat


def ref_fullinertia(mass, com, about_origin):
    about_com = about_origin - shift(mass, com)
    return [about_com[i, j] for i, j in ((0, 0), (1, 1), (2, 2), (0, 1), (0, 2), (1, 2))]


def ref_physical(d):
    a, b, c = d
    return min(d) > 0 and a + b >= c and a + c >= b and b + c >= a


def box_sides(mass, moments):
    moments = np.asarray(moments, dtype=float)
    return np.sqrt(np.maximum(6 / mass * (moments.sum() - 2 * moments), 0.0))


def ref_audit(model, factor=2.0, sides=box_sides):
    found = []
    for b in range(1, model.nbody):
        extent = lab.collision_extent(model, b)
        if extent is None or model.body_mass[b] <= 0:
            continue
        if np.any(sides(model.body_mass[b], model.body_inertia[b]) > factor * extent):
            found.append(model.body(b).name)
    return found


def tensor_of(props):
    return props.axes @ np.diag(props.principal) @ props.axes.T


# --- course/inertia.py: builders and readers ---------------------------------------------


def test_geom_solid_reads_mujoco_in_the_geoms_own_axes():
    """A lone geom's moments come back in x, y, z order, equal to the textbook solids."""
    mass, moments = lab.geom_solid("box", (0.1, 0.05, 0.02), density=700.0)
    a, b, c = 0.2, 0.1, 0.04
    assert mass == pytest.approx(700 * a * b * c)
    np.testing.assert_allclose(
        moments, mass / 12 * np.array([b * b + c * c, a * a + c * c, a * a + b * b])
    )
    mass, moments = lab.geom_solid("capsule", (0.03, 0.1), density=1000.0)
    want_mass, want = ref_capsule(0.03, 0.1, 1000.0)
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
    mass, com, inertia = ref_body(geoms)
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
    point = np.array([0.1, -0.2, 0.05])
    np.testing.assert_allclose(
        lab.inertia_about_point(geoms, point),
        tensor_of(props) + shift(props.mass, props.com - point),
        atol=1e-9 * scale,
    )


def test_inertia_about_point_of_an_inertial_element():
    """diaginertia with a quat is rebuilt by MuJoCo as R D R^T."""
    quat = lab.random_unit_quat(np.random.default_rng(3))
    moments = [0.002, 0.003, 0.004]
    rebuilt = lab.inertia_about_point(lab.inertial_element(1.0, diaginertia=moments, quat=quat))
    np.testing.assert_allclose(rebuilt, ref_rotate(moments, quat), atol=1e-15)


def test_inertial_element_needs_exactly_one_inertia():
    with pytest.raises(ValueError, match="exactly one"):
        lab.inertial_element(1.0)
    with pytest.raises(ValueError, match="exactly one"):
        lab.inertial_element(1.0, diaginertia=(1, 1, 1), fullinertia=(1, 1, 1, 0, 0, 0))


def test_compile_or_error_quotes_mujoco():
    model, error = lab.compile_or_error(lab.massless_link())
    assert model is None
    assert error == "mass and inertia of moving bodies must be larger than mjMINVAL"
    model, error = lab.compile_or_error(lab.massless_link(0.001, 1e-6))
    assert error is None and model.body_mass[1] == pytest.approx(0.001)


def test_boundmass_alone_does_not_rescue_a_massless_link():
    """The lesson's claim: the inertia stays zero, so the error stays."""
    assert lab.compile_or_error(lab.massless_link(boundmass=0.001))[0] is None
    model, _ = lab.compile_or_error(lab.massless_link(boundmass=0.001, boundinertia=1e-6))
    np.testing.assert_allclose(model.body_inertia[1], 1e-6)


def test_balanceinertia_replaces_a_broken_set_with_its_mean():
    assert lab.compile_or_error(lab.diaginertia_link((0.002, 0.003, 0.006)))[0] is None
    model, _ = lab.compile_or_error(lab.diaginertia_link((0.002, 0.003, 0.006), 1.0, True))
    np.testing.assert_allclose(model.body_inertia[1], 0.011 / 3)
    model, _ = lab.compile_or_error(lab.diaginertia_link((0.002, 0.003, 0.004), 1.0, True))
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
    assert bool(ref_physical(moments)) is compiles


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
    volume, _ = ref_capsule(0.02, 0.15, 1.0)
    _, capsule = ref_capsule(0.02, 0.15, 0.5 / volume)
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
    assert ref_audit(model) == list(case.suspects)
    assert ref_audit(model, factor=1.5) == list(case.suspects)
    assert ref_audit(model, factor=2.3) == list(case.suspects)
    assert case == lab.audit_model(seed)  # reproducible


def test_course_holds_no_solution():
    """No formula the learner writes: no eigen-decomposition, quaternion conversion, parallel
    axis term, capsule cap term or triangle inequality in the lesson's helpers."""
    forbidden = [
        r"\beigh?\b",
        r"mju_mat2Quat",
        r"mju_quat2Mat",
        r"\bouter\b",
        r"83\s*/\s*320",
        r"3\s*/\s*8",
        r"\+\s*\w+\s*>=",
        r"6\s*/\s*mass",
    ]
    for path in (COURSE / "inertia.py", COURSE / "checks" / "mass_and_inertia.py"):
        text = path.read_text()
        for pattern in forbidden:
            assert not re.search(pattern, text), f"{path.name} contains {pattern}"


# --- visible checks: a correct function passes, each wrong one fails with its hint --------


def test_capsule_checks():
    check.capsule_inertia_mass_and_axial(ref_capsule)
    check.capsule_inertia_transverse(ref_capsule)

    def caps_at_centre(r, half, rho):
        mass, moments = ref_capsule(r, half, rho)
        m_s = rho * 4 / 3 * np.pi * r**3
        moments[:2] -= m_s * (2 * half) * (3 * r + 4 * half) / 8
        return mass, moments

    check.capsule_inertia_mass_and_axial(caps_at_centre)  # only the transverse part is wrong
    with pytest.raises(AssertionError, match="3r/8 beyond the end"):
        check.capsule_inertia_transverse(caps_at_centre)

    def full_length(r, half, rho):
        return ref_capsule(r, 2 * half, rho)

    with pytest.raises(AssertionError, match="half-length of the cylindrical part"):
        check.capsule_inertia_mass_and_axial(full_length)
    with pytest.raises(expect.NotAnswered):
        check.capsule_inertia_mass_and_axial(lambda r, h, rho: None)


def test_rotate_checks():
    check.rotate_inertia(ref_rotate)

    def scalar_last(principal, quat):
        return ref_rotate(principal, np.roll(quat, 1))

    def transposed(principal, quat):
        rotation = quat_matrix(quat)
        return rotation.T @ np.diag(principal) @ rotation

    for wrong in (scalar_last, transposed, lambda p, q: np.diag(p)):
        with pytest.raises(AssertionError, match="scalar first"):
            check.rotate_inertia(wrong)


def test_transposed_rotation_is_invisible_for_half_turns():
    """Why hidden tests need general rotations: R^T D R = R D R^T for a half turn."""
    half_turn = (0.0, 1.0, 0.0, 0.0)
    moments = [0.001, 0.002, 0.0025]
    rotation = quat_matrix(half_turn)
    np.testing.assert_allclose(
        rotation.T @ np.diag(moments) @ rotation, ref_rotate(moments, half_turn)
    )


def test_body_from_geoms_checks():
    check.body_from_geoms_mass_and_com(ref_body)
    check.body_from_geoms_inertia_aligned(ref_body)
    check.body_from_geoms_inertia_turned(ref_body)

    def about_origin(geoms):
        mass, com, inertia = ref_body(geoms)
        parts = [lab.geom_solid(g.kind, g.size, g.density, g.mass) for g in geoms]
        inertia = sum(
            ref_rotate(p, g.quat) + shift(m, g.pos) for (m, p), g in zip(parts, geoms, strict=True)
        )
        return mass, com, inertia

    def no_shift(geoms):
        mass, com, _ = ref_body(geoms)
        parts = [lab.geom_solid(g.kind, g.size, g.density, g.mass) for g in geoms]
        return mass, com, sum(ref_rotate(p, g.quat) for (_, p), g in zip(parts, geoms, strict=True))

    for wrong in (about_origin, no_shift):
        check.body_from_geoms_mass_and_com(wrong)
        with pytest.raises(AssertionError, match="not to the body origin"):
            check.body_from_geoms_inertia_aligned(wrong)

    def unweighted_com(geoms):
        mass, _, inertia = ref_body(geoms)
        return mass, np.mean([g.pos for g in geoms], axis=0), inertia

    with pytest.raises(AssertionError, match="mass-weighted mean"):
        check.body_from_geoms_mass_and_com(unweighted_com)


def test_principal_axes_checks():
    check.principal_axes_moments(ref_principal)
    check.principal_axes_rebuild(ref_principal)

    def scalar_last(inertia):
        moments, quat = ref_principal(inertia)
        return moments, np.roll(quat, -1)

    def not_unit(inertia):
        moments, quat = ref_principal(inertia)
        return moments, 2 * quat

    def diagonal(inertia):
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

    def mirrored(inertia):
        moments, axes = np.linalg.eigh(inertia)
        quat = np.zeros(4)
        mujoco.mju_mat2Quat(quat, axes.flatten())
        return moments, quat

    check.compare_principal_axes(ref_principal, tensor, "rebuild")
    with pytest.raises(AssertionError, match="determinant -1"):
        check.compare_principal_axes(mirrored, tensor, "rebuild")


def test_fullinertia_checks():
    check.fullinertia_from_origin(ref_fullinertia)

    def urdf_order(mass, com, about_origin):
        about_com = about_origin - shift(mass, com)
        return [about_com[i, j] for i, j in ((0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2))]

    def unshifted(mass, com, about_origin):
        return ref_fullinertia(0.0, com, about_origin)

    def added(mass, com, about_origin):
        return ref_fullinertia(-mass, com, about_origin)

    with pytest.raises(AssertionError, match="URDF's order"):
        check.fullinertia_from_origin(urdf_order)
    with pytest.raises(AssertionError, match="about the body origin, unchanged"):
        check.fullinertia_from_origin(unshifted)
    with pytest.raises(AssertionError, match="about the centre of mass"):
        check.fullinertia_from_origin(added)


def test_inertia_is_physical_checks():
    check.inertia_is_physical(ref_physical)
    check.inertia_is_physical_boundary(ref_physical)

    def strict(d):
        a, b, c = d
        return min(d) > 0 and a + b > c and a + c >= b and b + c >= a

    def no_positivity(d):
        a, b, c = d
        return a + b >= c and a + c >= b and b + c >= a

    check.inertia_is_physical(strict)
    with pytest.raises(AssertionError, match="AT LEAST"):
        check.inertia_is_physical_boundary(strict)
    with pytest.raises(AssertionError, match="not positive"):
        check.inertia_is_physical(no_positivity)
    with pytest.raises(AssertionError, match="True or False"):
        check.inertia_is_physical(lambda d: "yes")


def test_audit_checks():
    check.audit_inertias(ref_audit)

    def half_sides(model):
        return ref_audit(model, sides=lambda m, i: box_sides(m, i) / 2)

    def every_body(model):
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
        check.fullinertia_from_origin(lambda m, c, i: ref_fullinertia(0.0, c, i))
