"""Visible checks for lesson 06, "Slender parts": the cases the lesson shows.

Hidden tests use the same comparisons on cases the lesson never shows (`random_part`,
`random_round_part`, `random_workbench`). Every reference is MuJoCo's: compiled inertias, the
inertia of a ring MuJoCo compiles, its mass matrix after mj_setConst, and rolling simulated by
mj_step.
"""

import math

import mujoco
import numpy as np

from course import compiled, expect
from course.expect import letter  # noqa: F401 (test cells call check.letter)
from course.lessons.slender_parts import parts, runs

R0 = 0.009  # m: the seed's floor radius at its 1.25 ms rigid step
SHOWN_PARTS = ("marker", "pencil", "coin", "die")  # Step 1's table and the workbench


def _moment_about_z(props: compiled.MassProperties) -> float:
    """A body's moment of inertia (kg m^2) about its own z axis, from MuJoCo's principal
    moments and axes."""
    tensor = props.axes @ np.diag(props.principal) @ props.axes.T
    return float(tensor[2, 2])


def _content_properties(content: str) -> compiled.MassProperties:
    return parts.properties(parts.Part("case", content, 1.0, ""))


# --------------------------------------------------------------------------------------------
# Step 1: the radius of gyration


def compare_radius_of_gyration(radius_of_gyration, content: str, what: str = "a part") -> None:
    """Assert radius_of_gyration gives, for each principal moment MuJoCo compiles for the
    part, the radius of the ring of the same mass that MuJoCo gives the same moment."""
    props = _content_properties(content)
    mass, moments = float(props.mass), props.principal.tolist()
    call = f"radius_of_gyration({mass:.4g}, {[float(f'{m:.4g}') for m in moments]}) for {what}"
    got = expect.as_floats(expect.answered(radius_of_gyration(mass, moments), call), call)
    if np.shape(got) != (3,):
        raise AssertionError(f"{call} should be 3 numbers, one per principal moment, got {got}")
    for k, radius in enumerate(got):
        if not (math.isfinite(radius) and radius > 0):
            raise AssertionError(f"{call}[{k}] = {radius}: a radius of gyration is a length > 0")
        ring = parts.ring_inertia(mass, radius)
        if abs(ring - moments[k]) > 1e-6 * moments[k]:
            raise AssertionError(
                f"{call}[{k}] = {radius:.4g} m, but a ring of the part's mass with that radius "
                f"has {ring:.4g} kg m^2 about its axis, where the part has {moments[k]:.4g}. "
                "r_g is a length in metres: the radius at which the whole mass, on a thin "
                "ring, has the part's moment. Is yours a length, or its square per kilogram?"
            )


@expect.visible_check
def radius_of_gyration(radius_of_gyration) -> None:
    """Compare radius_of_gyration with MuJoCo's rings for the marker, pencil, coin and die."""
    for name in SHOWN_PARTS:
        compare_radius_of_gyration(radius_of_gyration, parts.PARTS[name].content, f"the {name}")
    expect.ok("each radius of gyration is the radius of a ring MuJoCo gives the same moment.")


# --------------------------------------------------------------------------------------------
# Steps 2 and 3: which parts are raised, and by how much


def raised(mass: float, moments, r0: float, ratio: float = 4.0) -> tuple[bool, str]:
    """Whether the stack's rule raises a part of `mass` kg with these principal moments (kg
    m^2), judged on MuJoCo's numbers: it is slender (its largest moment at least `ratio` times
    its smallest) and its smallest moment is below that of a ring of its mass at `r0` (m).
    Returns (decision, the reason in words)."""
    low, high = min(moments), max(moments)
    ring = parts.ring_inertia(float(mass), float(r0))
    slender = high >= ratio * low
    below = low < ring
    reasons = [
        f"its largest / smallest moment is {high / low:.3g}, "
        + ("at least" if slender else "under")
        + f" {ratio:g}",
        f"its smallest moment {low:.3g} kg m^2 is "
        + ("below" if below else "not below")
        + f" m r0^2 = {ring:.3g} kg m^2",
    ]
    return slender and below, "; ".join(reasons)


def compare_needs_floor(needs_inertia_floor, content: str, r0: float, ratio=None, what="a part"):
    """Assert needs_inertia_floor decides as the rule does on MuJoCo's compiled moments."""
    props = _content_properties(content)
    mass, moments = float(props.mass), props.principal.tolist()
    options = {} if ratio is None else {"ratio": ratio}
    call = f"needs_inertia_floor for {what} (r0 = {r0 * 1000:g} mm" + (
        f", ratio = {ratio:g})" if ratio is not None else ")"
    )
    got = expect.answered(needs_inertia_floor(mass, moments, r0, **options), call)
    if not isinstance(got, bool | np.bool_):
        raise AssertionError(f"{call} should be True or False, got {got!r}")
    want, why = raised(mass, moments, r0, 4.0 if ratio is None else ratio)
    if bool(got) != want:
        verdict = "raised" if want else "left alone"
        raise AssertionError(
            f"{call} = {bool(got)}, but the rule says this part is {verdict}: {why}. A part is "
            "raised only when both hold; check which way round each comparison goes."
        )


@expect.visible_check
def needs_inertia_floor(needs_inertia_floor) -> None:
    """Compare needs_inertia_floor with the rule on the lesson's parts, and once with another
    ratio (the coin, whose largest / smallest is about 2, with ratio 1.9)."""
    for name in ("marker", "pencil", "coin", "die", "marble", "short cylinder", "dowel"):
        compare_needs_floor(needs_inertia_floor, parts.PARTS[name].content, R0, what=name)
    compare_needs_floor(needs_inertia_floor, parts.PARTS["coin"].content, R0, 1.9, "coin")
    expect.ok("needs_inertia_floor raises the marker and the pencil, and no compact part.")


def compare_floor_armature(floor_armature, content: str, r0: float, what: str = "a part"):
    """Assert floor_armature, written on the part's three rotational dofs, gives MuJoCo's mass
    matrix (after mj_setConst) a smallest moment equal to a ring of the part's mass at r0, and
    is 0 for a part the rule does not raise."""
    props = _content_properties(content)
    mass, moments = float(props.mass), props.principal.tolist()
    call = f"floor_armature for {what} (r0 = {r0 * 1000:g} mm)"
    armature = expect.as_floats(expect.answered(floor_armature(mass, moments, r0), call), call)
    if np.shape(armature) != () or not math.isfinite(armature):
        raise AssertionError(f"{call} should be one finite number (kg m^2), got {armature}")
    want_raised, why = raised(mass, moments, r0)
    if not want_raised:
        if armature != 0:
            raise AssertionError(
                f"{call} = {armature:.4g}, but the rule leaves this part alone ({why}): its "
                "armature is 0."
            )
        return
    model = compiled.compile_xml(parts.free_part(content))
    model.dof_armature[parts.rotational_dofs(model, "part")] = armature
    mujoco.mj_setConst(model, mujoco.MjData(model))
    smallest = float(parts.rotational_moments(model, "part")[0])
    ring = parts.ring_inertia(mass, r0)
    if abs(smallest - ring) > 1e-9 * ring:
        raise AssertionError(
            f"{call} = {armature:.4g} kg m^2: on the rotational dofs it makes MuJoCo's "
            f"smallest moment {smallest:.4g} kg m^2, but the floor is m r0^2 = {ring:.4g}. The "
            "armature comes on top of the part's own moment: it is what is missing up to the "
            "floor, not the floor itself."
        )


@expect.visible_check
def floor_armature(floor_armature) -> None:
    """Compare floor_armature with MuJoCo's mass matrix for the marker, pencil, coin and die."""
    for name in SHOWN_PARTS:
        compare_floor_armature(floor_armature, parts.PARTS[name].content, R0, name)
    expect.ok(
        "with your armature MuJoCo's smallest moment is m r0^2 for the marker and the pencil."
    )


# --------------------------------------------------------------------------------------------
# Step 4: the floor on a whole model


def _floor_result(floor_arrays, arrays: dict, r0: float):
    """(names, dof_armature) from the given floor_arrays(arrays, r0)."""
    result = floor_arrays(arrays, r0)
    if not isinstance(result, dict) or set(result) != {"names", "dof_armature"}:
        raise AssertionError(
            "floor_arrays is given code: keep it as the lesson wrote it (it returned "
            f"{type(result).__name__})"
        )
    names = expect.answered(result["names"], "apply_inertia_floor")
    if not isinstance(names, list | tuple) or not all(isinstance(n, str) for n in names):
        raise AssertionError(f"apply_inertia_floor should return a list of names, got {names!r}")
    armature = np.array(expect.as_floats(result["dof_armature"], "dof_armature"))
    if armature.shape != arrays["dof_armature"].shape:
        raise AssertionError(
            f"dof_armature has shape {armature.shape} after apply_inertia_floor, expected "
            f"{arrays['dof_armature'].shape}: change its values in place"
        )
    return list(names), armature


def expected_floor(model: mujoco.MjModel, r0: float) -> list[str]:
    """The free bodies the rule raises, judged on MuJoCo's compiled numbers."""
    return [
        model.body(b).name
        for b in parts.free_bodies(model)
        if raised(float(model.body_mass[b]), model.body_inertia[b].tolist(), r0)[0]
    ]


def _dof_owner(model: mujoco.MjModel, dof: int) -> str:
    body = model.body(model.dof_bodyid[dof])
    joint = model.dof_jntid[dof]
    if model.jnt_type[joint] == parts.FREE:
        which = "translation" if dof - model.jnt_dofadr[joint] < 3 else "rotation"
        return f"a {which} dof of the free body {body.name!r}"
    kind = mujoco.mjtJoint(model.jnt_type[joint]).name.removeprefix("mjJNT_").lower()
    return f"the {kind} dof of {body.name!r}, a robot link"


def _check_untouched(model, before, got, floored) -> None:
    """Every dof but the rotational dofs of the floored bodies keeps its armature exactly."""
    allowed = set()
    for name in floored:
        dofs = parts.rotational_dofs(model, name)
        allowed.update(range(dofs.start, dofs.stop))
    for dof in range(model.nv):
        if dof not in allowed and got[dof] != before[dof]:
            raise AssertionError(
                f"apply_inertia_floor changed the armature of {_dof_owner(model, dof)} "
                f"({before[dof]:.4g} -> {got[dof]:.4g}). Only the three rotational dofs of a "
                "raised free body change (dofadr+3 to dofadr+5): the first three are its "
                "translations, which armature would make heavier to push, and robot links "
                "are not free bodies."
            )


def _one_step(model: mujoco.MjModel, forces: np.ndarray) -> np.ndarray:
    data = mujoco.MjData(model)
    data.qfrc_applied[:] = forces
    mujoco.mj_step(model, data)
    return data.qvel.copy()


def _check_floored(model, before, got, floored, r0) -> None:
    """Each raised body's rotational dofs bring MuJoCo's smallest moment (after mj_setConst)
    to the ring of its mass at r0."""
    for name in floored:
        dofs = parts.rotational_dofs(model, name)
        if np.array_equal(got[dofs], before[dofs]):
            raise AssertionError(
                f"apply_inertia_floor names {name!r} but left its dof_armature as it was: change "
                "the model's own array in place (model.dof_armature[...] = ...), do not "
                "replace it with a new one."
            )
    model.dof_armature[:] = got
    mujoco.mj_setConst(model, mujoco.MjData(model))
    for name in floored:
        ring = parts.ring_inertia(float(model.body(name).mass[0]), r0)
        smallest = float(parts.rotational_moments(model, name)[0])
        if abs(smallest - ring) > 1e-9 * ring:
            raise AssertionError(
                f"with your armature MuJoCo gives {name!r} a smallest moment of {smallest:.4g} "
                f"kg m^2, but the floor is m r0^2 = {ring:.4g}. A raised body's rotational dofs "
                "are SET to floor_armature's value, whatever was there before (applying the "
                "floor twice changes nothing), not added to it."
            )


def compare_apply_floor(floor_arrays, xml: str, r0: float, prefill=None, seed: int = 0) -> None:
    """Assert apply_inertia_floor (called through the given floor_arrays) raises the right
    bodies and writes the right dofs of a compiled model; then, after mj_setConst, one step
    under random forces on every dof must match MuJoCo with the floor on those bodies.

    prefill: armature (kg m^2, one per dof) to start from instead of the compiled one."""
    model = compiled.compile_xml(xml)
    arrays = parts.model_arrays(model)
    if prefill is not None:
        arrays["dof_armature"] = np.array(prefill, dtype=float)
    before = arrays["dof_armature"].copy()
    names, got = _floor_result(floor_arrays, arrays, r0)
    want = expected_floor(model, r0)
    if sorted(names) != sorted(want) or len(set(names)) != len(names):
        raise AssertionError(
            f"apply_inertia_floor raised {sorted(names)}, but the rule raises {sorted(want)}. "
            "Only free bodies (jnt_type 0 at their body_jntadr) are candidates, and each "
            "raised body is named once."
        )
    _check_untouched(model, before, got, want)
    _check_floored(model, before, got, want, r0)
    reference = compiled.compile_xml(xml)
    reference.dof_armature[:] = before
    parts.floor_bodies(reference, want, r0)
    forces = np.random.default_rng(seed).normal(0.0, 1e-3, model.nv)
    yours, mujocos = _one_step(model, forces), _one_step(reference, forces)
    worst = float(np.max(np.abs(yours - mujocos) / (np.abs(mujocos) + 1e-12)))
    if not worst <= 1e-7:
        raise AssertionError(
            f"one step of mj_step under the same forces differs from MuJoCo's floored model by "
            f"up to {worst:.2g} (relative): check every armature you wrote."
        )


@expect.visible_check
def apply_inertia_floor(floor_arrays) -> None:
    """Compare apply_inertia_floor, through floor_arrays, with MuJoCo on the lesson's
    workbench: marker, pencil, coin and die beside a two-link arm."""
    compare_apply_floor(floor_arrays, parts.lesson_workbench(), R0)
    expect.ok("the marker and the pencil are raised, on their rotational dofs only; MuJoCo agrees.")


# --------------------------------------------------------------------------------------------
# Steps 5 and 6: rolling


def _rolling_case(chosen: parts.Part):
    props = parts.properties(chosen)
    return float(props.mass), math.sqrt(_moment_about_z(props) / float(props.mass))


def compare_rolling(rolling_acceleration, chosen, slope_deg: float, gravity: float = 9.81):
    """Assert rolling_acceleration matches the acceleration mj_step gives the part rolling
    down a slope of `slope_deg` degrees (MuJoCo's soft contact rolls about 1 % slower)."""
    chosen = parts.part(chosen)
    _, r_g = _rolling_case(chosen)
    want = runs.roll({"part": chosen}, slope_deg, 0.5, gravity=gravity)["part"].acceleration()
    slope = math.radians(slope_deg)
    call = (
        f"rolling_acceleration({gravity:g}, {slope:.4f}, {r_g:.4g}, {chosen.radius:.4g}) "
        f"(the {chosen.name} on {slope_deg:g} degrees)"
    )
    got = expect.answered(rolling_acceleration(gravity, slope, r_g, chosen.radius), call)
    expect.close(
        got,
        want,
        call,
        rtol=0.02,
        hint="The pull along the slope is the part of gravity along it (slope in radians), "
        "and the larger r_g is beside R, the more of the work goes into spin: check which "
        "way round r_g and R enter.",
    )


@expect.visible_check
def rolling_acceleration(rolling_acceleration) -> None:
    """Compare rolling_acceleration with mj_step for the solid cylinder and the tube rolling
    down the lesson's 10 degree slope."""
    for name in ("solid cylinder", "tube"):
        compare_rolling(rolling_acceleration, name, 10.0)
    expect.ok("the solid cylinder and the tube roll as your law says, within MuJoCo's 1 %.")


def compare_floored_ratio(floored_rolling_ratio, chosen, r0: float, slope_deg: float = 10.0):
    """Assert floored_rolling_ratio matches MuJoCo for a slender part: its acceleration down
    the slope with the floor at r0, applied when the lesson's rule raises it (`raised`), over
    its acceleration without. floored_rolling_ratio is asked only about slender parts (a
    compact part is never raised, and its r_g, r0 and R cannot tell it from a slender one), so
    a compact `chosen` is a mistake of the caller: ValueError. (MuJoCo's soft contact rolls a
    part on a radius about 0.1 mm short of its own, which moves the ratio by up to 1.7 % for a
    9 mm part and a 12 mm floor: keep R at 9 mm or more.)"""
    chosen = parts.part(chosen)
    mass, r_g = _rolling_case(chosen)
    moments = parts.properties(chosen).principal.tolist()
    if max(moments) < 4.0 * min(moments):
        raise ValueError(f"the {chosen.name} is compact: floored_rolling_ratio is not asked")
    floored = ["part"] if raised(mass, moments, r0)[0] else []
    plain = runs.roll({"part": chosen}, slope_deg, 0.5)["part"].acceleration()
    with_floor = runs.roll({"part": chosen}, slope_deg, 0.5, floored, r0)["part"].acceleration()
    call = f"floored_rolling_ratio({r_g:.4g}, {r0:.4g}, {chosen.radius:.4g}) (the {chosen.name})"
    got = expect.answered(floored_rolling_ratio(r_g, r0, chosen.radius), call)
    expect.close(
        got,
        with_floor / plain,
        call,
        rtol=0.02,
        hint="With the floor the part spins as if its r_g were r0; without, with its own "
        "r_g. A part whose r_g is already at least r0 is not raised: its ratio is 1.",
    )


@expect.visible_check
def floored_rolling_ratio(floored_rolling_ratio) -> None:
    """Compare floored_rolling_ratio with mj_step for the marker and the solid 9 mm rod."""
    for name in ("marker", "rod 9 mm"):
        compare_floored_ratio(floored_rolling_ratio, name, R0)
    expect.ok("your ratios match MuJoCo's floored rolling for the marker and the 9 mm rod.")


# --------------------------------------------------------------------------------------------
# Experiment B: fitting the acceleration


def compare_fit(fitted_acceleration, roll: runs.Roll, start: float, stop: float, every=1, what=""):
    """Assert fitted_acceleration on the (times, distances) of a MuJoCo roll between `start`
    and `stop` (s) gives MuJoCo's mean acceleration over that window."""
    times, distances = roll.window(start, stop, every)
    call = f"fitted_acceleration on {what} from t = {start:g} s to {stop:g} s"
    got = expect.answered(fitted_acceleration(times, distances), call)
    expect.close(
        got,
        roll.acceleration_between(start, stop),
        call,
        rtol=2e-3,
        hint="Fit all three of d0, v0 and a (the window need not start at rest or at t = 0), "
        "and remember the model has a t^2 / 2: the coefficient of t^2 is not a itself.",
    )


@expect.visible_check
def fitted_acceleration(fitted_acceleration) -> None:
    """Compare fitted_acceleration with MuJoCo on the race's solid cylinder and tube, from
    0.1 s (already rolling) to 0.6 s."""
    rolls = runs.race()
    for name in ("solid cylinder", "tube"):
        compare_fit(fitted_acceleration, rolls[name], 0.1, 0.6, what=f"the race's {name}")
    expect.ok("your fits give MuJoCo's accelerations for the race.")


# --------------------------------------------------------------------------------------------
# Cases for the hidden tests, drawn from a seeded generator


def random_part(rng: np.random.Generator) -> str:
    """MJCF content of a random light part: a solid or shell cylinder, a capsule, a box, an
    ellipsoid, or a stated rod; 2 to 80 g, 2 to 40 mm across, 5 to 250 mm long."""
    kind = str(rng.choice(["cylinder", "shell", "capsule", "box", "ellipsoid", "stated"]))
    radius, half = float(rng.uniform(0.001, 0.02)), float(rng.uniform(0.0025, 0.125))
    mass = float(rng.uniform(0.002, 0.08))
    if kind in ("cylinder", "shell"):
        return parts.cylinder(radius, half, mass, "0.5 0.5 0.5 1", shell=kind == "shell")
    if kind == "stated":
        rg = radius * float(rng.uniform(0.3, 0.95))
        return parts.stated_rod(mass, 2 * half, rg, radius, "0.5 0.5 0.5 1")
    size = {"capsule": (radius, half), "box": (radius, 0.7 * radius, half)}.get(
        kind, (radius, 0.8 * radius, half)
    )
    sizes = " ".join(repr(s) for s in size)
    return f'      <geom type="{kind}" size="{sizes}" mass="{mass!r}"/>'


def clear_case(content: str, r0: float, ratio: float = 4.0) -> bool:
    """Whether the rule's decision on this part is clear-cut: its largest / smallest is not
    within 3 % of `ratio`, nor its smallest moment within 3 % of m r0^2."""
    props = _content_properties(content)
    low, high = float(min(props.principal)), float(max(props.principal))
    ring = parts.ring_inertia(float(props.mass), r0)
    return abs(high / low / ratio - 1) > 0.03 and abs(low / ring - 1) > 0.03


def rule_raises(content: str, r0: float, ratio: float = 4.0) -> bool:
    """Whether the stack's rule (`raised`) raises the part of MJCF `content`, judged on
    MuJoCo's compiled mass and moments."""
    props = _content_properties(content)
    return raised(float(props.mass), props.principal.tolist(), r0, ratio)[0]


def random_round_part(
    rng: np.random.Generator,
    name: str = "part",
    min_radius: float = 0.005,
    max_radius: float = 0.02,
    kind: str | None = None,
) -> parts.Part:
    """A random part that rolls on a round face: a solid cylinder, a thin shell ("shell") or
    a stated rod ("stated", its axial r_g 0.3 to 0.95 of its radius), of `kind` or of a
    random one; `min_radius` to `max_radius` (m) in radius, 60 to 200 mm long."""
    kind = kind or str(rng.choice(["cylinder", "shell", "stated"]))
    radius = float(rng.uniform(min_radius, max_radius))
    half, mass = float(rng.uniform(0.03, 0.1)), float(rng.uniform(0.005, 0.1))
    if kind == "stated":
        rg = radius * float(rng.uniform(0.3, 0.95))
        content = parts.stated_rod(mass, 2 * half, rg, radius, "0.5 0.5 0.5 1")
    else:
        content = parts.cylinder(radius, half, mass, "0.5 0.5 0.5 1", shell=kind == "shell")
    return parts.Part(name, content, radius, f"a random {kind}")


def random_slender_round_part(rng: np.random.Generator, **options) -> parts.Part:
    """A random_round_part (same options) that is slender as the lesson's rule counts it: its
    largest principal moment at least 4 times its smallest. Drawn again until it is."""
    while True:
        chosen = random_round_part(rng, **options)
        moments = parts.properties(chosen).principal
        if moments.max() >= 4.0 * moments.min():
            return chosen


def rolling_rg(chosen) -> float:
    """The radius of gyration (m) MuJoCo's compiled inertia gives a part about its own axis."""
    return _rolling_case(parts.part(chosen))[1]


def random_workbench(rng: np.random.Generator, free: int = 5, links: int = 3) -> str:
    """A random model: `free` random parts on free joints (some with armature written on a
    <joint type="free">) beside an arm of `links` slender capsule links on hinges, slides and
    a ball joint (some with armature)."""
    chosen = []
    for k in range(free):
        armature = float(rng.uniform(1e-8, 1e-6)) if rng.uniform() < 0.4 else 0.0
        chosen.append((f"part{k}", random_part(rng), armature))
    kinds = ["hinge", "slide", "ball"]
    arm = [
        parts.Link(
            f"link{k}",
            float(rng.uniform(0.003, 0.008)),
            float(rng.uniform(0.08, 0.2)),
            float(rng.uniform(0.01, 0.05)),
            kinds[k % 3],
            tuple(float(a) for a in rng.normal(size=3)),
            float(rng.uniform(1e-6, 1e-4)) if rng.uniform() < 0.5 else 0.0,
        )
        for k in range(links)
    ]
    return parts.workbench(chosen, arm)
