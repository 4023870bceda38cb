"""Unit tests of lesson 02's helpers: course/dynamics.py and course/checks/time_integration.py.

The MuJoCo readers must reproduce the facts the lesson states (MuJoCo's Euler is the
semi-implicit step with implicit damping, its RK4 is the classic method, a stiff spring's
stability edges, the drop under RK4), and every visible check must pass a correct function
and fail each typical mistake with a message that names it.
"""

import pathlib
import warnings

import mujoco
import numpy as np
import pytest

from course import compiled, dynamics, expect
from course.checks import time_integration as check

# --- reference implementations, used only to exercise the helpers (this file is not part of
# --- the learner-readable package)


def good_explicit(x, v, accel, h):
    return x + h * v, v + h * accel(x, v)


def good_semi(x, v, accel, h, c_implicit=0.0):
    v = v + h * accel(x, v) / (1 + h * c_implicit)
    return x + h * v, v


def _rk4(x, v, accel, h, weights=(1, 2, 2, 1), fraction=0.5):
    xs, vs = [v], [accel(x, v)]
    for step_fraction in (fraction, fraction, 1.0):
        stage_v = v + step_fraction * h * vs[-1]
        xs.append(stage_v)
        vs.append(accel(x + step_fraction * h * xs[-2], stage_v))
    total = sum(weights)
    dx = sum(w * k for w, k in zip(weights, xs, strict=True)) / total
    dv = sum(w * k for w, k in zip(weights, vs, strict=True)) / total
    return x + h * dx, v + h * dv


def good_rk4(x, v, accel, h):
    return _rk4(x, v, accel, h)


def rk4_equal_weights(x, v, accel, h):
    return _rk4(x, v, accel, h, weights=(1, 1, 1, 1))


def rk4_full_steps(x, v, accel, h):
    return _rk4(x, v, accel, h, fraction=1.0)


def damping_ignored(x, v, accel, h, c_implicit=0.0):
    return good_semi(x, v, accel, h)


def damping_divides_everything(x, v, accel, h, c_implicit=0.0):
    v = (v + h * accel(x, v)) / (1 + h * c_implicit)
    return x + h * v, v


def good_edge(step, w, n_steps=1000, bound=100.0):
    def accel(x, v):
        return -(w**2) * x

    def stable(h):
        x, v = 1.0, 0.0
        for _ in range(n_steps):
            x, v = step(x, v, accel, h)
            if not abs(x) <= bound:
                return False
        return True

    low, high = 0.0, 10.0 / w
    while high - low > 1e-4 / w:
        middle = (low + high) / 2
        low, high = (middle, high) if stable(middle) else (low, middle)
    return low


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
    ours = run_steps(good_semi, dynamics.accel_function(xml), 1.0, 0.0, 0.01, 200)
    assert np.max(np.abs(ours - positions)) <= 1e-15


def test_euler_damping_is_implicit_with_rate_d_over_m():
    """With joint damping d, mj_step (Euler) equals the step with c_implicit = d / M."""
    xml = dynamics.pendulum(0.5, 1.0, damping=0.3, timestep=0.01)
    inertia = dynamics.joint_inertia(xml)[0, 0]
    assert inertia == pytest.approx(1.0 * 0.5**2 + 0.4 * 1.0 * 0.02**2)
    positions, _ = dynamics.trajectory(xml, 200, 1.0, 2.0)
    accel = dynamics.accel_function(xml)
    ours = run_steps(good_semi, accel, 1.0, 2.0, 0.01, 200, 0.3 / inertia)
    assert np.max(np.abs(ours - positions)) <= 1e-14
    explicit = run_steps(good_semi, accel, 1.0, 2.0, 0.01, 200)
    assert np.max(np.abs(explicit - positions)) > 1e-6


def test_rk4_is_the_classic_method_on_one_and_two_joints():
    """mj_step with RK4 equals the classic Runge-Kutta step, for floats and for arrays."""
    xml = dynamics.pendulum(0.5, 1.0, timestep=0.01, integrator="RK4")
    positions, _ = dynamics.trajectory(xml, 200, 1.0, 0.0)
    ours = run_steps(good_rk4, dynamics.accel_function(xml), 1.0, 0.0, 0.01, 200)
    assert np.max(np.abs(ours - positions)) <= 1e-14
    double = dynamics.double_pendulum(timestep=0.005, integrator="RK4")
    positions, _ = dynamics.trajectory(double, 200, [1.0, -0.5], [0.0, 0.0])
    accel = dynamics.accel_function(double)
    ours = run_steps(good_rk4, accel, np.array([1.0, -0.5]), np.zeros(2), 0.005, 200)
    assert np.max(np.abs(ours - positions)) <= 1e-13


def test_old_velocity_trajectory_is_explicit_euler():
    """The explicit-Euler reference assembled from MuJoCo calls equals explicit Euler."""
    double = dynamics.double_pendulum(timestep=0.005)
    positions, _ = dynamics.old_velocity_trajectory(double, 100, [1.0, -0.5], [0.3, 0.0])
    accel = dynamics.accel_function(double)
    ours = run_steps(good_explicit, accel, np.array([1.0, -0.5]), np.array([0.3, 0.0]), 0.005, 100)
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
    ours = run_steps(good_semi, accel, np.array([0.1, -0.1]), np.array([0.5, 0.0]), 0.005, 100,
                     rates)  # fmt: skip
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
    assert good_edge(euler, euler.w) * euler.w == pytest.approx(2.0, abs=2e-4)
    rk4 = dynamics.SpringStepper(1e4, 1.0, "RK4")
    assert good_edge(rk4, rk4.w) * rk4.w == pytest.approx(2 * np.sqrt(2), rel=2e-3)
    x, v = euler(1.0, 0.0, None, 0.001)  # one Euler step: v = -w^2 h, x = h v
    assert (x, v) == pytest.approx((1.0 - 1e4 * 1e-6, -10.0))


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
    with pytest.raises(ValueError, match="integrator must be one of"):
        dynamics.pendulum(integrator="rk4")
    with pytest.raises(ValueError, match="exactly one <option"):
        dynamics.with_integrator(dynamics.pendulum(), "RK4")
    accel = dynamics.accel_function(dynamics.double_pendulum())
    with pytest.raises(ValueError, match="needs 2 numbers"):
        accel(1.0, 0.0)


# --- the visible checks


def test_visible_checks_pass_correct_functions(capsys):
    """Every check of the lesson prints OK for a correct function."""
    check.explicit_euler(good_explicit)
    check.semi_implicit_euler(good_semi)
    check.implicit_damping(good_semi)
    check.rk4(good_rk4)
    check.stable_timestep(good_edge, "Euler")
    check.stable_timestep(good_edge, "RK4")
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 6 and all(line.startswith("OK: ") for line in lines)


@pytest.mark.parametrize(
    ("run_check", "wrong", "hint"),
    [
        (check.explicit_euler, good_semi, "moves with the NEW velocity"),
        (check.semi_implicit_euler, good_explicit, "OLD velocity, which is explicit Euler"),
        (check.implicit_damping, damping_ignored, "same result whatever c_implicit is"),
        (check.implicit_damping, damping_divides_everything, "change of velocity only"),
        (check.rk4, rk4_equal_weights, "the weight of each slope"),
        (check.rk4, rk4_full_steps, "the time fraction at which each stage"),
        (check.rk4, good_semi, "calls accel once"),
        (check.stable_timestep, lambda step, w, *a, **k: 1 / w, "rule of thumb for accuracy"),
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
        if not isinstance(x, np.ndarray):
            return good_semi(x, v, accel, h, c_implicit)
        v += h * accel(x, v) / (1 + h * c_implicit)
        x += h * v
        return x, v

    check.semi_implicit_euler(in_place)
    xml = dynamics.planar_spring((400.0, 900.0), (2.0, 30.0), 1.5, timestep=0.005)
    check.compare_implicit_damping(in_place, xml, 50, [0.1, -0.1], [0.5, 0.0], "a test")


def test_typed_in_euler_edge_fails_for_rk4():
    """2/w typed in passes MuJoCo's Euler but not its RK4."""
    typed = lambda step, w, *a, **k: 2 / w  # noqa: E731
    check.stable_timestep(typed, "Euler")
    with pytest.raises(AssertionError, match="too small: MuJoCo's RK4 is still stable"):
        check.stable_timestep(typed, "RK4")


@pytest.mark.parametrize(
    "run_check",
    [check.explicit_euler, check.semi_implicit_euler, check.implicit_damping, check.rk4,
     check.stable_timestep],
)  # fmt: skip
def test_blank_answers_are_reported_as_not_answered(run_check):
    """A body that is still `pass` (returns None) raises NotAnswered, not a crash."""
    with pytest.raises(expect.NotAnswered, match="returned None"):
        run_check(lambda *args, **kwargs: None)


def test_hidden_comparisons_show_no_value_and_swallow_warnings():
    """compare_* return None (nbgrader reads a shown number as a partial score), and a correct
    answer that emits warnings passes without letting them out."""

    def noisy_semi(x, v, accel, h, c_implicit=0.0):
        warnings.warn("a learner's own warning", stacklevel=1)
        np.float64(1e308) * 10  # an overflow RuntimeWarning
        return good_semi(x, v, accel, h, c_implicit)

    xml = dynamics.pendulum(0.7, 2.0, damping=0.5, timestep=0.005)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert check.compare_implicit_damping(noisy_semi, xml, 20, 0.3, 1.0, "a test") is None
        assert check.compare_stable_timestep(good_edge, 900.0, 1.0, "RK4") is None
    assert caught == []


def test_learner_readable_modules_hold_no_step_formula():
    """course/ never writes the steps the learner writes: no RK4 weights, no Euler update."""
    root = pathlib.Path(dynamics.__file__).parent
    for path in (root / "dynamics.py", root / "checks" / "time_integration.py"):
        source = path.read_text(encoding="utf-8").replace(" ", "")
        for formula in ("h/6", "2*k2", "h/2*", "h*v", "h*accel", "(1+h*c"):
            assert formula not in source, f"{path.name} contains {formula!r}"
