"""The lesson's models, one hinge link and a two-link arm, and what MuJoCo computes on them.

Every function here compiles MJCF and reads MuJoCo's arrays; none holds a formula the learner
is asked to write. Units: SI throughout (kg, m, rad, s, N m).
"""

from dataclasses import dataclass

import mujoco
import numpy as np

from course import compiled

# The lesson's rod, (mass kg, length m): 0.5 kg and 0.2 m, hinged at one end about y, so its
# moment about the hinge is m L^2 / 3 = 0.00667 kg m^2.
ROD = (0.5, 0.2)


def rod_inertial(rod: tuple[float, float]) -> str:
    """The <inertial> of a thin rod (mass kg, length m) along x from its body's origin."""
    mass, length = rod
    across = mass * length**2 / 12
    return (
        f'<inertial pos="{length / 2:.9g} 0 0" mass="{mass:.9g}" '
        f'diaginertia="{1e-4 * across:.9g} {across:.9g} {across:.9g}"/>'
    )


def link(
    actuator: str = "",
    joint: str = "",
    option: str = "",
    sensors: str = "",
    extra: str = "",
    rod: tuple[float, float] = ROD,
) -> str:
    """MJCF of a rod (mass kg, length m) on a hinge `j` about y, with a site `tip` at its end.

    actuator: the <actuator> children; joint: extra attributes of the hinge (armature...);
    option: attributes of <option>; sensors: the <sensor> children; extra: more top-level
    elements (a <keyframe>)."""
    length = rod[1]
    return f"""<mujoco>
  <option {option}/>
  <worldbody>
    <light pos="0 -1 1" dir="0 1 -1"/>
    <body name="rod">
      <joint name="j" type="hinge" axis="0 1 0" {joint}/>
      {rod_inertial(rod)}
      <geom type="capsule" fromto="0 0 0 {length:.9g} 0 0" size="0.01" mass="0"
            rgba="0.9 0.5 0.1 1"/>
      <site name="tip" pos="{length:.9g} 0 0"/>
    </body>
  </worldbody>
  <actuator>{actuator}</actuator>
  <sensor>{sensors}</sensor>
  {extra}
</mujoco>"""


def compile_link(*args, **kwargs) -> mujoco.MjModel:
    """The compiled `link(...)`."""
    return compiled.compile_xml(link(*args, **kwargs))


def joint_inertia(model: mujoco.MjModel, qpos=None) -> float:
    """The diagonal of MuJoCo's mass matrix at dof 0 (kg m^2, armature included), at qpos."""
    data = mujoco.MjData(model)
    if qpos is not None:
        data.qpos[:] = qpos
    mujoco.mj_forward(model, data)
    full = np.zeros((model.nv, model.nv))
    mujoco.mj_fullM(model, data, full)
    return float(full[0, 0])


def parameters(model: mujoco.MjModel, actuator: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """MuJoCo's (gainprm[:3], biasprm[:3]) of one actuator of a compiled model."""
    return model.actuator_gainprm[actuator, :3].copy(), model.actuator_biasprm[actuator, :3].copy()


@dataclass(frozen=True)
class Actuated:
    """What mj_forward computes for actuator 0 and dof 0: actuator_length (m or rad),
    actuator_velocity, actuator_force (N or N m), qfrc_actuator (N m)."""

    length: float
    velocity: float
    force: float
    joint_force: float


def actuate(model: mujoco.MjModel, ctrl: float, qpos: float, qvel: float) -> Actuated:
    """Set ctrl, qpos and qvel on the one-joint model, run mj_forward, read the actuator."""
    data = mujoco.MjData(model)
    data.ctrl[0], data.qpos[0], data.qvel[0] = ctrl, qpos, qvel
    mujoco.mj_forward(model, data)
    return Actuated(
        float(data.actuator_length[0]),
        float(data.actuator_velocity[0]),
        float(data.actuator_force[0]),
        float(data.qfrc_actuator[0]),
    )


def settle(model: mujoco.MjModel, ctrl: float, seconds: float, qpos0: float = 0.0) -> np.ndarray:
    """The joint angle (rad) at every step of `seconds` of mj_step from rest at qpos0, ctrl
    held."""
    data = mujoco.MjData(model)
    data.qpos[0], data.ctrl[0] = qpos0, ctrl
    angles = []
    for _ in range(round(seconds / model.opt.timestep)):
        mujoco.mj_step(model, data)
        angles.append(float(data.qpos[0]))
    return np.array(angles)


def overshoot(angles: np.ndarray, start: float, target: float) -> float:
    """How far a step response passes its target, as a fraction of the step."""
    return max(0.0, float(np.max((angles - target) / (target - start))))


def velocity_servo_speeds(
    kv: float, integrator: str, steps: int, timestep: float = 0.01, rod=ROD
) -> np.ndarray:
    """The rod's speed (rad/s) after each of `steps` mj_step calls, from 1 rad/s, under a
    velocity servo of gain kv told to stop (ctrl 0), without gravity. Stops early, before
    MuJoCo's own divergence warning, once the speed passes 1e6 rad/s."""
    model = compile_link(
        f'<velocity joint="j" kv="{kv}"/>',
        option=f'timestep="{timestep}" integrator="{integrator}" gravity="0 0 0"',
        rod=rod,
    )
    data = mujoco.MjData(model)
    data.qvel[0] = 1.0
    speeds = []
    for _ in range(steps):
        mujoco.mj_step(model, data)
        speeds.append(float(data.qvel[0]))
        if abs(speeds[-1]) > 1e6:
            break
    return np.array(speeds)


def stable(kv: float, integrator: str, timestep: float = 0.01, rod=ROD) -> bool:
    """Whether 200 steps of the stopping velocity servo bring 1 rad/s down, not up."""
    speeds = velocity_servo_speeds(kv, integrator, 200, timestep, rod)
    return len(speeds) == 200 and abs(speeds[-1]) < 1.0


def euler_edge(timestep: float = 0.01, low: float = 0.01, high: float = 100.0) -> float:
    """The largest kv (N m s/rad) for which Euler keeps the stopping servo stable, found by
    bisection on simulations (to 1e-4 relative)."""
    while high - low > 1e-4 * low:
        middle = 0.5 * (low + high)
        low, high = (middle, high) if stable(middle, "Euler", timestep) else (low, middle)
    return low


# --------------------------------------------------------------------------------------------
# Sensors


def imu_body(site_pos, site_quat, gravity=(0, 0, -9.81), joint: str = "<freejoint/>") -> str:
    """MJCF of a 1 kg box with an accelerometer and a gyro on site `imu` (at site_pos, m,
    turned by site_quat, w x y z, in the body's frame). joint: "<freejoint/>" for a free box,
    "" for a box fixed to the world."""
    pos = " ".join(f"{v:.9g}" for v in site_pos)
    quat = " ".join(f"{v:.9g}" for v in site_quat)
    g = " ".join(f"{v:.9g}" for v in gravity)
    return f"""<mujoco>
  <option gravity="{g}"/>
  <worldbody>
    <body name="box" pos="0 0 1">
      {joint}
      <geom type="box" size="0.1 0.05 0.03" mass="1"/>
      <site name="imu" pos="{pos}" quat="{quat}"/>
    </body>
  </worldbody>
  <sensor>
    <accelerometer name="accelerometer" site="imu"/>
    <gyro name="gyro" site="imu"/>
  </sensor>
</mujoco>"""


@dataclass(frozen=True)
class ImuCase:
    """One accelerometer case: the site's orientation (site_xmat, 3x3, world from site), its
    linear acceleration in the world frame (m/s^2, from qacc), gravity (m/s^2) and what
    MuJoCo's accelerometer reads (m/s^2, in the site's frame)."""

    site_xmat: np.ndarray
    acceleration: np.ndarray
    gravity: np.ndarray
    reading: np.ndarray


def imu_case(xml: str, body_quat=(1, 0, 0, 0), force=(0, 0, 0), torque=(0, 0, 0)) -> ImuCase:
    """Place the free box of `imu_body` at rest in orientation body_quat, push it with force
    and torque (world frame, N and N m, through xfrc_applied at its centre), run mj_forward
    and read the accelerometer. The site's acceleration is computed from qacc: at rest it is
    the centre's acceleration plus the angular acceleration crossed with the lever arm."""
    model = compiled.compile_xml(xml)
    data = mujoco.MjData(model)
    data.qpos[3:7] = np.asarray(body_quat, float) / np.linalg.norm(body_quat)
    data.xfrc_applied[1] = np.concatenate([force, torque])
    mujoco.mj_forward(model, data)
    site = model.site("imu").id
    rotation = data.xmat[1].reshape(3, 3)
    alpha = rotation @ data.qacc[3:6]  # a free joint's angular dofs are in the body's frame
    lever = data.site_xpos[site] - data.xpos[1]  # the box's centre is its body origin
    acceleration = data.qacc[0:3] + np.cross(alpha, lever)
    return ImuCase(
        data.site_xmat[site].reshape(3, 3).copy(),
        acceleration,
        model.opt.gravity.copy(),
        data.sensor("accelerometer").data.copy(),
    )


def sensor_readings(qpos: float, qvel: float) -> dict[str, np.ndarray]:
    """Each sensor of the lesson's rod (jointpos with noise 1, jointvel, framepos, framequat,
    gyro and accelerometer at the tip) after mj_forward at qpos (rad) and qvel (rad/s), under
    gravity, keyed by its name, with MuJoCo's qpos under "qpos"."""
    sensors = """
    <jointpos name="jointpos" joint="j" noise="1"/>
    <jointvel name="jointvel" joint="j"/>
    <framepos name="framepos" objtype="site" objname="tip"/>
    <framequat name="framequat" objtype="site" objname="tip"/>
    <gyro name="gyro" site="tip"/>
    <accelerometer name="accelerometer" site="tip"/>"""
    model = compile_link(sensors=sensors)
    data = mujoco.MjData(model)
    data.qpos[0], data.qvel[0] = qpos, qvel
    mujoco.mj_forward(model, data)
    readings = {model.sensor(s).name: data.sensor(s).data.copy() for s in range(model.nsensor)}
    readings["qpos"] = data.qpos.copy()
    readings["noise"] = model.sensor_noise.copy()
    return readings


def keyframe_start(qpos: float, ctrl: float) -> tuple[float, float, float]:
    """Compile the rod with a position servo and a keyframe "held" at qpos and ctrl, reset an
    MjData to that keyframe; returns its (qpos, ctrl, time)."""
    key = f'<keyframe><key name="held" qpos="{qpos:.9g}" ctrl="{ctrl:.9g}"/></keyframe>'
    model = compile_link('<position joint="j" kp="100" dampratio="1"/>', extra=key)
    data = mujoco.MjData(model)
    data.time = 5.0
    mujoco.mj_resetDataKeyframe(model, data, model.key("held").id)
    return float(data.qpos[0]), float(data.ctrl[0]), float(data.time)


# --------------------------------------------------------------------------------------------
# Experiment: an arm holding a pose against gravity

ARM = (2.0, 0.4)  # kg, m: its weight needs 3.92 N m to be held level


@dataclass(frozen=True)
class Hold:
    """The arm held level by a position servo: times (s), its angle below level (rad) and the
    servo's torque on the joint (N m) at each step, and gravity's torque at the end."""

    times: np.ndarray
    angles: np.ndarray
    torques: np.ndarray
    gravity_torque: float


def arm(kp: float, forcerange: float | None = None, dampratio: float = 1.0) -> str:
    """MJCF of the ARM on its hinge with a position servo of kp (N m/rad) and dampratio, its
    torque limited to ±forcerange (N m) when given."""
    limit = "" if forcerange is None else f' forcerange="{-forcerange:.9g} {forcerange:.9g}"'
    servo = f'<position joint="j" kp="{kp:.9g}" dampratio="{dampratio:.9g}"{limit}/>'
    return link(servo, rod=ARM)


def hold_level(
    kp: float, forcerange: float | None = None, seconds: float = 3.0, dampratio: float = 1.0
) -> Hold:
    """Let the ARM go level (angle 0), at rest, with a position servo of kp (N m/rad) and
    dampratio told to hold it there (ctrl 0), with the servo's torque limited to ±forcerange
    (N m) when given; mj_step under gravity, MuJoCo's default options."""
    model = compiled.compile_xml(arm(kp, forcerange, dampratio))
    data = mujoco.MjData(model)
    times, angles, torques = [], [], []
    for _ in range(round(seconds / model.opt.timestep)):
        mujoco.mj_step(model, data)
        times.append(data.time)
        angles.append(float(data.qpos[0]))
        torques.append(float(data.qfrc_actuator[0]))
    gravity = -float(data.qfrc_bias[0])  # at rest, qfrc_bias is what gravity's torque needs
    return Hold(np.array(times), np.array(angles), np.array(torques), gravity)


def gravity_torque(angle: float) -> float:
    """Gravity's torque (N m) on the ARM's hinge, at rest `angle` rad below level: minus
    MuJoCo's qfrc_bias, the torque that holds it still."""
    model = compiled.compile_xml(arm(1.0))
    data = mujoco.MjData(model)
    data.qpos[0] = angle
    mujoco.mj_forward(model, data)
    return -float(data.qfrc_bias[0])


def servo_step(
    kp: float, kv: float, inertia: float, target: float, load: float
) -> tuple[np.ndarray, float]:
    """A position servo (kp N m/rad, kv N m s/rad) sent from rest at 0 to `target` rad, on a
    hinge of `inertia` kg m^2 (a rod 0.2 m long of the mass that gives it), without gravity,
    under a constant torque `load` N m on the joint (qfrc_applied).

    Simulated close to the continuous servo: RK4 at a step of 1/100 of 1/sqrt(kp / inertia),
    for 20 time constants of its slowest decay. Returns (the angle at every step, the time
    step, s)."""
    rate = np.sqrt(kp / inertia)
    timestep = 0.01 / rate
    ratio = kv / (2 * np.sqrt(kp * inertia))
    # The slowest decay rate of the response: the envelope's below critical damping, the
    # slow root's above it (the servo creeps in).
    decay = rate * (ratio - np.sqrt(ratio**2 - 1) if ratio > 1 else ratio)
    seconds = 20 / decay
    model = compiled.compile_xml(
        link(
            f'<position joint="j" kp="{kp:.12g}" kv="{kv:.12g}"/>',
            option=f'timestep="{timestep:.12g}" integrator="RK4" gravity="0 0 0"',
            rod=(3 * inertia / 0.2**2, 0.2),
        )
    )
    data = mujoco.MjData(model)
    data.ctrl[0], data.qfrc_applied[0] = target, load
    angles = np.empty(int(seconds / timestep))
    for k in range(len(angles)):
        mujoco.mj_step(model, data)
        angles[k] = data.qpos[0]
    return angles, timestep
