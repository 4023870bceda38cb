"""Scenes and MuJoCo readers for lesson 02, "Time integration and the timestep".

Every scene is a named MJCF template with a small builder that returns the MJCF text;
compile it with `course.compiled.compile_xml`. Every reader asks MuJoCo (mj_forward, mj_step,
mj_integratePos, mjData.energy, mjData.warning) and returns what MuJoCo computed: none of them
holds an integration step a learner is asked to write.

Units: metres, kilograms, seconds, radians; stiffness in N/m, damping in N s/m for a slide
joint and N m s/rad for a hinge.
"""

import contextlib
import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import mujoco
import numpy as np

from course import falls, mjcf
from course.compiled import INTEGRATOR_KEYWORDS, as_model, compile_xml
from course.mjcf import INTEGRATORS, one_of

# A point-like ball on a massless hinge: a simple pendulum of `length` m whose joint axis is
# the world y axis. qpos is the angle from hanging straight down (rad). Energy accounting is
# switched on, so mjData.energy holds (potential, kinetic) in J after mj_forward.
PENDULUM = mjcf.template(__file__, "pendulum")

# Two capsule links on hinges about y: qpos = (shoulder angle from hanging, elbow angle
# relative to the upper link), rad. Its joint-space inertia depends on the elbow angle and is
# not diagonal: the two dofs are coupled. Each hinge may have joint damping (N m s/rad).
DOUBLE_PENDULUM = mjcf.template(__file__, "double_pendulum")

# A block on a horizontal slide joint with a spring to x = 0 (joint stiffness) and viscous
# damping: m x'' = -k x - d x'. No gravity acts along the joint. `autoreset` is "enable"
# (MuJoCo's default: a blown-up state is reset to the model's initial state) or "disable".
SPRING = mjcf.template(__file__, "spring")

# One block on two slide joints, x then z, each with its own spring and damper; gravity acts
# along z. Both joints carry the whole block, and their axes are perpendicular, so the
# joint-space inertia is mass times the 2x2 identity: two dofs, one shared mass.
PLANAR_SPRING = mjcf.template(__file__, "planar_spring")

# A cart on a slide joint along x with a spring to x = 0, carrying a block on a second slide
# joint along x with its own spring to the cart: qpos = (cart position, block position relative
# to the cart), m. The block rides on the cart, so the joint-space inertia
# [[m_cart + m_block, m_block], [m_block, m_block]] couples the two dofs. No gravity.
CART_AND_BLOCK = mjcf.template(__file__, "cart_and_block")


def _integrator(name: str) -> str:
    return one_of(name, INTEGRATORS, "option/integrator")


def pendulum(
    length: float = 0.5,
    mass: float = 1.0,
    damping: float = 0.0,
    timestep: float = 0.01,
    integrator: str = "Euler",
    gravity: float = 9.81,
    radius: float = 0.02,
) -> str:
    """A ball of `mass` kg and `radius` m on a massless arm `length` m long, hinged about y.

    damping: joint damping, N m s/rad. Its joint-space inertia is the ball's inertia about
    the hinge, which `joint_inertia` reads from MuJoCo.
    """
    _integrator(integrator)
    return mjcf.fill(PENDULUM, locals())


def double_pendulum(
    upper_length: float = 0.4,
    lower_length: float = 0.3,
    upper_mass: float = 1.0,
    lower_mass: float = 0.6,
    timestep: float = 0.005,
    integrator: str = "Euler",
    gravity: float = 9.81,
    damping=(0.0, 0.0),
) -> str:
    """Two capsule links (lengths in m, masses in kg) hanging from hinges about y.

    damping: (shoulder, elbow) joint damping, N m s/rad.
    """
    _integrator(integrator)
    upper_damping, lower_damping = (float(d) for d in damping)
    return mjcf.fill(DOUBLE_PENDULUM, locals())


def spring(
    stiffness: float = 1e4,
    mass: float = 1.0,
    damping: float = 0.0,
    timestep: float = 0.002,
    integrator: str = "Euler",
    autoreset: bool = True,
) -> str:
    """A `mass` kg block on a slide joint with a spring of `stiffness` N/m and `damping` N s/m.

    Its angular frequency is w = sqrt(stiffness / mass) rad/s. With autoreset False, MuJoCo
    still warns when the state blows up but no longer resets it.
    """
    _integrator(integrator)
    autoreset = "enable" if autoreset else "disable"
    return mjcf.fill(SPRING, locals())


def planar_spring(
    stiffness=(400.0, 900.0),
    damping=(2.0, 30.0),
    mass: float = 1.0,
    timestep: float = 0.005,
    integrator: str = "Euler",
    gravity: float = 9.81,
) -> str:
    """A `mass` kg block on slide joints x and z: stiffness (N/m) and damping (N s/m) per joint."""
    _integrator(integrator)
    (stiffness_x, stiffness_z), (damping_x, damping_z) = stiffness, damping
    return mjcf.fill(PLANAR_SPRING, locals())


def cart_and_block(
    stiffness=(400.0, 900.0),
    mass=(1.0, 0.3),
    damping=(0.0, 0.0),
    timestep: float = 0.002,
    integrator: str = "Euler",
    autoreset: bool = True,
) -> str:
    """A cart and the block it carries: (cart, block) stiffness in N/m, mass in kg and damping
    in N s/m. The block's spring and damper act between it and the cart."""
    _integrator(integrator)
    (cart_stiffness, block_stiffness), (cart_mass, block_mass) = stiffness, mass
    cart_damping, block_damping = damping
    autoreset = "enable" if autoreset else "disable"
    return mjcf.fill(CART_AND_BLOCK, locals())


def with_integrator(xml: str, integrator: str) -> str:
    """The same MJCF with option/integrator set (the text must have one <option ...> tag
    without an integrator attribute)."""
    if xml.count("<option ") != 1 or "integrator=" in xml:
        raise ValueError("with_integrator needs exactly one <option ...> tag and no integrator")
    return xml.replace("<option ", f'<option integrator="{_integrator(integrator)}" ', 1)


# --------------------------------------------------------------------------------------------
# Reading MuJoCo


def _state(model: mujoco.MjModel, values, what: str) -> np.ndarray:
    array = np.array(values, dtype=float).reshape(-1)
    if array.size != model.nv or model.nq != model.nv:
        raise ValueError(f"{what} needs {model.nv} numbers (one per hinge or slide joint)")
    return array


def _out(array: np.ndarray):
    """A copy of a MuJoCo vector: a float for a one-dof model, an array otherwise."""
    return float(array[0]) if array.size == 1 else array.copy()


def accel_function(xml_or_model) -> Callable:
    """accel(x, v): the joint accelerations qacc (rad/s^2 or m/s^2) MuJoCo computes at the
    state qpos = x, qvel = v, read after mj_forward (no time passes).

    Every force of the model is included: gravity, springs, damping. x and v are floats for a
    one-dof model (a float is returned) or arrays of length nv (an array is returned).
    """
    model = as_model(xml_or_model)
    data = mujoco.MjData(model)

    def accel(x, v):
        data.qpos[:] = _state(model, x, "x")
        data.qvel[:] = _state(model, v, "v")
        mujoco.mj_forward(model, data)
        return _out(data.qacc)

    return accel


# accel(x, v) in NumPy, for a check to hand a learner's step (see `accel_formula`): the
# generalized forces as fitted coefficients times sines and cosines of the hinge angles.
ACCEL = """
def accel(x, v):
    q = np.asarray(x, dtype=float).reshape(-1)
    w = np.asarray(v, dtype=float).reshape(-1)
    elbow = len(q) == 2 and hinge[0] and hinge[1]  # the inertia depends on the elbow angle
    angle = q[1] if elbow else 0.0
    inertia = m0 + mc * np.cos(angle) + ms * np.sin(angle)
    gravity = bias @ basis(q)
    coriolis = np.zeros(len(q))
    if elbow:  # from the Christoffel symbols of an inertia that depends on q[1] alone
        slope = ms * np.cos(angle) - mc * np.sin(angle)
        coriolis[0] = slope[0, 0] * w[0] * w[1] + slope[0, 1] * w[1] ** 2
        coriolis[1] = -0.5 * slope[0, 0] * w[0] ** 2
    force = -stiffness * (q - spring) - damping * w - gravity - coriolis
    a = np.linalg.solve(inertia, force)
    return float(a[0]) if len(a) == 1 else a


def basis(q):
    terms, turned = [1.0], 0.0
    for value, is_hinge in zip(q, hinge):
        if is_hinge:
            turned = turned + value
            terms += [np.sin(turned), np.cos(turned)]
    return np.array(terms)
"""


def _fitted_forces(model: mujoco.MjModel, hinge: list[bool]) -> dict:
    """ACCEL's values, fitted to what mj_forward computes at random states at rest: the
    joint-space inertia as m0 + mc cos(elbow) + ms sin(elbow), gravity's generalized force as
    bias @ basis(q), basis being 1 and the sine and cosine of each hinge's angle from the
    world (the hinges turn about parallel axes); springs and dampers as the model has them."""
    data, rng = mujoco.MjData(model), np.random.default_rng(0)
    namespace = {"np": np, "hinge": hinge}
    exec(ACCEL, namespace)  # noqa: S102 - the module's own text: its basis, fitted here
    basis = namespace["basis"]
    two_hinges = model.nv == 2 and all(hinge)
    rows, inertias, biases, bases = [], [], [], []
    for q in rng.uniform(-np.pi, np.pi, (12, model.nv)):
        data.qpos[:], data.qvel[:] = q, 0.0
        mujoco.mj_forward(model, data)
        full = np.zeros((model.nv, model.nv))
        mujoco.mj_fullM(model, data, full)
        angle = q[1] if two_hinges else 0.0
        rows.append([1.0, np.cos(angle), np.sin(angle)] if two_hinges else [1.0])
        inertias.append(full.reshape(-1))
        biases.append(data.qfrc_bias.copy())
        bases.append(basis(q))
    fit = np.linalg.lstsq(np.array(rows), np.array(inertias), rcond=None)[0]
    shape, zero = (model.nv, model.nv), np.zeros((model.nv, model.nv))
    m0, mc, ms = (fit[i].reshape(shape) if i < len(fit) else zero for i in range(3))
    bias = np.linalg.lstsq(np.array(bases), np.array(biases), rcond=None)[0].T
    return {
        "m0": m0, "mc": mc, "ms": ms, "bias": bias, "hinge": hinge,
        "stiffness": model.jnt_stiffness.copy(), "spring": model.qpos_spring.copy(),
        "damping": model.dof_damping.copy(),
    }  # fmt: skip


def accel_formula(xml_or_model):
    """accel(x, v) as accel_function gives it, but in NumPy: an expect.Formula, which the
    grader evaluates beside the learner's step instead of calling MuJoCo back for every
    evaluation (thousands in a lesson-02 notebook). Its coefficients are fitted to
    mj_forward, and it is used only once it reproduces mj_forward's qacc to 1e-10 at random
    states; for a model it cannot reproduce (not one or two hinges about parallel axes, or
    slides, with springs, dampers and gravity), accel_function's callback is returned.
    """
    from course import expect  # here: expect is the learner's API, this module the lesson's

    model = as_model(xml_or_model)
    fallback = accel_function(model)
    kinds = {int(mujoco.mjtJoint.mjJNT_HINGE), int(mujoco.mjtJoint.mjJNT_SLIDE)}
    if model.nq != model.nv or model.nv > 2 or set(model.jnt_type.tolist()) - kinds:
        return fallback
    hinge = [int(t) == int(mujoco.mjtJoint.mjJNT_HINGE) for t in model.jnt_type]
    formula = expect.Formula(ACCEL, "accel", **_fitted_forces(model, hinge))
    rng = np.random.default_rng(1)
    for _ in range(8):
        x, v = rng.uniform(-np.pi, np.pi, model.nv), rng.uniform(-5, 5, model.nv)
        want = np.reshape(fallback(_out(x), _out(v)), -1)
        got = np.reshape(formula(_out(x), _out(v)), -1)
        if not np.allclose(got, want, rtol=1e-10, atol=1e-10):
            return fallback
    return formula


def joint_inertia(xml_or_model, qpos=None) -> np.ndarray:
    """The joint-space inertia matrix M (nv x nv) at qpos (default: the model's qpos0).

    For a one-dof model M[0, 0] is the mass (slide, kg) or the moment of inertia about the
    hinge (kg m^2).
    """
    model = as_model(xml_or_model)
    data = mujoco.MjData(model)
    if qpos is not None:
        data.qpos[:] = _state(model, qpos, "qpos")
    mujoco.mj_forward(model, data)
    full = np.zeros((model.nv, model.nv))
    mujoco.mj_fullM(model, data, full)
    return full


def trajectory(xml_or_model, steps: int, qpos0, qvel0=None):
    """(positions, velocities) after 0..`steps` calls to mj_step, with the model's integrator.

    Both arrays have shape (steps + 1, nv); row 0 is the start state (qpos0, qvel0).
    """
    model = as_model(xml_or_model)
    data = mujoco.MjData(model)
    data.qpos[:] = _state(model, qpos0, "qpos0")
    data.qvel[:] = 0.0 if qvel0 is None else _state(model, qvel0, "qvel0")
    positions, velocities = [data.qpos.copy()], [data.qvel.copy()]
    with quiet_warnings():
        for _ in range(steps):
            mujoco.mj_step(model, data)
            positions.append(data.qpos.copy())
            velocities.append(data.qvel.copy())
    return np.array(positions), np.array(velocities)


def old_velocity_trajectory(xml_or_model, steps: int, qpos0, qvel0=None):
    """(positions, velocities) when each step moves the position with the velocity from
    BEFORE the step, assembled from MuJoCo's own pieces.

    From each state, the new velocity is the one mj_step computes (integrator Euler on an
    undamped model), and the new position is mj_integratePos applied to the old position with
    the old velocity. Shapes as for `trajectory`.
    """
    model = as_model(xml_or_model)
    if model.opt.integrator != mujoco.mjtIntegrator.mjINT_EULER or np.any(model.dof_damping):
        raise ValueError("old_velocity_trajectory needs integrator Euler and no joint damping")
    data = mujoco.MjData(model)
    qpos = _state(model, qpos0, "qpos0")
    qvel = np.zeros(model.nv) if qvel0 is None else _state(model, qvel0, "qvel0")
    positions, velocities = [qpos.copy()], [qvel.copy()]
    with quiet_warnings():
        for _ in range(steps):
            data.qpos[:], data.qvel[:] = qpos, qvel
            mujoco.mj_step(model, data)
            moved = qpos.copy()
            mujoco.mj_integratePos(model, moved, qvel, model.opt.timestep)
            qpos, qvel = moved, data.qvel.copy()
            positions.append(qpos.copy())
            velocities.append(qvel.copy())
    return np.array(positions), np.array(velocities)


def energies(xml_or_model, positions, velocities) -> np.ndarray:
    """Total mechanical energy (J), potential plus kinetic, that MuJoCo assigns to each state.

    positions, velocities: sequences of states (floats for a one-dof model, or rows of length
    nv). The potential energy counts gravity (zero at height 0) and joint springs. The model
    must enable energy accounting (<flag energy="enable"/>, as every scene here does).
    """
    model = as_model(xml_or_model)
    if not model.opt.enableflags & mujoco.mjtEnableBit.mjENBL_ENERGY:
        raise ValueError('mjData.energy stays zero unless the model has <flag energy="enable"/>')
    data = mujoco.MjData(model)
    out = []
    for x, v in zip(positions, velocities, strict=True):
        data.qpos[:] = _state(model, x, "a position")
        data.qvel[:] = _state(model, v, "a velocity")
        mujoco.mj_forward(model, data)
        out.append(float(data.energy[0] + data.energy[1]))
    return np.array(out)


# --------------------------------------------------------------------------------------------
# Warnings and blow-ups


@contextlib.contextmanager
def quiet_warnings() -> Iterator[list[str]]:
    """Inside the block, MuJoCo's warning messages go into the yielded list instead of being
    printed on stderr. mjData.warning still counts every warning, as it always does."""
    messages: list[str] = []
    previous = mujoco.get_mju_user_warning()
    mujoco.set_mju_user_warning(messages.append)
    try:
        yield messages
    finally:
        mujoco.set_mju_user_warning(previous)


def warnings_raised(data: mujoco.MjData) -> dict[str, int]:
    """The warnings MuJoCo counted in data.warning: {name: number of times}, nonzero only."""
    counted = {}
    for name, kind in mujoco.mjtWarning.__members__.items():
        if kind == mujoco.mjtWarning.mjNWARNING:
            continue
        number = int(data.warning[int(kind)].number)
        if number:
            counted[name] = number
    return counted


@dataclass(frozen=True)
class SpringRun:
    """A spring released from x0 and stepped by MuJoCo.

    positions: qpos after 0..steps steps (m); blowups: how many times MuJoCo detected a bad
    acceleration (data.warning[mjWARN_BADQACC].number); message: MuJoCo's text for that
    warning, or "" when there was none; time_s: data.time at the end (s), which restarts at 0
    whenever MuJoCo resets a blown-up state.
    """

    positions: np.ndarray
    blowups: int
    message: str
    time_s: float

    @property
    def largest(self) -> float:
        """The largest |x| reached, in m."""
        return float(np.max(np.abs(self.positions)))


def spring_run(
    stiffness: float,
    mass: float,
    timestep: float,
    integrator: str = "Euler",
    steps: int = 1000,
    x0: float = 1.0,
    autoreset: bool = True,
) -> SpringRun:
    """Release the `spring` block at x0 (m) from rest and call mj_step `steps` times.

    MuJoCo's blow-up warning is read from data.warning; nothing is printed.
    """
    model = compile_xml(spring(stiffness, mass, 0.0, timestep, integrator, autoreset))
    data = mujoco.MjData(model)
    data.qpos[0] = x0
    positions = [data.qpos[0]]
    with quiet_warnings():
        for _ in range(steps):
            mujoco.mj_step(model, data)
            positions.append(data.qpos[0])
    bad = data.warning[mujoco.mjtWarning.mjWARN_BADQACC]
    message = mujoco.mju_warningText(mujoco.mjtWarning.mjWARN_BADQACC, bad.lastinfo)
    return SpringRun(
        positions=np.array(positions),
        blowups=int(bad.number),
        message=message if bad.number else "",
        time_s=float(data.time),
    )


def stays_bounded(
    stiffness: float,
    mass: float,
    timestep: float,
    integrator: str = "Euler",
    steps: int = 1000,
    bound: float = 100.0,
) -> bool:
    """True when MuJoCo keeps the spring released at x = 1 m within |x| <= bound for `steps`
    steps, without a blow-up warning."""
    run = spring_run(stiffness, mass, timestep, integrator, steps, 1.0, autoreset=False)
    return run.blowups == 0 and bool(np.all(np.abs(run.positions) <= bound))


class ModelStepper:
    """A step function with the lesson's contract, step(x, v, accel, h) -> (x_new, v_new),
    whose step is MuJoCo's own: one mj_step of a model with timestep h.

    x and v are the position and velocity of the model's first joint. A model with more joints
    keeps theirs inside the stepper: a call that passes back exactly the (x, v) the previous
    call returned goes on from there; any other call starts a new release, with the other
    joints at rest at qpos0. The force comes from the model, so `accel` is not called.
    Auto-reset is off and warnings are silent, so a blow-up shows as huge or non-finite
    numbers, as it would in your own step.

    w: the angular frequency (rad/s) handed to largest_stable_timestep with this step.
    what: the model in a few words, for messages.
    """

    def __init__(self, xml: str, w: float, what: str):
        self.model = compile_xml(xml)
        autoreset = not self.model.opt.disableflags & mujoco.mjtDisableBit.mjDSBL_AUTORESET
        if self.model.nq != self.model.nv or autoreset:
            raise ValueError("a stepper needs hinge or slide joints and autoreset disabled")
        self.data = mujoco.MjData(self.model)
        self.w, self.what = float(w), what
        self.integrator = INTEGRATOR_KEYWORDS[mujoco.mjtIntegrator(self.model.opt.integrator)]
        self.calls = 0
        self._returned = None  # the (x, v) of the previous call, to go on from

    def _release(self, data: mujoco.MjData) -> None:
        """The other joints at rest at qpos0, before a new release."""
        data.qpos[:] = self.model.qpos0
        data.qvel[:] = 0.0

    def __call__(self, x, v, accel, h):
        state = _one(x), _one(v)
        if self.model.nv > 1 and state != self._returned:
            self._release(self.data)
        self.model.opt.timestep = float(h)
        self.data.qpos[0], self.data.qvel[0] = state
        with quiet_warnings():
            mujoco.mj_step(self.model, self.data)
        self.calls += 1
        self._returned = float(self.data.qpos[0]), float(self.data.qvel[0])
        return self._returned

    def _stepped(self, data: mujoco.MjData, state: np.ndarray) -> np.ndarray:
        """The state (qpos, qvel) after one mj_step of `data` started at `state`."""
        n = self.model.nv
        mujoco.mj_resetData(self.model, data)
        data.qpos[:], data.qvel[:] = state[:n], state[n:]
        with quiet_warnings():
            mujoco.mj_step(self.model, data)
        return np.concatenate([data.qpos, data.qvel])

    def affine(self, h: float) -> tuple[list, list]:
        """(A, b), nested lists: one mj_step of timestep h takes the state s = (qpos, qvel) to
        A s + b, read from MuJoCo by stepping the origin and each unit state (exact, to
        round-off, for a model whose forces are linear in the state)."""
        data, size = mujoco.MjData(self.model), 2 * self.model.nv
        self.model.opt.timestep = float(h)
        b = self._stepped(data, np.zeros(size))
        a = np.column_stack([self._stepped(data, unit) - b for unit in np.eye(size)])
        return a.tolist(), b.tolist()

    @functools.cached_property
    def _linear(self) -> bool:
        """Whether `affine` reproduces mj_step at a few states (springs and dampers: yes);
        asked only by the grader, never in a notebook."""
        a, b = (np.array(m) for m in self.affine(0.001))
        data = mujoco.MjData(self.model)
        for state in np.random.default_rng(0).uniform(-1, 1, (3, 2 * self.model.nv)):
            if not np.allclose(a @ state + b, self._stepped(data, state), rtol=1e-9, atol=1e-12):
                return False
        return True

    def answer_formula(self):
        """What the grader hands a learner's function in place of this stepper: REPLICA, the
        same steps replayed in the learner's process from one affine map per timestep, each
        asked of this stepper once (one crossing a timestep, not one a step: a bisection
        takes tens of thousands of steps). None for a model that is not linear: then every
        step is a call back to MuJoCo."""
        if not self._linear:
            return None
        values = {"affine": self.affine, "qpos0": self.model.qpos0.tolist(), "nv": self.model.nv}
        return REPLICA, "step", values

    def stays_bounded(self, h: float, steps: int = 1000, bound: float = 100.0) -> bool:
        """True when MuJoCo, released with the first joint at 1 and at rest (the others at
        rest at qpos0), keeps that joint within |x| <= bound for `steps` steps of h, without
        a blow-up warning. A run of its own: the stepper's state is not touched."""
        data = mujoco.MjData(self.model)
        self._release(data)
        data.qpos[0] = 1.0
        self.model.opt.timestep = float(h)
        bounded = True
        with quiet_warnings():
            for _ in range(steps):
                mujoco.mj_step(self.model, data)
                if not abs(data.qpos[0]) <= bound:
                    bounded = False
                    break
        return bounded and data.warning[mujoco.mjtWarning.mjWARN_BADQACC].number == 0

    def __repr__(self) -> str:
        return f"<MuJoCo's {self.integrator} step of {self.what}, w = {self.w:g} rad/s>"


# ModelStepper's steps, replayed with NumPy from its affine maps (ModelStepper.answer_formula):
# the same contract, the same release of the other joints, the same error for a bad x or v.
REPLICA = """
class Replica:
    def __init__(self):
        self.maps, self.state, self.returned = {}, None, None

    def __call__(self, x, v, accel, h):
        x, v = one(x), one(v)
        if self.state is None or nv == 1 or (x, v) != self.returned:
            self.state = [float(q) for q in qpos0] + [0.0] * nv
        state = list(self.state)
        state[0], state[nv] = x, v
        h = float(h)
        found = self.maps.get(h)
        if found is None:
            a, b = affine(h)
            found = self.maps[h] = ([[float(c) for c in row] for row in a], [float(c) for c in b])
        rows, offsets = found
        # Plain floats, not NumPy: a few numbers a step, and a bisection takes tens of
        # thousands of steps. A blown-up state overflows to inf or nan, as in NumPy.
        self.state = [
            sum([r * s for r, s in zip(row, state)]) + offset for row, offset in zip(rows, offsets)
        ]
        self.returned = self.state[0], self.state[nv]
        return self.returned


def one(value):
    if type(value) is float:
        return value
    array = np.asarray(value, dtype=float).reshape(-1)
    if array.size != 1:
        raise ValueError("this step takes x and v as single numbers, one joint's")
    return float(array[0])


step = Replica()
"""


def _one(value) -> float:
    """A position or velocity of one joint: a float, or an array holding one number."""
    array = np.asarray(value, dtype=float).reshape(-1)
    if array.size != 1:
        raise ValueError("this step takes x and v as single numbers, one joint's")
    return float(array[0])


class SpringStepper(ModelStepper):
    """MuJoCo's step of the `spring` scene (stiffness N/m, mass kg, damping N s/m) under
    `integrator`, with w = sqrt(stiffness / mass). See ModelStepper."""

    def __init__(
        self, stiffness: float, mass: float, integrator: str = "Euler", damping: float = 0.0
    ):
        self.stiffness, self.mass, self.damping = float(stiffness), float(mass), float(damping)
        xml = spring(stiffness, mass, damping, 0.001, integrator, autoreset=False)
        what = "a damped spring" if damping else "a spring"
        super().__init__(xml, np.sqrt(self.stiffness / self.mass), what)

    def __repr__(self) -> str:
        damping = f", damping={self.damping:g}" if self.damping else ""
        return (
            f"SpringStepper(stiffness={self.stiffness:g}, mass={self.mass:g}, "
            f"integrator={self.integrator!r}{damping})"
        )


class CartStepper(ModelStepper):
    """MuJoCo's step of `cart_and_block` under `integrator`: x and v are the cart's, and the
    block it carries moves inside the stepper. w = sqrt(k_cart / (m_cart + m_block)), the
    cart's frequency with the block held fixed on it. See ModelStepper."""

    def __init__(self, stiffness, mass, integrator: str = "Euler", damping=(0.0, 0.0)):
        xml = cart_and_block(stiffness, mass, damping, 0.001, integrator, autoreset=False)
        w = np.sqrt(float(stiffness[0]) / (float(mass[0]) + float(mass[1])))
        super().__init__(xml, w, "a cart carrying a block on a spring")


# --------------------------------------------------------------------------------------------
# Lesson 01's drop under another integrator


@dataclass(frozen=True)
class Landing:
    """When a falling cube reaches the table top: step, and time (s) interpolated within the
    landing step (course.falls.landing_time)."""

    step: int
    time_s: float


def landing_of(heights, timestep: float) -> Landing:
    """The landing of a fall sampled every `timestep` s: heights (m) of the bottom face above
    the table top, the first at t = 0. The time is interpolated linearly between the two
    samples around the crossing, so a fall that is exact at every sample still lands off the
    true time by what the straight line misses of the curve."""
    return Landing(falls.landing_step(heights), falls.landing_time(heights, timestep))


def cube_fall_heights(
    integrator: str = "Euler",
    timestep: float = 0.002,
    drop_height: float = 0.40,
    gravity: float = 9.81,
    mass: float = 1.0,
    air_density: float = 0.0,
) -> np.ndarray:
    """Height (m) of the bottom face of lesson 01's 20 cm cube (`mass` kg) above the table top
    at every step of `integrator`, from `drop_height` at t = 0 to the first step at or below
    0; in vacuum unless `air_density` kg/m^3 is given: 1.2 is air."""
    xml = with_integrator(
        falls.shape_drop("box", (0.1, 0.1, 0.1), mass, air_density, timestep, gravity), integrator
    )
    model = compile_xml(xml)
    data = mujoco.MjData(model)
    z = model.jnt_qposadr[model.body("body").jntadr[0]] + 2
    start = data.qpos[z]
    heights = [drop_height]
    max_steps = falls.fall_steps(drop_height, gravity, timestep)
    while heights[-1] > 0:
        if len(heights) > max_steps:
            raise RuntimeError("the cube did not land in twice the vacuum fall time")
        mujoco.mj_step(model, data)
        heights.append(drop_height + data.qpos[z] - start)
    return np.asarray(heights, dtype=float)  # metres, one per step


def cube_landing(
    integrator: str = "Euler",
    timestep: float = 0.002,
    drop_height: float = 0.40,
    gravity: float = 9.81,
    mass: float = 1.0,
    air_density: float = 0.0,
) -> Landing:
    """Landing of lesson 01's 20 cm cube (`mass` kg, its bottom face `drop_height` m above the
    table top, in vacuum unless `air_density` kg/m^3 is given: 1.2 is air) when it is stepped
    with `integrator`."""
    heights = cube_fall_heights(integrator, timestep, drop_height, gravity, mass, air_density)
    return landing_of(heights, timestep)
