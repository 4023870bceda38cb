"""Lesson 07 (course/lessons/actuators_and_sensors/): its readers against what MuJoCo computes,
its hidden-case draws, and CLAIMS, each sentence of its prose MuJoCo can confirm beside the
assertion that confirms it (docs/writing-tests.md). Its visible checks and slips are run by
test_visible_checks.py."""

import functools
import math

import lesson_code
import mujoco
import numpy as np
import pytest

from course import compiled
from course.lessons.actuators_and_sensors import checks as check
from course.lessons.actuators_and_sensors import pictures, robots

LESSON = "07-actuators-and-sensors"
mistake = functools.partial(lesson_code.mistake, LESSON)  # mistake(fixture, function)
pytestmark = pytest.mark.usefixtures("in_tmp")
SOLUTION = lesson_code.namespace(LESSON)  # the source notebook's answer cells, executed
G = 9.81


# --- the visible checks ---------------------------------------------------------------------


def test_hidden_generators_reach_every_branch():
    """Random cases clamp the control, the force, both and neither; gears and gravities vary."""
    rng = np.random.default_rng(7)
    clamps, kinds = set(), set()
    for _ in range(80):
        case = check.random_force_case(rng)
        kinds.add(case["kind"])
        model = robots.compile_link(
            check._shortcut(case["kind"], case["kp"], case["kv"]).replace(
                "/>",
                "".join(
                    f' {key}="{case[key][0]} {case[key][1]}"'
                    for key in ("ctrlrange", "forcerange")
                    if key in case
                )
                + "/>",
            )
        )
        state = robots.actuate(model, case["ctrl"], case["qpos"], case["qvel"])
        ctrl_clamped = "ctrlrange" in case and not (
            case["ctrlrange"][0] <= case["ctrl"] <= case["ctrlrange"][1]
        )
        force_clamped = "forcerange" in case and state.force in case["forcerange"]
        clamps.add((ctrl_clamped, force_clamped))
    assert clamps == {(False, False), (True, False), (False, True), (True, True)}
    assert kinds == set(check.KINDS)
    gravities = {tuple(np.round(check.random_imu_case(rng).gravity, 3)) for _ in range(3)}
    assert len(gravities) == 3


def test_hidden_cases_differ_from_the_shown_ones():
    """A learner who typed MuJoCo's numbers for the shown cases earns nothing on hidden ones."""
    rng = np.random.default_rng(11)
    kp, ratio, gear, armature = check.random_servo(rng)
    assert gear not in (1.0, 2.0) and armature not in (0.0, 0.01)
    assert check.random_rod(rng) != robots.ROD


def test_hold_plot_draws_each_run(drawn):
    times = np.linspace(0, 3, 31)
    angles = {"kp 50": 0.08 + 0 * times, "kp 200": 0.02 + 0 * times}
    assert pictures.hold_plot(times, angles) is None
    (ax,) = drawn().axes
    labels = [line.get_label() for line in ax.lines]
    assert labels == ["kp 50", "kp 200", "target: level"]
    np.testing.assert_allclose(ax.lines[0].get_ydata(), np.degrees(0.08))


# --- the lesson's claims: each sentence of the prose, word for word, beside MuJoCo --------

PROSE = lesson_code.prose(LESSON)
KP, KV = 100.0, 5.0


def _rod_as_stated():
    model = robots.compile_link()
    assert model.body_mass[1] == pytest.approx(0.5)
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    assert np.linalg.norm(data.site_xpos[0]) == pytest.approx(0.2)
    np.testing.assert_allclose(model.jnt_axis[0], [0, 1, 0])
    data.qpos[0] = 0.3
    mujoco.mj_forward(model, data)
    assert data.site_xpos[0][2] < 0  # a positive angle turns the free end down


def _arm_as_stated():
    model = compiled.compile_xml(robots.arm(50.0))
    assert model.body_mass[1] == pytest.approx(2.0)
    assert model.site_pos[0][0] == pytest.approx(0.4)


def _one_formula():
    """Every element's force is gain * ctrl + b0 + b1 length + b2 velocity, formula in the
    test, on states drawn here; the gain is fixed and the bias affine (or none, for a motor)."""
    rng = np.random.default_rng(1)
    for element in ('<motor joint="j"/>', f'<position joint="j" kp="{KP}" kv="{KV}"/>',
                    f'<velocity joint="j" kv="{KV}"/>'):  # fmt: skip
        model = robots.compile_link(element)
        assert model.actuator_gaintype[0] == mujoco.mjtGain.mjGAIN_FIXED
        assert int(model.actuator_biastype[0]) in (
            mujoco.mjtBias.mjBIAS_AFFINE,
            mujoco.mjtBias.mjBIAS_NONE,
        )
        g, b = model.actuator_gainprm[0], model.actuator_biasprm[0]
        for _ in range(5):
            ctrl, q, v = rng.uniform(-1, 1, 3)
            state = robots.actuate(model, ctrl, q, v)
            assert state.force == pytest.approx(g[0] * ctrl + b[0] + b[1] * q + b[2] * v)


def _table():
    expected = {
        '<motor joint="j"/>': ([1, 0, 0], [0, 0, 0]),
        '<position joint="j" kp="37" kv="3"/>': ([37, 0, 0], [0, -37, -3]),
        '<velocity joint="j" kv="3"/>': ([3, 0, 0], [0, 0, -3]),
    }
    for element, (gain, bias) in expected.items():
        got_gain, got_bias = robots.parameters(robots.compile_link(element))
        np.testing.assert_array_equal(got_gain, gain)
        np.testing.assert_array_equal(got_bias, bias)


def _servos_pull_back():
    position = robots.compile_link(f'<position joint="j" kp="{KP}" kv="{KV}"/>')
    assert robots.actuate(position, 0.5, 0.2, 0.0).force > 0  # short of its target: pulled on
    assert robots.actuate(position, 0.5, 0.8, 0.0).force < 0  # past it: pulled back
    assert robots.actuate(position, 0.5, 0.5, 1.0).force < 0  # moving: slowed
    velocity = robots.compile_link(f'<velocity joint="j" kv="{KV}"/>')
    assert robots.actuate(velocity, 1.0, 0.0, 0.4).force == pytest.approx(KV * 0.6)


def _compiled_figures():
    gain, bias = robots.parameters(
        robots.compile_link(f'<position joint="j" kp="{KP}" kv="{KV}"/>')
    )
    assert (gain[0], *bias) == (100, 0, -100, -5)


def _limits_order():
    """A case where the order matters: ctrl 1 in +-0.5 at q 0.2, kp 10, force +-5: clamping the
    control first gives 3; not clamping it, or clamping the force first, would not."""
    model = robots.compile_link(
        '<position joint="j" kp="10" ctrlrange="-0.5 0.5" forcerange="-5 5"/>'
    )
    assert robots.actuate(model, 1.0, 0.2, 0.0).force == pytest.approx(10 * (0.5 - 0.2))
    model = robots.compile_link('<position joint="j" kp="100" forcerange="-3 3"/>')
    assert robots.actuate(model, 0.0, 0.5, 0.0).force == pytest.approx(-3.0)


def _autolimits():
    assert robots.compile_link('<motor joint="j" ctrlrange="-1 1"/>').actuator_ctrllimited[0]
    xml = robots.link('<motor joint="j" ctrlrange="-1 1"/>').replace(
        "<mujoco>", '<mujoco><compiler autolimits="false"/>'
    )
    assert compiled.compile_or_error(xml)[1] is not None  # without it, a range is an error


def _limit_figures():
    model = robots.compile_link(
        '<position joint="j" kp="100" ctrlrange="-0.5 0.5" forcerange="-3 3"/>'
    )
    assert model.actuator_ctrllimited[0] and model.actuator_forcelimited[0]
    assert robots.actuate(model, 1.0, 0.2, 0.0).force == 3.0
    assert robots.actuate(model, 0.3, 0.28, 0.0).force == pytest.approx(2.0)
    unlimited = robots.compile_link('<position joint="j" kp="100"/>')
    assert robots.actuate(unlimited, 0.5, 0.2, 0.0).force == pytest.approx(30.0)


def _ctrl_kept():
    model = robots.compile_link('<position joint="j" kp="100" ctrlrange="-0.5 0.5"/>')
    data = mujoco.MjData(model)
    data.ctrl[0] = 1.0
    mujoco.mj_step(model, data)
    assert data.ctrl[0] == 1.0


def _transmission():
    rng = np.random.default_rng(2)
    for _ in range(5):
        gear, q, v, f = rng.uniform(-3, 3, 4)
        state = robots.actuate(robots.compile_link(f'<motor joint="j" gear="{gear}"/>'), f, q, v)
        assert (state.length, state.velocity) == pytest.approx((gear * q, gear * v))
        assert state.joint_force == pytest.approx(gear * f)


def _gear_figures():
    state = robots.actuate(robots.compile_link('<motor joint="j" gear="2"/>'), 1.0, 0.3, 0.7)
    assert (state.length, state.velocity, state.force) == pytest.approx((0.6, 1.4, 1.0))
    assert state.joint_force == pytest.approx(2.0)
    servo = robots.compile_link(
        '<position joint="j" kp="100" dampratio="1" gear="2"/>', option='gravity="0 0 0"'
    )
    assert robots.settle(servo, 1.0, 2.0)[-1] == pytest.approx(0.5, abs=1e-6)


def _undamped_frequency():
    """kv 0 (implicitfast, a fine step): the period is 2 pi sqrt(I / kp)."""
    model = robots.compile_link(
        '<position joint="j" kp="100"/>', option='gravity="0 0 0" timestep="1e-4" integrator="RK4"'
    )
    angles = robots.settle(model, 0.1, 0.2)
    times = 1e-4 * np.arange(1, len(angles) + 1)
    peaks = times[1:-1][(angles[1:-1] > angles[:-2]) & (angles[1:-1] >= angles[2:])]
    inertia = ROD_I
    assert np.diff(peaks)[0] == pytest.approx(2 * math.pi * math.sqrt(inertia / 100), rel=1e-3)


ROD_I = 0.5 * 0.2**2 / 3


def _dampratio_formula():
    rng = np.random.default_rng(3)
    for _ in range(5):
        rod, (kp, ratio, _, _) = check.random_rod(rng), check.random_servo(rng)
        inertia = rod[0] * rod[1] ** 2 / 3  # a thin rod about its end
        assert check._compiled_kv(kp, ratio, 1.0, 0.0, rod) == pytest.approx(
            2 * ratio * math.sqrt(kp * inertia), rel=1e-6
        )


def _rod_figures():
    model = robots.compile_link('<position joint="j" kp="100" dampratio="1"/>')
    assert robots.joint_inertia(model) == pytest.approx(ROD_I, rel=1e-8)
    assert round(robots.joint_inertia(model), 5) == 0.00667
    assert -model.actuator_biasprm[0, 2] == pytest.approx(2 * math.sqrt(100 * ROD_I))
    assert round(-model.actuator_biasprm[0, 2], 3) == 1.633


def _kv_stored_negative():
    model = robots.compile_link('<position joint="j" kp="100" kv="1.633"/>')
    assert model.actuator_biasprm[0, 2] == -1.633


def _reflected():
    """The inertia the actuator feels is (I + armature) / gear^2, the acceleration of its
    length per unit force: measured from qacc."""
    for gear, armature in ((2.0, 0.0), (3.0, 0.02), (0.5, 0.01)):
        model = robots.compile_link(
            f'<motor joint="j" gear="{gear}"/>', joint=f'armature="{armature}"',
            option='gravity="0 0 0"',
        )  # fmt: skip
        data = mujoco.MjData(model)
        data.ctrl[0] = 1.0
        mujoco.mj_forward(model, data)
        felt = 1.0 / (gear * data.qacc[0])  # force over the length's acceleration
        assert felt == pytest.approx((ROD_I + armature) / gear**2, rel=1e-6)
        kv = check._compiled_kv(100.0, 1.0, gear, armature, robots.ROD)
        assert kv == pytest.approx(2 * math.sqrt(100 * felt), rel=1e-6)


def _armature_on_the_dof():
    model = robots.compile_link(joint='armature="0.01"')
    assert model.dof_armature[0] == 0.01
    assert robots.joint_inertia(model) == pytest.approx(ROD_I + 0.01)


def _gear_and_armature_figures():
    kv = {
        (g, a): -robots.compile_link(
            f'<position joint="j" kp="100" dampratio="1" gear="{g}"/>', joint=f'armature="{a}"'
        ).actuator_biasprm[0, 2]
        for g, a in ((1, 0), (2, 0), (1, 0.01))
    }
    assert kv[2, 0] == pytest.approx(kv[1, 0] / 2)
    assert (round(kv[2, 0], 3), round(kv[1, 0.01], 3)) == (0.816, 2.582)


def _overshoots():
    def overshoot(ratio):
        model = robots.compile_link(
            f'<position joint="j" kp="100" dampratio="{ratio}"/>', option='gravity="0 0 0"'
        )
        return robots.overshoot(robots.settle(model, 0.5, 2.0), 0.0, 0.5)

    shown = [round(100 * overshoot(r), 1) for r in (0.2, 0.5, 1.0, 1.5)]
    assert shown == [52.2, 13.8, 0.0, 0.0]


def _critical_at_one():
    """At a fine RK4 step (close to the continuous servo) a ratio just below 1 overshoots and
    1 does not: 1 is the edge, critical damping."""

    def overshoot(ratio):
        model = robots.compile_link(
            f'<position joint="j" kp="100" dampratio="{ratio}"/>',
            option='gravity="0 0 0" timestep="1e-4" integrator="RK4"',
        )
        return robots.overshoot(robots.settle(model, 0.5, 1.0), 0.0, 0.5)

    assert overshoot(0.95) > 0 and overshoot(1.0) == 0.0


def _above_one_slower():
    def reach(ratio):
        model = robots.compile_link(
            f'<position joint="j" kp="100" dampratio="{ratio}"/>', option='gravity="0 0 0"'
        )
        return int(np.argmax(robots.settle(model, 0.5, 2.0) > 0.475))

    assert reach(1.0) < reach(1.5) < reach(3.0)


def _euler_explicit_for_kv_implicit_for_damping():
    speeds = robots.velocity_servo_speeds(100.0, "Euler", 3)
    assert abs(speeds[-1]) > 1e6
    damped = robots.compile_link(joint='damping="100"', option='timestep="0.01" gravity="0 0 0"')
    data = mujoco.MjData(damped)
    data.qvel[0] = 1.0
    for _ in range(100):
        mujoco.mj_step(damped, data)
    assert 0 < data.qvel[0] < 1e-3  # the same 100 as joint damping: stopped, never reversed


def _euler_factor():
    speeds = robots.velocity_servo_speeds(100.0, "Euler", 3)
    h_kv_over_i = 0.01 * 100 / ROD_I
    assert h_kv_over_i == pytest.approx(150)
    np.testing.assert_allclose(speeds, (1 - h_kv_over_i) ** np.arange(1, 4), rtol=1e-4)
    assert round(speeds[0]) == -149 and f"{speeds[2]:.3g}" == "-3.31e+06"


def _euler_warns_at_step_four():
    model = robots.compile_link(
        '<velocity joint="j" kv="100"/>', option='timestep="0.01" gravity="0 0 0"'
    )
    data = mujoco.MjData(model)
    data.qvel[0] = 1.0
    for step in range(1, 5):
        mujoco.mj_step(model, data)
        if step < 4:
            assert data.warning[mujoco.mjtWarning.mjWARN_BADQACC].number == 0
    assert data.warning[mujoco.mjtWarning.mjWARN_BADQACC].number == 1
    assert data.qvel[0] == 0.0  # reset


def _implicitfast():
    speeds = robots.velocity_servo_speeds(100.0, "implicitfast", 3)
    np.testing.assert_allclose(speeds, 151.0 ** -np.arange(1, 4), rtol=1e-3)
    assert f"{speeds[0]:.3g}" == "0.00662"
    for kv in (1e2, 1e4, 1e6):
        assert robots.stable(kv, "implicitfast")


def _euler_edge():
    edge = robots.euler_edge()
    assert edge == pytest.approx(2 * ROD_I / 0.01, rel=1e-3)
    assert robots.stable(0.99 * edge, "Euler") and not robots.stable(1.01 * edge, "Euler")


def _sensordata_in_order():
    readings = robots.sensor_readings(0.3, 0.7)
    model = robots.compile_link(sensors='<jointvel joint="j"/><jointpos joint="j"/>')
    data = mujoco.MjData(model)
    data.qpos[0], data.qvel[0] = 0.3, 0.7
    mujoco.mj_forward(model, data)
    np.testing.assert_allclose(data.sensordata, [0.7, 0.3])
    assert readings["jointvel"][0] == 0.7


def _noise_stored():
    readings = robots.sensor_readings(0.3, 0.7)
    assert readings["noise"][0] == 1.0 and readings["jointpos"][0] == readings["qpos"][0] == 0.3
    model = robots.compile_link(sensors='<jointpos joint="j" noise="0.1"/>')
    data = mujoco.MjData(model)
    for _ in range(50):
        before = data.qpos[0]
        mujoco.mj_step(model, data)  # sensors read the state the step started from
        assert data.sensordata[0] == before


def _frame_sensors():
    readings = robots.sensor_readings(0.3, 0.7)
    angle = 0.3
    np.testing.assert_allclose(
        readings["framepos"], [0.2 * math.cos(angle), 0, -0.2 * math.sin(angle)]
    )
    np.testing.assert_allclose(
        readings["framequat"], [math.cos(angle / 2), 0, math.sin(angle / 2), 0]
    )
    np.testing.assert_allclose(readings["gyro"], [0, 0.7, 0])


def _gyro_in_site_frame():
    """A site turned 90 degrees about z on the hinge about y: the world's y is the site's -x."""
    model = compiled.compile_xml(
        robots.link(sensors='<gyro site="tip"/>').replace(
            '<site name="tip"', '<site name="tip" euler="0 0 90"'
        )
    )
    data = mujoco.MjData(model)
    data.qvel[0] = 0.7
    mujoco.mj_forward(model, data)
    np.testing.assert_allclose(data.sensordata, [0.7, 0, 0], atol=1e-12)


def _touch():
    xml = """<mujoco><worldbody><geom type="plane" size="1 1 .1"/>
      <body pos="0 0 0.05"><freejoint/><geom type="box" size="0.05 0.05 0.05" mass="2"/>
      <site name="pad" type="box" pos="0 0 -0.05" size="0.06 0.06 0.01"/></body></worldbody>
      <sensor><touch site="pad"/></sensor></mujoco>"""
    model = compiled.compile_xml(xml)
    data = mujoco.MjData(model)
    for _ in range(500):
        mujoco.mj_step(model, data)
    assert data.sensordata[0] == pytest.approx(2 * G, rel=1e-3)


def _accelerometer_formula():
    rng = np.random.default_rng(5)
    for _ in range(5):
        case = check.random_imu_case(rng)
        np.testing.assert_allclose(
            case.reading, case.site_xmat.T @ (case.acceleration - case.gravity), atol=1e-9
        )


def _site_xmat_columns():
    model = compiled.compile_xml(
        robots.imu_body((0.05, 0, 0.02), (0.9, 0.3, 0.2, 0.1)).replace(
            "</sensor>", '<framexaxis objtype="site" objname="imu"/></sensor>'
        )
    )
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    np.testing.assert_allclose(data.sensordata[-3:], data.site_xmat[0].reshape(3, 3)[:, 0])


def _rest_and_free_fall():
    cases = check.shown_imu_cases()
    rest, fall = cases["a box at rest, tilted"], cases["a box in free fall"]
    np.testing.assert_allclose(rest.acceleration, 0, atol=1e-12)
    np.testing.assert_allclose(rest.site_xmat @ rest.reading, [0, 0, G], atol=1e-12)  # up
    np.testing.assert_allclose(fall.reading, 0, atol=1e-12)
    assert f"{np.linalg.norm(rest.reading):.3f}" == "9.810"


def _shown_box():
    xml = robots.imu_body((0.05, 0.0, 0.02), (math.cos(math.pi / 12), math.sin(math.pi / 12), 0, 0))
    model = compiled.compile_xml(xml)
    quat = model.site_quat[0]
    assert 2 * math.degrees(math.atan2(quat[1], quat[0])) == pytest.approx(30)
    tilt = check.shown_imu_cases()["a box at rest, tilted"].site_xmat
    body = tilt @ np.array([[1, 0, 0], [0, math.cos(math.pi / 6), -math.sin(math.pi / 6)],
                            [0, math.sin(math.pi / 6), math.cos(math.pi / 6)]]).T  # fmt: skip
    assert math.degrees(math.atan2(body[0, 2], body[0, 0])) == pytest.approx(45)


def _keyframe():
    assert robots.keyframe_start(0.3, 0.3) == (0.3, 0.3, 0.0)
    key = '<keyframe><key name="k" qpos="0.2" time="2"/></keyframe>'
    model = robots.compile_link('<motor joint="j"/>', extra=key)
    data = mujoco.MjData(model)
    data.qvel[0], data.ctrl[0] = 3.0, 1.0
    mujoco.mj_resetDataKeyframe(model, data, 0)
    assert (data.time, data.qpos[0], data.qvel[0], data.ctrl[0]) == (2.0, 0.2, 0.0, 0.0)


def _gravity_figure():
    assert robots.gravity_torque(0.0) == pytest.approx(2.0 * G * 0.2)
    assert f"{robots.gravity_torque(0.0):.3f}" == "3.924"


def _holds():
    for kp, shown in ((50.0, 4.5), (200.0, 1.1)):
        hold = robots.hold_level(kp)
        angle = hold.angles[-1]
        assert round(math.degrees(angle), 1) == shown
        assert kp * angle == pytest.approx(robots.gravity_torque(angle), rel=1e-6)
        assert hold.torques[-1] == pytest.approx(-robots.gravity_torque(angle), rel=1e-6)


def _limited_swing():
    hold = robots.hold_level(50.0, forcerange=3.0)
    last = np.degrees(hold.angles[hold.times > 2.0])
    assert (round(last.min(), 1), round(last.max(), 1)) == (5.5, 67.7)
    balance = math.degrees(math.acos(3.0 / robots.gravity_torque(0.0)))
    assert round(balance) == 40 and last.min() < balance < last.max()
    assert np.all(hold.torques >= -3.0 - 1e-12)
    swinging = np.abs(np.gradient(hold.angles, hold.times)) > 1.0
    assert np.mean(hold.torques[swinging] == -3.0) > 0.9  # moving fast, still only 3 N m


def _check_euler_edge():
    inertia = 0.001
    assert 0.002 * 5 / inertia == pytest.approx(10)
    rod = (3 * inertia / 0.2**2, 0.2)  # a thin rod about its end: m L^2 / 3
    assert robots.joint_inertia(robots.compile_link(rod=rod)) == pytest.approx(inertia)
    assert not robots.stable(5.0, "Euler", 0.002, rod)
    assert robots.stable(5.0, "implicitfast", 0.002, rod)


def _overshoot_formula(ratio):
    return math.exp(-math.pi * ratio / math.sqrt(1 - ratio**2)) if ratio < 1 else 0.0


def _load_moves_the_stop():
    for kp, target, load in ((100.0, 0.5, 0.2), (30.0, -0.4, 3.0)):
        angles, _ = robots.servo_step(kp, 2 * math.sqrt(kp * ROD_I), ROD_I, target, load)
        assert angles[-1] == pytest.approx(target + load / kp, rel=1e-7)


def _step_response_formula():
    for ratio in (0.2, 0.5, 0.8, 1.0, 1.4):
        kv = 2 * ratio * math.sqrt(100 * ROD_I)
        angles, _ = robots.servo_step(100.0, kv, ROD_I, 0.5, 0.0)
        assert robots.overshoot(angles, 0.0, 0.5) == pytest.approx(
            _overshoot_formula(ratio), abs=2e-4
        )


def _default_step_damps():
    model = robots.compile_link('<position joint="j" kp="100" dampratio="1"/>')
    rate = math.sqrt(100 / robots.joint_inertia(model))
    assert round(rate, 1) == 122.5 and round(rate * 0.002, 2) == 0.24  # a quarter radian
    for ratio in (0.2, 0.5):
        coarse = robots.compile_link(
            f'<position joint="j" kp="100" dampratio="{ratio}"/>', option='gravity="0 0 0"'
        )
        shown = robots.overshoot(robots.settle(coarse, 0.5, 2.0), 0.0, 0.5)
        assert shown < _overshoot_formula(ratio) - 0.004


CLAIMS = [
    # the models and the predictions
    ("One rod, 0.5 kg and 0.2 m long, hinged at one end about the y axis (`robots.link`): a "
     "positive angle turns its free end down.", _rod_as_stated),
    ("The experiment at the end uses a heavier rod, 2 kg and 0.4 m, as an arm.", _arm_as_stated),
    ("MuJoCo stores the noise and does not apply it; the reading is the joint angle.",
     _noise_stored),
    ("`noise` is kept in `model.sensor_noise` for your own code (a test of a controller, say) to "
     "use; MuJoCo's sensors read the state as it is.", _noise_stored),
    ("A servo drives its own length, gear times the joint angle, to its control: 2 q = 1.",
     _gear_figures),
    ("MuJoCo chooses kv for critical damping at ratio 1.", _critical_at_one),
    ("The clamp cuts the whole force, damping included: once the servo is at its limit, little "
     "takes the swing's energy out.", _limited_swing),
    ("It sinks past the angle where 3 N m holds it, and swings on for seconds.", _limited_swing),
    # the core idea and Step 1
    ("Every MuJoCo actuator in this lesson turns its control into one scalar force with the same "
     "formula,", _one_formula),
    ("$g_0$ is `actuator_gainprm[0]` (a *fixed* gain) and $b_0, b_1, b_2$ are "
     "`actuator_biasprm[0:3]` (an *affine* bias).", _one_formula),
    ("| `<motor>` | 1 | (0, 0, 0) | ctrl |", _table),
    ("| `<position kp kv>` | kp | (0, −kp, −kv) | kp (ctrl − length) − kv velocity |", _table),
    ("| `<velocity kv>` | kv | (0, 0, −kv) | kv (ctrl − velocity) |", _table),
    ("A position servo is a spring that pulls its length towards the control, with a damper on "
     "its velocity; a velocity servo is a damper that pulls its velocity towards the control.",
     _servos_pull_back),
    ("The position servo compiles to gain **100** and bias (0, **-100**, **-5**): the minus signs "
     "are what make it pull back, towards the target and against the motion.", _compiled_figures),
    # Step 2
    ("`ctrlrange=\"lo hi\"` clamps the control *before* the force is computed; `forcerange` "
     "clamps the force *after*.", _limits_order),
    ("With the compiler's `autolimits`, on by default, writing a range is enough: MuJoCo sets "
     "`ctrllimited` and `forcelimited` itself.", _autolimits),
    ("Sent ctrl 1 at 0.2 rad, the servo reads its control as 0.5 and computes 100 × (0.5 − 0.2) "
     "= 30 N m, which `forcerange` cuts to **3.000**.", _limit_figures),
    ("At 0.28 rad with ctrl 0.3, inside both limits, it gives **2.000**.", _limit_figures),
    ("`data.ctrl` keeps what you wrote: the clamp acts only on what the force uses.", _ctrl_kept),
    # Step 3
    ("For a joint (`joint=\"j\"`) with `gear` $n$, the actuator's length is $n\\,q$ and its "
     "velocity $n\\,\\dot q$, and the joint receives $n$ times the actuator's force, in "
     "`data.qfrc_actuator`.", _transmission),
    ("The motor's length is **0.600** and its velocity **1.400**; its force is **1.000**, and the "
     "joint gets **2.000**.", _gear_figures),
    ("The servo drives its length, twice the angle, to 1, so the joint stops at **0.500** rad.",
     _gear_figures),
    # Step 4
    ("A position servo is a spring of stiffness kp on whatever inertia $I$ it moves, so without "
     "damping it oscillates at $\\sqrt{k_p / I}$.", _undamped_frequency),
    ("which at $\\zeta = 1$ is critical damping.", _critical_at_one),
    ("MuJoCo takes $I$ from the model's mass matrix when it compiles it.", _dampratio_formula),
    ("The rod's inertia about its hinge is $m L^2 / 3$ = **0.00667** kg m², and MuJoCo compiles "
     "kv **1.633**.", _rod_figures),
    ("It stores kv where `kv` would go, in `biasprm[2]`, as −kv.", _kv_stored_negative),
    ("The inertia it feels, the *reflected inertia*, is $I / n^2$.", _reflected),
    ("Armature, inertia MuJoCo adds on the joint's own dof (a geared motor's rotor, as the joint "
     "sees it), counts like the body's own: it joins $I$ before the division.",
     _armature_on_the_dof),
    ("Gear 2 quarters the inertia the servo feels and so halves its kv, to **0.816**; armature "
     "0.01 kg m² makes it **2.582**.", _gear_and_armature_figures),
    ("Below 1 the joint passes its target, by **52.2** % of the step at ratio 0.2 and **13.8** % "
     "at 0.5; at 1 and above it does not (**0.0** %).", _overshoots),
    ("A ratio above 1 only makes the approach slower.", _above_one_slower),
    ("A constant torque $\\tau$ on the joint (a load: a weight, a spring, a hand) moves where "
     "the servo stops: at rest its pull, $k_p$ (target − q), must cancel $\\tau$.",
     _load_moves_the_stop),
    ("below $\\zeta = 1$ it first passes its final angle by the fraction "
     "$e^{-\\pi\\zeta/\\sqrt{1-\\zeta^2}}$ of the step; at $\\zeta \\ge 1$ it does not pass it.",
     _step_response_formula),
    ("The table above, at MuJoCo's default 2 ms step, shows a little less than that formula: the "
     "rod's servo rings at **122.5** rad/s, so each step covers a quarter of a radian of its "
     "swing, and the steps damp it.", _default_step_damps),
    ("Run at a fine step, MuJoCo and the formula agree", _step_response_formula),
    # Step 5
    ("MuJoCo's default integrator, `Euler`, takes that force at the start of each step; it "
     "treats a joint's own `damping` implicitly, but not an actuator's kv.",
     _euler_explicit_for_kv_implicit_for_damping),
    ("Each `Euler` step changes the speed by $-h\\,k_v\\,\\omega / I$, 150 times the speed "
     "itself: it overshoots zero by far more than it started with.", _euler_factor),
    ("Under `Euler` the speed is multiplied by **-149** at every step, **-3.31e+06** rad/s after "
     "three; at the fourth step MuJoCo warns of a huge acceleration and resets the simulation.",
     _euler_warns_at_step_four),
    ("Under `implicitfast` the same servo divides the speed by 151 at every step (**0.00662** "
     "rad/s after one): it stops the rod, as a servo should, and stays stable at any kv.",
     _implicitfast),
    ("`Euler`'s edge is kv **1.333**, where $h\\,k_v / I = 2$.", _euler_edge),
    # Step 6
    ("Each element of `<sensor>` writes its values into `data.sensordata` when `mj_forward` or "
     "`mj_step` runs, in the order the sensors are declared (`data.sensor(name).data` reads "
     "one).", _sensordata_in_order),
    ("`jointpos` reads **0.3**, the joint angle exactly, although its `sensor_noise` is "
     "**1.0**: MuJoCo stores the noise and does not apply it.", _noise_stored),
    ("`framepos` is the tip's position in the world, `framequat` its orientation; `gyro` reads "
     "the angular velocity in the site's own frame, 0.7 rad/s about its y axis.", _frame_sensors),
    ("`gyro` reads the angular velocity in the site's own frame", _gyro_in_site_frame),
    ("A `touch` sensor, not used here, adds up the normal forces of the contacts inside its "
     "site's volume.", _touch),
    ("**The accelerometer** reads the site's linear acceleration *minus gravity*, in the site's "
     "own frame:", _accelerometer_formula),
    ("with $R$ the site's orientation (`data.site_xmat`, which turns the site's frame into the "
     "world's), $a$ the site's acceleration in the world and $g$ gravity.", _site_xmat_columns),
    ("At rest it reads what holds it up, 9.81 m/s² opposite to gravity; in free fall it reads "
     "zero.", _rest_and_free_fall),
    ("A box whose site is turned 30 degrees about x, the box itself tilted 45 degrees about y:",
     _shown_box),
    ("At rest (held by a force equal to its weight) the accelerometer reads **9.810** m/s², along "
     "the world's up direction written in the site's frame; in free fall, **0.000**.",
     _rest_and_free_fall),
    # Step 7
    ("`mujoco.mj_resetDataKeyframe(model, data, key)` resets `data` and then writes the key's "
     "state into it.", _keyframe),
    ("The reset puts the angle and the control at the key's **0.3** and the time back to "
     "**0.0** (a key's own `time` is 0 unless it says otherwise).", _keyframe),
    # the experiment
    ("Gravity pulls the level arm down with **3.924** N m.", _gravity_figure),
    ("A position servo holds a load only by missing its target: it pushes back with kp times its "
     "error, so it settles where kp × angle meets the load, **4.5** degrees below level at kp 50 "
     "and **1.1** at kp 200.", _holds),
    ("The limited servo cannot hold it: its force stops at −3 N m, its damping clamped away with "
     "the rest, and from 2 s to 3 s the arm still swings between **5.5** and **67.7** degrees "
     "below level, past the 40 degrees where 3 N m would balance it.", _limited_swing),
    # check yourself and the takeaways
    ("MuJoCo stores the noise in sensor_noise and never adds it; adding it is the test's own "
     "job.", _noise_stored),
    ("A larger kp: the servo settles where kp times its error meets the load.", _holds),
    ("A velocity servo with kv 5 drives a joint of inertia 0.001 kg m² at a 2 ms step under "
     "`Euler`.", _check_euler_edge),
    ("No: h kv / I is 10, far above 2; under implicitfast it would be stable.", _check_euler_edge),
    ("`ctrlrange` clamps the control before the force is computed; `forcerange` clamps the force "
     "after, its damping part too.", _limits_order),
    ("A stiff velocity servo under `Euler` is unstable once $h\\,k_v / I > 2$; `implicitfast` "
     "treats the actuator's velocity term implicitly and stays stable.", _euler_edge),
    ("The accelerometer reads $R^\\top (a - g)$: 9.81 m/s² upward at rest, zero in free fall.",
     _rest_and_free_fall),
    ("`<motor>` is gain 1; `<position kp kv>` gain kp, bias (0, −kp, −kv); `<velocity kv>` gain "
     "kv, bias (0, 0, −kv).", _table),
    ("Through a joint with gear $n$: length $n\\,q$, velocity $n\\,\\dot q$, and the joint gets "
     "$n$ × force.", _transmission),
    ("`dampratio` ζ gives kv = 2ζ sqrt(kp · I), with I the reflected inertia, (joint inertia + "
     "armature) / $n^2$; at ζ = 1 a step does not overshoot.", _reflected),
    ("Sensors write `sensordata`; `noise` is stored, not applied.", _noise_stored),
    ("`<key qpos ctrl>` and `mj_resetDataKeyframe` start a model from a known pose.", _keyframe),
]  # fmt: skip

test_claim_is_in_the_prose_and_true, test_claims_count = lesson_code.claims_tests(
    CLAIMS, PROSE, minimum=65
)


# --- plot helpers -------------------------------------------------------------------------------
# Each helper of pictures.py with a call on arguments of this lesson's shapes: the registry's
# test_plot_helpers.py draws each one, with and without the grader.
_TIMES = 0.01 * np.arange(51)
PLOTS = {
    "hold_plot": lambda: pictures.hold_plot(
        _TIMES, {"kp 50": 0.08 * (1 - np.exp(-10 * _TIMES)), "kp 200": 0.02 * _TIMES}
    ),
}


@pytest.mark.parametrize("seed", range(10))
def test_clamped_control_case_sets_the_force_by_its_clamp(seed):
    """random_force_case(clamped_ctrl=True): the control lies outside its range and no force
    limit hides it, so MuJoCo's force differs from the one the unclamped control gives."""
    case = check.random_force_case(np.random.default_rng(seed), clamped_ctrl=True)
    low, high = case["ctrlrange"]
    assert "forcerange" not in case and not low <= case["ctrl"] <= high
    assert min(abs(case["ctrl"] - low), abs(case["ctrl"] - high)) >= 0.2


@pytest.mark.parametrize("seed", range(10))
def test_clamped_force_case_clamps_the_whole_force(seed):
    """random_force_case(clamped_force=True): MuJoCo's force clamped with the bias in it and
    the force clamped before the bias is added differ by at least a fifth of the bias."""
    case = check.random_force_case(np.random.default_rng(seed), clamped_force=True)
    model = robots.compile_link(
        check._shortcut(case["kind"], case["kp"], case["kv"]).replace(
            "/>", ' gear="{}" forcerange="{} {}"/>'.format(case["gear"], *case["forcerange"])
        )
    )
    gain, bias = robots.parameters(model)
    state = robots.actuate(model, case["ctrl"], case["qpos"], case["qvel"])
    low, high = case["forcerange"]
    clamped_first = min(max(gain[0] * case["ctrl"], low), high) + bias[1] * state.length
    assert low <= state.force <= high
    assert abs(clamped_first - state.force) >= 0.2 * abs(bias[1] * state.length) > 0


def test_random_shortcut_keeps_a_given_kind():
    rng = np.random.default_rng(3)
    assert [check.random_shortcut(rng, kind)[0] for kind in check.KINDS] == list(check.KINDS)


# Seeds on which a mistake once passed a test's hidden part, {salt: seeds}, swept again by
# grader_tests/lessons/test_mistake_sweep.py: no clamped control, no position servo (39); no force
# clamped with its bias (4039).
ESCAPED_SEEDS = {39: (44, 54), 4039: (26,)}
