"""Lesson 02's own tests: its helpers, its visible checks, its claims, its blank run.

- The MuJoCo readers of course/lessons/time_integration/ (dynamics.py) reproduce the facts the
  lesson states (MuJoCo's Euler is the semi-implicit step with implicit damping, its RK4 is
  the classic method, a stiff spring's stability edges, the drop under RK4).
- Every visible check (checks.py) passes a correct function and fails each typical mistake
  with a message that names it, in a block of a few lines, in the notebook and in the
  grader's verdict alike.
- CLAIMS: every factual sentence of the prose that MuJoCo can confirm, beside an assertion
  that confirms it with MuJoCo 4; each sentence must still be in the notebook, word for word.
- The blank release runs top to bottom without an error (Run All on an untouched lesson).

The correct functions are the source notebook's answer cells, executed (support/lesson_code.py),
and the typical mistakes are the fixtures of grader_tests/mistakes/02-time-integration/; the
few wrong answers no fixture holds are written here as broken wrappers, never as a second copy
of a solution.
"""

import math
import subprocess
import sys
import warnings

import lesson_code
import mujoco
import numpy as np
import pytest
import sweep_hidden_cases

from classroom.nbgrader_ext import notebooks
from classroom.nbgrader_ext.verdicts import trusted
from classroom.nbgrader_ext.verdicts.boundary import AnswerProcess
from classroom.nbgrader_ext.verdicts.trusted import split_test
from course import compiled, expect
from course.lessons.time_integration import checks as check
from course.lessons.time_integration import dynamics, pictures

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
    """The two-joint spring's inertia is diagonal, so c_implicit is an array d / m, and the
    solution's step with that array is MuJoCo's Euler to round-off."""
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


REPLICA_CASES = [
    ("Euler", lambda integrator: dynamics.SpringStepper(3.0e4, 0.7, integrator, 40.0)),
    ("RK4", lambda integrator: dynamics.SpringStepper(3.0e4, 0.7, integrator, 300.0)),
    ("Euler", lambda integrator: dynamics.CartStepper((800, 3000), (1.2, 0.4), integrator, (1, 3))),
    ("RK4", lambda integrator: dynamics.CartStepper((800, 3000), (1.2, 0.4), integrator, (1, 3))),
]


REPLICA_IDS = ["spring-Euler", "spring-RK4", "cart-Euler", "cart-RK4"]


@pytest.mark.timeout(60)
@pytest.mark.parametrize("integrator, make", REPLICA_CASES, ids=REPLICA_IDS)
def test_the_graders_replica_steps_as_mujoco_does(integrator, make):
    """What the grader hands largest_stable_timestep in place of a stepper (its formula,
    rebuilt as the answer process rebuilds it) follows MuJoCo's steps to round-off, through
    continued calls, new releases and changes of timestep, and the lesson's own bisection
    finds the same edge with either."""
    from classroom.nbgrader_ext.verdicts import answer_server

    stepper, twin = make(integrator), make(integrator)
    source, name, values = stepper.answer_formula()
    replica = answer_server.formula(source, name, values, numpy=np)
    rng = np.random.default_rng(11)
    got = want = (0.4, -0.2)
    for k in range(400):
        h = float(rng.choice([0.0005, 0.001, 0.003]))
        if k % 97 == 0:  # a new release: other joints at rest again
            got = want = tuple(rng.uniform(-1, 1, 2))
        want, got = twin(*want, None, h), replica(*got, None, h)
        assert got == pytest.approx(want, rel=1e-12, abs=1e-12), k
    with pytest.raises(ValueError, match="single numbers"):
        replica([1.0, 2.0], 0.0, None, 0.001)
    edge = largest_stable_timestep(make(integrator), stepper.w)
    assert largest_stable_timestep(replica, stepper.w) == edge


@pytest.mark.timeout(60)
def test_a_stepper_of_a_model_that_is_not_linear_has_no_replica():
    """A pendulum's gravity torque is not linear in its angle: each step calls back MuJoCo."""
    xml = """<mujoco><option timestep="0.01"><flag autoreset="disable"/></option>
      <worldbody><body><joint type="hinge" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 0 0 -0.5" size="0.02" mass="1"/></body></worldbody>
    </mujoco>"""
    stepper = dynamics.ModelStepper(xml, 4.4, "a pendulum")
    assert stepper.answer_formula() is None


ACCEL_SCENES = {
    "pendulum": dynamics.pendulum(0.7, 2.0),
    "damped pendulum": dynamics.pendulum(0.3, 0.4, damping=1.5, radius=0.05),
    "double pendulum": dynamics.double_pendulum(0.5, 0.3, 1.2, 0.4, damping=(0.1, 0.2)),
    "planar spring": dynamics.planar_spring((300.0, 800.0), (5.0, 20.0), 1.5),
    "spring": dynamics.spring(400.0, 2.0, 3.0),
    "cart and block": dynamics.cart_and_block(damping=(0.1, 0.2)),
}


@pytest.mark.parametrize("scene", ACCEL_SCENES)
def test_accel_formula_is_mj_forwards_qacc_in_numpy(scene):
    """The checks' accel: NumPy (evaluated beside the learner's step in the grader) that
    gives mj_forward's qacc to round-off, Coriolis terms of the double pendulum included."""
    xml = ACCEL_SCENES[scene]
    formula, mujocos = dynamics.accel_formula(xml), dynamics.accel_function(xml)
    assert isinstance(formula, expect.Formula)
    nv = compiled.compile_xml(xml).nv
    rng = np.random.default_rng(7)
    for _ in range(50):
        x, v = rng.uniform(-3, 3, nv), rng.uniform(-8, 8, nv)
        if nv == 1:
            x, v = float(x[0]), float(v[0])
        got, want = formula(x, v), mujocos(x, v)
        assert type(got) is type(want)
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-9)


def test_accel_formula_falls_back_to_mujoco_for_a_model_it_cannot_reproduce():
    """A cart-pole's inertia depends on the pole's angle, which the formula's form (inertia
    varying with a second hinge only) cannot hold: the callback to mj_forward is used."""
    xml = """<mujoco><worldbody><body><joint type="slide" axis="1 0 0"/>
      <geom type="box" size="0.1 0.1 0.1" mass="1"/>
      <body><joint type="hinge" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 0 0 0.5" size="0.02" mass="0.3"/></body></body>
    </worldbody></mujoco>"""
    accel = dynamics.accel_formula(xml)
    assert not isinstance(accel, expect.Formula)
    x, v = np.array([0.1, 0.7]), np.array([0.3, -1.0])
    np.testing.assert_array_equal(accel(x, v), dynamics.accel_function(xml)(x, v))


@pytest.mark.timeout(60)
def test_a_trajectory_beside_the_learners_step_is_the_one_step_by_step():
    """In the grader, the learner's step runs in an answer process: the trajectory driven
    there in one request (NumPy accel) equals the one driven call by call with MuJoCo called
    back, and a step returning one value or None fails with the notebook's messages."""
    xml = ACCEL_SCENES["double pendulum"]
    start = (np.array([1.0, -0.5]), np.array([0.3, 0.0]), 0.004, 60)
    with AnswerProcess(call_timeout=10.0) as answers:
        assert answers.exec_cell(notebooks.solutions(notebooks.read_lesson(LESSON))["rk4"]).ok
        step = answers.function("rk4")
        beside = check._learner_trajectory(step, "rk4", dynamics.accel_formula(xml), *start)
        by_calls = check._learner_trajectory(step, "rk4", dynamics.accel_function(xml), *start)
        np.testing.assert_allclose(np.array(beside), np.array(by_calls), rtol=1e-12, atol=1e-12)
        assert len(beside[0]) == 61
        assert answers.exec_cell("def one(x, v, accel, h):\n    return x\n").ok
        assert answers.exec_cell("def none(x, v, accel, h):\n    pass\n").ok
        formula = dynamics.accel_formula(xml)
        with pytest.raises(AssertionError, match="should return 2 values"):
            check._learner_trajectory(answers.function("one"), "one", formula, *start)
        with pytest.raises(expect.NotAnswered, match="none returned None"):
            check._learner_trajectory(answers.function("none"), "none", formula, *start)


@pytest.mark.timeout(60)
def test_an_rk4_that_shortens_the_checks_loop_fails_its_verdict():
    """The solution's rk4, plus a reach into the loop that drives it in the answer process
    (its recorded states cut to one): the comparison with mj_step, which would have nothing
    left to compare, fails instead."""
    cutting = (
        "import sys\n_rk4 = rk4\n\n\ndef rk4(x, v, accel, h):\n"
        "    for name in ('xs', 'vs'):\n        del sys._getframe(1).f_locals[name][1:]\n"
        "    return _rk4(x, v, accel, h)\n"
    )
    xml = dynamics.double_pendulum(timestep=0.004, integrator="RK4")
    with AnswerProcess(call_timeout=10.0) as answers:
        assert answers.exec_cell(notebooks.solutions(notebooks.read_lesson(LESSON))["rk4"]).ok
        check.compare_rk4(answers.function("rk4"), xml, 30, (1.0, -0.5), (0.0, 0.0), "it")
        assert answers.exec_cell(cutting).ok
        with pytest.raises(AssertionError, match="came back altered"):
            check.compare_rk4(answers.function("rk4"), xml, 30, (1.0, -0.5), (0.0, 0.0), "it")


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
        with lesson_code.as_graded():
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
         "OLD velocity, the one it was given"),
        (check.implicit_damping,
         mistake("semi_implicit_moves_with_old_velocity", "semi_implicit_euler"),
         "OLD velocity, the one it was given"),
        (check.semi_implicit_euler, mistake("position_with_old_velocity", "semi_implicit_euler"),
         "OLD velocity, the one it was given"),
        (check.implicit_damping, mistake("position_with_old_velocity", "semi_implicit_euler"),
         "OLD velocity, the one it was given"),
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
    ids=["explicit-is-semi", "semi-is-explicit", "semi-is-explicit-damped", "position-first",
         "position-first-damped", "damping-ignored", "damping-misplaced",
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


# The checks that take one function to test; a blank body (`pass`) returns None.
BLANK_CHECKS = [
    check.explicit_euler,
    check.semi_implicit_euler,
    check.implicit_damping,
    check.rk4,
    check.stable_timestep,
]


@pytest.mark.parametrize("run_check", BLANK_CHECKS)
def test_blank_answers_are_not_checked_yet_in_the_notebook(run_check, capsys):
    """In the notebook a body that is still `pass` (returns None) prints one line and the
    notebook goes on."""
    assert run_check(lambda *args, **kwargs: None) is None
    out = capsys.readouterr().out
    assert out.startswith("… Not checked yet:") and "returned None" in out


@pytest.mark.parametrize("run_check", BLANK_CHECKS)
def test_blank_answers_fail_while_grading(run_check, strict):
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


# --------------------------------------------------------------------------------------------
# The old velocity, named where it is the mistake: in the notebook and in the grader's verdict

OLD_VELOCITY = "OLD velocity, the one it was given"
OLD_VELOCITY_FIXTURES = ("semi_implicit_moves_with_old_velocity", "position_with_old_velocity")
SEMI_IMPLICIT_TESTS = (
    "semi_implicit_euler_matches_mj_step",
    "semi_implicit_euler_implicit_damping",
)


@pytest.mark.parametrize("fixture", OLD_VELOCITY_FIXTURES)
@pytest.mark.parametrize("run_check", [check.semi_implicit_euler, check.implicit_damping])
def test_old_velocity_is_named_in_the_notebook_block(fixture, run_check):
    """Both semi-implicit checks show one short block naming the old velocity, and the damped
    one does not blame c_implicit, which these steps use as MuJoCo does."""
    with pytest.raises(expect.CheckFailed) as failed:
        run_check(mistake(fixture, "semi_implicit_euler"))
    block = "\n".join(failed.value._render_traceback_())
    assert OLD_VELOCITY in " ".join(block.split())
    assert "c_implicit" not in block
    assert len(block.splitlines()) <= 8


def _trusted_lesson():
    """The lesson as the grader's trusted side reads it from the gradebook, here from source/."""
    return sweep_hidden_cases.trusted_lesson(notebooks.read_lesson(LESSON))


@pytest.mark.parametrize("fixture", OLD_VELOCITY_FIXTURES)
def test_old_velocity_is_named_in_the_graders_verdict(fixture, strict):
    """Graded across the boundary (the fixture's functions in a NumPy-only answer process),
    both semi-implicit tests fail with the old-velocity hint, not a c_implicit one."""
    lesson = _trusted_lesson()
    cells = {m.name: m for m in notebooks.load_mistakes(LESSON)}[fixture].cells
    answers_code = {**notebooks.solutions(notebooks.read_lesson(LESSON)), **cells}
    with AnswerProcess(call_timeout=10.0) as answers:
        for gid in ("explicit_euler", "semi_implicit_euler", "rk4", "largest_stable_timestep"):
            assert answers.exec_cell(answers_code[gid]).ok
        base = trusted.setup_namespace(lesson)
        for gid in SEMI_IMPLICIT_TESTS:
            verdict = trusted.run_test(lesson, gid, base, answers)
            assert (verdict.passed, verdict.visible) == (False, "failed"), gid
            assert OLD_VELOCITY in " ".join(verdict.evalue.split()), (gid, verdict.evalue)
            assert "c_implicit" not in verdict.evalue, (gid, verdict.evalue)


# --------------------------------------------------------------------------------------------
# A wrong explicit_euler (the lesson's first function) shows a short block in the notebook


def _typo_cell():
    return "def explicit_euler(x, v, accel, h):\n    return x + h * vv, v + h * accel(x, v)\n"


WRONG_EXPLICIT = {
    "moves with the new velocity": ("explicit_euler = wrong", "moves with the NEW velocity"),
    "velocity update doubled": (
        "def explicit_euler(x, v, accel, h):\n    return x + h * v, v + 2 * h * accel(x, v)\n",
        "The velocity is wrong already",
    ),
    "velocity never updated": (
        "def explicit_euler(x, v, accel, h):\n    return x + h * v, v\n",
        "The velocity is wrong already",
    ),
    "one value returned": (
        "def explicit_euler(x, v, accel, h):\n    return x + h * v\n",
        "should return 2 values",
    ),
    "a typo": (_typo_cell(), "line 2 of your cell: return x + h * vv"),
}


@pytest.fixture(scope="module")
def shell():
    """An IPython shell, as the notebook's kernel shows a failed check (no browser)."""
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    yield shell
    InteractiveShell.clear_instance()


@pytest.mark.parametrize("case", WRONG_EXPLICIT, ids=list(WRONG_EXPLICIT))
def test_a_wrong_explicit_euler_shows_at_most_eight_lines(case, shell):
    """Typed into the notebook, a wrong explicit_euler fails its check with one block of at
    most 8 lines (message, likely mistake, no traceback through course code), hint included."""
    from IPython.utils.capture import capture_output

    cell, hint = WRONG_EXPLICIT[case]
    wrong = mistake("explicit_euler_moves_with_new_velocity", "explicit_euler")
    shell.user_ns.update(check=check, wrong=wrong)
    with capture_output() as shown:
        shell.run_cell(cell)
        result = shell.run_cell("check.explicit_euler(explicit_euler)")
    assert isinstance(result.error_in_exec, expect.CheckFailed)
    lines = [line for line in shown.stdout.strip().splitlines() if line.strip()]
    assert lines[0].startswith("✗ ") and len(lines) <= 8, shown.stdout
    assert hint in " ".join(" ".join(lines).split()), shown.stdout
    assert "Traceback" not in shown.stdout and "course/" not in shown.stdout


def test_a_correct_explicit_euler_shows_one_ok_line(shell):
    from IPython.utils.capture import capture_output

    shell.user_ns.update(check=check, explicit_euler=explicit_euler)
    with capture_output() as shown:
        shell.run_cell("check.explicit_euler(explicit_euler)")
    assert shown.stdout.count("\n") == 1 and shown.stdout.startswith("OK: ")


# --------------------------------------------------------------------------------------------
# Run All on the blank release


def test_blank_release_runs_to_the_end(tmp_path):
    """The untouched release runs top to bottom with no error; every cell that needs an
    unwritten function says so in one line, and the experiments that need none still run."""
    nb = notebooks.read_lesson(LESSON, "release")
    lesson_code.run_notebook(nb, tmp_path, timeout=120, kernel_name="python3")
    outputs = [o for cell in nb.cells for o in cell.get("outputs", [])]
    assert [o for o in outputs if o.output_type == "error"] == []
    text = "\n".join(o.get("text", "") for o in outputs if o.output_type == "stream")
    assert "Not checked yet" in text and "Write `semi_implicit_euler` above" in text
    assert "mj_step                          v = [0.4235 0.8649]" in text  # no learner code
    assert "h = 1.0 × 2/w: largest |x| after 400 steps 801 m" in text
    assert not [o for o in outputs if o.output_type == "stream" and o.name == "stderr"]


# --------------------------------------------------------------------------------------------
# The lesson's claims, each confirmed with MuJoCo


PROSE = lesson_code.prose(LESSON)
K, W = 1e4, 100.0  # the stiff spring of Break it: 1 kg, w = 100 rad/s


def _spring_matrix(h, integrator="Euler", w=W):
    """The 2x2 matrix by which MuJoCo's step of an undamped spring maps (x, v)."""
    step = dynamics.SpringStepper(w**2, 1.0, integrator)
    return np.array([step(1.0, 0.0, None, h), step(0.0, 1.0, None, h)]).T


def _explicit_matrix(h, w=W):
    """The same for explicit Euler, built from MuJoCo's pieces (mj_step's velocity update,
    mj_integratePos with the old velocity)."""
    model = compiled.compile_xml(dynamics.spring(w**2, 1.0, 0.0, h))
    columns = []
    for x0, v0 in ((1.0, 0.0), (0.0, 1.0)):
        positions, velocities = dynamics.old_velocity_trajectory(model, 1, x0, v0)
        columns.append((positions[1, 0], velocities[1, 0]))
    return np.array(columns).T


def _pendulum_energy(integrator, h, seconds, start=1.0):
    xml = dynamics.pendulum(0.5, 1.0, timestep=h, integrator=integrator)
    positions, velocities = dynamics.trajectory(xml, int(round(seconds / h)), start, 0.0)
    return dynamics.energies(xml, positions, velocities)


def _spring_peak(factor, steps):
    run = dynamics.spring_run(K, 1.0, factor * 2 / W, "Euler", steps=steps, autoreset=False)
    return np.maximum.accumulate(np.abs(run.positions))


def _default_jump_is_semi_implicit_euler():
    model = compiled.compile_xml("<mujoco><worldbody><body><joint/><geom size='.1'/></body>"
                                 "</worldbody></mujoco>")  # fmt: skip
    assert model.opt.integrator == mujoco.mjtIntegrator.mjINT_EULER
    test_euler_is_the_semi_implicit_step_on_a_pendulum()


def _stiff_spring_passes_a_million_metres_within_a_second():
    run = dynamics.spring_run(K, 1.0, 0.0205, "Euler", steps=48, autoreset=False)  # 0.98 s
    assert run.largest > 1e6


def _neither_setting_is_an_error():
    for integrator in ("Euler", "RK4", "implicit", "implicitfast", "discrete"):
        model = compiled.compile_xml(dynamics.spring(K, 1.0, 0.0, 0.5, integrator))
        data = mujoco.MjData(model)
        data.qpos[0] = 1.0
        with dynamics.quiet_warnings():
            for _ in range(50):
                mujoco.mj_step(model, data)  # no exception, however bad the timestep


def _explicit_euler_multiplies_a_springs_energy():
    for h in (0.001, 0.005, 0.0205):
        xml = dynamics.spring(K, 1.0, 0.0, h)
        for x0, v0 in ((1.0, 0.0), (0.3, -20.0)):
            positions, velocities = dynamics.old_velocity_trajectory(xml, 1, x0, v0)
            before, after = dynamics.energies(xml, positions, velocities)
            assert after / before == pytest.approx(1 + (h * W) ** 2, rel=1e-9)


def _energy_in_a_band_and_rk4_loses_a_little():
    euler = _pendulum_energy("Euler", 0.01, 50.0)
    error = np.abs(euler - euler[0])
    first, last = error[:500].max(), error[-500:].max()
    assert last == pytest.approx(first, rel=0.05)  # a band: as wide after 45 s as in the first 5
    rk4_energy = _pendulum_energy("RK4", 0.01, 5.0)
    assert -1e-6 < rk4_energy[-1] - rk4_energy[0] < 0


def _complex_pair_on_the_unit_circle_below_the_edge():
    for hw in (0.5, 1.5, 1.99, 1.9999):
        eigenvalues = np.linalg.eigvals(_spring_matrix(hw / W))
        assert np.all(np.abs(eigenvalues.imag) > 0)
        np.testing.assert_allclose(np.abs(eigenvalues), 1.0, rtol=1e-9)
        assert dynamics.stays_bounded(K, 1.0, hw / W, steps=5000, bound=1e3)


def _at_the_edge_minus_one_and_linear_growth():
    matrix = _spring_matrix(2 / W)
    np.testing.assert_allclose(np.linalg.eigvals(matrix), [-1.0, -1.0], atol=1e-6)
    assert not np.allclose(matrix, -np.eye(2))  # -1 twice, yet not a rotation
    peaks = _spring_peak(1.0, 100000)
    assert (peaks[10], peaks[1000], peaks[100000]) == (21.0, 2001.0, 200001.0)  # 2n + 1


def _above_the_edge_real_eigenvalues_and_geometric_growth():
    for hw in (2.0002, 2.05, 3.0):
        eigenvalues = np.linalg.eigvals(_spring_matrix(hw / W))
        assert np.all(eigenvalues.imag == 0) and np.max(np.abs(eigenvalues)) > 1
        assert np.prod(eigenvalues) == pytest.approx(1.0, rel=1e-9)
    growth = np.max(np.abs(np.linalg.eigvals(_spring_matrix(2.05 / W))))
    run = dynamics.spring_run(K, 1.0, 0.0205, "Euler", steps=40, autoreset=False)
    assert abs(run.positions[40] / run.positions[20]) == pytest.approx(growth**20, rel=1e-3)


def _rk4_edge_is_two_root_two():
    assert dynamics.stays_bounded(K, 1.0, 0.0282, "RK4")
    assert not dynamics.stays_bounded(K, 1.0, 0.0284, "RK4")
    below = np.max(np.abs(np.linalg.eigvals(_spring_matrix(2 * np.sqrt(2) * 0.9999 / W, "RK4"))))
    above = np.max(np.abs(np.linalg.eigvals(_spring_matrix(2 * np.sqrt(2) * 1.0001 / W, "RK4"))))
    assert below <= 1 < above


def _state_is_qpos_and_qvel():
    model = compiled.compile_xml(dynamics.double_pendulum())
    size = mujoco.mj_stateSize(model, mujoco.mjtState.mjSTATE_PHYSICS)
    assert size == model.nq + model.nv == 4


def _acceleration_includes_every_force():
    xml = dynamics.planar_spring((400.0, 900.0), (2.0, 30.0), 1.5)
    x, v = np.array([0.1, -0.2]), np.array([0.5, 1.0])
    want = (-np.array([400.0, 900.0]) * x - np.array([2.0, 30.0]) * v) / 1.5 + [0.0, -9.81]
    np.testing.assert_allclose(dynamics.accel_function(xml)(x, v), want, rtol=1e-12)


def _orders_one_one_and_four():
    def error(trajectory, h):
        return abs(trajectory[int(round(1.0 / h)), 0] - reference)

    fine = dynamics.pendulum(0.5, 1.0, timestep=1e-4, integrator="RK4")
    reference = dynamics.trajectory(fine, 10000, 1.0, 0.0)[0][-1, 0]
    ratios = {}
    for name, integrator, h in (("Euler", "Euler", 0.01), ("explicit", "Euler", 0.01),
                                ("RK4", "RK4", 0.04)):  # fmt: skip
        errors = []
        for step in (h, h / 2):
            xml = dynamics.pendulum(0.5, 1.0, timestep=step, integrator=integrator)
            steps = int(round(1.0 / step))
            run = dynamics.old_velocity_trajectory if name == "explicit" else dynamics.trajectory
            errors.append(error(run(xml, steps, 1.0, 0.0)[0], step))
        ratios[name] = errors[0] / errors[1]
    assert 1.7 < ratios["Euler"] < 2.3 and 1.7 < ratios["explicit"] < 2.3
    assert 12 < ratios["RK4"] < 20


def _a_springs_step_is_one_fixed_matrix():
    matrix = _spring_matrix(0.0205)
    step = dynamics.SpringStepper(K, 1.0, "Euler")
    for state in ((0.3, -2.0), (-1.5, 40.0)):
        np.testing.assert_allclose(step(*state, None, 0.0205), matrix @ state, rtol=1e-12)


def _euler_damping_is_implicit():
    test_euler_damping_is_implicit_with_rate_d_over_m()


def _rk4_is_classic_and_explicit_with_four_evaluations():
    xml = dynamics.pendulum(0.6, 2.0, damping=0.8, timestep=0.01, integrator="RK4")
    positions, _ = dynamics.trajectory(xml, 100, 1.0, 2.0)
    accel = dynamics.accel_function(xml)
    calls = []

    def counted(x, v):
        calls.append(1)
        return accel(x, v)

    ours = run_steps(rk4, counted, 1.0, 2.0, 0.01, 100)
    assert np.max(np.abs(ours - positions)) <= 1e-13 and len(calls) == 400


def _velocity_dependent_forces_implicit():
    damped = dynamics.pendulum(0.5, 1.0, damping=0.3, timestep=0.01)
    euler, _ = dynamics.trajectory(damped, 200, 1.0, 2.0)
    for integrator in ("implicit", "implicitfast"):
        theirs, _ = dynamics.trajectory(dynamics.with_integrator(
            damped.replace('integrator="Euler" ', ""), integrator), 200, 1.0, 2.0)  # fmt: skip
        np.testing.assert_allclose(theirs, euler, atol=1e-12)
    motor = (
        '<mujoco><option timestep="0.01" integrator="{}"/><worldbody><body>'
        '<joint name="s" type="slide" axis="1 0 0"/><geom size=".05" mass="1"/></body>'
        '</worldbody><actuator><velocity joint="s" kv="250"/></actuator></mujoco>'
    )
    _, explicit = dynamics.trajectory(motor.format("Euler"), 5, 0.0, 1.0)
    assert explicit[-1, 0] == pytest.approx((1 - 2.5) ** 5)  # Euler: the gain is explicit
    for integrator in ("implicit", "implicitfast"):
        _, velocities = dynamics.trajectory(motor.format(integrator), 5, 0.0, 1.0)
        assert velocities[-1, 0] == pytest.approx(1 / 3.5**5)  # implicit: v / (1 + h kv / m)


def _implicitfast_skips_coriolis_derivatives():
    runs = {}
    for integrator in ("Euler", "implicit", "implicitfast"):
        xml = dynamics.double_pendulum(timestep=0.005, integrator=integrator)
        runs[integrator] = dynamics.trajectory(xml, 200, [1.0, -0.5], [2.0, 3.0])[0]
    assert np.array_equal(runs["implicitfast"], runs["Euler"])  # no damping: nothing implicit
    assert np.max(np.abs(runs["implicit"] - runs["Euler"])) > 0.1  # Coriolis derivatives


def _discrete_treats_stiffness_and_damping_implicitly():
    k, d, h = K, 30.0, 0.01
    positions, velocities = dynamics.trajectory(dynamics.spring(k, 1.0, d, h, "discrete"), 1,
                                                1.0, 0.5)  # fmt: skip
    # (M + hD + h^2 K) dv = h f, the spring's force taken at the end of the step
    dv = h * (-k * 1.0 - d * 0.5 - h * k * 0.5) / (1.0 + h * d + h * h * k)
    assert velocities[1, 0] == pytest.approx(0.5 + dv, rel=1e-12)
    assert positions[1, 0] == pytest.approx(1.0 + h * (0.5 + dv), rel=1e-12)


def _mj_forward_passes_no_time_and_mj_step_integrates():
    model = compiled.compile_xml(dynamics.pendulum(timestep=0.01))
    data = mujoco.MjData(model)
    data.qpos[0], data.qvel[0] = 1.0, 2.0
    mujoco.mj_forward(model, data)
    qacc = data.qacc[0]
    assert (data.time, data.qpos[0], data.qvel[0]) == (0.0, 1.0, 2.0)
    mujoco.mj_step(model, data)
    assert data.time == pytest.approx(0.01)
    assert data.qvel[0] == pytest.approx(2.0 + 0.01 * qacc, rel=1e-14)
    assert data.qpos[0] == pytest.approx(1.0 + 0.01 * data.qvel[0], rel=1e-14)


def _energy_flag_fills_data_energy():
    xml = dynamics.pendulum(0.5, 1.0, timestep=0.01)
    for flagged in (True, False):
        text = xml if flagged else xml.replace('<flag energy="enable"/>', "")
        model = compiled.compile_xml(text)
        data = mujoco.MjData(model)
        data.qpos[0], data.qvel[0] = 1.0, 2.0
        mujoco.mj_forward(model, data)
        if flagged:
            inertia = dynamics.joint_inertia(xml)[0, 0]
            want = (-1.0 * 9.81 * 0.5 * np.cos(1.0), 0.5 * inertia * 4.0)
            np.testing.assert_allclose(data.energy, want, rtol=1e-12)
        else:
            assert not data.energy.any()


def _height_measured_from_the_hinge():
    xml = dynamics.pendulum(0.5, 1.0, timestep=0.01)
    level, one_rad = dynamics.energies(xml, [np.pi / 2, 1.0], [0.0, 0.0])
    assert abs(level) < 1e-12 and one_rad == pytest.approx(-9.81 * 0.5 * np.cos(1.0))


def _mujoco_has_no_explicit_euler():
    xml = dynamics.pendulum(0.5, 1.0, timestep=0.01)
    explicit, _ = dynamics.old_velocity_trajectory(xml, 50, 1.0, 0.0)
    for integrator in ("Euler", "RK4", "implicit", "implicitfast", "discrete"):
        xml_i = dynamics.with_integrator(xml.replace('integrator="Euler" ', ""), integrator)
        theirs, _ = dynamics.trajectory(xml_i, 50, 1.0, 0.0)
        assert np.max(np.abs(theirs - explicit)) > 1e-4, integrator


def _explicit_euler_from_mujocos_pieces():
    test_old_velocity_trajectory_is_explicit_euler()


def _damping_torque_is_minus_d_v():
    model = compiled.compile_xml(dynamics.pendulum(damping=0.3))
    data = mujoco.MjData(model)
    data.qpos[0], data.qvel[0] = 0.4, 2.0
    mujoco.mj_forward(model, data)
    assert data.qfrc_damper[0] == pytest.approx(-0.6)
    undamped = dynamics.accel_function(dynamics.pendulum())(0.4, 2.0)
    inertia = dynamics.joint_inertia(dynamics.pendulum())[0, 0]
    assert data.qacc[0] - undamped == pytest.approx(-0.3 / inertia * 2.0, rel=1e-12)


def _explicit_damping_overshoots_then_grows():
    for hc, factor in ((0.5, 0.5), (1.5, -0.5), (2.5, -1.5)):
        xml = dynamics.spring(0.0, 1.0, hc / 0.01, 0.01)
        explicit = xml.replace("<flag ", '<flag eulerdamp="disable" ')
        _, velocities = dynamics.trajectory(explicit, 4, 0.0, 1.0)
        np.testing.assert_allclose(velocities[:, 0], factor ** np.arange(5), rtol=1e-12)
        _, implicit = dynamics.trajectory(xml, 4, 0.0, 1.0)  # MuJoCo's Euler: 1 / (1 + hc)
        np.testing.assert_allclose(implicit[:, 0], (1 + hc) ** -np.arange(5.0), rtol=1e-12)


def _coupled_joints_need_the_whole_matrix():
    h, damping = 0.005, np.array([2.0, 1.0])
    xml = dynamics.double_pendulum(timestep=h, damping=damping)
    accel = dynamics.accel_function(xml)
    rng = np.random.default_rng(2)
    states = [(np.array([1.0, -0.5]), np.array([0.5, 1.0]))]
    states += [(rng.uniform(-2, 2, 2), rng.uniform(-3, 3, 2)) for _ in range(3)]
    for q, v in states:
        inertia = dynamics.joint_inertia(xml, q)
        _, velocities = dynamics.trajectory(xml, 1, q, v)
        dv = np.linalg.solve(inertia + h * np.diag(damping), h * inertia @ accel(q, v))
        np.testing.assert_allclose(velocities[1], v + dv, rtol=1e-12, atol=1e-14)
    q, v = states[0]
    inertia = dynamics.joint_inertia(xml, q)
    assert abs(inertia[0, 1]) > 0.04  # the joints push on each other
    assert not np.isclose(dynamics.joint_inertia(xml, [1.0, 1.5])[0, 1], inertia[0, 1])
    _, per_joint = semi_implicit_euler(q, v, accel, h, damping / np.diag(inertia))
    _, velocities = dynamics.trajectory(xml, 1, q, v)
    assert per_joint.round(4).tolist() == [0.4367, 0.8426]  # issue 13's figures
    assert velocities[1].round(4).tolist() == [0.4235, 0.8649]


def _diagonal_inertia_rates_are_exact():
    test_planar_spring_has_two_independent_damping_rates()


def _pendulum_inertia_is_ml2_plus_two_fifths_mr2():
    inertia = dynamics.joint_inertia(dynamics.pendulum(0.5, 1.0, radius=0.02))[0, 0]
    assert inertia == pytest.approx(1.0 * 0.5**2 + 0.4 * 1.0 * 0.02**2, rel=1e-12)


def _spring_stepper_is_one_mj_step():
    test_spring_stepper_is_mujocos_step_and_finds_the_edges()


def _hidden_edges_are_not_the_lessons():
    for _, stepper, found in _hidden_stability_cases():
        for typed in (2.0, 2 * np.sqrt(2)):
            assert abs(found * stepper.w - typed) > 0.1 * typed, stepper


def _explicit_matrix_and_its_determinant():
    for h in (0.001, 0.0195):
        matrix = _explicit_matrix(h)
        np.testing.assert_allclose(matrix, [[1, h], [-h * W**2, 1]], rtol=1e-12)
        assert np.linalg.det(matrix) == pytest.approx(1 + (h * W) ** 2, rel=1e-12)


def _semi_implicit_matrix_has_determinant_one():
    for h in (0.001, 0.0195, 0.0205, 0.05):  # below and above the edge alike
        matrix = _spring_matrix(h)
        np.testing.assert_allclose(matrix, [[1 - (h * W) ** 2, h], [-h * W**2, 1]], rtol=1e-12)
        assert np.linalg.det(matrix) == pytest.approx(1.0, rel=1e-12)
        assert np.trace(matrix) == pytest.approx(2 - (h * W) ** 2, rel=1e-12)
    assert not dynamics.stays_bounded(K, 1.0, 0.0205)


def _explicit_euler_gains_energy_and_swings_higher():
    xml = dynamics.pendulum(0.5, 1.0, timestep=0.01)
    positions, velocities = dynamics.old_velocity_trajectory(xml, 500, 1.0, 0.0)
    energy = dynamics.energies(xml, positions, velocities)
    assert energy[0] < energy[250] < energy[500]
    assert np.max(np.abs(positions[400:])) > 1.4  # released from 1 rad


def _halving_halves_euler_and_divides_rk4_by_sixteen():
    for integrator, low, high in (("Euler", 1.7, 2.3), ("RK4", 12.0, 20.0)):
        errors = []
        for h in (0.01, 0.005):
            energy = _pendulum_energy(integrator, h, 2.0, start=2.0)
            errors.append(np.max(np.abs(energy - energy[0])))
        assert low < errors[0] / errors[1] < high, integrator


def _stiff_spring_oscillates_at_100_rad_s():
    xml = dynamics.spring(K, 1.0, 0.0, 1e-4, "RK4")
    positions, _ = dynamics.trajectory(xml, 2000, 1.0, 0.0)  # 0.2 s, about three periods
    crossings = np.flatnonzero(np.diff(np.sign(positions[:, 0])))
    period = 2 * np.mean(np.diff(crossings)) * 1e-4
    assert 2 * np.pi / period == pytest.approx(np.sqrt(K / 1.0), rel=1e-3)


def _blow_up_warns_logs_and_resets(tmp_path):
    script = (
        "import mujoco\n"
        "from course import compiled\n"
        "from course.lessons.time_integration import dynamics\n"
        "model = compiled.compile_xml(dynamics.spring(1e4, 1.0, 0.0, 0.0205))\n"
        "data = mujoco.MjData(model)\n"
        "data.qpos[0] = 1.0\n"
        "for _ in range(100):\n"
        "    mujoco.mj_step(model, data)\n"
        "print(data.warning[mujoco.mjtWarning.mjWARN_BADQACC].number, data.qpos[0], "
        "data.qvel[0], data.time < 100 * 0.0205)\n"
    )
    root = str(notebooks.ROOT)
    run = subprocess.run(
        [sys.executable, "-c", script],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PYTHONPATH": root, "PATH": "/usr/bin"},
    )
    assert run.returncode == 0, run.stderr  # no exception
    assert run.stdout.split() == ["1", "0.0", "0.0", "True"]  # counted, reset, clock restarted
    assert "Nan, Inf or huge value in QACC" in run.stderr  # one line on stderr
    assert "Nan, Inf or huge value in QACC" in (tmp_path / "MUJOCO_LOG.TXT").read_text()


def _below_the_edge_bounded_but_past_the_release():
    run = dynamics.spring_run(K, 1.0, 0.0195, "Euler", steps=10000)
    assert run.blowups == 0
    assert run.largest == pytest.approx(1 / np.sqrt(1 - 0.975**2), rel=1e-3) and run.largest > 1


def _the_check_is_for_huge_accelerations():
    run = dynamics.spring_run(K, 1.0, 0.0205, "Euler", steps=100, autoreset=False)
    reset = dynamics.spring_run(K, 1.0, 0.0205, "Euler", steps=100)
    first = int(np.argmax(reset.positions == 0.0))  # the step after which the state was reset
    huge = K * np.abs(run.positions)  # |qacc| = k |x| / m
    assert huge[first - 1] > mujoco.mjMAXVAL > huge[first - 2]
    assert f"{abs(reset.positions[first - 1]):.3g}" == "1.16e+06"


def _reset_to_rest_and_carries_on():
    run = dynamics.spring_run(K, 1.0, 0.0205, "Euler", steps=1000)
    assert run.blowups == 1 and run.positions[-1] == 0.0
    assert run.time_s < 1000 * 0.0205 - 0.5  # the clock restarted at the reset, 29 steps in


def _implicit_integrators_treat_the_spring_explicitly():
    for h in (0.0195, 0.0205):
        euler = dynamics.spring_run(K, 1.0, h, "Euler", steps=200, autoreset=False).positions
        for integrator in ("implicit", "implicitfast"):
            theirs = dynamics.spring_run(K, 1.0, h, integrator, steps=200, autoreset=False)
            np.testing.assert_allclose(theirs.positions, euler, rtol=1e-12)
    damped = dynamics.SpringStepper(K, 1.0, "implicitfast", damping=60.0)
    assert damped(1.0, 0.0, None, 0.01) == dynamics.SpringStepper(K, 1.0, "Euler", 60.0)(
        1.0, 0.0, None, 0.01)  # fmt: skip


def _discrete_bounded_at_every_timestep_and_damps():
    for h in np.logspace(-4, 1, 11):
        assert dynamics.stays_bounded(K, 1.0, float(h), "discrete")
    positions = dynamics.spring_run(K, 1.0, 0.0195, "discrete", steps=20).positions
    assert positions[1] == pytest.approx(1 - 3.8025 / 4.8025, rel=1e-12)  # 0.208
    assert np.max(np.abs(positions[5:])) < 0.02


def _damping_cures_eulers_edge_not_rk4s():
    h = 5 / W  # five times past the edge of the undamped spring
    for integrator in ("Euler", "implicit", "implicitfast"):
        stiff = dynamics.SpringStepper(K, 1.0, integrator, damping=0.0)
        damped = dynamics.SpringStepper(K, 1.0, integrator, damping=2 * 2.0 * W)  # zeta = 2
        assert not stiff.stays_bounded(h) and damped.stays_bounded(h)
    for zeta, low, high in ((0.2, 2.83, 3.0), (2.0, 0.0, 1.0)):
        stepper = dynamics.SpringStepper(K, 1.0, "RK4", damping=2 * zeta * W)
        assert low < largest_stable_timestep(stepper, W) * W < high


def _semi_implicit_and_mujoco_agree_on_the_edge():
    mujocos = largest_stable_timestep(dynamics.SpringStepper(K, 1.0, "Euler"), W)
    assert largest_stable_timestep(semi_implicit_euler, W) == mujocos
    assert f"{mujocos * W:.4f}" == "1.9999"
    # near the edge the swing levels off at 1 / sqrt(1 - (h w / 2)^2): above 100 past this point
    leveling_edge = 2 * np.sqrt(1 - 1 / 100**2)
    assert leveling_edge - 1e-4 <= mujocos * W <= leveling_edge < 2


def _rk4_bisection_overshoots_slowly():
    edge = largest_stable_timestep(dynamics.SpringStepper(K, 1.0, "RK4"), W)
    growth = np.max(np.abs(np.linalg.eigvals(_spring_matrix(edge, "RK4"))))
    assert edge * W > 2 * np.sqrt(2) and 1 < growth < 100 ** (1 / 1000)


def _explicit_euler_amplifies_at_every_timestep():
    for hw in (0.01, 0.1, 1.0):
        radius = np.max(np.abs(np.linalg.eigvals(_explicit_matrix(hw / W))))
        assert radius == pytest.approx(np.sqrt(1 + hw**2), rel=1e-9) and radius > 1
    short = largest_stable_timestep(explicit_euler, W)
    assert largest_stable_timestep(explicit_euler, W, n_steps=10000) < short / 2


def _below_stable_at_not():
    assert dynamics.stays_bounded(K, 1.0, 0.9999 * 2 / W, steps=20000)
    assert not dynamics.stays_bounded(K, 1.0, 2 / W)


def _levels_off_below_and_geometric_above():
    below = _spring_peak(0.9999, 4000)
    assert below[400] == pytest.approx(below[4000], rel=1e-6)
    assert below[400] == pytest.approx(1 / np.sqrt(1 - 0.9999**2), rel=1e-4)
    above = _spring_peak(1.0001, 400)
    assert above[400] / above[300] == pytest.approx(above[300] / above[200], rel=0.05)
    assert above[400] / above[300] > 10


def _fastest_vibration_sets_the_timestep():
    test_cart_edge_is_set_by_its_stiffer_mode()

    def stable(h):
        planar = dynamics.planar_spring((400.0, 900.0), (0.0, 0.0), 1.0, timestep=h, gravity=0.0)
        positions, _ = dynamics.trajectory(planar, 1000, [0.1, 0.1], [0.0, 0.0])
        return bool(np.all(np.abs(positions) <= 10.0))

    assert stable(0.999 * 2 / 30) and not stable(1.001 * 2 / 30)


def _drop_lands_at_step_143_and_analytic_time():
    assert dynamics.cube_landing("Euler").step == 143
    assert f"{np.sqrt(2 * 0.40 / 9.81):.4f}" == "0.2856"


def _euler_runs_half_a_step_ahead_rk4_exact():
    for h in (0.002, 0.01):
        analytic = np.sqrt(2 * 0.40 / 9.81)
        early = analytic - dynamics.cube_landing("Euler", timestep=h).time_s
        assert early == pytest.approx(h / 2, rel=0.01)
        assert abs(dynamics.cube_landing("RK4", timestep=h).time_s - analytic) < 5e-5


def _euler_and_rk4_free_fall_positions():
    from course import falls

    for integrator in ("Euler", "RK4"):
        xml = dynamics.with_integrator(falls.shape_drop("box", (0.1,) * 3, 1.0, 0.0, 0.01),
                                       integrator)  # fmt: skip
        model = compiled.compile_xml(xml)
        data = mujoco.MjData(model)
        start, heights = data.qpos[2], []
        for _ in range(30):
            mujoco.mj_step(model, data)
            heights.append(data.qpos[2] - start)
        k = np.arange(1, 31)
        exact = -9.81 * (0.01 * k) ** 2 / 2
        want = -9.81 * 0.01**2 * k * (k + 1) / 2 if integrator == "Euler" else exact
        np.testing.assert_allclose(heights, want, rtol=1e-10)


def _air_delay_nearly_unchanged_by_rk4():
    delays = []
    for integrator in ("Euler", "RK4"):
        light = dynamics.cube_landing(integrator, mass=0.1, air_density=1.2).time_s
        heavy = dynamics.cube_landing(integrator, mass=1.0, air_density=1.2).time_s
        delays.append(1000 * (light - heavy))
    assert [f"{d:.2f}" for d in delays] == ["4.08", "4.13"]  # while each lands 1 ms apart


def _stiff_fix_choices():
    test_check_yourself_stiff_spring_facts()


def _blow_up_no_exception_no_nan():
    run = dynamics.spring_run(K, 1.0, 0.0205, "Euler", steps=1000)  # no exception
    assert run.blowups == 1 and np.all(np.isfinite(run.positions)) and run.positions[-1] == 0.0


def _planar_frequencies_20_and_30():
    xml = dynamics.planar_spring((400.0, 900.0), (0.0, 0.0), 1.0)
    inertia = dynamics.joint_inertia(xml)
    w = np.sqrt(np.linalg.eigvals(np.linalg.solve(inertia, np.diag([400.0, 900.0]))))
    np.testing.assert_allclose(sorted(w), [20.0, 30.0], rtol=1e-12)


def _slider_rate_is_500():
    slider = dynamics.spring(stiffness=0, damping=500, timestep=0.01)
    assert 500 / dynamics.joint_inertia(slider)[0, 0] == pytest.approx(500.0)


def _rk4_wins_at_equal_cost():
    euler = _pendulum_energy("Euler", 0.01, 5.0)
    rk4_energy = _pendulum_energy("RK4", 0.04, 5.0)
    assert 100 * np.max(np.abs(rk4_energy - rk4_energy[0])) < np.max(np.abs(euler - euler[0]))


def _slider_explicit_explodes_implicit_decays_rk4_resets():
    _explicit_damping_overshoots_then_grows()
    slider = dynamics.spring(0.0, 1.0, 500.0, timestep=0.01)
    explicit = slider.replace("<flag ", '<flag eulerdamp="disable" ')
    assert dynamics.trajectory(explicit, 1, 0.0, 1.0)[1][1, 0] == pytest.approx(-4.0)
    assert dynamics.trajectory(slider, 1, 0.0, 1.0)[1][1, 0] == pytest.approx(1 / 6)
    model = compiled.compile_xml(dynamics.spring(0.0, 1.0, 500.0, 0.01, "RK4"))
    data = mujoco.MjData(model)
    data.qvel[0] = 1.0
    with dynamics.quiet_warnings():
        for _ in range(20):
            mujoco.mj_step(model, data)
    assert dynamics.warnings_raised(data) == {"mjWARN_BADQACC": 1} and data.qvel[0] == 0.0


def _takeaway_edges():
    test_stiff_spring_edges("Euler", 0.0195, 0.0205)
    test_stiff_spring_edges("implicitfast", 0.0195, 0.0205)
    test_stiff_spring_edges("implicit", 0.0195, 0.0205)
    test_stiff_spring_edges("RK4", 0.0280, 0.0285)
    _discrete_bounded_at_every_timestep_and_damps()


def _energies_read_data_energy():
    test_energies_read_mjdata_energy()


def _default_timestep_is_2_ms():
    model = compiled.compile_xml("<mujoco><worldbody><body><joint/><geom size='.1'/></body>"
                                 "</worldbody></mujoco>")  # fmt: skip
    assert model.opt.timestep == 0.002


def _pendulum_at_one_radian():
    inertia = dynamics.joint_inertia(dynamics.pendulum())[0, 0]
    qacc = dynamics.accel_function(dynamics.pendulum())(1.0, 0.0)
    assert qacc == pytest.approx(-1.0 * 9.81 * 0.5 * np.sin(1.0) / inertia, rel=1e-12)
    assert f"{qacc:.4f}" == "-16.4991"
    assert f"{dynamics.energies(dynamics.pendulum(), [1.0], [0.0])[0]:.4f}" == "-2.6502"


def _mujocos_rk4_energy_change():
    energy = _pendulum_energy("RK4", 0.01, 5.0)
    assert f"{energy[-1] - energy[0]:.2e}" == "-8.57e-08"


def _autoreset_disabled_keeps_the_blown_up_state():
    run = dynamics.spring_run(K, 1.0, 0.0205, "Euler", steps=60, autoreset=False)
    assert run.blowups >= 1 and run.largest > 1e10 and run.positions[-1] != 0.0


def _rk4_offset_is_the_interpolation_not_rk4():
    """At h = 10 ms RK4 lands 0.0433 ms early (more than 0.04: not "within" it), its heights
    are the exact parabola's to rounding, and the exact parabola given the same straight line
    between its two samples around the table top lands just as early."""
    h, g, top = 0.01, 9.81, 0.40
    analytic = math.sqrt(2 * top / g)
    heights = dynamics.cube_fall_heights("RK4", timestep=h)
    exact = top - g * (h * np.arange(len(heights))) ** 2 / 2  # written here, not the lesson's
    assert np.abs(heights - exact).max() < 1e-15

    def crossing(samples):  # the straight line between the samples around 0, by hand
        k = int(np.argmax(samples <= 0))
        above, below = samples[k - 1], samples[k]
        return (k - 1 + above / (above - below)) * h

    rk4_early_ms = 1000 * (analytic - dynamics.cube_landing("RK4", timestep=h).time_s)
    assert f"{rk4_early_ms:.2f}" == "0.04" and f"{rk4_early_ms:.4f}" == "0.0433"
    assert rk4_early_ms > 0.04  # early, and by more than 0.04 ms
    assert crossing(heights) == pytest.approx(crossing(exact), abs=1e-12)
    assert 1000 * (analytic - crossing(exact)) == pytest.approx(rk4_early_ms, abs=1e-9)


def _rk4_lands_at_the_same_step_at_the_analytic_time():
    assert dynamics.cube_landing("RK4").step == dynamics.cube_landing("Euler").step == 143
    _euler_runs_half_a_step_ahead_rk4_exact()


CLAIMS = [
    # the opening and the problem
    ("Lesson 01 ended with MuJoCo's default jump, the semi-implicit Euler step",
     _default_jump_is_semi_implicit_euler),
    ("a stiff spring jumps to a million metres within a second",
     _stiff_spring_passes_a_million_metres_within_a_second),
    ("Which one you get depends on two lines of the model file, `option/integrator` and "
     "`option/timestep`, and neither is an error when it is wrong.", _neither_setting_is_an_error),
    ("To know where the robot is 2 ms later", _default_timestep_is_2_ms),
    ("a pendulum that should swing forever slowly climbs higher",
     _explicit_euler_gains_energy_and_swings_higher),
    # the predictions' explanations
    ("Explicit Euler moves with the velocity of the start of the step, and for an oscillator "
     "that always pushes the state outward", _explicit_euler_multiplies_a_springs_energy),
    ("There is none: the semi-implicit step is stable at any timestep.", _below_stable_at_not),
    ("each step multiplies the energy of a spring by 1 + (h w)².",
     _explicit_euler_multiplies_a_springs_energy),
    ("Semi-implicit Euler keeps the energy within a band (as long as the timestep is inside its "
     "stability edge, Break it), and RK4 loses a very little.",
     _energy_in_a_band_and_rk4_loses_a_little),
    ("each semi-implicit step multiplies the state by a matrix whose eigenvalues are a complex "
     "pair on the unit circle while h w < 2.", _complex_pair_on_the_unit_circle_below_the_edge),
    ("At h w = 2 they meet at -1 and the swing grows a little every step; above it one "
     "eigenvalue leaves the circle and the growth is geometric.",
     _at_the_edge_minus_one_and_linear_growth),
    ("2.83/w is RK4's edge", _rk4_edge_is_two_root_two),
    # the core idea
    ("The state of a model is its positions $x$ and velocities $v$ (MuJoCo's `qpos` and "
     "`qvel`).", _state_is_qpos_and_qvel),
    ("it includes gravity, springs, damping and everything else that pushes.",
     _acceleration_includes_every_force),
    ("| explicit Euler | $x_{k+1} = x_k + h\\,v_k$, $\\;v_{k+1} = v_k + h\\,a(x_k, v_k)$ | 1 | "
     "none |", _mujoco_has_no_explicit_euler),
    ("That is the whole difference, and the experiments show it decides whether energy drifts.",
     _explicit_euler_gains_energy_and_swings_higher),
    ("Its **order** $p$: halve $h$, and the error after a fixed time shrinks about $2^p$ times "
     "(both Euler steps have order 1, RK4 order 4).", _orders_one_one_and_four),
    ("for a spring, each step multiplies the state by one fixed matrix; when an eigenvalue of "
     "that matrix is larger than 1 in magnitude, any error grows geometrically",
     _a_springs_step_is_one_fixed_matrix),
    ("| `Euler` (default) | semi-implicit Euler; joint damping is treated implicitly (Step 2) |",
     _euler_damping_is_implicit),
    ("| `RK4` | classic fourth-order Runge-Kutta, four force evaluations per step; everything "
     "explicit |", _rk4_is_classic_and_explicit_with_four_evaluations),
    ("Euler with every velocity-dependent force (damping, actuator velocity gains) treated "
     "implicitly", _velocity_dependent_forces_implicit),
    ("`implicitfast` skips the derivatives of the Coriolis terms",
     _implicitfast_skips_coriolis_derivatives),
    ("| `discrete` | solves the constraints and an implicit velocity update in one go, with joint "
     "stiffness as well as damping treated implicitly |",
     _discrete_treats_stiffness_and_damping_implicitly),
    ("No time passes in `mj_forward`; `mj_step` calls it and then integrates.",
     _mj_forward_passes_no_time_and_mj_step_integrates),
    ("With the `energy` flag on (`<flag energy=\"enable\"/>` in `option`), `mj_forward` also "
     "fills `data.energy` with the potential and kinetic energy in joules.",
     _energy_flag_fills_data_energy),
    ("At 1 rad the ball accelerates back at **-16.4991** rad/s², and its potential energy is "
     "**-2.6502** J", _pendulum_at_one_radian),
    ("(MuJoCo measures height from $z = 0$, the hinge)", _height_measured_from_the_hinge),
    ("so your steps and MuJoCo's integrators see exactly the same physics, and any difference "
     "between them is the integrator alone.", _default_jump_is_semi_implicit_euler),
    # Step 1 and Step 2
    ("MuJoCo has no integrator like it", _mujoco_has_no_explicit_euler),
    ("the check builds it from MuJoCo's pieces, the velocity update of `mj_step` and "
     "`mj_integratePos` fed with the old velocity.", _explicit_euler_from_mujocos_pieces),
    ("A joint with damping $d$ feels the torque $-d\\,v$; divided by the joint's inertia $M$ "
     "that is an acceleration $-c\\,v$", _damping_torque_is_minus_d_v),
    ("Evaluated at the old velocity, as above, the damping alone multiplies the velocity by "
     "$1 - hc$ every step: once $hc$ passes 1 the velocity overshoots zero, and once it passes 2 "
     "it grows.", _explicit_damping_overshoots_then_grows),
    ("MuJoCo instead evaluates the damping at the **new** velocity",
     _explicit_damping_overshoots_then_grows),
    ("For several joints `c_implicit` may be an array of one rate per joint, but only when the "
     "joints do not push on each other", _coupled_joints_need_the_whole_matrix),
    ("here it is the ball's $m L^2$ plus its own small $\\frac25 m r^2$",
     _pendulum_inertia_is_ml2_plus_two_fifths_mr2),
    ("MuJoCo's `Euler` solves $(M + hD)\\,\\Delta v = h\\,M\\,a$ for this step's change of "
     "velocity $\\Delta v$.", _coupled_joints_need_the_whole_matrix),
    ("When $M$ is diagonal, as for one block on two perpendicular slides, that is one equation "
     "per joint, and the rates $c_i = d_i / M_{ii}$ give MuJoCo's step exactly.",
     _diagonal_inertia_rates_are_exact),
    ("A double pendulum's joints push on each other: its $M$ has off-diagonal terms, which also "
     "change as it swings, and no rate per joint gives `mj_step`.",
     _coupled_joints_need_the_whole_matrix),
    ("`mj_step` gives **0.4235** and **0.8649** rad/s, and so does the solve with the whole $M$; "
     "one rate per joint gives **0.4367** and **0.8426**, wrong in the second digit after a "
     "single step.", _coupled_joints_need_the_whole_matrix),
    ("a step for any model would solve the matrix equation, with $M$ computed again at every "
     "state.", _coupled_joints_need_the_whole_matrix),
    # Step 3 and Step 4
    ("RK4 samples the slope of the motion four times within the step and averages.",
     _rk4_is_classic_and_explicit_with_four_evaluations),
    ("MuJoCo's `RK4` treats damping like any other force, explicitly, so `rk4` has no "
     "`c_implicit`.", _rk4_is_classic_and_explicit_with_four_evaluations),
    ("the weights 1, 2, 2, 1 over 6 are what make the errors of the four samples cancel up to "
     "$h^4$.", _orders_one_one_and_four),
    ("`dynamics.SpringStepper(k, m, \"Euler\")` is a step function with the same contract whose "
     "step is one `mj_step` of a real MuJoCo spring", _spring_stepper_is_one_mj_step),
    ("whose edges are neither $2/w$ nor $2.83/w$", _hidden_edges_are_not_the_lessons),
    # Experiment A
    ("MuJoCo measures the energy of every state you produce (`dynamics.energies` sets the state, "
     "calls `mj_forward` and reads `data.energy`).", _energies_read_data_energy),
    ("Explicit Euler gains energy steadily", _explicit_euler_gains_energy_and_swings_higher),
    ("so by the end the ball swings far higher than it was released.",
     _explicit_euler_gains_energy_and_swings_higher),
    ("RK4's energy has changed by **-8.57e-08** J.", _mujocos_rk4_energy_change),
    ("MuJoCo's dots sit on your curves: the default `Euler` is the well-behaved middle line.",
     _default_jump_is_semi_implicit_euler),
    ("every step scales the area of any patch of states up, and the energy with it.",
     _explicit_euler_multiplies_a_springs_energy),
    ("Semi-implicit Euler never strays more than **4.80e-02** J: its energy wobbles with the "
     "swing but keeps coming back.", _energy_in_a_band_and_rk4_loses_a_little),
    ("For a spring, explicit Euler's step multiplies the state by $\\begin{pmatrix}1 & h\\\\ -h "
     "w^2 & 1\\end{pmatrix}$, whose determinant is $1 + h^2 w^2$",
     _explicit_matrix_and_its_determinant),
    ("The semi-implicit step's matrix, $\\begin{pmatrix}1 - h^2 w^2 & h\\\\ -h w^2 & "
     "1\\end{pmatrix}$, has determinant exactly 1.", _semi_implicit_matrix_has_determinant_one),
    ("at this timestep it keeps the state on a closed curve, so its energy error stays in a band "
     "instead of accumulating.", _energy_in_a_band_and_rk4_loses_a_little),
    ("the determinant is 1 at every timestep, yet once $h w > 2$ the same step blows up",
     _semi_implicit_matrix_has_determinant_one),
    # Experiment B
    ("Halving the timestep halves either Euler's error but divides RK4's by about sixteen.",
     _halving_halves_euler_and_divides_rk4_by_sixteen),
    ("explicit Euler and semi-implicit Euler have the same order, yet only one of them drifts.",
     _explicit_euler_gains_energy_and_swings_higher),
    # Break it
    ("A 1 kg block on a slide joint with `stiffness=\"1e4\"` oscillates at $w = \\sqrt{k/m}$ = "
     "100 rad/s.", _stiff_spring_oscillates_at_100_rad_s),
    ("When the state blows up, MuJoCo does not raise an exception: it records a warning in "
     "`data.warning`, prints a line on stderr, appends it to `MUJOCO_LOG.TXT` in the working "
     "directory and resets the state.", _blow_up_warns_logs_and_resets),
    ("At $h$ = 0.0195 s the block swings to at most **4.5** m, more than the 1 m it was released "
     "from but bounded.", _below_the_edge_bounded_but_past_the_release),
    ("At 0.0205 s it passes **1.16e+06** m before MuJoCo's check for huge accelerations fires",
     _the_check_is_for_huge_accelerations),
    ("the state is reset to rest at $x = 0$, and a simulation that runs unattended carries on as "
     "if nothing happened.", _reset_to_rest_and_carries_on),
    ("Watch the two runs with reset switched off (`<flag autoreset=\"disable\"/>`)",
     _autoreset_disabled_keeps_the_blown_up_state),
    ("`RK4` survives to about $2.83/w$; `implicit` and `implicitfast` blow up exactly where "
     "`Euler` does.", _takeaway_edges),
    ("Their implicit part covers forces that depend on **velocity**, such as damping; a spring's "
     "force depends on **position**, and they treat it explicitly.",
     _implicit_integrators_treat_the_spring_explicitly),
    ("`discrete` is the exception: it treats the joint's stiffness implicitly and stays bounded "
     "at every timestep.", _discrete_bounded_at_every_timestep_and_damps),
    ("released at 1 m, the block is at **0.208** m after one step, so the undamped oscillation "
     "dies within a few steps", _discrete_bounded_at_every_timestep_and_damps),
    ("For a stiff spring under `Euler`, `implicit` or `implicitfast` the remedies are a shorter "
     "timestep, a softer spring, or enough damping, which those three treat implicitly.",
     _damping_cures_eulers_edge_not_rk4s),
    ("`RK4` treats damping explicitly: a little of it moves its edge only slightly, and heavy "
     "damping shrinks it.", _damping_cures_eulers_edge_not_rk4s),
    ("Semi-implicit Euler and MuJoCo's `Euler` agree to every digit: **1.9999**/w, just short of "
     "$2/w$: that close to the edge the swing levels off only above the bound of 100, and the "
     "bisection stops within its tolerance of where that begins.",
     _semi_implicit_and_mujoco_agree_on_the_edge),
    ("the bisection overshoots it a little because just above the edge the swing grows so "
     "slowly that 1000 steps do not take it past the bound.", _rk4_bisection_overshoots_slowly),
    ("it shrinks to **0.0304**/w when the run is ten times longer, because explicit Euler "
     "amplifies a spring at **every** timestep, only slowly for a small one.",
     _explicit_euler_amplifies_at_every_timestep),
    ("The semi-implicit matrix above has determinant 1 and trace $2 - h^2 w^2$, so its two "
     "eigenvalues multiply to 1.", _semi_implicit_matrix_has_determinant_one),
    ("While $|2 - h^2 w^2| < 2$, that is while $h < 2/w$, they are a complex pair on the unit "
     "circle and the motion stays bounded.", _complex_pair_on_the_unit_circle_below_the_edge),
    ("Above $2/w$ they are two real numbers, one of them larger than 1 in magnitude, and the "
     "swing grows geometrically.", _above_the_edge_real_eigenvalues_and_geometric_growth),
    ("Exactly at $h = 2/w$ both are $-1$, yet the matrix is not a rotation: it adds the same "
     "amount to the swing at every step, so the amplitude grows linearly, without bound.",
     _at_the_edge_minus_one_and_linear_growth),
    ("Every timestep below $2/w$ is stable and $2/w$ itself is not.", _below_stable_at_not),
    ("A hair below the edge the swing levels off at **70.71** m",
     _levels_off_below_and_geometric_above),
    ("exactly at $2/w$ it reaches $2n + 1$ metres after $n$ steps",
     _at_the_edge_minus_one_and_linear_growth),
    ("a hair above it the growth is geometric", _levels_off_below_and_geometric_above),
    ("In a robot model the fastest vibration of the whole model (the largest $w$, often a light "
     "link on a stiff position servo) sets the timestep for all of it.",
     _fastest_vibration_sets_the_timestep),
    # Experiment C
    ("Lesson 01's cubes fall 40 cm in vacuum and land at step 143 with MuJoCo's `Euler` and $h$ "
     "= 2 ms; the analytic fall time is $\\sqrt{2h_0/g}$ = 0.2856 s.",
     _drop_lands_at_step_143_and_analytic_time),
    ("Semi-implicit Euler moves each step with the velocity at the END of the step, so it is "
     "always a little ahead of the true fall: about h/2 in time.",
     _euler_runs_half_a_step_ahead_rk4_exact),
    ("The landing step stays 143, but the landing time moves onto the analytic fall time; Euler "
     "lands about half a step early.", _rk4_lands_at_the_same_step_at_the_analytic_time),
    ("The cube lands several steps later, because RK4 is more accurate.",
     _rk4_lands_at_the_same_step_at_the_analytic_time),
    ("With $h$ = 10 ms Euler is **4.97** ms early, and even RK4 lands **0.04** ms early; yet "
     "RK4's heights are the exact parabola's to within **3e-16** m, rounding.",
     _rk4_offset_is_the_interpolation_not_rk4),
    ("The whole **0.0433** ms is the straight line drawn between two samples of a curved fall, not "
     "RK4: the exact parabola itself, sampled every 10 ms and interpolated the same way, lands "
     "exactly as early.", _rk4_offset_is_the_interpolation_not_rk4),
    ("RK4 is exact for a constant acceleration, whose motion is a parabola.",
     _euler_and_rk4_free_fall_positions),
    ("Euler's positions are $x_k = x_0 - g h^2 k(k+1)/2$ instead of the exact $x_0 - g (kh)^2 / "
     "2$: the extra $k$ is the half step it runs ahead.", _euler_and_rk4_free_fall_positions),
    ("Lesson 01's air delays compared two cubes under the same integrator, so this shift nearly "
     "cancelled there", _air_delay_nearly_unchanged_by_rk4),
    # check yourself, with the choices as the buttons hold them
    ("Euler's halves; RK4's becomes about sixteen times smaller.",
     _halving_halves_euler_and_divides_rk4_by_sixteen),
    ("A model has a joint spring with $w$ = 500 rad/s and uses $h$ = 6 ms with `Euler`, so $h w "
     "= 3$, and it blows up.", _stiff_fix_choices),
    ('integrator="implicitfast": it is an implicit integrator.', _stiff_fix_choices),
    ("data.warning[mujoco.mjtWarning.mjWARN_BADQACC].number counts it; the state was reset, so "
     "the positions alone may look harmless.", _blow_up_no_exception_no_nan),
    ("qpos becomes NaN and stays NaN until the model is reloaded.", _blow_up_no_exception_no_nan),
    ("mj_step raises a Python exception at the step where it happened.",
     _blow_up_no_exception_no_nan),
    ("RK4 calls `accel` four times per step.", _rk4_is_classic_and_explicit_with_four_evaluations),
    # exercises and their printed conclusions
    ("$c$ = 500 1/s and $h c = 5$", _slider_rate_is_500),
    ("perpendicular springs, $w_x$ = 20 and $w_z$ = 30 rad/s.", _planar_frequencies_20_and_30),
    ("RK4 wins by orders of magnitude on a smooth swing, at the same number of accel calls.",
     _rk4_wins_at_equal_cost),
    ("Explicit damping multiplies v by (1 - h c) = -4 each step and explodes; the implicit form "
     "divides by (1 + h c) = 6 and decays, however large c is.",
     _slider_explicit_explodes_implicit_decays_rk4_resets),
    ("RK4 treats damping explicitly too: it blew up and MuJoCo reset it to rest, hence its final "
     "0.", _slider_explicit_explodes_implicit_decays_rk4_resets),
    ("the stiffer joint sets the timestep of the whole model.",
     _fastest_vibration_sets_the_timestep),
    # takeaways
    ("all three reproduce MuJoCo here to round-off, driven by `qacc` from `mj_forward`.",
     _rk4_is_classic_and_explicit_with_four_evaluations),
    ("Semi-implicit Euler is symplectic and keeps the energy in a band while the step is stable; "
     "explicit Euler gains energy at every timestep.", _explicit_euler_amplifies_at_every_timestep),
    ("MuJoCo's `Euler` treats joint damping implicitly, solving $(M + hD)\\,\\Delta v = h\\,M\\,a$ "
     "($c = d/M$ for one joint), and is stable for a spring only while $h < 2/w$: at $2/w$ the "
     "swing already grows.", _at_the_edge_minus_one_and_linear_growth),
    ("`RK4` stretches that to about $2.83/w$, `implicit` and `implicitfast` do not stretch it at "
     "all, and `discrete` removes the limit by damping the motion numerically.", _takeaway_edges),
    ("A blow-up is not an exception: MuJoCo counts it in `data.warning` and resets the state.",
     _blow_up_no_exception_no_nan),
]  # fmt: skip

# Factual sentences MuJoCo cannot confirm: a rule of thumb, robot practice, another lesson's
# text, and what the course itself does (the tests of the checks and the grader cover those).
UNCHECKABLE = [
    "1/w is only a rule of thumb for accuracy.",
    "often a light link on a stiff position servo",
    "and a promise to explain why the order of its two updates matters.",
    "So the checks hand `c_implicit` only to one joint or to joints whose $M$ is diagonal",
    "the checks try both, on the pendulum and on a double pendulum.",
    "The check hands your function MuJoCo's step and then asks MuJoCo whether the spring really "
    "is stable just below your edge and blows up just above it.",
    "When your notebook is graded it is re-run from scratch, so only what is written in the "
    "cells counts, not what you clicked.",
]


CLAIM_IDS = [f"{i:02d}-{confirm.__name__.strip('_')}" for i, (_, confirm) in enumerate(CLAIMS)]

test_claim_is_in_the_prose_and_true, test_claims_count = lesson_code.claims_tests(
    CLAIMS, PROSE, minimum=80, ids=CLAIM_IDS, unchecked=UNCHECKABLE
)


# --- plot helpers -------------------------------------------------------------------------------
# Each helper of pictures.py with a call on arguments of this lesson's shapes: the registry's
# test_plot_helpers.py draws each one, with and without the grader.
_TIMES, _STEPS = 0.01 * np.arange(51), np.array([0.01, 0.005])
PLOTS = {
    "energy_drift_plot": lambda: pictures.energy_drift_plot(
        _TIMES, {"explicit Euler": np.linspace(0, 1, 51), "RK4": np.zeros(51)}, 0.0, 0.01
    ),
    "convergence_plot": lambda: pictures.convergence_plot(
        _STEPS,
        {"semi-implicit Euler": [1e-3, 5e-4], "RK4": [1e-6, 6e-8]},
        {"semi-implicit Euler": 1.0, "RK4": 4.0},
    ),
    "stiff_spring_plot": lambda: pictures.stiff_spring_plot(10000.0, 1.0, steps=20),
    "stability_edge_plot": lambda: pictures.stability_edge_plot({"h": np.ones(30)}),
}
