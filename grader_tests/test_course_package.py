"""Unit tests of the helper package's physics side: scenes, MuJoCo readers, drops, checks.

The visible checks must pass a correct function and fail a wrong one with a message that
names the likely mistake; the drop runner must reproduce the figures in REFERENCE.md.
"""

import numpy as np
import pytest

from course import compiled, drop, expect, scenes
from course.checks import world_as_text as check

# --- reference implementations used only to exercise the checks (this file is not in the
# --- learner-readable package)


def good_solid_inertia(kind, size, density):
    if kind == "box":
        a, b, c = 2 * np.asarray(size, dtype=float)
        m = density * a * b * c
        return m, m / 12 * np.array([b * b + c * c, a * a + c * c, a * a + b * b])
    if kind == "sphere":
        m = density * 4 / 3 * np.pi * size[0] ** 3
        return m, np.full(3, 0.4 * m * size[0] ** 2)
    r, length = size[0], 2 * size[1]
    m = density * np.pi * r * r * length
    side, axial = m * (3 * r * r + length**2) / 12, m * r * r / 2
    if kind == "capsule":
        ms = density * 4 / 3 * np.pi * r**3
        side += ms * (0.4 * r * r + length**2 / 4 + 3 * length * r / 8)
        axial += ms * 0.4 * r * r
        m += ms
    return m, np.array([side, side, axial])


def good_step(x, v, accel, h, c_implicit=0.0):
    v = v + h * accel(x, v) / (1 + h * c_implicit)
    return x + h * v, v


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
    assert drop.landing_time([1.0, 0.5, -0.5], 0.1) == pytest.approx(0.15)
    assert drop.landing_step([1.0, 0.0]) == 1
    with pytest.raises(ValueError, match="never reaches"):
        drop.landing_step([1.0, 0.5])


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
    with pytest.raises(ValueError, match="kind must be one of"):
        scenes.shape_body("cone", [0.1], 1000)
    with pytest.raises(ValueError, match="needs 3 size numbers"):
        scenes.shape_body("box", [0.1, 0.1], 1000)


def test_drag_areas_of_a_cube_are_its_faces():
    """MuJoCo's drag on a uniform cube uses the cube's own faces."""
    xml = scenes.shape_drop("box", (0.1, 0.1, 0.1), 0.1, air_density=1.2)
    np.testing.assert_allclose(compiled.drag_areas(xml, 1.2), [0.04, 0.04, 0.04], rtol=1e-12)


@pytest.mark.parametrize("kind", scenes.SHAPE_KINDS)
def test_solid_inertia_check_accepts_a_correct_function(kind, capsys):
    """The visible check passes a correct solid_inertia and says so."""
    check.solid_inertia(good_solid_inertia, kind)
    assert "OK" in capsys.readouterr().out


def test_solid_inertia_check_names_the_half_length_mistake():
    """Full side lengths taken as half-lengths fail with the half-length hint."""

    def full_sides(kind, size, density):
        return good_solid_inertia(kind, [s / 2 for s in size], density)

    with pytest.raises(AssertionError, match="half-lengths"):
        check.solid_inertia(full_sides, "box")


def test_checks_say_when_the_body_is_missing():
    """A function that returns None gets 'write the body', not a confusing TypeError."""
    with pytest.raises(expect.NotAnswered, match="write the body"):
        check.solid_inertia(lambda *args: None, "box")


def test_free_fall_check_catches_explicit_euler():
    """Explicit Euler fails the free-fall check with the velocity-first hint."""

    def explicit(x, v, accel, h, c_implicit=0.0):
        return x + h * v, v + h * accel(x, v)

    check.semi_implicit_euler(good_step)
    with pytest.raises(AssertionError, match="NEW"):
        check.semi_implicit_euler(explicit)


def test_inertia_check_rejects_a_missing_parallel_axis_term():
    """The inertia comparison fails a tensor without the parallel-axis term."""
    model = compiled.compile_xml(scenes.parts_body(check.TWO_PARTS))
    want = compiled.body_mass_properties(model, "body")
    own = sum(np.diag(check.part_inertia(k, s, m)) for k, s, _, m in check.TWO_PARTS)
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
