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

Also: each slip of the first graded function gets its own hint, in a block of at most 8 lines
measured in a kernel; the pictures (pictures.py) are MuJoCo's mjVIS_INERTIA boxes, small and
skipped while grading; the graded questions' buttons only record; the blank release runs to
the end; and CLAIMS lists every factual sentence of the prose that MuJoCo can confirm beside
a function that confirms it (the sentence must still be in the notebook, word for word).
"""

import ast
import contextlib
import inspect
import os

import inertia_boxes
import lesson_code
import mujoco
import nbformat
import numpy as np
import pytest

from classroom.nbgrader_ext import notebooks
from course import compiled, expect, render
from course.lessons.mass_and_inertia import checks as check
from course.lessons.mass_and_inertia import inertia as lab
from course.lessons.mass_and_inertia import pictures

LESSON = "03-mass-and-inertia"
Z_TO_X = check.Z_TO_X
# The source notebook's answer cells, executed: reference answers are never typed twice.
(
    hollow_capsule_inertia,
    rotate_inertia,
    body_inertia_from_geoms,
    principal_axes,
    fullinertia_from_origin,
    inertia_is_physical,
    resolve_attribute,
    audit_inertias,
) = lesson_code.answers(
    LESSON,
    "hollow_capsule_inertia",
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
    01's solid_inertia for the box and the capsule, this lesson's hollow_capsule_inertia for
    the hollow capsule)."""
    mass, moments = lab.geom_solid("box", (0.1, 0.05, 0.02), density=700.0)
    solid_inertia = lesson_code.namespace("01-world-as-text")["solid_inertia"]
    want_mass, want = solid_inertia("box", (0.1, 0.05, 0.02), 700.0)
    assert mass == pytest.approx(want_mass)
    assert len(set(np.round(want, 12))) == 3  # three different moments: the order shows
    np.testing.assert_allclose(moments, want)
    mass, moments = lab.geom_solid("capsule", (0.03, 0.1), density=1000.0)
    want_mass, want = solid_inertia("capsule", (0.03, 0.1), 1000.0)
    assert mass == pytest.approx(want_mass, rel=1e-12)
    np.testing.assert_allclose(moments, want, rtol=1e-12)
    mass, moments = lab.geom_solid("capsule", (0.03, 0.1), density=2.7, shell=True)
    want_mass, want = hollow_capsule_inertia(0.03, 0.1, 2.7)
    assert mass == pytest.approx(want_mass, rel=1e-12)
    np.testing.assert_allclose(moments, want, rtol=1e-12)


def test_a_hollow_geom_is_written_with_shellinertia():
    """Geom.shell writes shellinertia="true", and geom_parts weighs it as MuJoCo does."""
    hollow = lab.Geom("sphere", (0.05,), density=3.0, shell=True)
    assert 'shellinertia="true"' in lab.geom_element(hollow)
    assert "shellinertia" not in lab.geom_element(hollow._replace(shell=False))
    (part,) = lab.geom_parts([hollow])
    assert part["mass"] == pytest.approx(3.0 * 4 * np.pi * 0.05**2)
    assert part["principal"] == pytest.approx([2 / 3 * part["mass"] * 0.05**2] * 3)


@pytest.mark.parametrize("seed", range(4))
def test_hollow_capsule_caps_are_the_two_shortcuts(seed):
    """lab.hollow_capsule_caps builds, from MuJoCo's shapes alone, exactly the moments the two
    shortcut fixtures compute, and MuJoCo's own for the right answer."""
    rng = np.random.default_rng(seed)
    radius, half_length = rng.uniform(0.005, 0.2, 2)
    density = float(rng.uniform(0.5, 30.0))
    placed = lab.hollow_capsule_caps(radius, half_length, density)
    for key, fixture in (
        ("mujoco", None),
        ("at_centre", "hollow_caps_at_centre"),
        ("from_flat_face", "hollow_caps_moved_from_flat_face"),
    ):
        function = (
            hollow_capsule_inertia
            if fixture is None
            else mistake(fixture, "hollow_capsule_inertia")
        )
        assert placed[key] == pytest.approx(function(radius, half_length, density)[1][0], rel=1e-9)
    assert len({round(v, 12) for v in placed.values()}) == 3


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


def test_hollow_link_exercise_numbers():
    alone = compiled.body_mass_properties(compiled.compile_xml(lab.capsule_link(False)), "link")
    both = compiled.body_mass_properties(compiled.compile_xml(lab.capsule_link(True)), "link")
    assert alone.mass == pytest.approx(0.5) and both.mass == pytest.approx(0.7)
    assert both.com[0] == pytest.approx((0.5 * 0.15 + 0.2 * 0.3) / 0.7)
    area, _ = hollow_capsule_inertia(0.02, 0.15, 1.0)
    _, capsule = hollow_capsule_inertia(0.02, 0.15, 0.5 / area)
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


# Each capsule fixture's own hint: the test asserts its failing message holds it and neither of
# the others (issue 13: hemispheres moved from the flat face got the hint for the centre).
CAPS_HINTS = {
    "hollow_caps_at_centre": check.HOLLOW_CENTRE_HINT,
    "hollow_caps_moved_from_flat_face": check.HOLLOW_FLAT_FACE_HINT,
    "hollow_caps_solid_centroid": check.HOLLOW_TRANSVERSE_HINT,
}


def test_hollow_capsule_checks():
    check.hollow_capsule_mass_and_axial(hollow_capsule_inertia)
    check.hollow_capsule_transverse(hollow_capsule_inertia)

    def full_length(r, half, rho):  # no fixture: size[1] taken as the whole length
        return hollow_capsule_inertia(r, 2 * half, rho)

    def weighed_solid(r, half, rho):  # no fixture: the solid capsule's mass
        mass, principal = hollow_capsule_inertia(r, half, rho)
        return mass * (np.pi * r**2 * 2 * half + 4 / 3 * np.pi * r**3) / (mass / rho), principal

    def closed_tube(r, half, rho):  # no fixture: end disks weighed as well
        mass, principal = hollow_capsule_inertia(r, half, rho)
        return mass + rho * 2 * np.pi * r**2, principal

    for wrong, hint in (
        (full_length, check.HOLLOW_MASS_HINT),
        (weighed_solid, check.HOLLOW_SOLID_HINT),
        (closed_tube, check.HOLLOW_CLOSED_HINT),
    ):
        with pytest.raises(AssertionError) as failure:
            check.hollow_capsule_mass_and_axial(wrong)
        assert hint in str(failure.value)
    with strict(), pytest.raises(expect.NotAnswered):
        check.hollow_capsule_mass_and_axial(lambda r, h, rho: None)


@pytest.mark.parametrize("fixture", sorted(CAPS_HINTS))
def test_each_caps_slip_gets_its_own_hint(fixture):
    """The fixture passes the mass and axial check and fails the transverse one with its own
    hint and neither of the other two, on the lesson's capsules and on the hidden test's."""
    wrong = mistake(fixture, "hollow_capsule_inertia")
    check.hollow_capsule_mass_and_axial(wrong)  # only the moment across the axis is wrong
    hidden = []  # as the hidden test draws them, for three submissions
    for submission in range(3):
        rng = lesson_code.hidden_generator(3102, submission)
        hidden += [
            (*rng.uniform(0.005, 0.2, 2).tolist(), float(rng.uniform(0.5, 30.0))) for _ in range(4)
        ]
    assert "expect.hidden_cases(3102)" in _test_cells()["hollow_capsule_transverse"]
    for cases in (check.HOLLOW_CASES, hidden):
        for case in cases:
            with pytest.raises(expect.CheckFailed) as failure:
                check.hollow_capsule_transverse(wrong, [case])
            message = str(failure.value)
            assert CAPS_HINTS[fixture] in message
            assert not [h for f, h in CAPS_HINTS.items() if f != fixture and h in message]


def _check_block_lines(answer: str, grade_id: str, tmp_path) -> list[str]:
    """The lines JupyterLab shows under the visible check of test cell `grade_id` when the
    answer cell holds `answer`: a kernel runs the set-up's imports, the answer and the check."""
    cells = [
        lesson_code.setup_imports(notebooks.read_lesson(LESSON)),
        answer,
        _test_cells()[grade_id].split("### BEGIN HIDDEN TESTS")[0],
    ]
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    lesson_code.run_notebook(nb, tmp_path, timeout=60, kernel_name="python3")
    (error,) = nb.cells[2].outputs  # nothing but the block
    assert error.output_type == "error", error
    return error.traceback


def _first_answers() -> dict[str, tuple[str, str, str]]:
    """{name: (answer cell, test cell's grade_id, the hint it must show)}: each caps fixture,
    and the capsule weighed as a solid (no fixture: the solution with solid volumes)."""
    found = {m.name: m for m in notebooks.load_mistakes(LESSON)}
    answers = {
        name: (found[name].cells["hollow_capsule_inertia"], "hollow_capsule_transverse", hint)
        for name, hint in CAPS_HINTS.items()
    }
    solution = notebooks.solutions(notebooks.read_lesson(LESSON))["hollow_capsule_inertia"]
    solid = solution.replace("2 * np.pi * r * h", "np.pi * r**2 * h").replace(
        "4 * np.pi * r**2  #", "4 / 3 * np.pi * r**3  #"
    )
    assert solid.count("np.pi * r**") == 2
    answers["weighed_solid"] = (solid, "hollow_capsule_mass_and_axial", check.HOLLOW_SOLID_HINT)
    return answers


@pytest.mark.timeout(180)
def test_a_wrong_first_function_shows_at_most_8_lines(tmp_path):
    """Typed into the lesson's first graded function, each slip shows one block of at most
    8 lines in the notebook: the values and its own hint, no traceback (issue 13)."""
    for name, (answer, grade_id, hint) in _first_answers().items():
        lines = _check_block_lines(answer, grade_id, tmp_path)
        text = " ".join(line.strip() for line in lines)
        assert len(lines) <= 8, (name, lines)
        assert lines[0].startswith("✗ ") and "Traceback" not in text and "File " not in text
        assert " ".join(hint.split()) in text, (name, text)


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

    check.principal_axes_moments(scalar_last)  # its rebuild fails: FIXTURE_HINTS
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


# (visible check, fixture, the function it changes, what the check's message must say): the
# check passes the solution's function and names the fixture's slip.
FIXTURE_HINTS = [
    (check.principal_axes_rebuild, "principal_quaternion_scalar_last", "principal_axes",
     "scalar first"),
    (check.fullinertia_from_origin, "fullinertia_in_urdf_order", "fullinertia_from_origin",
     "URDF's order"),
    (check.fullinertia_from_origin, "cad_inertia_not_shifted", "fullinertia_from_origin",
     "about the body origin, unchanged"),
    (check.fullinertia_from_origin, "cad_shift_added", "fullinertia_from_origin",
     "about the centre of mass"),
    (check.inertia_is_physical, "zero_moment_accepted", "inertia_is_physical", "not positive"),
    (check.inertia_is_physical_boundary, "triangle_strict_on_one_pair", "inertia_is_physical",
     "AT LEAST"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("run_check", "fixture", "function", "hint"), FIXTURE_HINTS, ids=[h[1] for h in FIXTURE_HINTS]
)
def test_visible_check_passes_solution_and_names_mistake(run_check, fixture, function, hint):
    run_check(lesson_code.namespace(LESSON)[function])
    with pytest.raises(AssertionError, match=hint):
        run_check(mistake(fixture, function))


def test_inertia_is_physical_checks():
    """A strict triangle inequality on one pair passes the plain check (only the boundary
    check catches it: FIXTURE_HINTS), and an answer that is not a bool fails."""
    strict = mistake("triangle_strict_on_one_pair", "inertia_is_physical")
    check.inertia_is_physical(strict)
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
    hidden = _test_cells()["resolve_attribute_matches_mujoco"].split("### BEGIN HIDDEN TESTS")[1]
    assert "expect.hidden_cases(3801)" in hidden and "range(4)" in hidden
    for submission in range(3):  # the cases of three submissions
        rng = lesson_code.hidden_generator(3801, submission)
        models = [lab.random_defaults(rng, int(rng.integers(3, 7))) for _ in range(4)]
        models.append(lab.inherited_defaults(rng))
        with pytest.raises(AssertionError, match="Walk up from the element"):
            check.resolve_attribute(
                mistake(name, "resolve_attribute"), models, check.RANDOM_DEFAULT_ATTRIBUTES
            )


@pytest.mark.parametrize("seed", range(20))
def test_inherited_defaults_take_every_value_from_the_setter_class(seed):
    """In lab.inherited_defaults MuJoCo gives each geom and joint the values of class setter
    (never main's): through an empty class nested in it, or a childclass bodies out."""
    xml = lab.inherited_defaults(np.random.default_rng(seed))
    model = compiled.compile_xml(xml)
    for element, attribute in check.RANDOM_DEFAULT_ATTRIBUTES:
        classes = lab.default_classes(xml, element, attribute)
        assert classes["setter"][1] != classes["main"][1]
        assert {p[1] for c, p in classes.items() if c.startswith("empty")} == {None}
        got = [float(model.geom_friction[g][0]) for g in range(model.ngeom)]
        if element == "joint":
            got = [float(model.dof_damping[model.jnt_dofadr[j]]) for j in range(model.njnt)]
        assert got == pytest.approx([classes["setter"][1]] * 2)
        rows = {row[0]: row[1:] for row in lab.element_defaults(xml, element, attribute)}
        own, own_class, childclasses = rows[f"{element}1"]
        assert own is None and own_class is None and childclasses[0] is None
        assert rows[f"{element}2"][1].startswith("empty")


def test_hidden_rebuild_tensors_hold_a_mirrored_eigh():
    """The hidden rebuild test's tensors include one whose eigh eigenvectors have determinant
    -1, on every submission: the case eigenvectors_mirrored gets wrong."""
    hidden = _test_cells()["principal_axes_rebuild_tensor"].split("### BEGIN HIDDEN TESTS")[1]
    code = hidden.split("check.principal_axes_rebuild")[0]  # the draw, not the check
    for submission in range(100):  # without the loop, about 7 in 100 draw none
        names = {"np": np, "lab": lab, "expect": expect}
        with lesson_code.as_graded(submission):
            exec(code, names)
        dets = [np.linalg.det(np.linalg.eigh(t)[1]) for t in names["_tensors"]]
        assert min(dets) < 0, submission


def test_hidden_turned_bodies_hold_one_of_several_geoms():
    """The hidden turned-geoms test always has a body of two or more geoms, whose inertia needs
    the parallel-axis term (four bodies of one geom each, 1 draw in 256, would not)."""
    hidden = _test_cells()["body_inertia_from_geoms_turned"].split("### BEGIN HIDDEN TESTS")[1]
    code = hidden.split("check.body_from_geoms_inertia_turned")[0]  # the draw, not the check
    for submission in range(50):
        names = {"np": np, "lab": lab, "expect": expect}
        with lesson_code.as_graded(submission):
            exec(code, names)
        assert max(len(body) for body in names["_bodies"]) >= 2, submission


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
    "looks_up_hollow_capsule": (
        "hollow_capsule_inertia",
        [check.hollow_capsule_mass_and_axial, check.hollow_capsule_transverse],
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
        (check.hollow_capsule_transverse, lambda r, h, rho: None),
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


# --- the pictures: MuJoCo's own inertia boxes, rendered on the CPU, skipped while grading ----


def _inertia_boxes(xml: str) -> dict[int, mujoco.MjvGeom]:
    """{body id: the box MuJoCo's scene draws for it} with mjVIS_INERTIA on (no rendering)."""
    boxes = {}
    for geom in inertia_boxes.drawn_geoms(compiled.compile_xml(xml)):
        if (
            geom.objtype == mujoco.mjtObj.mjOBJ_BODY
            and geom.category == mujoco.mjtCatBit.mjCAT_DECOR
        ):
            boxes[int(geom.objid)] = geom
    return boxes


def _picture_cells() -> list[str]:
    source = notebooks.read_lesson(LESSON)
    return [c.source for c in source.cells if "pictures.show_inertia_boxes" in c.source]


def test_the_pictures_are_mujocos_inertia_boxes():
    """Two pictures, the hammer and the audited model, each MuJoCo's mjVIS_INERTIA drawing."""
    cells = _picture_cells()
    assert len(cells) == 2
    assert "check.HAMMER" in cells[0] and "lab.audit_model(check.AUDIT_SEED)" in cells[1]
    assert all(c.rstrip().endswith(")") and "shown = " in c for c in cells)  # echo nothing
    assert "mjVIS_INERTIA" in inspect.getsource(render.inertia_box_image)


@pytest.mark.skipif(os.environ.get("MUJOCO_GL") == "osmesa", reason="needs EGL rendering")
def test_a_picture_renders_small_on_the_cpu(monkeypatch):
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)
    image = pictures.inertia_box_image(lab.geoms_body(check.HAMMER), (0.17, 0, 0), 0.55)
    assert image.shape == (pictures.HEIGHT, pictures.WIDTH, 3) and image.dtype == np.uint8
    red = (image[..., 0].astype(int) - image[..., 2]) > 60  # the translucent red box
    assert 0.02 < red.mean() < 0.6
    png = pictures.png_bytes(image)
    assert png.startswith(b"\x89PNG") and len(png) < 60_000  # a still: tens of kilobytes


def test_a_picture_is_skipped_while_grading(monkeypatch, capsys):
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    assert (
        pictures.show_inertia_boxes(lab.geoms_body(check.HAMMER), lookat=(0, 0, 0), distance=1)
        is False
    )
    assert capsys.readouterr().out == "Picture skipped while grading.\n"


def test_a_picture_without_opengl_says_so_in_one_line(monkeypatch, capsys):
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)

    def no_gl(*args, **kwargs):
        raise pictures.RenderingUnavailable("no OpenGL back end could start: test")

    monkeypatch.setattr(render, "inertia_box_image", no_gl)
    assert pictures.show_inertia_boxes("<mujoco/>", lookat=(0, 0, 0), distance=1) is False
    printed = capsys.readouterr().out
    assert printed.startswith("Picture skipped: no OpenGL") and printed.count("\n") == 1


# --- the graded check-yourself questions: buttons that only record -------------------------


QUIZZES = ("quiz_cad_inertia", "quiz_balanceinertia", "quiz_principal_frame")


def test_graded_questions_have_buttons_that_only_record():
    """Right after each graded question's answer cell, a plain cell shows its choices as
    buttons, with no explanation and no key; the choices are not also listed in the prose."""
    source = notebooks.read_lesson(LESSON)
    for name in QUIZZES:
        at = next(i for i, c in enumerate(source.cells) if notebooks.grade_id(c) == name)
        question, buttons, test = source.cells[at - 1], source.cells[at + 1], source.cells[at + 2]
        assert (
            "nbgrader" not in buttons.metadata and f'quiz.choose(\n    "{name}",' in buttons.source
        )
        call = next(
            node
            for node in ast.walk(ast.parse(buttons.source))
            if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "choose"
        )
        assert not call.keywords and len(call.args) == 2  # no why=, no answer=
        assert len(call.args[1].elts) == 3
        assert "- **A.**" not in question.source and notebooks.grade_id(test) == f"{name}_answer"


# --- Run All on the blank release ---------------------------------------------------------


@pytest.mark.timeout(180)
def test_blank_release_runs_to_the_end(tmp_path):
    """Every cell of the untouched release runs without an error; unwritten functions are named
    in one line each, and the pictures appear anyway."""
    _, outputs, printed = lesson_code.run_blank_release(LESSON, tmp_path)  # raises at an error
    assert "Traceback" not in printed and "Error" not in printed
    assert "Not checked yet" in printed and "above to see this cell's result" in printed
    pictures_shown = [o for o in outputs if "image/png" in o.get("data", {})]
    skipped = printed.count("Picture skipped")
    assert len(pictures_shown) + skipped == 2


# --- CLAIMS: every factual sentence of the prose, beside MuJoCo confirming it ---------------


PROSE = lesson_code.prose(LESSON)
RNG_SEED = 3900


def _model(xml: str) -> mujoco.MjModel:
    return compiled.compile_xml(xml)


def _error(xml: str) -> str | None:
    return compiled.compile_or_error(xml)[1]


def _body(content: str, joint: str = "<freejoint/>", compiler: str = "") -> str:
    return lab.body_xml(content, joint=joint, compiler=compiler)


def _tensor(geoms) -> np.ndarray:
    return tensor_of(lab.body_properties(geoms))


def _quat_matrix(quat) -> np.ndarray:
    mat = np.zeros(9)
    mujoco.mju_quat2Mat(mat, np.asarray(quat, dtype=float))
    return mat.reshape(3, 3)


def _ten_numbers_decide_the_motion():
    """A body of geoms and a body stating only its mass, COM and six-number tensor about the
    COM accelerate alike under the same force and torque."""
    geoms = lab.random_geoms(np.random.default_rng(RNG_SEED), 4)
    props = lab.body_properties(geoms)
    full = [_tensor(geoms)[i, j] for i, j in check.MJCF_ORDER]
    stated = lab.inertial_element(props.mass, props.com, fullinertia=full)
    accelerations = []
    for content in (geoms, stated):
        model = _model(_body(content))
        data = mujoco.MjData(model)
        data.qvel[:] = [0.1, -0.2, 0.3, 1.0, -2.0, 0.5]
        data.xfrc_applied[1] = [1.0, -2.0, 3.0, 0.1, 0.2, -0.3]
        mujoco.mj_forward(model, data)
        accelerations.append(data.qacc.copy())
    np.testing.assert_allclose(accelerations[0], accelerations[1], rtol=1e-9, atol=1e-9)


def _a_slip_compiles_silently():
    """CAD numbers about the wrong point (the origin) typed as fullinertia compile and
    simulate without a word, though the body is not the hammer any more."""
    mass, com, about_origin = check.cad_data(check.HAMMER)
    typed = [about_origin[i, j] for i, j in check.MJCF_ORDER]
    stated = _body(lab.inertial_element(mass, com, fullinertia=typed))
    model, error = compiled.compile_or_error(stated)
    assert error is None
    data = mujoco.MjData(model)
    data.qvel[3:] = [1.0, 2.0, 3.0]
    mujoco.mj_step(model, data)
    assert np.isfinite(data.qpos).all()
    assert not np.allclose(model.body_inertia[1], lab.body_properties(check.HAMMER).principal)


def _inertiafromgeom_default_auto():
    assert (
        mujoco.MjSpec().compiler.inertiafromgeom == mujoco.mjtInertiaFromGeom.mjINERTIAFROMGEOM_AUTO
    )
    plain = lab.INERTIAL_AND_GEOM.format(rule="auto").replace(' inertiafromgeom="auto"', "")
    assert _model(plain).body_mass[1] == _model(lab.inertial_and_geom("auto")).body_mass[1]
    for rule in ("auto", "true", "false"):
        _model(lab.inertial_and_geom(rule))


def _inertiafromgeom_rules():
    masses = [
        _model(lab.inertial_and_geom(rule)).body_mass[1] for rule in ("auto", "true", "false")
    ]
    assert masses == pytest.approx([2.0, 1.0, 2.0])
    geoms_only = _body('<geom type="box" size=".05 .05 .05"/>', compiler='inertiafromgeom="auto"')
    assert _model(geoms_only).body_mass[1] == pytest.approx(1.0)  # auto weighs a body without one
    never = _body('<geom type="box" size=".05 .05 .05"/>', compiler='inertiafromgeom="false"')
    assert "mjMINVAL" in _error(never)  # false never infers: a moving body without one fails


def _class_inherits_and_own_class_wins():
    geoms = lab.resolved_geoms(_model(lab.NESTED_DEFAULTS))
    assert geoms["arm_badge"] == (0.3, "red")  # painted sets only rgba: friction from metal
    assert geoms["arm_grip"] == (1.5, "black")  # its own class, not the body's childclass


def _flat_body_on_the_triangle_edge():
    """Random bodies keep every two moments at least the third; a flat plate reaches equality,
    and MuJoCo compiles the flat disk's numbers."""
    rng = np.random.default_rng(RNG_SEED + 1)
    for _ in range(20):
        moments = np.sort(lab.body_properties(lab.random_geoms(rng, 3)).principal)
        assert moments[0] + moments[1] >= moments[2]
    for thickness in (1e-2, 1e-4, 1e-6):
        _, (a, b, c) = lab.geom_solid("box", (0.1, 0.05, thickness), mass=1.0)
        assert a + b - c == pytest.approx(2 * thickness**2 / 3, rel=1e-6, abs=1e-15)
    assert lab.diaginertia_compiles((0.01, 0.01, 0.02))


def _compiled_fields_come_from_mjcf():
    """inertial/mass, pos, quat and diaginertia land in body_mass, body_ipos, body_iquat and
    body_inertia; a fullinertia is diagonalised into body_inertia and body_iquat."""
    quat = frames_unit((0.9, 0.1, -0.3, 0.2))
    inertial = lab.inertial_element(
        1.5, (0.1, -0.2, 0.3), diaginertia=(0.002, 0.003, 0.004), quat=quat
    )
    model = _model(_body(inertial))
    assert model.body_mass[1] == 1.5
    np.testing.assert_allclose(model.body_ipos[1], [0.1, -0.2, 0.3])
    np.testing.assert_allclose(model.body_inertia[1], [0.002, 0.003, 0.004])
    np.testing.assert_allclose(model.body_iquat[1], quat, atol=1e-12)
    tensor = check.tensor_from_fullinertia(check.BRACKET_FULLINERTIA)
    full = _model(_body(lab.inertial_element(1.0, fullinertia=check.BRACKET_FULLINERTIA)))
    rotation = _quat_matrix(full.body_iquat[1])
    np.testing.assert_allclose(
        rotation @ np.diag(full.body_inertia[1]) @ rotation.T, tensor, atol=1e-12
    )
    geoms = lab.random_geoms(np.random.default_rng(RNG_SEED + 2), 3)
    props = lab.body_properties(geoms)
    assert props.mass == pytest.approx(
        sum(lab.geom_solid(g.kind, g.size, g.density, g.mass)[0] for g in geoms)
    )


def frames_unit(quat):
    quat = np.asarray(quat, dtype=float)
    return quat / np.linalg.norm(quat)


def _tensor_about_com_is_r_d_rt():
    geoms = lab.random_geoms(np.random.default_rng(RNG_SEED + 3), 3)
    model = _model(lab.geoms_body(geoms))
    rotation = _quat_matrix(model.body_iquat[1])
    about_com = lab.inertia_about_point(geoms, model.body_ipos[1])
    np.testing.assert_allclose(
        rotation @ np.diag(model.body_inertia[1]) @ rotation.T, about_com, atol=1e-12
    )


def _parallel_axis_about_origin():
    geoms = lab.random_geoms(np.random.default_rng(RNG_SEED + 4), 3)
    props = lab.body_properties(geoms)
    c = props.com
    want = tensor_of(props) + props.mass * (c @ c * np.eye(3) - np.outer(c, c))
    np.testing.assert_allclose(lab.inertia_about_point(geoms, (0, 0, 0)), want, atol=1e-12)


def _geoms_weighed_solid_unless_hollow():
    solid, _ = lab.geom_solid("sphere", (0.1,), density=1000.0)
    hollow, _ = lab.geom_solid("sphere", (0.1,), density=1000.0, shell=True)
    assert solid == pytest.approx(1000 * 4 / 3 * np.pi * 0.1**3)
    assert hollow == pytest.approx(1000 * 4 * np.pi * 0.1**2)
    assert (
        mujoco.MjSpec().worldbody.add_geom().typeinertia == mujoco.mjtGeomInertia.mjINERTIA_VOLUME
    )


def _default_density_is_water():
    assert _model(lab.inertial_and_geom("true")).body_mass[1] == pytest.approx(1.0)  # 10 cm cube
    assert mujoco.MjSpec().worldbody.add_geom().density == 1000.0


def _offset_box_fields():
    model = _model(lab.OFFSET_BOX)
    np.testing.assert_allclose(model.body_ipos[1], model.geom_pos[0])
    np.testing.assert_allclose(
        model.body_iquat[1], [np.cos(np.pi / 12), 0, 0, np.sin(np.pi / 12)], atol=1e-12
    )
    np.testing.assert_allclose(
        model.body_inertia[1], [1 / 12 * (0.01 + 0.01), 1 / 12 * (0.04 + 0.01), 1 / 12 * 0.05]
    )


def _hinge_adds_parallel_axis_term():
    """The hinge at the origin sees I_zz about the COM plus m d^2: MuJoCo adds the term."""
    model = _model(lab.OFFSET_BOX)
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    rotation = _quat_matrix(model.body_iquat[1])
    about_com = rotation @ np.diag(model.body_inertia[1]) @ rotation.T
    d = model.body_ipos[1]
    matrix = np.zeros((1, 1))
    mujoco.mj_fullM(model, data, matrix)
    offset = model.body_mass[1] * (d[0] ** 2 + d[1] ** 2)
    assert offset > 1e-4
    assert matrix[0, 0] == pytest.approx(about_com[2, 2] + offset)


def _caps_term(radius, half_length, density, shell):
    """(caps' moment across the axis about the centre, caps' mass) from MuJoCo alone: the
    capsule less its cylinder part (for a shell, the open tube of lab.hollow_capsule_caps)."""
    capsule = lab.geom_solid("capsule", (radius, half_length), density=density, shell=shell)
    sphere_mass, _ = lab.geom_solid("sphere", (radius,), density=density, shell=shell)
    if shell:
        placed = lab.hollow_capsule_caps(radius, half_length, density)
        _, centred = lab.geom_solid("sphere", (radius,), density=density, shell=True)
        tube = placed["at_centre"] - centred[0]
    else:
        tube = lab.geom_solid("cylinder", (radius, half_length), density=density)[1][0]
    return capsule[1][0] - tube, sphere_mass


def _caps_face_moment_and_centroid(shell: bool) -> tuple[float, float]:
    """Fit MuJoCo's caps term as m_s (A r^2 + l^2 + 2 c l) over several half-lengths l:
    A r^2 m_s is both caps' moment about their flat faces, c the distance of each cap's COM
    from its flat face. Returns (A, c / r)."""
    radius, density = 0.04, 500.0
    lengths = np.array([0.01, 0.05, 0.1, 0.3])
    terms, masses = zip(*(_caps_term(radius, ell, density, shell) for ell in lengths), strict=True)
    mass = masses[0]
    residual = np.array(terms) / mass - lengths**2  # A r^2 + 2 c l
    slope, intercept = np.polyfit(lengths, residual, 1)
    np.testing.assert_allclose(residual, intercept + slope * lengths, rtol=1e-9)
    return intercept / radius**2, slope / 2 / radius


def _solid_caps_three_moves():
    face, centroid = _caps_face_moment_and_centroid(shell=False)
    assert face == pytest.approx(2 / 5, rel=1e-9)  # half of the sphere's 2/5 m r^2 each
    assert centroid == pytest.approx(3 / 8, rel=1e-9)
    assert face - centroid**2 == pytest.approx(83 / 320, rel=1e-9)


def _hollow_caps_three_moves():
    face, centroid = _caps_face_moment_and_centroid(shell=True)
    assert face == pytest.approx(2 / 3, rel=1e-9)
    assert centroid == pytest.approx(1 / 2, rel=1e-9)


def _solid_capsule_parts():
    r, ell, rho = 0.03, 0.1, 1000.0
    h = 2 * ell
    mass, (ixx, _, izz) = lab.geom_solid("capsule", (r, ell), density=rho)
    m_c, m_s = rho * np.pi * r**2 * h, rho * 4 / 3 * np.pi * r**3
    assert mass == pytest.approx(m_c + m_s, rel=1e-12)
    assert izz == pytest.approx(m_c * r**2 / 2 + 2 / 5 * m_s * r**2, rel=1e-12)
    _, (cyl_xx, _, _) = lab.geom_solid("cylinder", (r, ell), density=rho)
    assert cyl_xx == pytest.approx(m_c * (3 * r**2 + h**2) / 12, rel=1e-12)
    assert ixx == pytest.approx(cyl_xx + m_s * (2 / 5 * r**2 + h**2 / 4 + 3 * h * r / 8), rel=1e-12)
    solid_inertia = lesson_code.namespace("01-world-as-text")["solid_inertia"]
    np.testing.assert_allclose(
        solid_inertia("capsule", (r, ell), rho)[1], [ixx, ixx, izz], rtol=1e-12
    )


def _shell_density_per_area():
    for kind, size, area in (
        ("sphere", (0.1,), 4 * np.pi * 0.01),
        ("box", (0.1, 0.2, 0.3), 8 * (0.02 + 0.06 + 0.03)),
    ):
        assert lab.geom_solid(kind, size, density=3.0, shell=True)[0] == pytest.approx(3.0 * area)


def _hollow_capsule_is_tube_and_sphere():
    r, ell, rho = 0.03, 0.1, 2.7
    mass, _ = lab.geom_solid("capsule", (r, ell), density=rho, shell=True)
    assert mass == pytest.approx(rho * (2 * np.pi * r * 2 * ell + 4 * np.pi * r**2), rel=1e-12)


def _tube_moments():
    r, ell, rho = 0.03, 0.1, 2.7
    h = 2 * ell
    mass, (_, _, izz) = lab.geom_solid("capsule", (r, ell), density=rho, shell=True)
    sphere_mass, (sphere_zz, _, _) = lab.geom_solid("sphere", (r,), density=rho, shell=True)
    m_t = mass - sphere_mass
    assert izz - sphere_zz == pytest.approx(m_t * r**2, rel=1e-12)
    tube = lab.hollow_capsule_caps(r, ell, rho)["at_centre"] - sphere_zz
    assert tube == pytest.approx(m_t * (r**2 / 2 + h**2 / 12), rel=1e-9)


def _hollow_sphere_moment():
    mass, moments = lab.geom_solid("sphere", (0.07,), density=5.0, shell=True)
    np.testing.assert_allclose(moments, 2 / 3 * mass * 0.07**2, rtol=1e-12)


def _both_shortcuts_are_wrong():
    placed = lab.hollow_capsule_caps(0.03, 0.1, 2.7)
    assert placed["at_centre"] < placed["from_flat_face"] < placed["mujoco"]
    r, ell, rho = 0.03, 0.1, 1000.0
    term, m_s = _caps_term(r, ell, rho, shell=False)
    for shortcut in (2 / 5 * m_s * r**2, m_s * (2 / 5 * r**2 + ell**2)):  # centred, flat face
        assert shortcut < term * (1 - 1e-3)


def _hollow_harder_to_turn():
    rng = np.random.default_rng(RNG_SEED + 5)
    for _ in range(10):
        size = tuple(rng.uniform(0.005, 0.2, 2))
        mass, hollow = lab.geom_solid("capsule", size, density=2.0, shell=True)
        _, solid = lab.geom_solid("capsule", size, mass=mass)
        assert (hollow > solid).all()


def _quat_columns_are_geom_axes():
    quat = check.ROTATE_CASES[0][3]
    w, x, y, z = quat
    prose = np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
        ]
    )
    geom = f'<geom type="box" size=".1 .2 .3" quat="{" ".join(map(str, quat))}"/>'
    xml = f"<mujoco><worldbody>{geom}</worldbody></mujoco>"
    model = _model(xml)
    data = mujoco.MjData(model)
    mujoco.mj_kinematics(model, data)
    np.testing.assert_allclose(data.geom_xmat[0].reshape(3, 3), prose, atol=1e-12)
    np.testing.assert_allclose(_quat_matrix(quat), prose, atol=1e-15)  # row by row, 9 numbers


def _turned_geom_inertia_r_d_rt():
    kind, size, density, quat = check.ROTATE_CASES[1]
    _, principal = lab.geom_solid(kind, size, density=density)
    rotation = _quat_matrix(quat)
    turned = _tensor([lab.Geom(kind, size, quat=quat, density=density)])
    np.testing.assert_allclose(turned, rotation @ np.diag(principal) @ rotation.T, atol=1e-12)
    opposite = np.array(quat) * [1, -1, -1, -1]
    back = _tensor([lab.Geom(kind, size, quat=tuple(opposite), density=density)])
    np.testing.assert_allclose(back, rotation.T @ np.diag(principal) @ rotation, atol=1e-12)


def _transposed_agrees_in_two_cases():
    moments = np.array([0.001, 0.002, 0.003])
    half_turn = _quat_matrix(frames_unit((0.0, 1.0, 2.0, -0.5)))
    np.testing.assert_allclose(
        half_turn @ np.diag(moments) @ half_turn.T,
        half_turn.T @ np.diag(moments) @ half_turn,
        atol=1e-15,
    )
    symmetric = np.diag([0.002, 0.002, 0.001])
    about_z = _quat_matrix((np.cos(0.4), 0, 0, np.sin(0.4)))
    np.testing.assert_allclose(
        about_z @ symmetric @ about_z.T, about_z.T @ symmetric @ about_z, atol=1e-15
    )
    general = _quat_matrix(frames_unit((0.9, 0.1, 0.3, 0.2)))
    assert (
        np.abs(
            general @ np.diag(moments) @ general.T - general.T @ np.diag(moments) @ general
        ).max()
        > 1e-5
    )


def _trace_unchanged_by_turn():
    kind, size, density, quat = check.ROTATE_CASES[0]
    _, principal = lab.geom_solid(kind, size, density=density)
    turned = _tensor([lab.Geom(kind, size, quat=quat, density=density)])
    assert np.trace(turned) == pytest.approx(principal.sum(), rel=1e-12)
    assert np.abs(turned - np.diag(np.diag(turned))).max() > 1e-5


def _geoms_combine_with_parallel_axis():
    geoms = lab.random_geoms(np.random.default_rng(RNG_SEED + 6), 4)
    mass, com, inertia = body_inertia_from_geoms(lab.geom_parts(geoms))
    props = lab.body_properties(geoms)
    assert mass == pytest.approx(props.mass)
    np.testing.assert_allclose(com, props.com, atol=1e-12)
    np.testing.assert_allclose(inertia, tensor_of(props), atol=1e-12)


def _offset_from_com_not_origin():
    about_origin = mistake("parallel_axis_about_origin", "body_inertia_from_geoms")
    centred = [lab.Geom("box", (0.05, 0.02, 0.01), (x, 0.0, 0.0), mass=1.0) for x in (-0.1, 0.1)]
    np.testing.assert_allclose(
        about_origin(lab.geom_parts(centred))[2], _tensor(centred), atol=1e-12
    )
    offset = [g._replace(pos=(g.pos[0] + 0.2, 0.0, 0.0)) for g in centred]
    assert np.abs(np.array(about_origin(lab.geom_parts(offset))[2]) - _tensor(offset)).max() > 1e-3


def _hammer_held_at_the_handle_end():
    handle = check.HAMMER[0]
    model = _model(lab.geoms_body([handle]))
    data = mujoco.MjData(model)
    mujoco.mj_kinematics(model, data)
    axis = data.geom_xmat[0].reshape(3, 3)[:, 2]
    ends = [data.geom_xpos[0] + s * handle.size[1] * axis for s in (-1, 1)]
    np.testing.assert_allclose(min(ends, key=np.linalg.norm), 0.0, atol=1e-12)


def _head_turn_makes_iyz():
    turned = _tensor(check.HAMMER)
    flat = _tensor(
        [check.HAMMER[0], check.HAMMER[1]._replace(quat=(1.0, 0, 0, 0)), check.HAMMER[2]]
    )
    assert abs(turned[1, 2]) > 1e-4 and abs(flat[1, 2]) < 1e-15


def _model_keeps_moments_and_quat():
    model = _model(lab.geoms_body(check.HAMMER))
    assert model.body_inertia.shape == (2, 3) and model.body_iquat.shape == (2, 4)
    per_body = [
        n
        for n in dir(model)
        if n.startswith("body_") and getattr(model, n).shape[-1:] in ((6,), (9,))
    ]
    assert per_body == []  # no tensor is kept
    moments, axes = np.linalg.eigh(_tensor(check.HAMMER))
    np.testing.assert_allclose(np.sort(model.body_inertia[1]), moments, rtol=1e-9)
    rotation = _quat_matrix(model.body_iquat[1])
    np.testing.assert_allclose(
        rotation.T @ _tensor(check.HAMMER) @ rotation, np.diag(model.body_inertia[1]), atol=1e-12
    )


def _order_and_sign_are_free():
    tensor = _tensor(check.HAMMER)
    moments, axes = np.linalg.eigh(tensor)
    for order, signs in (((2, 0, 1), (1, 1, 1)), ((1, 0, 2), (-1, 1, 1)), ((0, 1, 2), (1, -1, -1))):
        columns = axes[:, order] * signs
        if np.linalg.det(columns) < 0:
            columns[:, 0] = -columns[:, 0]
        quat = np.zeros(4)
        mujoco.mju_mat2Quat(quat, columns.flatten())
        inertial = lab.inertial_element(1.0, diaginertia=moments[list(order)], quat=quat)
        np.testing.assert_allclose(lab.inertia_about_point(inertial), tensor, atol=1e-12)


def _mirror_has_no_quaternion():
    _, axes = np.linalg.eigh(_tensor(check.HAMMER))
    mirror = axes if np.linalg.det(axes) < 0 else axes * [-1, 1, 1]
    quat = np.zeros(4)
    mujoco.mju_mat2Quat(quat, mirror.flatten())
    assert np.abs(_quat_matrix(quat) - mirror).max() > 0.1


def _r_holds_every_product():
    q = frames_unit((0.3, -0.5, 0.7, 0.2))
    w, x, y, z = q
    r = _quat_matrix(q)
    squares = [1 + r[0, 0] + r[1, 1] + r[2, 2], 1 + r[0, 0] - r[1, 1] - r[2, 2]]
    squares += [1 - r[0, 0] + r[1, 1] - r[2, 2], 1 - r[0, 0] - r[1, 1] + r[2, 2]]
    np.testing.assert_allclose(squares, 4 * q**2, atol=1e-12)
    products = [r[2, 1] - r[1, 2], r[0, 2] - r[2, 0], r[1, 0] - r[0, 1]]
    products += [r[0, 1] + r[1, 0], r[0, 2] + r[2, 0], r[1, 2] + r[2, 1]]
    np.testing.assert_allclose(
        products, 4 * np.array([w * x, w * y, w * z, x * y, x * z, y * z]), atol=1e-12
    )


def _hammer_twirls_about_its_handle():
    props = lab.body_properties(check.HAMMER)
    smallest = props.axes[:, int(np.argmin(props.principal))]
    assert abs(smallest[0]) > 0.999  # the handle's axis, x


def _inertia_box_is_drawn():
    """With mjVIS_INERTIA each body with mass gets a box: full sides sqrt(6/m (sum - 2 I_k)),
    at xipos, turned by ximat; a massless body gets none."""
    xml = lab.geoms_body(check.HAMMER).replace(
        "</worldbody>", '<body pos="1 0 0"><geom size=".1" mass="0"/></body></worldbody>'
    )
    model = _model(xml)
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    boxes = _inertia_boxes(xml)
    assert sorted(boxes) == [1]
    box = boxes[1]
    moments, mass = model.body_inertia[1], model.body_mass[1]
    sides = np.sqrt(6 / mass * (moments.sum() - 2 * moments))
    assert box.type == mujoco.mjtGeom.mjGEOM_BOX
    np.testing.assert_allclose(2 * np.array(box.size), sides, rtol=1e-6)
    np.testing.assert_allclose(box.pos, data.xipos[1], atol=1e-6)
    np.testing.assert_allclose(
        np.array(box.mat).reshape(3, 3), data.ximat[1].reshape(3, 3), atol=1e-6
    )
    assert "scene_option" in inspect.signature(mujoco.Renderer.update_scene).parameters


def _hammer_box_on_the_com_along_the_handle():
    box = _inertia_boxes(lab.geoms_body(check.HAMMER))[1]
    np.testing.assert_allclose(box.pos, lab.body_properties(check.HAMMER).com, atol=1e-6)
    assert all(np.linalg.norm(box.pos - np.array(g.pos)) > 0.02 for g in check.HAMMER)
    axes = np.array(box.mat, dtype=float).reshape(3, 3)
    longest = int(np.argmax(box.size))
    assert abs(axes[0, longest]) > 0.9999  # along the handle, x
    across = [k for k in range(3) if k != longest]
    tilt = np.degrees(np.arccos(min(1.0, max(abs(axes[1, k]) for k in across))))
    assert 5 < tilt < 30  # turned a little about the handle, as the head is (about 19 degrees)


def _lone_box_fills_its_inertia_box():
    model = _model(lab.OFFSET_BOX)
    box = _inertia_boxes(lab.OFFSET_BOX)[1]
    np.testing.assert_allclose(sorted(box.size), sorted(model.geom_size[0]), rtol=1e-6)
    np.testing.assert_allclose(box.pos, model.geom_pos[0], atol=1e-6)


def _fullinertia_order():
    ixx, iyy, izz, ixy, ixz, iyz = check.BRACKET_FULLINERTIA
    stated = lab.inertia_about_point(
        lab.inertial_element(1.0, fullinertia=check.BRACKET_FULLINERTIA)
    )
    np.testing.assert_allclose(
        stated, [[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]], atol=1e-15
    )


def _urdf_inertia_names():
    ixx, iyy, izz, ixy, ixz, iyz = check.BRACKET_FULLINERTIA
    inertia = f'ixx="{ixx}" ixy="{ixy}" ixz="{ixz}" iyy="{iyy}" iyz="{iyz}" izz="{izz}"'
    urdf = f"""<robot name="r"><link name="base"/><link name="link">
      <inertial><mass value="1"/><inertia {inertia}/></inertial></link>
      <joint name="j" type="continuous"><parent link="base"/><child link="link"/></joint>
    </robot>"""
    model = mujoco.MjModel.from_xml_string(urdf)
    body = model.body("link").id
    rotation = _quat_matrix(model.body_iquat[body])
    tensor = rotation @ np.diag(model.body_inertia[body]) @ rotation.T
    np.testing.assert_allclose(
        tensor, check.tensor_from_fullinertia(check.BRACKET_FULLINERTIA), atol=1e-12
    )


def _origin_numbers_count_twice():
    """The origin's tensor typed as fullinertia: the hinge at the origin then sees it plus
    m d^2, more than the part's real inertia about its joint."""
    mass, com, about_origin = check.cad_data(check.HAMMER)
    typed = [about_origin[i, j] for i, j in check.MJCF_ORDER]
    inertial = lab.inertial_element(mass, com, fullinertia=typed)
    seen = lab.inertia_about_point(inertial, (0.0, 0.0, 0.0))
    c = np.asarray(com)
    np.testing.assert_allclose(
        seen, about_origin + mass * (c @ c * np.eye(3) - np.outer(c, c)), rtol=1e-9
    )
    assert seen[1, 1] > 1.5 * about_origin[1, 1]


def _triangle_everywhere_positivity_when_moving():
    broken = '<inertial pos="0 0 0" mass="1" diaginertia=".002 .003 .006"/>'
    zero = '<inertial pos="0 0 0" mass="1" diaginertia="0 .01 .01"/>'
    negative = '<inertial pos="0 0 0" mass="1" diaginertia="-.001 .01 .01"/>'
    assert "A + B >= C" in _error(_body(broken)) and "A + B >= C" in _error(_body(broken, joint=""))
    for content in (zero, negative):
        assert _error(_body(content)) is not None  # on a body that can move
        assert _error(_body(content, joint="")) is None  # welded: accepted


def _disk_accepted_others_refused():
    assert lab.diaginertia_compiles((0.01, 0.01, 0.02))
    assert not lab.diaginertia_compiles((0.002, 0.003, 0.006))
    assert not lab.diaginertia_compiles((0.0, 0.01, 0.01))
    strict_check = mistake("triangle_strict_on_one_pair", "inertia_is_physical")
    assert (
        not strict_check((0.01, 0.01, 0.02))
        or not strict_check((0.02, 0.01, 0.01))
        or not strict_check((0.01, 0.02, 0.01))
    )


def _default_class_rules():
    model = _model(lab.NESTED_DEFAULTS)
    geoms, joints = lab.resolved_geoms(model), lab.resolved_joints(model)
    assert geoms["arm_label"][0] == 1.0  # written on the element: it wins
    assert geoms["arm_shell"] == (0.3, "grey") and geoms["floor"] == (0.8, "grey")
    assert joints["wrist_roll"] == (0.1, 0.0)  # class="main" inside childclass metal
    assert mujoco.MjSpec.from_string(lab.NESTED_DEFAULTS).default.name == "main"
    rng = np.random.default_rng(RNG_SEED + 7)
    for _ in range(5):
        xml = lab.random_defaults(rng, 5)
        check.resolve_attribute(resolve_attribute, [xml], check.RANDOM_DEFAULT_ATTRIBUTES)


def _friction_has_three_numbers():
    model = _model(lab.NESTED_DEFAULTS)
    assert model.geom_friction.shape == (model.ngeom, 3)


def _childclass_reaches_nested_bodies():
    geoms, joints = (
        lab.resolved_geoms(_model(lab.NESTED_DEFAULTS)),
        lab.resolved_joints(_model(lab.NESTED_DEFAULTS)),
    )
    assert (
        'name="hand" pos' in lab.NESTED_DEFAULTS
        and "childclass" not in lab.NESTED_DEFAULTS.split('name="hand"')[1].split(">")[0]
    )
    assert geoms["hand_pad"][0] == 0.3
    assert joints["wrist"] == (2.0, 0.01)


def _one_number_sets_only_the_first():
    xml = (
        '<mujoco><default><geom friction=".3 .02 .003"/></default>'
        '<worldbody><geom size=".1" friction="1"/></worldbody></mujoco>'
    )
    np.testing.assert_allclose(_model(xml).geom_friction[0], [1.0, 0.02, 0.003])
    arm = _model(lab.NESTED_DEFAULTS)
    label, shell = arm.geom("arm_label").id, arm.geom("arm_shell").id
    np.testing.assert_allclose(arm.geom_friction[label][1:], arm.geom_friction[shell][1:])


def _builtin_defaults_where_the_file_sets_none():
    model = _model(lab.BUILTIN_DEFAULT_PROBE)
    assert lab.builtin_default("geom", "friction") == model.geom_friction[0][0] == 1.0
    assert lab.default_classes("<mujoco/>", "joint", "damping") == {"main": (None, 0.0)}


def _option_defaults():
    options = lab.option_values()
    assert (options["timestep"], options["integrator"], options["cone"]) == (
        0.002,
        "Euler",
        "pyramidal",
    )
    assert (options["solver"], options["iterations"], options["tolerance"]) == ("Newton", 100, 1e-8)
    assert options["density"] == options["viscosity"] == 0.0  # no air


def _compiler_settings_act_only_while_compiling():
    compiler = mujoco.MjSpec().compiler
    for name in ("inertiafromgeom", "inertiagrouprange", "boundmass", "boundinertia"):
        assert hasattr(compiler, name)
    for name in ("balanceinertia", "settotalmass", "degree", "autolimits", "meshdir", "texturedir"):
        assert hasattr(compiler, name)
    model = _model("<mujoco/>")
    kept = [
        n
        for n in dir(model) + dir(model.opt)
        if any(
            k in n
            for k in (
                "boundmass",
                "inertiafromgeom",
                "balanceinertia",
                "settotalmass",
                "autolimits",
            )
        )
    ]
    assert kept == []


def _massless_link_messages():
    error = _error(lab.massless_link())
    assert error == "mass and inertia of moving bodies must be larger than mjMINVAL"
    assert _error(lab.massless_link(boundmass=0.001)) == error
    model = _model(lab.massless_link(0.001, 1e-6))
    assert model.body_mass[1] == 0.001
    np.testing.assert_allclose(model.body_inertia[1], 1e-6)


def _balanceinertia_takes_the_mean():
    assert "A + B >= C" in _error(lab.diaginertia_link((0.002, 0.003, 0.006)))
    model = _model(lab.diaginertia_link((0.002, 0.003, 0.006), 1.0, True))
    np.testing.assert_allclose(model.body_inertia[1], [0.011 / 3] * 3)


def _wrong_com_compiles_silently():
    xml = _body('<inertial pos="0.5 0 0" mass="1" diaginertia=".01 .01 .01"/><geom size=".05"/>')
    model, error = compiled.compile_or_error(xml)
    assert error is None and model.body_ipos[1][0] == 0.5


def _equivalent_box_has_the_moments():
    rng = np.random.default_rng(RNG_SEED + 8)
    for _ in range(5):
        geoms = lab.random_geoms(rng, 3)
        props = lab.body_properties(geoms)
        moments, mass = props.principal, props.mass
        sides = np.sqrt(6 / mass * (moments.sum() - 2 * moments))
        _, box = lab.geom_solid("box", tuple(sides / 2), mass=mass)
        np.testing.assert_allclose(box, moments, rtol=1e-9)


def _noncolliding_geom_weighs_unless_left_out():
    content = (
        '<geom size=".05"/><geom size=".05" pos=".2 0 0" contype="0" conaffinity="0" group="3"/>'
    )
    one = lab.geom_solid("sphere", (0.05,))[0]
    assert _model(_body(content)).body_mass[1] == pytest.approx(2 * one)
    left_out = _body(content, compiler='inertiagrouprange="0 2"')
    assert _model(left_out).body_mass[1] == pytest.approx(one)


def _audit_picture_sentence():
    case = lab.audit_model(check.AUDIT_SEED)
    model = _model(case.xml)
    table = lab.audit_table(model)
    assert table["names"][0] == "link1" and table["extents"][0] is None  # on the left, unjudged
    boxes = _inertia_boxes(case.xml)
    for b, (name, extent) in enumerate(zip(table["names"], table["extents"], strict=True), start=1):
        if name in case.suspects:
            assert (2 * np.array(boxes[b].size) > 2 * np.array(extent)).any()
    link1_geom = np.sort(model.geom_size[model.geom_bodyid == 1][0])
    assert (np.sort(boxes[1].size) > 2 * link1_geom).all()  # large too
    visual = model.geom_bodyid == 1
    assert (
        visual.sum() == 1
        and model.geom_contype[visual][0] == model.geom_conaffinity[visual][0] == 0
    )


def _fromto_tube_and_caps():
    model = _model(lab.capsule_link(False))
    np.testing.assert_allclose(model.geom_size[0][:2], [0.02, 0.15])
    np.testing.assert_allclose(model.geom_pos[0], [0.15, 0, 0])  # the tube from 0 to 0.3 m


def _every_inertia_about_the_com():
    stated = lab.inertial_element(2.0, (0.1, 0.2, -0.1), fullinertia=check.BRACKET_FULLINERTIA)
    about_pos = lab.inertia_about_point(stated, (0.1, 0.2, -0.1))
    np.testing.assert_allclose(
        about_pos, check.tensor_from_fullinertia(check.BRACKET_FULLINERTIA), atol=1e-12
    )


CLAIMS = [
    (
        "How a rigid body answers a push or a torque depends on ten numbers: its mass, the three "
        "coordinates of its centre of mass and the six independent entries of its inertia tensor.",
        _ten_numbers_decide_the_motion,
    ),
    ("either way a slip is silent", _a_slip_compiles_silently),
    (
        "The model still compiles and still moves, only not like the robot.",
        _a_slip_compiles_silently,
    ),
    (
        "The compiler setting `compiler/inertiafromgeom` can be `auto` (the default), `true` or "
        "`false`.",
        _inertiafromgeom_default_auto,
    ),
    (
        "auto infers from geoms only for a body that has no <inertial>; true infers always and "
        "throws the element away; false never infers.",
        _inertiafromgeom_rules,
    ),
    (
        "A class inherits every attribute it does not set from the class it is nested in, and a "
        "geom's own class attribute replaces the body's childclass.",
        _class_inherits_and_own_class_wins,
    ),
    (
        "Every two moments of a real body add up to at least the third; equality holds when all "
        "the mass lies in one plane.",
        _flat_body_on_the_triangle_edge,
    ),
    ("| `body_mass` | mass, kg | `inertial/mass`, or the geoms |", _compiled_fields_come_from_mjcf),
    (
        "| `body_ipos` | the COM, in the body frame, m | `inertial/pos`, or the geoms |",
        _compiled_fields_come_from_mjcf,
    ),
    (
        "| `body_iquat` | rotation from the body frame to the principal axes | `inertial/quat`, "
        "the diagonalised `fullinertia`, or the geoms |",
        _compiled_fields_come_from_mjcf,
    ),
    (
        "| `body_inertia` | the three principal moments about the COM, kg m² | `diaginertia`, "
        "the diagonalised `fullinertia`, or the geoms |",
        _compiled_fields_come_from_mjcf,
    ),
    (
        "With $R$ the rotation matrix of `body_iquat`, the inertia tensor about the COM in body "
        "axes is",
        _tensor_about_com_is_r_d_rt,
    ),
    (
        "and about the body origin, with $\\mathbf c$ the COM and $m$ the mass, the parallel-axis "
        "theorem adds a term that depends on how far the COM is from the origin",
        _parallel_axis_about_origin,
    ),
    (
        "A body with an `<inertial>` element states them; otherwise the compiler weighs the body's "
        "geoms, each as a uniform solid unless it is marked hollow",
        _geoms_weighed_solid_unless_hollow,
    ),
    ("the 10 cm cube of water weighs **1** kg", _default_density_is_water),
    (
        "Only `true` replaces the element with the geometry; `auto` infers from geoms only for "
        "bodies without an `<inertial>`, and `false` never infers (a moving body without one is "
        "then an error).",
        _inertiafromgeom_rules,
    ),
    ("The COM sits at `body_ipos` = (**0.02**, 0, 0): the geom's centre.", _offset_box_fields),
    ("is the 30-degree turn about $z$, $(\\cos 15°, 0, 0, \\sin 15°)$", _offset_box_fields),
    (
        "`body_inertia` holds the box's own moments about its long axis and across it",
        _offset_box_fields,
    ),
    (
        "The hinge turns the box about the origin, not about the COM: MuJoCo adds the "
        "parallel-axis term itself when it builds the equations of motion, so everything you give "
        "it must be about the COM.",
        _hinge_adds_parallel_axis_term,
    ),
    (
        'A capsule with MJCF `size="r ℓ"` is a solid cylinder of radius $r$ and length '
        "$h = 2\\ell$ "
        "along its $z$ axis, with a solid hemisphere on each end.",
        _solid_capsule_parts,
    ),
    (
        "about the axis the parts add as if they were centred: $I_{zz} = \\tfrac12 m_c r^2 + "
        "\\tfrac25 m_s r^2$.",
        _solid_capsule_parts,
    ),
    ("Across the axis the cylinder contributes $m_c(3r^2 + h^2)/12$", _solid_capsule_parts),
    (
        "About a diameter of its flat face, a hemisphere has half of the whole sphere's moment",
        _solid_caps_three_moves,
    ),
    (
        "= \\tfrac38 r$ from the flat face. The parallel-axis theorem only moves a moment *from "
        "the COM*, so first take the term off",
        _solid_caps_three_moves,
    ),
    (
        "= \\tfrac{83}{320}\\,\\tfrac{m_s}{2}\\, r^2$.",
        _solid_caps_three_moves,
    ),
    ("which is lesson 01's term and the one MuJoCo's compiler computes.", _solid_capsule_parts),
    (
        'A geom with `shellinertia="true"` has all its mass on its surface, and its `density` is '
        "then in kg per square metre of surface",
        _shell_density_per_area,
    ),
    (
        "A hollow capsule is an open tube, the side of the cylinder (area $2\\pi r h$), and two "
        "hemispherical shells that close its ends and together make a hollow sphere (area $4\\pi "
        "r^2$).",
        _hollow_capsule_is_tube_and_sphere,
    ),
    (
        "every bit of the tube is at distance $r$ from the axis, so about the axis the tube (mass "
        "$m_t$) has $m_t r^2$, and across it $m_t\\left(\\tfrac12 r^2 + \\tfrac1{12} h^2\\right)$",
        _tube_moments,
    ),
    (
        "a hollow sphere of mass $m_s$ has $\\tfrac23 m_s r^2$ about any diameter, so each "
        "hemispherical shell has half of that about a diameter of its flat face",
        _hollow_caps_three_moves,
    ),
    (
        "a hemispherical shell's COM lies $\\tfrac12 r$ from its flat face, not $\\tfrac38 r$",
        _hollow_caps_three_moves,
    ),
    (
        "Two shortcuts give wrong answers, here as for the solid: leaving the caps at the centre, "
        "and moving them straight out from their flat face by $\\ell$, which skips the second "
        "move.",
        _both_shortcuts_are_wrong,
    ),
    (
        "with the mass on the surface, further from every axis through the centre, the hollow "
        "part is harder to turn.",
        _hollow_harder_to_turn,
    ),
    (
        "When the geom is turned by a unit quaternion $q = (w, x, y, z)$, scalar first as MJCF "
        "writes it, its axes in body coordinates are the columns of",
        _quat_columns_are_geom_axes,
    ),
    ("So the inertia in body axes is $I = R\\,D\\,R^\\top$.", _turned_geom_inertia_r_d_rt),
    (
        "The other product, $R^\\top D R$, belongs to the geom turned the opposite way.",
        _turned_geom_inertia_r_d_rt,
    ),
    (
        "It gives the same matrix in two common special cases, a half turn about any axis (which "
        "is its own inverse) and a turn of a symmetric shape about its axis of symmetry",
        _transposed_agrees_in_two_cases,
    ),
    (
        "`mujoco.mju_quat2Mat(mat, quat)` fills `mat` (9 numbers, row by row) with the same $R$",
        _quat_columns_are_geom_axes,
    ),
    (
        "Turning a geom mixes its moments into off-diagonal terms but cannot change their sum, the "
        "trace of the tensor",
        _trace_unchanged_by_turn,
    ),
    (
        "a rotation only shares the same inertia out among the axes differently.",
        _trace_unchanged_by_turn,
    ),
    (
        "With geom masses $m_g$, centres $\\mathbf p_g$ and body-axes inertias $I_g$",
        _geoms_combine_with_parallel_axis,
    ),
    (
        "The offset $\\mathbf d_g$ is measured from the body's COM, not from its origin; the two "
        "agree only when the COM happens to sit at the origin.",
        _offset_from_com_not_origin,
    ),
    (
        "Its body origin is at the end of the handle, where a hand would hold it.",
        _hammer_held_at_the_handle_end,
    ),
    (
        "the head's small turn about $x$ shows as an off-diagonal $I_{yz}$",
        _head_turn_makes_iyz,
    ),
    (
        "MuJoCo does not keep the tensor: it keeps three moments and a quaternion.",
        _model_keeps_moments_and_quat,
    ),
    (
        "The $\\lambda_k$ are the principal moments (`body_inertia`) and $R$, as a quaternion, is "
        "`body_iquat`.",
        _model_keeps_moments_and_quat,
    ),
    (
        "The answer is not unique: any order of the columns works if the moments come in the same "
        "order, and any column may change sign.",
        _order_and_sign_are_free,
    ),
    (
        "If $\\det R = -1$ the columns form a left-handed set, a mirror image rather than a "
        "rotation, and no quaternion describes it",
        _mirror_has_no_quaternion,
    ),
    (
        "Step 2's $R(q)$ holds every product of two of its numbers, four times over.",
        _r_holds_every_product,
    ),
    (
        "The smallest moment belongs to the handle's axis: a hammer is easy to twirl about its "
        "handle and hard to swing.",
        _hammer_twirls_about_its_handle,
    ),
    (
        "With the visual flag `mjVIS_INERTIA` on, it draws every body that has mass as its "
        "*equivalent inertia box*, the uniform box with the body's mass and principal moments, "
        "centred on its COM (`data.xipos`) and turned onto its principal axes (`data.ximat`)",
        _inertia_box_is_drawn,
    ),
    (
        "In code of your own it is one flag of the scene options, "
        "`option.flags[mujoco.mjtVisFlag.mjVIS_INERTIA] = True`, passed to "
        "`mujoco.Renderer.update_scene(data, scene_option=option)`.",
        _inertia_box_is_drawn,
    ),
    (
        "The box is none of the hammer's geoms. It sits on the COM near the head, is longest along "
        "the handle, the axis of the smallest moment, and is tipped a little about the handle by "
        "the head's turn.",
        _hammer_box_on_the_com_along_the_handle,
    ),
    ("A lone uniform box fills its inertia box exactly", _lone_box_fills_its_inertia_box),
    ("| MJCF `fullinertia` | `Ixx Iyy Izz Ixy Ixz Iyz` |", _fullinertia_order),
    ("| URDF `<inertia>` | `ixx ixy ixz iyy iyz izz` |", _urdf_inertia_names),
    (
        "Copying the origin's numbers straight into `fullinertia` counts the offset twice, because "
        "MuJoCo adds the parallel-axis term again from `pos`: the link then resists turning about "
        "its joint more than the real part does",
        _origin_numbers_count_twice,
    ),
    (
        "MuJoCo adds that term itself from `pos`; typed into `fullinertia` it would be counted "
        "twice.",
        _origin_numbers_count_twice,
    ),
    (
        "Equality needs $z = 0$ for all the mass: a perfectly flat body, like the disk of "
        "prediction 3.",
        _flat_body_on_the_triangle_edge,
    ),
    (
        "MuJoCo refuses a broken triangle in any body's `<inertial>`, and a moment that is not "
        "positive in a body that can move.",
        _triangle_everywhere_positivity_when_moving,
    ),
    (
        "MuJoCo accepts the disk and refuses 0.002 + 0.003 < 0.006 and the zero moment.",
        _disk_accepted_others_refused,
    ),
    (
        "a strict `>` anywhere refuses flat bodies that MuJoCo accepts.",
        _disk_accepted_others_refused,
    ),
    ("An attribute written on the element itself wins.", _default_class_rules),
    (
        'Otherwise the element\'s class supplies it: its own `class="..."`, or else the '
        "`childclass` of the nearest enclosing body that has one, or else the top-level default "
        "(named `main`).",
        _default_class_rules,
    ),
    (
        '`class="main"` picks the top level on purpose, even inside a childclass.',
        _default_class_rules,
    ),
    (
        "A class inherits everything it does not set from the class it is nested in, up to `main`.",
        _default_class_rules,
    ),
    ("A geom's `friction` has three numbers", _friction_has_three_numbers),
    (
        "The `hand` body has no `childclass` of its own, yet `hand_pad` gets metal's friction "
        "**0.3**: a childclass reaches every body nested inside.",
        _childclass_reaches_nested_bodies,
    ),
    (
        "`wrist` keeps its own damping **2.0** but still takes metal's armature **0.01**, "
        "attribute by attribute.",
        _childclass_reaches_nested_bodies,
    ),
    (
        '`friction="1"` sets only the first of the three numbers; the other two keep what its '
        "class gives them.",
        _one_number_sets_only_the_first,
    ),
    (
        "`main` always has a value: MuJoCo's built-in default where the file sets none.",
        _builtin_defaults_where_the_file_sets_none,
    ),
    (
        "A timestep of **0.002** s, the `Euler` integrator, a `pyramidal` cone with `Newton`'s "
        "solver for at most **100** iterations down to a tolerance of **1e-08**, and no air.",
        _option_defaults,
    ),
    (
        "`<compiler>` holds settings that act only while the file is compiled: `inertiafromgeom`, "
        "`inertiagrouprange`, `boundmass`, `boundinertia`, `balanceinertia`, `settotalmass`, "
        "`angle`, `autolimits` and the asset folders.",
        _compiler_settings_act_only_while_compiling,
    ),
    (
        "A body with a joint must have mass and inertia above a tiny threshold (`mjMINVAL`)",
        _massless_link_messages,
    ),
    (
        "`boundmass` alone does not help: the moments are still zero. With `boundinertia` as well "
        "the link compiles with **0.001** kg and **1e-06** kg m² about every axis",
        _massless_link_messages,
    ),
    ("The message names the rule of Step 6.", _balanceinertia_takes_the_mean),
    (
        '`balanceinertia="true"` makes the error go away by replacing all three moments with their '
        "mean, **0.003667** kg m²: the link now turns equally easily about every axis",
        _balanceinertia_takes_the_mean,
    ),
    (
        "**A model that tips over though it looks balanced.** No message here.",
        _wrong_com_compiles_silently,
    ),
    (
        "the uniform box with the same mass and principal moments, whose full side along principal "
        "axis $k$ is",
        _equivalent_box_has_the_moments,
    ),
    (
        "a geom that never collides still counts towards the mass unless "
        "`compiler/inertiagrouprange` leaves its group out",
        _noncolliding_geom_weighs_unless_left_out,
    ),
    (
        "the suspects' boxes dwarf their collision geoms, and `link1`'s is large too, but only a "
        "visual geom sits inside it, nothing to judge it by.",
        _audit_picture_sentence,
    ),
    (
        '`fromto="0 0 0 .3 0 0"`, so the tube is 0.3 m long and the caps stick out beyond it.',
        _fromto_tube_and_caps,
    ),
    (
        "The CAD tensor minus m(|c|² 1 − c cᵀ), written as Ixx Iyy Izz Ixy Ixz Iyz.",
        _origin_numbers_count_twice,
    ),
    (
        "The three principal moments of the offending body were replaced by their mean, so the "
        "body now behaves differently from the datasheet.",
        _balanceinertia_takes_the_mean,
    ),
    (
        "No: their principal axes point in different directions in the body frame, so their "
        "inertia tensors in body axes differ.",
        _tensor_about_com_is_r_d_rt,
    ),
    ("every inertia you give MuJoCo is about the centre of mass.", _every_inertia_about_the_com),
    (
        "that is $\\tfrac38 r$ past the end for a solid cap and $\\tfrac12 r$ for a thin shell "
        "(`shellinertia`, density per square metre).",
        _hollow_caps_three_moves,
    ),
    (
        "A turned geom's inertia in body axes is $R D R^\\top$ with $R$ from a scalar-first "
        "quaternion; geoms add up with the parallel-axis term about the body's COM.",
        _geoms_combine_with_parallel_axis,
    ),
    (
        "CAD inertias about a joint need the parallel-axis term taken off, and MJCF's order is Ixx "
        "Iyy Izz Ixy Ixz Iyz, not URDF's.",
        _urdf_inertia_names,
    ),
    (
        "Real moments are positive and every two add up to at least the third; `balanceinertia` "
        "and `boundmass` hide errors by changing the model.",
        _triangle_everywhere_positivity_when_moving,
    ),
    (
        "Default classes resolve attribute by attribute: the element, its class or the nearest "
        "childclass, that class's parents, then `main`.",
        _default_class_rules,
    ),
]

test_claim_is_in_the_prose_and_true, test_claims_count = lesson_code.claims_tests(
    CLAIMS, PROSE, minimum=80
)


# Seeds on which a mistake once passed a test's hidden part, {salt: seeds}, swept again by
# grader_tests/lessons/test_mistake_sweep.py: class parents, childclass and mirrored eigenvectors
# (salt 39); four one-geom bodies (4039).
ESCAPED_SEEDS = {39: (13, 87), 4039: (49,)}
