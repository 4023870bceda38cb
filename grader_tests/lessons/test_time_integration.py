"""Unit tests of lesson 02's helpers: course/lessons/time_integration/ (dynamics.py, checks.py).

The MuJoCo readers must reproduce the facts the lesson states (MuJoCo's Euler is the
semi-implicit step with implicit damping, its RK4 is the classic method, a stiff spring's
stability edges, the drop under RK4), and every visible check must pass a correct function
and fail each typical mistake with a message that names it.

The correct functions are the source notebook's answer cells, executed (support/lesson_code.py),
and the typical mistakes are the fixtures of grader_tests/mistakes/02-time-integration/; the
few wrong answers no fixture holds are written here as broken wrappers, never as a second copy
of a solution.
"""

import warnings

import lesson_code
import mujoco
import numpy as np
import pytest

from classroom import notebooks
from classroom.verdicts.trusted import split_test
from course import compiled, expect
from course.lessons.time_integration import checks as check
from course.lessons.time_integration import dynamics

LESSON = "02-time-integration"
# The source notebook's answer cells, executed: reference answers are never typed twice.
(
    explicit_euler,
    semi_implicit_euler,
    rk4,
    largest_stable_timestep,
) = lesson_code.answers(
    LESSON, "explicit_euler", "semi_implicit_euler", "rk4", "largest_stable_timestep"
)


def mistake(name, function):
    return lesson_code.mistake(LESSON, name, function)


def run_steps(step, accel, x, v, h, steps, *extra):
    xs = [x]
    for _ in range(steps):
        x, v = step(x, v, accel, h, *extra)
        xs.append(x)
    return np.array(xs, dtype=float).reshape(steps + 1, -1)


# --- MuJoCo's integrators are the lesson's steps (the facts of issue 3)


def test_euler_is_the_semi_implicit_step_on_a_pendulum():
    """mj_step with Euler equals the semi-implicit step driven by mj_forward's qacc."""
    xml = dynamics.pendulum(0.5, 1.0, timestep=0.01)
    positions, _ = dynamics.trajectory(xml, 200, 1.0, 0.0)
    ours = run_steps(semi_implicit_euler, dynamics.accel_function(xml), 1.0, 0.0, 0.01, 200)
    assert np.max(np.abs(ours - positions)) <= 1e-15


def test_euler_damping_is_implicit_with_rate_d_over_m():
    """With joint damping d, mj_step (Euler) equals the step with c_implicit = d / M."""
    xml = dynamics.pendulum(0.5, 1.0, damping=0.3, timestep=0.01)
    inertia = dynamics.joint_inertia(xml)[0, 0]
    assert inertia == pytest.approx(1.0 * 0.5**2 + 0.4 * 1.0 * 0.02**2)
    positions, _ = dynamics.trajectory(xml, 200, 1.0, 2.0)
    accel = dynamics.accel_function(xml)
    ours = run_steps(semi_implicit_euler, accel, 1.0, 2.0, 0.01, 200, 0.3 / inertia)
    assert np.max(np.abs(ours - positions)) <= 1e-14
    explicit = run_steps(semi_implicit_euler, accel, 1.0, 2.0, 0.01, 200)
    assert np.max(np.abs(explicit - positions)) > 1e-6


def test_rk4_is_the_classic_method_on_one_and_two_joints():
    """mj_step with RK4 equals the classic Runge-Kutta step, for floats and for arrays."""
    xml = dynamics.pendulum(0.5, 1.0, timestep=0.01, integrator="RK4")
    positions, _ = dynamics.trajectory(xml, 200, 1.0, 0.0)
    ours = run_steps(rk4, dynamics.accel_function(xml), 1.0, 0.0, 0.01, 200)
    assert np.max(np.abs(ours - positions)) <= 1e-14
    double = dynamics.double_pendulum(timestep=0.005, integrator="RK4")
    positions, _ = dynamics.trajectory(double, 200, [1.0, -0.5], [0.0, 0.0])
    accel = dynamics.accel_function(double)
    ours = run_steps(rk4, accel, np.array([1.0, -0.5]), np.zeros(2), 0.005, 200)
    assert np.max(np.abs(ours - positions)) <= 1e-13


def test_old_velocity_trajectory_is_explicit_euler():
    """The explicit-Euler reference assembled from MuJoCo calls equals explicit Euler."""
    double = dynamics.double_pendulum(timestep=0.005)
    positions, _ = dynamics.old_velocity_trajectory(double, 100, [1.0, -0.5], [0.3, 0.0])
    accel = dynamics.accel_function(double)
    ours = run_steps(explicit_euler, accel, np.array([1.0, -0.5]), np.array([0.3, 0.0]), 0.005, 100)
    assert np.max(np.abs(ours - positions)) <= 1e-14
    with pytest.raises(ValueError, match="no joint damping"):
        dynamics.old_velocity_trajectory(dynamics.pendulum(damping=1.0), 3, 1.0)


def test_planar_spring_has_two_independent_damping_rates():
    """The two-joint spring's inertia is diagonal, so c_implicit is an array d / m."""
    xml = dynamics.planar_spring((400.0, 900.0), (2.0, 30.0), 1.5, timestep=0.005)
    np.testing.assert_allclose(dynamics.joint_inertia(xml), 1.5 * np.eye(2))
    positions, _ = dynamics.trajectory(xml, 100, [0.1, -0.1], [0.5, 0.0])
    accel = dynamics.accel_function(xml)
    rates = np.array([2.0, 30.0]) / 1.5
    ours = run_steps(semi_implicit_euler, accel, np.array([0.1, -0.1]), np.array([0.5, 0.0]),
                     0.005, 100, rates)  # fmt: skip
    assert np.max(np.abs(ours - positions)) <= 1e-14


# --- stability of the stiff spring


@pytest.mark.parametrize(
    ("integrator", "stable_at", "unstable_at"),
    [("Euler", 0.0195, 0.0205), ("implicitfast", 0.0195, 0.0205), ("implicit", 0.0195, 0.0205),
     ("RK4", 0.0280, 0.0285)],
)  # fmt: skip
def test_stiff_spring_edges(integrator, stable_at, unstable_at):
    """k = 1e4, m = 1: Euler (and both implicit integrators) up to 2/w, RK4 up to ~2.83/w."""
    assert dynamics.stays_bounded(1e4, 1.0, stable_at, integrator)
    assert not dynamics.stays_bounded(1e4, 1.0, unstable_at, integrator)


def test_discrete_treats_stiffness_implicitly_and_damps_the_spring():
    """`discrete` stays bounded at every timestep of the table, by damping the oscillation."""
    for h in (0.0195, 0.0205, 0.0280, 0.0285):
        assert dynamics.stays_bounded(1e4, 1.0, h, "discrete")
    positions = dynamics.spring_run(1e4, 1.0, 0.0195, "discrete", steps=3).positions
    assert f"{positions[1]:.3f}" == "0.208"


def test_check_yourself_stiff_spring_facts():
    """w = 500 rad/s at h = 6 ms: implicitfast and RK4 still blow up; h = 3 ms is stable."""
    stiffness = 500.0**2
    assert not dynamics.stays_bounded(stiffness, 1.0, 0.006, "implicitfast")
    assert not dynamics.stays_bounded(stiffness, 1.0, 0.006, "RK4")
    assert dynamics.stays_bounded(stiffness, 1.0, 0.003, "Euler")


def test_blow_up_is_read_from_data_warning_and_prints_nothing(capfd):
    """spring_run reports MuJoCo's warning from data.warning; nothing reaches stdout or stderr."""
    run = dynamics.spring_run(1e4, 1.0, 0.0205, "Euler", steps=1000)
    assert run.blowups == 1
    assert run.message.startswith("Nan, Inf or huge value in QACC")
    assert run.positions[-1] == 0.0  # auto-reset to the initial state
    calm = dynamics.spring_run(1e4, 1.0, 0.0195, "Euler", steps=1000)
    assert (calm.blowups, calm.message) == (0, "")
    assert calm.largest == pytest.approx(1 / np.sqrt(1 - 0.975**2), rel=0.01)
    out, err = capfd.readouterr()
    assert (out, err) == ("", "")


def test_quiet_warnings_collects_and_restores():
    """quiet_warnings yields MuJoCo's messages and puts the previous handler back."""
    before = mujoco.get_mju_user_warning()
    model = compiled.compile_xml(dynamics.spring(timestep=0.03))
    data = mujoco.MjData(model)
    data.qpos[0] = 1.0
    with dynamics.quiet_warnings() as messages:
        for _ in range(100):
            mujoco.mj_step(model, data)
    assert len(messages) == 1 and "unstable" in messages[0]
    assert dynamics.warnings_raised(data) == {"mjWARN_BADQACC": 1}
    assert mujoco.get_mju_user_warning() is before


def test_spring_stepper_is_mujocos_step_and_finds_the_edges():
    """Bisection with MuJoCo's own step finds 2/w for Euler and about 2.83/w for RK4."""
    euler = dynamics.SpringStepper(1e4, 1.0, "Euler")
    assert euler.w == 100.0
    assert largest_stable_timestep(euler, euler.w) * euler.w == pytest.approx(2.0, abs=2e-4)
    mj_rk4 = dynamics.SpringStepper(1e4, 1.0, "RK4")
    edge = largest_stable_timestep(mj_rk4, mj_rk4.w)
    assert edge * mj_rk4.w == pytest.approx(2 * np.sqrt(2), rel=2e-3)
    x, v = euler(1.0, 0.0, None, 0.001)  # one Euler step: v = -w^2 h, x = h v
    assert (x, v) == pytest.approx((1.0 - 1e4 * 1e-6, -10.0))


def test_spring_stepper_with_damping_is_mujocos_damped_step():
    """With damping, SpringStepper's step is MuJoCo's Euler step with implicit damping."""
    stepper = dynamics.SpringStepper(1800.0, 2.0, "Euler", damping=60.0)
    assert stepper.w == 30.0 and stepper.what == "a damped spring"
    x, v = stepper(1.0, 0.0, None, 0.01)
    want_v = -0.01 * 900.0 / (1 + 0.01 * 30.0)  # h a / (1 + h c), a = -w^2, c = 60 / 2
    assert (x, v) == pytest.approx((1.0 + 0.01 * want_v, want_v), rel=1e-12)


@pytest.mark.parametrize("zeta", [0.6, 1.2])
def test_implicit_damping_moves_eulers_edge(zeta):
    """MuJoCo's Euler on a damped spring is stable well past 2/w: for the implicit step the
    edge is h w = 2 (zeta + sqrt(1 + zeta^2)), with damping ratio zeta."""
    w, mass = 150.0, 1.3
    stepper = dynamics.SpringStepper(mass * w**2, mass, "Euler", damping=2 * zeta * w * mass)
    edge = largest_stable_timestep(stepper, w) * w
    assert edge == pytest.approx(2 * (zeta + np.sqrt(1 + zeta**2)), rel=2e-3)


def test_heavy_damping_sets_rk4s_edge():
    """RK4 treats damping explicitly: an overdamped spring's fast decay rate sets its edge,
    RK4's real-axis limit 2.785 over w (zeta + sqrt(zeta^2 - 1))."""
    w, mass, zeta = 150.0, 1.3, 3.0
    stepper = dynamics.SpringStepper(mass * w**2, mass, "RK4", damping=2 * zeta * w * mass)
    edge = largest_stable_timestep(stepper, w) * w
    assert edge == pytest.approx(2.785 / (zeta + np.sqrt(zeta**2 - 1)), rel=5e-3)


def test_cart_stepper_is_mujocos_two_joint_step():
    """CartStepper steps the cart and the block it carries with mj_step: calls that pass its
    own results back follow MuJoCo's trajectory; any other call starts a new release."""
    stiffness, mass = (400.0, 900.0), (1.0, 0.3)
    stepper = dynamics.CartStepper(stiffness, mass, "Euler")
    assert stepper.w == pytest.approx(np.sqrt(400.0 / 1.3))
    xml = dynamics.cart_and_block(stiffness, mass, timestep=0.004)
    positions, velocities = dynamics.trajectory(xml, 50, [1.0, 0.0], [0.0, 0.0])
    x, v = 1.0, 0.0
    for k in range(1, 51):
        x, v = stepper(x, v, None, 0.004)
        assert (x, v) == (positions[k, 0], velocities[k, 0])
    assert stepper(1.0, 0.0, None, 0.004) == (positions[1, 0], velocities[1, 0])


def test_cart_edge_is_set_by_its_stiffer_mode():
    """Undamped, the cart's edge under Euler is 2 over the larger mode frequency of the two
    joints, not 2/w."""
    stiffness, mass = (400.0, 900.0), (1.0, 0.3)
    stepper = dynamics.CartStepper(stiffness, mass, "Euler")
    inertia = dynamics.joint_inertia(dynamics.cart_and_block(stiffness, mass))
    fastest = np.sqrt(np.max(np.linalg.eigvals(np.linalg.solve(inertia, np.diag(stiffness)))))
    edge = largest_stable_timestep(stepper, stepper.w)
    assert edge * fastest == pytest.approx(2.0, rel=1e-3)
    assert edge * stepper.w < 0.6


def _hidden_stability_cases():
    """(grade_id, stepper, the solution's edge) for every call of the stability test cells'
    hidden parts, run with the solution's largest_stable_timestep."""
    source = notebooks.read_lesson(LESSON)
    cases = []
    for grade_id in ("stable_timestep_matches_mujoco_euler", "stable_timestep_matches_mujoco_rk4"):
        _, hidden = split_test(notebooks.test_cells(source)[grade_id].source)

        def recording(step, w, n_steps=1000, bound=100.0, grade_id=grade_id):
            edge = largest_stable_timestep(step, w, n_steps, bound)
            cases.append((grade_id, step, edge))
            return edge

        names = {"np": np, "check": check, "dynamics": dynamics, "expect": expect}
        exec(hidden, {**names, "largest_stable_timestep": recording})  # noqa: S102
    return cases


def test_hidden_stability_cases_have_edges_no_formula_gives():
    """Every hidden step's edge, found by bisecting MuJoCo finely, is far from 1/w, 2/w and
    2.83/w, and the solution's bisection finds it."""
    cases = _hidden_stability_cases()
    assert {grade_id for grade_id, _, _ in cases} == {
        "stable_timestep_matches_mujoco_euler", "stable_timestep_matches_mujoco_rk4"
    }  # fmt: skip
    for _, stepper, found in cases:
        low, high = 0.0, 10.0 / stepper.w
        while high - low > 1e-7 / stepper.w:
            middle = (low + high) / 2
            low, high = (middle, high) if stepper.stays_bounded(middle) else (low, middle)
        assert found == pytest.approx(low, rel=1e-3), stepper
        for typed in (1.0, 2.0, 2 * np.sqrt(2)):
            assert abs(low * stepper.w - typed) > 0.1 * typed, (stepper, low * stepper.w)


# --- energy and the drop


def test_energies_read_mjdata_energy():
    """energies gives potential plus kinetic energy; a model without the flag is refused."""
    xml = dynamics.pendulum(0.5, 2.0, timestep=0.01)
    hanging, swinging = dynamics.energies(xml, [0.0, 0.0], [0.0, 3.0])
    assert hanging == pytest.approx(-2.0 * 9.81 * 0.5)
    inertia = dynamics.joint_inertia(xml)[0, 0]
    assert swinging - hanging == pytest.approx(0.5 * inertia * 9.0)
    with pytest.raises(ValueError, match="energy"):
        dynamics.energies("<mujoco><worldbody><body><joint/><geom size='.1'/></body>"
                          "</worldbody></mujoco>", [0.0], [0.0])  # fmt: skip


def test_cube_landing_under_euler_and_rk4():
    """Lesson 01's drop: step 143 either way; RK4 lands at the analytic time, Euler h/2 early."""
    analytic = np.sqrt(2 * 0.40 / 9.81)
    euler = dynamics.cube_landing("Euler")
    rk4 = dynamics.cube_landing("RK4")
    assert euler.step == rk4.step == 143
    assert f"{euler.time_s:.4f}" == "0.2846"
    assert rk4.time_s == pytest.approx(analytic, abs=2e-5)
    assert analytic - euler.time_s == pytest.approx(0.001, abs=1e-4)


def test_scene_builders_validate_their_input():
    """Unknown integrators and option tags that cannot take one are refused clearly."""
    with pytest.raises(ValueError, match="integrator is one of"):
        dynamics.pendulum(integrator="rk4")
    with pytest.raises(ValueError, match="exactly one <option"):
        dynamics.with_integrator(dynamics.pendulum(), "RK4")
    accel = dynamics.accel_function(dynamics.double_pendulum())
    with pytest.raises(ValueError, match="needs 2 numbers"):
        accel(1.0, 0.0)


# --- the visible checks


def test_visible_checks_pass_correct_functions(capsys):
    """Every check of the lesson prints OK for a correct function."""
    check.explicit_euler(explicit_euler)
    check.semi_implicit_euler(semi_implicit_euler)
    check.implicit_damping(semi_implicit_euler)
    check.rk4(rk4)
    check.stable_timestep(largest_stable_timestep, "Euler")
    check.stable_timestep(largest_stable_timestep, "RK4")
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 6 and all(line.startswith("OK: ") for line in lines)


@pytest.mark.parametrize(
    ("run_check", "wrong", "hint"),
    [
        (check.explicit_euler, mistake("explicit_euler_moves_with_new_velocity", "explicit_euler"),
         "moves with the NEW velocity"),
        (check.semi_implicit_euler,
         mistake("semi_implicit_moves_with_old_velocity", "semi_implicit_euler"),
         "OLD velocity, which is explicit Euler"),
        (check.implicit_damping, mistake("damping_applied_explicitly", "semi_implicit_euler"),
         "same result whatever c_implicit is"),
        (check.implicit_damping,
         mistake("c_implicit_divides_whole_velocity", "semi_implicit_euler"),
         "change of velocity only"),
        (check.rk4, mistake("rk4_equal_stage_weights", "rk4"), "the weight of each slope"),
        (check.rk4, mistake("rk4_half_steps_at_full_h", "rk4"),
         "the time fraction at which each stage"),
        (check.rk4, semi_implicit_euler, "calls accel once"),  # no fixture: a correct Euler step
        (check.stable_timestep, mistake("stability_edge_one_over_w", "largest_stable_timestep"),
         "rule of thumb for accuracy"),
        # no fixture: an edge guessed too large, which no search of the step would give
        (check.stable_timestep, lambda step, w, *a, **k: 3 / w, "too large"),
    ],
    ids=["explicit-is-semi", "semi-is-explicit", "damping-ignored", "damping-misplaced",
         "rk4-weights", "rk4-full-steps", "rk4-is-euler", "edge-1/w", "edge-3/w"],
)  # fmt: skip
def test_visible_checks_name_the_mistake(run_check, wrong, hint):
    """A typical mistake fails its check with a message that names it."""
    with pytest.raises(AssertionError, match=hint):
        run_check(wrong)


def test_steps_that_update_arrays_in_place_pass():
    """A correct step that updates its array arguments in place is not mistaken for wrong."""

    def in_place(x, v, accel, h, c_implicit=0.0):
        x_new, v_new = semi_implicit_euler(x, v, accel, h, c_implicit)
        if not isinstance(x, np.ndarray):
            return x_new, v_new
        x[...], v[...] = x_new, v_new  # the solution's step, written into the arguments
        return x, v

    check.semi_implicit_euler(in_place)
    xml = dynamics.planar_spring((400.0, 900.0), (2.0, 30.0), 1.5, timestep=0.005)
    check.compare_implicit_damping(in_place, xml, 50, [0.1, -0.1], [0.5, 0.0], "a test")


def test_typed_in_euler_edge_fails_for_rk4_and_for_a_damped_spring():
    """2/w typed in passes the lesson's spring under MuJoCo's Euler, not RK4 nor damping."""
    typed = mistake("typed_in_edge_two_over_w", "largest_stable_timestep")
    check.stable_timestep(typed, "Euler")
    with pytest.raises(AssertionError, match="too small: MuJoCo's RK4 is still stable"):
        check.stable_timestep(typed, "RK4")
    with pytest.raises(AssertionError, match="edges of one undamped spring"):
        check.compare_stable_timestep(typed, 900.0, 1.0, "Euler", damping=30.0)


def test_edges_typed_in_by_integrator_pass_only_the_lessons_spring():
    """2/w or 2.83/w chosen by one trial step passes both visible checks, and no step whose
    edge depends on damping or on a second joint."""
    typed = mistake("typed_in_edge_by_integrator", "largest_stable_timestep")
    check.stable_timestep(typed, "Euler")
    check.stable_timestep(typed, "RK4")
    for compare, args in (
        (check.compare_stable_timestep, (900.0, 1.0, "Euler", 60.0)),
        (check.compare_stable_timestep, (900.0, 1.0, "RK4", 150.0)),
        (check.compare_cart_stable_timestep, ((500.0, 900.0), (1.0, 0.1), "Euler")),
    ):
        with pytest.raises(AssertionError, match="edges of one undamped spring"):
            compare(typed, *args)


@pytest.fixture
def grading():
    """Checks as the grader runs them (strict) for one test."""
    expect.grading(True)
    yield
    expect.grading(False)


@pytest.mark.parametrize(
    "run_check",
    [check.explicit_euler, check.semi_implicit_euler, check.implicit_damping, check.rk4,
     check.stable_timestep],
)  # fmt: skip
def test_blank_answers_are_not_checked_yet_in_the_notebook(run_check, capsys):
    """In the notebook a body that is still `pass` (returns None) prints one line and the
    notebook goes on."""
    assert run_check(lambda *args, **kwargs: None) is None
    out = capsys.readouterr().out
    assert out.startswith("… Not checked yet:") and "returned None" in out


@pytest.mark.parametrize(
    "run_check",
    [check.explicit_euler, check.semi_implicit_euler, check.implicit_damping, check.rk4,
     check.stable_timestep],
)  # fmt: skip
def test_blank_answers_fail_while_grading(run_check, grading):
    """In the grader the same blank body raises NotAnswered, which scores nothing."""
    with pytest.raises(expect.NotAnswered, match="returned None"):
        run_check(lambda *args, **kwargs: None)


def test_letter_check_records_a_letter_and_refuses_anything_else(capsys):
    """check.letter: OK for a letter, one line for None, a failure for anything else."""
    check.letter("quiz_halving", "B", 3)
    assert capsys.readouterr().out.startswith('OK: quiz_halving = "B" is recorded')
    check.letter("quiz_halving", None, 3)
    assert capsys.readouterr().out.startswith("… Not checked yet: quiz_halving is None")
    with pytest.raises(expect.CheckFailed, match="one of A, B, C"):
        check.letter("quiz_halving", "D", 3)


def test_hidden_comparisons_show_no_value_and_swallow_warnings():
    """compare_* return None (nbgrader reads a shown number as a partial score), and a correct
    answer that emits warnings passes without letting them out."""

    def noisy_semi(x, v, accel, h, c_implicit=0.0):
        warnings.warn("a learner's own warning", stacklevel=1)
        np.float64(1e308) * 10  # an overflow RuntimeWarning
        return semi_implicit_euler(x, v, accel, h, c_implicit)

    xml = dynamics.pendulum(0.7, 2.0, damping=0.5, timestep=0.005)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert check.compare_implicit_damping(noisy_semi, xml, 20, 0.3, 1.0, "a test") is None
        assert check.compare_stable_timestep(largest_stable_timestep, 900.0, 1.0, "RK4") is None
    assert caught == []
