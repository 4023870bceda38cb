"""Visible checks for lesson 02, "Time integration and the timestep": the cases the lesson shows.

A step function is checked by driving it with MuJoCo's own accelerations (qacc after
mj_forward; dynamics.accel_formula, which reproduces them in NumPy to round-off so that the
grader need not call MuJoCo back at every evaluation) and comparing its trajectory with MuJoCo's:
mj_step with integrator Euler for the semi-implicit step, RK4 for rk4, and for explicit Euler
MuJoCo's velocity update with the position moved by mj_integratePos with the velocity from
before the step. A stability edge is checked by stepping MuJoCo just below and just above it.

Hidden tests call the compare_* functions on cases the lesson never shows; for the stability
edge these are MuJoCo's steps of systems whose edge is neither 2/w nor 2.83/w (a damped
spring, a cart carrying a block: dynamics.SpringStepper, dynamics.CartStepper).

A failure names the likely mistake from what the learner's trajectory shows (which value leaves
MuJoCo's first, which velocity moved the position), in a message of a few lines; an error the
learner's own code raises becomes such a message too, naming the learner's line.
"""

import warnings

import mujoco
import numpy as np

from course import compiled, expect
from course.expect import letter  # noqa: F401 (test cells call check.letter)
from course.lessons.time_integration import dynamics

# The lesson's pendulum: a 1 kg ball 50 cm below its hinge, released at rest from 1 rad and
# stepped 200 times with h = 10 ms.
PENDULUM = {"length": 0.5, "mass": 1.0}
PENDULUM_TIMESTEP = 0.01
PENDULUM_START = (1.0, 0.0)
STEPS = 200
# Step 2's damped pendulum: joint damping in N m s/rad, released swinging at 2 rad/s.
DAMPING = 0.3
DAMPED_START = (1.0, 2.0)
# The double pendulum the lesson shows (arrays of two angles), released at rest.
DOUBLE_PENDULUM = {"upper_length": 0.4, "lower_length": 0.3, "upper_mass": 1.0, "lower_mass": 0.6}
DOUBLE_TIMESTEP = 0.005
DOUBLE_START = ((1.0, -0.5), (0.0, 0.0))
# Step 4's stiff spring: k = 1e4 N/m, m = 1 kg, so w = 100 rad/s.
STIFF_SPRING = (1e4, 1.0)
# A stability edge is accepted when MuJoCo is stable 1 % below it and blows up 1 % above it.
EDGE_MARGIN = 0.01

# Trajectories are compared to round-off: MuJoCo and a correct step do the same arithmetic.
ATOL = 1e-9
RTOL = 1e-9

HINTS = {
    "explicit_euler": "Explicit Euler moves the position with the velocity from BEFORE the "
    "step; both updates read only the old state.",
    "explicit_velocity": "The velocity is wrong already: explicit Euler updates it as MuJoCo's "
    "Euler does, with one call of accel at the state the step starts from (the table in The "
    "core idea).",
    "explicit_is_semi": "Your explicit_euler moves with the NEW velocity: that is the "
    "semi-implicit step of Step 2. Explicit Euler moves with the old one.",
    "semi_implicit_euler": "MuJoCo's Euler updates the velocity first and then moves the "
    "position with the NEW velocity.",
    "semi_is_explicit": "Your step moves the position with the OLD velocity, the one it was "
    "given: MuJoCo's Euler updates the velocity first, then moves the position with the new one "
    "(Step 2).",
    "damping_ignored": "Your step gives the same result whatever c_implicit is: MuJoCo's Euler "
    "treats damping implicitly, as Step 2 describes.",
    "damping_misplaced": "c_implicit is used, but not the way MuJoCo's Euler uses it: the "
    "implicit factor acts on this step's change of velocity only, not on the old velocity.",
    "rk4": "Compare your four stages with the table of Step 3: the time fraction at which each "
    "stage is evaluated, the state it starts from, and the weight of each slope.",
    "rk4_is_euler": "Your rk4 gives MuJoCo's Euler step: it calls accel once. RK4 evaluates "
    "four slopes per step.",
}


def _call(function, name: str, *args):
    """function(*args), where an error raised by the learner's own code (a typo, a wrong
    shape) becomes a short failure naming it and the learner's line, so the notebook shows one
    block and no traceback through this package. In the grader a learner's error arrives as
    the boundary's own kind and passes through unchanged."""
    try:
        return function(*args)
    except AssertionError:
        raise
    except Exception as error:
        if type(error).__module__ != "builtins":
            raise
        kind = type(error).__name__
        raise AssertionError(f"{name} raised {kind}: {error}{expect.where(error)}") from None


def _state(values):
    """A start value as the learner receives it: a float for one dof, an array for several."""
    array = np.array(values, dtype=float).reshape(-1)
    return float(array[0]) if array.size == 1 else array


def _row(array_row):
    return float(array_row[0]) if array_row.size == 1 else array_row


def _learner_trajectory(step, name, accel, x0, v0, h, steps, c_implicit=None):
    """Positions and velocities from calling the learner's step `steps` times."""
    extra = () if c_implicit is None else (c_implicit,)
    xs, vs, stopped = _call(
        expect.trajectory, name, step, accel, _state(x0), _state(v0), h, steps, *extra
    )
    if stopped is not None:
        _pair(stopped[0], name)
    return xs, vs


def _pair(result, name: str):
    """The (x, v) a step returned; NotAnswered for None, AssertionError for anything else."""
    if result is None:
        raise expect.NotAnswered(f"{name} returned None: write the body of {name}.")
    return expect.sequence_of(result, 2, f"{name}(x, v, accel, h)")


def _matches(xs, vs, positions, velocities) -> bool:
    """True when a learner's trajectory equals a MuJoCo trajectory to round-off."""
    try:
        for k in range(len(xs)):
            expect.close(xs[k], _row(positions[k]), "x", rtol=RTOL, atol=ATOL)
            expect.close(vs[k], _row(velocities[k]), "v", rtol=RTOL, atol=ATOL)
    except AssertionError:
        return False
    return True


def _all_close(got, want, rtol: float = RTOL, atol: float = ATOL) -> bool:
    """True when two sequences of values are equal elementwise to round-off."""
    try:
        for g, w in zip(got, want, strict=True):
            expect.close(g, expect.as_floats(w, "want"), "got", rtol=rtol, atol=atol)
    except (AssertionError, TypeError, ValueError):
        return False
    return True


def _first_wrong(xs, vs, positions, velocities) -> str | None:
    """Which of the learner's values leaves MuJoCo's first, "velocity" or "position" (at each
    step the velocity is compared first, as _assert_trajectory does); None if neither does."""
    for k in range(1, len(xs)):
        if not _all_close([vs[k]], [_row(velocities[k])]):
            return "velocity"
        if not _all_close([xs[k]], [_row(positions[k])]):
            return "position"
    return None


def _moved_with(xs, vs, h: float, old: bool) -> bool:
    """True when every step of the learner's trajectory moved the position by h times the
    velocity from before the step (old=True) or from after it (old=False), and not by the
    other one, whatever its velocity update did."""
    try:
        moves = [
            np.asarray(b, float) - np.asarray(a, float)
            for a, b in zip(xs[:-1], xs[1:], strict=True)
        ]
        before = [h * np.asarray(v, float) for v in vs[:-1]]
        after = [h * np.asarray(v, float) for v in vs[1:]]
    except (TypeError, ValueError):
        return False
    used, other = (before, after) if old else (after, before)
    return _all_close(moves, used, 1e-7, 1e-12) and not _all_close(moves, other, 1e-7, 1e-12)


def _assert_trajectory(xs, vs, positions, velocities, what: str, hint: str) -> None:
    """Raise at the first step where the learner's state leaves MuJoCo's."""
    for k in range(1, len(xs)):
        expect.close(
            vs[k],
            _row(velocities[k]),
            f"the velocity after {k} step(s) of {what}",
            RTOL,
            ATOL,
            hint,
        )
        expect.close(
            xs[k], _row(positions[k]), f"the position after {k} step(s) of {what}", RTOL, ATOL, hint
        )


def _scene(xml_or_model):
    return compiled.as_model(xml_or_model)


def compare_explicit_euler(explicit_euler, xml: str, steps: int, qpos0, qvel0, what: str) -> None:
    """Assert explicit_euler follows MuJoCo's velocity update with positions moved by the old
    velocity (an undamped scene with integrator Euler)."""
    model = _scene(xml)
    h = model.opt.timestep
    want = dynamics.old_velocity_trajectory(model, steps, qpos0, qvel0)
    xs, vs = _learner_trajectory(
        explicit_euler, "explicit_euler", dynamics.accel_formula(model), qpos0, qvel0, h, steps
    )
    if _matches(xs, vs, *want):
        return
    if _first_wrong(xs, vs, *want) == "velocity":
        hint = HINTS["explicit_velocity"]
    elif _moved_with(xs, vs, h, old=False):
        hint = HINTS["explicit_is_semi"]
    else:
        hint = HINTS["explicit_euler"]
    _assert_trajectory(xs, vs, *want, what, hint)


def compare_semi_implicit(semi_implicit_euler, xml: str, steps: int, qpos0, qvel0, what) -> None:
    """Assert semi_implicit_euler follows mj_step (integrator Euler) on an undamped scene."""
    model = _scene(xml)
    h = model.opt.timestep
    want = dynamics.trajectory(model, steps, qpos0, qvel0)
    accel = dynamics.accel_formula(model)
    xs, vs = _learner_trajectory(
        semi_implicit_euler, "semi_implicit_euler", accel, qpos0, qvel0, h, steps
    )
    if _matches(xs, vs, *want):
        return
    old = _moved_with(xs, vs, h, old=True)
    hint = HINTS["semi_is_explicit"] if old else HINTS["semi_implicit_euler"]
    _assert_trajectory(xs, vs, *want, what, hint)


def damping_rates(model) -> "float | np.ndarray":
    """c_implicit for each dof: joint damping divided by the diagonal of the joint-space
    inertia (1/s).

    MuJoCo's Euler solves (M + h D) dv = h M a; one rate per dof reproduces it only when M is
    diagonal. The lesson's damped scenes (a pendulum, two perpendicular slides) have a
    diagonal, constant M; a damped double pendulum does not.
    """
    inertia = np.diag(dynamics.joint_inertia(model))
    return _state(model.dof_damping / inertia)


def compare_implicit_damping(semi_implicit_euler, xml: str, steps: int, qpos0, qvel0, what):
    """Assert semi_implicit_euler with c_implicit = damping / inertia follows mj_step
    (integrator Euler) on a damped scene."""
    model = _scene(xml)
    h = model.opt.timestep
    rates = damping_rates(model)
    want = dynamics.trajectory(model, steps, qpos0, qvel0)
    accel = dynamics.accel_formula(model)
    xs, vs = _learner_trajectory(
        semi_implicit_euler, "semi_implicit_euler", accel, qpos0, qvel0, h, steps, rates
    )
    if _matches(xs, vs, *want):
        return
    if _moved_with(xs, vs, h, old=True):  # the velocity may be right: the position is not
        _assert_trajectory(xs, vs, *want, what, HINTS["semi_is_explicit"])
    if _first_wrong(xs, vs, *want) == "position":
        _assert_trajectory(xs, vs, *want, what, HINTS["semi_implicit_euler"])
    # The velocity is wrong. Probe the learner's own step: does c_implicit change it at all?
    x, v = _state(qpos0), _state(np.ones(model.nv))
    no_rate = 0.0 if isinstance(rates, float) else np.zeros(model.nv)
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            with_rate = semi_implicit_euler(x, v, accel, h, rates)
            without = semi_implicit_euler(x, v, accel, h, no_rate)
        ignored = _all_close(with_rate, without)  # the (x, v) of both steps
    except Exception:  # a step that fails here fails the comparison below with its own error
        ignored = False
    hint = HINTS["damping_ignored"] if ignored else HINTS["damping_misplaced"]
    _assert_trajectory(xs, vs, *want, what, hint)


def compare_rk4(rk4, xml: str, steps: int, qpos0, qvel0, what: str) -> None:
    """Assert rk4 follows mj_step with integrator RK4 (the scene's text must say RK4)."""
    model = _scene(xml)
    if model.opt.integrator != mujoco.mjtIntegrator.mjINT_RK4:
        raise ValueError("compare_rk4 needs a scene with integrator RK4")
    h = model.opt.timestep
    want = dynamics.trajectory(model, steps, qpos0, qvel0)
    xs, vs = _learner_trajectory(rk4, "rk4", dynamics.accel_formula(model), qpos0, qvel0, h, steps)
    if _matches(xs, vs, *want):
        return
    hint = HINTS["rk4"]
    if not np.any(model.dof_damping):  # would one Euler step per step explain it?
        model.opt.integrator = mujoco.mjtIntegrator.mjINT_EULER
        try:
            if _matches(xs, vs, *dynamics.trajectory(model, steps, qpos0, qvel0)):
                hint = HINTS["rk4_is_euler"]
        finally:
            model.opt.integrator = mujoco.mjtIntegrator.mjINT_RK4
    _assert_trajectory(xs, vs, *want, what, hint)


def compare_stable_timestep(
    largest_stable_timestep, stiffness, mass, integrator="Euler", damping=0.0
) -> None:
    """Assert the learner's edge, searched with MuJoCo's own step of the spring (stiffness
    N/m, mass kg, joint damping N s/m), is where MuJoCo's `integrator` stops being stable:
    stable 1 % below it, blowing up 1 % above it.

    Returns None: a test cell that ends with this call must show no value, because nbgrader
    would read a number there as a partial score.
    """
    stepper = dynamics.SpringStepper(stiffness, mass, integrator, damping)
    _checked_edge(largest_stable_timestep, stepper)


def compare_cart_stable_timestep(
    largest_stable_timestep, stiffness, mass, integrator="Euler", damping=(0.0, 0.0)
) -> None:
    """Assert the learner's edge for MuJoCo's step of a cart carrying a block (pairs of
    stiffness N/m, mass kg and damping N s/m, cart first; the learner's x is the cart's) is
    where MuJoCo's `integrator` stops being stable. Returns None, like compare_stable_timestep.
    """
    stepper = dynamics.CartStepper(stiffness, mass, integrator, damping)
    _checked_edge(largest_stable_timestep, stepper)


def _typed_edge_hint(edge_w: float) -> str:
    """A sentence for an edge that looks typed in (1/w, 2/w, 2.83/w) rather than searched."""
    if abs(edge_w - 1) < 0.02:
        return (
            " 1/w (one radian per step) is a rule of thumb for accuracy, not the edge of "
            "stability: find the edge by stepping."
        )
    if min(abs(edge_w - 2), abs(edge_w - 2 * np.sqrt(2))) < 0.02:
        return (
            " 2/w and 2.83/w are the edges of one undamped spring under Euler and under RK4; "
            "damping, a second joint or another integrator moves the edge. Find it by calling "
            "the `step` you are given."
        )
    return ""


def _checked_edge(largest_stable_timestep, stepper) -> float:
    """The learner's edge (s) for a dynamics.ModelStepper, once it is checked: MuJoCo is
    stable 1 % below it and blows up 1 % above it."""
    w = stepper.w
    what = (
        f"largest_stable_timestep(MuJoCo's {stepper.integrator} step of {stepper.what}, w={w:.6g})"
    )
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        got = _call(largest_stable_timestep, "largest_stable_timestep", stepper, w)
    if got is None:
        raise expect.NotAnswered("largest_stable_timestep returned None: write its body.")
    edge = expect.as_floats(got, what)
    if not isinstance(edge, float) or not edge > 0 or not np.isfinite(edge):
        raise AssertionError(f"{what} should be one positive timestep in seconds, got {got!r}")
    below, above = (1 - EDGE_MARGIN) * edge, (1 + EDGE_MARGIN) * edge
    guess = _typed_edge_hint(edge * w)
    if not stepper.stays_bounded(below):
        raise AssertionError(
            f"{what} = {edge:.6g} s ({edge * w:.4f}/w) is too large: MuJoCo's "
            f"{stepper.integrator} already blows up at {below:.6g} s, 1 % below it. A timestep "
            f"is stable only if |x| stays within the bound at every step.{guess}"
        )
    if stepper.stays_bounded(above):
        raise AssertionError(
            f"{what} = {edge:.6g} s ({edge * w:.4f}/w) is too small: MuJoCo's "
            f"{stepper.integrator} is still stable at {above:.6g} s, 1 % above it. Search up "
            f"to 10/w and keep the largest timestep that stayed bounded.{guess}"
        )
    return edge


# --------------------------------------------------------------------------------------------
# The checks the lesson runs right after each function


def _on_the_lessons_pendulums(compare, function) -> None:
    """compare(function, xml, steps, qpos0, qvel0, what) on the lesson's two pendulums."""
    systems = (
        (dynamics.pendulum(**PENDULUM, timestep=PENDULUM_TIMESTEP), PENDULUM_START, "the pendulum"),
        (
            dynamics.double_pendulum(**DOUBLE_PENDULUM, timestep=DOUBLE_TIMESTEP),
            DOUBLE_START,
            "the double pendulum",
        ),
    )
    for xml, start, what in systems:
        compare(function, xml, STEPS, *start, what)


@expect.visible_check
def explicit_euler(explicit_euler) -> None:
    """Compare explicit_euler with MuJoCo's pieces on the pendulum and the double pendulum."""
    _on_the_lessons_pendulums(compare_explicit_euler, explicit_euler)
    expect.ok(
        f"{STEPS} steps of the pendulum and of the double pendulum match MuJoCo's velocity "
        "update with the position moved by the old velocity."
    )


@expect.visible_check
def semi_implicit_euler(semi_implicit_euler) -> None:
    """Compare semi_implicit_euler with mj_step (Euler) on the pendulum and double pendulum."""
    _on_the_lessons_pendulums(compare_semi_implicit, semi_implicit_euler)
    expect.ok(f"{STEPS} steps of the pendulum and of the double pendulum match mj_step (Euler).")


@expect.visible_check
def implicit_damping(semi_implicit_euler) -> None:
    """Compare semi_implicit_euler with c_implicit on the damped pendulum with mj_step."""
    compare_implicit_damping(
        semi_implicit_euler,
        dynamics.pendulum(**PENDULUM, damping=DAMPING, timestep=PENDULUM_TIMESTEP),
        STEPS,
        *DAMPED_START,
        "the damped pendulum",
    )
    expect.ok(f"{STEPS} steps of the damped pendulum match mj_step, damping treated implicitly.")


@expect.visible_check
def rk4(rk4) -> None:
    """Compare rk4 with mj_step (RK4) on the pendulum and the double pendulum."""
    compare_rk4(
        rk4,
        dynamics.pendulum(**PENDULUM, timestep=PENDULUM_TIMESTEP, integrator="RK4"),
        STEPS,
        *PENDULUM_START,
        "the pendulum",
    )
    compare_rk4(
        rk4,
        dynamics.double_pendulum(**DOUBLE_PENDULUM, timestep=DOUBLE_TIMESTEP, integrator="RK4"),
        STEPS,
        *DOUBLE_START,
        "the double pendulum",
    )
    expect.ok(f"{STEPS} steps of the pendulum and of the double pendulum match mj_step (RK4).")


@expect.visible_check
def stable_timestep(largest_stable_timestep, integrator: str = "Euler") -> None:
    """Compare the learner's edge for the stiff spring with where MuJoCo's integrator fails."""
    stepper = dynamics.SpringStepper(*STIFF_SPRING, integrator)
    edge = _checked_edge(largest_stable_timestep, stepper)
    expect.ok(
        f"with MuJoCo's {integrator} step your edge is {edge:.6g} s: MuJoCo is stable 1 % "
        "below it and blows up 1 % above it."
    )
