"""Unit tests of lesson 01's helpers: scenes, MuJoCo readers, drops and visible checks.

The visible checks must pass a correct function and fail a wrong one with a message that
names the likely mistake; the drop runner must reproduce the figures in REFERENCE.md. The
correct functions are the source notebook's answer cells, executed (support/lesson_code.py),
and the wrong ones the fixtures of grader_tests/mistakes/01-world-as-text/.
"""

import lesson_code
import numpy as np
import pytest

from course import compiled, expect, falls, mjcf
from course.lessons.world_as_text import checks as check
from course.lessons.world_as_text import drop, scenes

LESSON = "01-world-as-text"
SOLUTION = lesson_code.namespace(LESSON)  # the source notebook's answer cells, executed


def mistake(name, function):
    return lesson_code.mistake(LESSON, name, function)


def test_two_cube_drop_reproduces_reference_figures():
    """The MuJoCo runner gives REFERENCE.md's steps 143/145, 1.10 cm and 4.08 ms."""
    vacuum = drop.run_two_cube_drop(0.1, 1.0, 0.0)
    air = drop.run_two_cube_drop(0.1, 1.0, 1.2)
    assert (vacuum.light_step, vacuum.heavy_step) == (143, 143)
    assert (air.light_step, air.heavy_step) == (145, 143)
    assert f"{air.gap_cm:.2f}" == "1.10"
    assert f"{air.delay_ms:.2f}" == "4.08"


def test_delay_sweep_matches_reference_table():
    """The mass sweep reproduces REFERENCE.md's delay table row for row."""
    reference = [93.44, 46.25, 22.59, 8.65, 4.08, 1.81, 0.45, 0.00]
    got = [round(d, 2) for d in drop.delay_sweep().values()]
    assert got == reference


def test_landing_time_interpolates_within_the_step():
    """Landing time is linear between the last height above and the first at or below 0."""
    assert falls.landing_time([1.0, 0.5, -0.5], 0.1) == pytest.approx(0.15)
    assert falls.landing_step([1.0, 0.0]) == 1
    with pytest.raises(ValueError, match="never reaches"):
        falls.landing_step([1.0, 0.5])


def test_compiled_defaults_are_read_from_mujoco():
    """An MJCF file that sets nothing gets MuJoCo's documented defaults."""
    defaults = compiled.compiled_defaults("<mujoco/>")
    assert defaults["timestep"] == 0.002
    assert defaults["integrator"] == "Euler"
    assert defaults["density"] == 0.0
    np.testing.assert_allclose(defaults["gravity"], [0, 0, -9.81])


def test_compile_error_is_clear():
    """A broken MJCF raises ModelError quoting MuJoCo's message."""
    with pytest.raises(compiled.ModelError, match="could not compile"):
        compiled.compile_xml("<mujoco><worldbody><geom type='box'/></worldbody>")


def test_bad_shape_is_refused_with_a_plain_message():
    """Scene builders reject an unknown kind or a wrong number of sizes."""
    with pytest.raises(ValueError, match="kind is one of"):
        scenes.shape_body("cone", [0.1], 1000)
    with pytest.raises(ValueError, match="needs 3 size numbers"):
        scenes.shape_body("box", [0.1, 0.1], 1000)


def test_drag_areas_of_a_cube_are_its_faces():
    """MuJoCo's drag on a uniform cube uses the cube's own faces."""
    xml = falls.shape_drop("box", (0.1, 0.1, 0.1), 0.1, air_density=1.2)
    np.testing.assert_allclose(compiled.drag_areas(xml, 1.2), [0.04, 0.04, 0.04], rtol=1e-12)


@pytest.mark.parametrize("kind", mjcf.SHAPE_KINDS)
def test_solid_inertia_check_accepts_a_correct_function(kind, capsys):
    """The visible check passes a correct solid_inertia and says so."""
    check.solid_inertia(SOLUTION["solid_inertia"], kind)
    assert "OK" in capsys.readouterr().out


def test_solid_inertia_check_names_the_half_length_mistake():
    """Full side lengths taken as half-lengths fail with the half-length hint."""
    full_sides = mistake("box_full_side_lengths", "solid_inertia")
    with pytest.raises(AssertionError, match="half-lengths"):
        check.solid_inertia(full_sides, "box")


def test_checks_say_when_the_body_is_missing():
    """A function that returns None gets 'write the body', not a confusing TypeError."""
    with pytest.raises(expect.NotAnswered, match="write the body"):
        check.solid_inertia(lambda *args: None, "box")


def test_free_fall_check_catches_explicit_euler():
    """Explicit Euler fails the free-fall check with the velocity-first hint."""
    check.semi_implicit_euler(SOLUTION["semi_implicit_euler"])
    with pytest.raises(AssertionError, match="NEW"):
        check.semi_implicit_euler(mistake("explicit_euler", "semi_implicit_euler"))


def test_inertia_check_rejects_a_missing_parallel_axis_term():
    """The inertia comparison fails a tensor without the parallel-axis term (and passes the
    solution's)."""
    model = compiled.compile_xml(scenes.parts_body(check.TWO_PARTS))
    want = compiled.body_mass_properties(model, "body")
    masses = [m for *_, m in check.TWO_PARTS]
    positions = [pos for _, _, pos, _ in check.TWO_PARTS]
    inertias = [check.part_inertia(k, s, m) for k, s, _, m in check.TWO_PARTS]
    _, _, right = SOLUTION["combine_parts"](masses, positions, inertias)
    expect.inertia_matches(right, want.principal, want.axes, "inertia")
    _, _, own = mistake("no_parallel_axis_term", "combine_parts")(masses, positions, inertias)
    with pytest.raises(AssertionError, match="principal moment"):
        expect.inertia_matches(own, want.principal, want.axes, "inertia")


def test_inertia_check_accepts_a_rotated_principal_frame():
    """A correct off-diagonal tensor passes whatever order MuJoCo's principal axes take."""
    parts = [
        ("box", (0.05, 0.02, 0.03), (0.1, -0.05, 0.02), 0.7),
        ("sphere", (0.03,), (-0.04, 0.08, -0.1), 0.3),
    ]
    model = compiled.compile_xml(scenes.parts_body(parts))
    want = compiled.body_mass_properties(model, "body")
    tensor = want.axes @ np.diag(want.principal) @ want.axes.T
    expect.inertia_matches(tensor, want.principal, want.axes, "inertia")
    assert abs(tensor[0, 1]) > 1e-4  # the case really is off-diagonal


def test_expect_close_survives_rebound_numpy():
    """Rebinding numpy.allclose or numpy.array after import cannot make a wrong value pass."""
    saved = np.allclose, np.array
    try:
        np.allclose = lambda *a, **k: True
        np.array = lambda *a, **k: 0
        with pytest.raises(AssertionError):
            expect.close(1.0, 2.0, "x")
    finally:
        np.allclose, np.array = saved


def test_choice_validates_letters():
    """Multiple-choice answers must be one of the offered letters."""
    assert expect.choice("q", " b", 3) == "B"
    with pytest.raises(AssertionError, match="one of A, B, C"):
        expect.choice("q", "D", 3)
    with pytest.raises(expect.NotAnswered):
        expect.choice("q", None, 3)


def test_gripper_break_it_grows_mass_without_error():
    """inertiafromgeom='true' compiles the gripper and multiplies its mass, silently."""
    written = compiled.total_mass(compiled.compile_xml(scenes.gripper("auto")))
    inferred = compiled.total_mass(compiled.compile_xml(scenes.gripper("true")))
    assert written == pytest.approx(0.16)
    assert inferred > 3 * written
