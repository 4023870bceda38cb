"""Visible checks for lesson 07, "Actuators and sensors": the cases the lesson shows.

Hidden tests use the same comparisons on cases the lesson never shows (the `random_*`
generators). Every reference is MuJoCo's: the gain and bias it compiles, the actuator force,
length and joint force of mj_forward, the kv it compiles from dampratio, and its
accelerometer's sensordata.
"""

import math

import numpy as np

from course import compiled, expect
from course.expect import letter  # noqa: F401 (test cells call check.letter)
from course.lessons.actuators_and_sensors import robots

KINDS = ("motor", "position", "velocity")


def _shortcut(kind: str, kp: float, kv: float) -> str:
    """The MJCF shortcut element of `kind` on the rod's hinge, with kp and kv where it has
    them (0 is MuJoCo's default kv of <position>; it is then left out)."""
    damping = f' kv="{kv:.9g}"' if kv else ""
    return {
        "motor": '<motor joint="j"/>',
        "position": f'<position joint="j" kp="{kp:.9g}"{damping}/>',
        "velocity": f'<velocity joint="j" kv="{kv:.9g}"/>',
    }[kind]


# --------------------------------------------------------------------------------------------
# One actuator model: gain and bias


def compare_parameters(actuator_parameters, kind: str, kp: float = 0.0, kv: float = 0.0):
    """Assert actuator_parameters gives the gainprm[:3] and biasprm[:3] MuJoCo compiles for
    the shortcut `kind` with kp and kv."""
    model = robots.compile_link(_shortcut(kind, kp, kv))
    gain, bias = robots.parameters(model)
    call = f'actuator_parameters("{kind}", kp={kp:.6g}, kv={kv:.6g})'
    got = expect.answered(actuator_parameters(kind, kp=kp, kv=kv), call)
    got_gain, got_bias = expect.sequence_of(got, 2, call)
    expect.close(
        got_gain, gain, f"{call}'s gain", hint="A fixed gain is gain[0]; the others are 0."
    )
    expect.close(
        got_bias,
        bias,
        f"{call}'s bias",
        hint="The bias pulls back towards the target: which sign must bias1 and bias2 have "
        "so that a joint past its target is pushed back, and a moving one slowed?",
    )


@expect.visible_check
def actuator_parameters(actuator_parameters) -> None:
    """The three shortcuts as the lesson shows them: kp 100, kv 5."""
    compare_parameters(actuator_parameters, "motor")
    compare_parameters(actuator_parameters, "position", kp=100.0, kv=5.0)
    compare_parameters(actuator_parameters, "velocity", kv=5.0)
    expect.ok("gain and bias are what MuJoCo compiles for <motor>, <position> and <velocity>.")


def random_shortcut(rng: np.random.Generator, kind: str | None = None) -> tuple[str, float, float]:
    """A kind (random unless given) with a kp and kv the lesson never shows (a position servo
    without kv, too)."""
    kind = KINDS[int(rng.integers(3))] if kind is None else kind
    kp = float(np.round(rng.uniform(5, 500), 3))
    kv = (
        0.0
        if kind == "position" and rng.random() < 0.3
        else float(np.round(rng.uniform(0.5, 40), 3))
    )
    return kind, kp, kv


# --------------------------------------------------------------------------------------------
# The force: limits


@expect.visible_check
def actuator_force(actuator_force) -> None:
    """The lesson's cases: a servo inside its limits, its control clamped, its force
    clamped, and a velocity servo."""
    compare_force(actuator_force, "position", 100.0, 5.0, 0.4, 0.1, -0.3)
    compare_force(actuator_force, "position", 10.0, 0.0, 1.0, 0.2, 0.0, (-0.5, 0.5), (-5, 5))
    compare_force(actuator_force, "position", 100.0, 0.0, 1.0, 0.2, 0.0, (-0.5, 0.5), (-3, 3))
    compare_force(actuator_force, "velocity", 0.0, 2.0, -1.5, 0.7, 0.4, (-1, 1))
    expect.ok("each force is MuJoCo's actuator_force after mj_forward.")


def compare_force(
    actuator_force, kind, kp, kv, ctrl, qpos, qvel, ctrlrange=None, forcerange=None, gear=1.0
):
    """Assert actuator_force, given MuJoCo's gain, bias, actuator_length and
    actuator_velocity of a compiled actuator, gives its actuator_force after mj_forward."""
    ranges = {"ctrlrange": ctrlrange, "forcerange": forcerange}
    ranges = {key: list(value) for key, value in ranges.items() if value is not None}
    extra = f' gear="{gear:.9g}"' + "".join(
        f' {key}="{low:.9g} {high:.9g}"' for key, (low, high) in ranges.items()
    )
    model = robots.compile_link(_shortcut(kind, kp, kv).replace("/>", extra + "/>"))
    gain, bias = robots.parameters(model)
    state = robots.actuate(model, ctrl, qpos, qvel)
    call = (
        f"actuator_force(gain={gain.tolist()}, bias={bias.tolist()}, ctrl={ctrl:.6g}, "
        f"length={state.length:.6g}, velocity={state.velocity:.6g}"
        + "".join(f", {key}={value}" for key, value in ranges.items())
        + ")"
    )
    got = expect.answered(
        actuator_force(gain.tolist(), bias.tolist(), ctrl, state.length, state.velocity, **ranges),
        call,
    )
    expect.close(
        got,
        state.force,
        call,
        rtol=1e-9,
        atol=1e-9,
        hint="MuJoCo clamps the control to ctrlrange before it computes the force, and clamps "
        "the whole force, bias included, to forcerange only after.",
    )


def random_force_case(
    rng: np.random.Generator, clamped_ctrl: bool = False, clamped_force: bool = False
) -> dict:
    """A shortcut, a state and limits the lesson never shows, as compare_force's keywords;
    about half the cases clamp the control, the force, or both. clamped_ctrl: a case whose
    control lies 0.2 to 1 outside its ctrlrange and whose force has no limit, so that the
    clamped control alone sets the force. clamped_force: a position servo held away from its
    target, whose bias force is more than twice its forcerange's largest limit."""
    if clamped_ctrl:
        return _clamped_ctrl_case(rng)
    if clamped_force:
        return _clamped_force_case(rng)
    kind, kp, kv = random_shortcut(rng)
    case = {"kind": kind, "kp": kp, "kv": kv, "gear": float(np.round(rng.uniform(0.3, 4), 3))}
    case["ctrl"] = float(rng.uniform(-2, 2))
    case["qpos"], case["qvel"] = float(rng.uniform(-1, 1)), float(rng.uniform(-2, 2))
    if rng.random() < 0.6:
        case["ctrlrange"] = tuple(sorted(np.round(rng.uniform(-1.2, 1.2, 2), 3).tolist()))
    if rng.random() < 0.6:
        limit = float(np.round(rng.uniform(0.5, 30), 3))
        case["forcerange"] = (-limit, limit * float(rng.choice([1.0, 0.5])))
    return case


def _clamped_ctrl_case(rng: np.random.Generator) -> dict:
    """random_force_case's case with the control outside its ctrlrange, no forcerange."""
    kind, kp, kv = random_shortcut(rng)
    case = {"kind": kind, "kp": kp, "kv": kv, "gear": float(np.round(rng.uniform(0.3, 4), 3))}
    low, high = sorted(np.round(rng.uniform(-1.2, 1.2, 2), 3).tolist())
    past = float(rng.uniform(0.2, 1.0))
    case["ctrl"] = high + past if rng.random() < 0.5 else low - past
    case["ctrlrange"] = (low, high)
    case["qpos"], case["qvel"] = float(rng.uniform(-1, 1)), float(rng.uniform(-2, 2))
    return case


def _clamped_force_case(rng: np.random.Generator) -> dict:
    """random_force_case's position servo at rest, 0.3 to 1 rad from zero, with no ctrlrange
    and a forcerange whose limits are at most 0.4 of its bias force gear * kp * |qpos|: the
    force clamped with the bias in it, and the one clamped before the bias is added, lie
    in ranges that do not overlap."""
    _, kp, kv = random_shortcut(rng, "position")
    case = {"kind": "position", "kp": kp, "kv": kv, "gear": float(np.round(rng.uniform(0.3, 4), 3))}
    case["qpos"] = float(rng.choice([-1.0, 1.0]) * rng.uniform(0.3, 1.0))
    case["ctrl"], case["qvel"] = float(rng.uniform(-2, 2)), 0.0
    bias = case["gear"] * kp * abs(case["qpos"])
    limit = float(np.round(rng.uniform(0.05, 0.4) * bias, 3))
    case["forcerange"] = (-limit, limit * float(rng.choice([1.0, 0.5])))
    return case


# --------------------------------------------------------------------------------------------
# Transmission and gear


def compare_transmission(joint_transmission, gear: float, qpos: float, qvel: float, ctrl: float):
    """Assert joint_transmission gives MuJoCo's actuator_length, actuator_velocity and
    qfrc_actuator for a motor of this gear on the hinge, told ctrl (its force)."""
    model = robots.compile_link(f'<motor joint="j" gear="{gear:.9g}"/>')
    state = robots.actuate(model, ctrl, qpos, qvel)
    call = f"joint_transmission({gear:.6g}, {qpos:.6g}, {qvel:.6g}, {state.force:.6g})"
    got = expect.answered(joint_transmission(gear, qpos, qvel, state.force), call)
    length, velocity, joint_force = expect.sequence_of(got, 3, call)
    hint = "The gear scales both ways: the actuator's length from the joint, and its force "
    hint += "onto the joint."
    expect.close(length, state.length, f"{call}'s length", hint=hint)
    expect.close(velocity, state.velocity, f"{call}'s velocity", hint=hint)
    expect.close(joint_force, state.joint_force, f"{call}'s joint force", hint=hint)


@expect.visible_check
def joint_transmission(joint_transmission) -> None:
    """Gear 2 and force 1 as the lesson shows, and a gear below 1."""
    compare_transmission(joint_transmission, 2.0, 0.3, 0.7, 1.0)
    compare_transmission(joint_transmission, 0.5, -0.4, 2.0, -3.0)
    expect.ok("length, velocity and joint force are MuJoCo's for gears 2 and 0.5.")


def random_transmission(rng: np.random.Generator) -> tuple[float, float, float, float]:
    """(gear, qpos, qvel, ctrl) the lesson never shows; gears away from 1."""
    gear = float(f"{rng.choice([-1, 1]) * rng.uniform(1.5, 50):.6g}")  # as the MJCF writes it
    return gear, float(rng.uniform(-2, 2)), float(rng.uniform(-3, 3)), float(rng.uniform(-5, 5))


# --------------------------------------------------------------------------------------------
# Damping a servo: dampratio


def _compiled_kv(kp: float, dampratio: float, gear: float, armature: float, rod) -> float:
    """The kv MuJoCo compiles from dampratio for a position servo on the rod `rod` ((mass,
    length) of the rod hinged at its end)."""
    xml = robots.link(
        f'<position joint="j" kp="{kp:.9g}" dampratio="{dampratio:.9g}" gear="{gear:.9g}"/>',
        joint=f'armature="{armature:.9g}"',
        rod=rod,
    )
    return -float(compiled.compile_xml(xml).actuator_biasprm[0, 2])


def compare_servo_kv(servo_kv, kp: float, dampratio: float, rod=robots.ROD) -> None:
    """Assert servo_kv, given the rod's joint inertia from MuJoCo's mass matrix (gear 1, no
    armature), gives the kv MuJoCo compiles from dampratio."""
    inertia = robots.joint_inertia(robots.compile_link(rod=rod))
    want = _compiled_kv(kp, dampratio, 1.0, 0.0, rod)
    call = f"servo_kv({kp:.6g}, {dampratio:.6g}, {inertia:.6g})"
    got = expect.answered(servo_kv(kp, dampratio, inertia), call)
    expect.close(
        got,
        want,
        call,
        rtol=1e-7,
        hint="A critically damped spring-mass has damping 2 sqrt(k m): is the 2 there?",
    )


@expect.visible_check
def servo_kv(servo_kv) -> None:
    """The lesson's rod: kp 100 at dampratio 1, and at 0.3."""
    compare_servo_kv(servo_kv, 100.0, 1.0)
    compare_servo_kv(servo_kv, 40.0, 0.3)
    expect.ok("servo_kv gives the kv MuJoCo compiles from dampratio for the rod.")


def compare_reflected(reflected_inertia, servo_kv, kp, dampratio, gear, armature, rod=robots.ROD):
    """Assert servo_kv(kp, dampratio, reflected_inertia(I, armature, gear)) is the kv MuJoCo
    compiles, where I is the rod's moment about its hinge (MuJoCo's mass matrix without
    armature)."""
    inertia = robots.joint_inertia(robots.compile_link(rod=rod))
    want = _compiled_kv(kp, dampratio, gear, armature, rod)
    call = f"reflected_inertia({inertia:.6g}, {armature:.6g}, {gear:.6g})"
    reflected = expect.answered(reflected_inertia(inertia, armature, gear), call)
    expect.as_floats(reflected, call)
    got = expect.answered(servo_kv(kp, dampratio, reflected), f"servo_kv with {call}")
    expect.close(
        got,
        want,
        f"servo_kv({kp:.6g}, {dampratio:.6g}, {call})",
        rtol=1e-7,
        hint="The servo acts on its own length, gear times the angle: how does the inertia it "
        "feels scale with the gear? And the armature is inertia of the joint too.",
    )


@expect.visible_check
def reflected_inertia(reflected_inertia, servo_kv) -> None:
    """The lesson's rod with gear 2, then with armature 0.01 kg m^2 as well."""
    compare_reflected(reflected_inertia, servo_kv, 100.0, 1.0, 2.0, 0.0)
    compare_reflected(reflected_inertia, servo_kv, 100.0, 1.0, 2.0, 0.01)
    expect.ok("with your reflected inertia, servo_kv gives MuJoCo's kv for geared joints.")


def random_rod(rng: np.random.Generator) -> tuple[float, float]:
    """(mass kg, length m) of a rod the lesson never shows."""
    return float(np.round(rng.uniform(0.1, 3), 4)), float(np.round(rng.uniform(0.05, 0.6), 4))


def random_servo(rng: np.random.Generator) -> tuple[float, float, float, float]:
    """(kp, dampratio, gear, armature) the lesson never shows; gears away from 1."""
    gear = rng.uniform(1.5, 30) if rng.random() < 0.5 else rng.uniform(0.1, 0.7)
    drawn = (rng.uniform(5, 500), rng.uniform(0.2, 2), gear, rng.uniform(0.001, 0.05))
    return tuple(float(f"{value:.6g}") for value in drawn)  # as the MJCF writes them


# --------------------------------------------------------------------------------------------
# A servo under a load


def compare_settling(servo_settling, kp, kv, inertia, target, load, what="a servo") -> None:
    """Assert servo_settling gives where MuJoCo's servo, run close to continuous time
    (robots.servo_step), stops under the load, and how far it first passes that angle."""
    angles, _ = robots.servo_step(kp, kv, inertia, target, load)
    final = float(angles[-1])
    call = f"servo_settling({kp:.6g}, {kv:.6g}, {inertia:.6g}, {target:.6g}, {load:.6g}) for {what}"
    got = expect.answered(servo_settling(kp, kv, inertia, target, load), call)
    angle, overshoot = expect.sequence_of(got, 2, call)
    expect.close(
        angle,
        final,
        f"{call}'s final angle",
        rtol=1e-6,
        atol=1e-8,
        hint="At rest the servo's pull, kp times (target - angle), must cancel the load: does "
        "yours stop where they cancel, with the load's sign?",
    )
    expect.close(
        overshoot,
        robots.overshoot(angles, 0.0, final),
        f"{call}'s overshoot",
        atol=1e-3,
        hint="The overshoot is a fraction of the step, from the damping ratio alone: check "
        "the exponent of the step response, the root of 1 - ratio^2 included, and that a "
        "ratio of 1 or more gives 0.",
    )


@expect.visible_check
def servo_settling(servo_settling) -> None:
    """The lesson's rod (0.00667 kg m^2), kp 100, at damping ratios 0.5, 0.2 and 1.5."""
    inertia = robots.joint_inertia(robots.compile_link())
    critical = 2 * math.sqrt(100 * inertia)  # kv at ratio 1
    compare_settling(servo_settling, 100.0, 0.5 * critical, inertia, 0.5, 0.2, "ratio 0.5")
    compare_settling(servo_settling, 100.0, 0.2 * critical, inertia, -0.3, 1.0, "ratio 0.2")
    compare_settling(servo_settling, 100.0, 1.5 * critical, inertia, 0.5, -0.3, "ratio 1.5")
    expect.ok("final angles and overshoots are MuJoCo's, run at a fine RK4 step.")


def random_settling(rng: np.random.Generator) -> tuple[float, float, float, float, float]:
    """(kp, kv, inertia, target, load) the lesson never shows: damping ratios from 0.15 to
    0.9 and from 1.1 to 2, a final angle at least 0.1 rad from the start."""
    inertia = float(rng.uniform(0.002, 0.5))
    kp = float(rng.uniform(5, 400))
    ratio = float(rng.uniform(0.15, 0.9) if rng.random() < 0.7 else rng.uniform(1.1, 2.0))
    kv = 2 * ratio * math.sqrt(kp * inertia)
    target = float(rng.choice([-1, 1]) * rng.uniform(0.2, 1.0))
    load = float(rng.uniform(-0.5, 0.5) * kp * abs(target))  # moves the stop by up to half
    return kp, kv, inertia, target, load


# --------------------------------------------------------------------------------------------
# The accelerometer


def compare_accelerometer(accelerometer_reading, case: robots.ImuCase, what: str) -> None:
    """Assert accelerometer_reading, given the case's site_xmat, site acceleration (world)
    and gravity, gives MuJoCo's accelerometer sensordata."""
    call = f"accelerometer_reading for {what}"
    got = expect.answered(
        accelerometer_reading(
            case.site_xmat.tolist(), case.acceleration.tolist(), case.gravity.tolist()
        ),
        call,
    )
    expect.close(
        got,
        case.reading,
        call,
        rtol=1e-7,
        atol=1e-7,
        hint="At rest an accelerometer reads what holds it up, opposite to gravity; and it "
        "reads in its own site's frame: site_xmat turns site into world, so which way "
        "turns world into site?",
    )


@expect.visible_check
def accelerometer_reading(accelerometer_reading) -> None:
    """The lesson's three cases: a tilted box at rest, in free fall, and pushed."""
    for what, case in shown_imu_cases().items():
        compare_accelerometer(accelerometer_reading, case, what)
    expect.ok("your readings are MuJoCo's accelerometer at rest, in free fall and pushed.")


def shown_imu_cases() -> dict[str, robots.ImuCase]:
    """The lesson's accelerometer cases, with a site turned 30 degrees about x."""
    turned = (math.cos(math.pi / 12), math.sin(math.pi / 12), 0.0, 0.0)
    xml = robots.imu_body((0.05, 0.0, 0.02), turned)
    tilted = (math.cos(math.pi / 8), 0.0, math.sin(math.pi / 8), 0.0)
    return {
        "a box at rest, tilted": robots.imu_case(xml, tilted, force=(0, 0, 9.81)),
        "a box in free fall": robots.imu_case(xml, tilted),
        "a pushed box": robots.imu_case(xml, tilted, force=(3, 0, 9.81), torque=(0, 0.2, 0)),
    }


def _unit_quaternion(rng: np.random.Generator) -> list[float]:
    quat = rng.normal(size=4)
    return (quat / np.linalg.norm(quat)).tolist()


def random_imu_case(rng: np.random.Generator) -> robots.ImuCase:
    """A box the lesson never shows: its site placed and turned at random, in a random pose,
    under a gravity of another planet or tilted, pushed by a random force and torque."""
    gravity = rng.normal(size=3) * rng.uniform(1, 25) / math.sqrt(3)
    xml = robots.imu_body(rng.uniform(-0.1, 0.1, 3), _unit_quaternion(rng), gravity)
    return robots.imu_case(
        xml, _unit_quaternion(rng), rng.uniform(-5, 5, 3), rng.uniform(-0.3, 0.3, 3)
    )
