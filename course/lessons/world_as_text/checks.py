"""Visible checks for lesson 01, "The world as text".

Each check a test cell calls is a `visible_check`: it takes the learner's function and, by
default, the cases the lesson shows; a hidden test calls the same check with seeded cases the
lesson never shows. Each `compare_*` asserts one case against what MuJoCo compiles or
simulates and names the likely mistake; in the notebook a function not written yet gives one
line, and a failure one short block.
"""

import math

import numpy as np

from course import compiled, expect, falls
from course.expect import letter  # noqa: F401 (test cells call check.letter)
from course.lessons.world_as_text import drop, scenes

# (kind, MJCF size, density kg/m^3): the solid shapes of Build it, Step 1. The first is
# Experiment A's 100 g cube (12.5 kg/m^3 gives 0.1 kg in 8 litres).
SHAPE_CASES = (
    ("box", (0.1, 0.1, 0.1), 12.5),
    ("box", (0.1, 0.05, 0.02), 700.0),
    ("sphere", (0.04,), 1000.0),
    ("cylinder", (0.03, 0.1), 2700.0),
    ("capsule", (0.03, 0.1), 1000.0),
)

SHAPE_HINTS = {
    "box": "MJCF box sizes are half-lengths: size .1 .1 .1 is a 20 cm cube (Step 1).",
    "sphere": "Is the ball weighed as a uniform solid, not as a hollow shell? (Step 1's table)",
    "cylinder": "A cylinder's size is (radius, half-length): its length is twice size[1].",
    "capsule": "A capsule is a cylinder with a hemispherical cap on each end; each cap's "
    "centre of mass sits beyond the cylinder's end, far from the capsule's centre (Step 1).",
}

# Build it, Step 2: a 1 kg cube of side 10 cm whose centre is 20 cm above the centre of a
# 0.5 kg ball of radius 5 cm (10 cm of air between them). Parts: (kind, size, pos, mass).
TWO_PARTS = (
    ("box", (0.05, 0.05, 0.05), (0.0, 0.0, 0.1), 1.0),
    ("sphere", (0.05,), (0.0, 0.0, -0.1), 0.5),
)

FREE_FALL_STEPS = 143  # Experiment A's landing step in vacuum

# (light kg, heavy kg, air kg/m^3, drop height m, timestep s): a drop beside the sweep.
DELAY_VARIANT = ((0.05, 2.0, 1.2, 0.6, 0.001),)


# --------------------------------------------------------------------------------------------
# Step 1 · solid shapes


@compiled.remembered
def part_inertia(kind: str, size, mass: float) -> np.ndarray:
    """Principal inertia (kg m^2) MuJoCo compiles for one axis-aligned shape of `mass` kg,
    about the shape's own x, y and z axes."""
    model = compiled.compile_xml(scenes.parts_body([(kind, size, (0, 0, 0), mass)]))
    return body_frame_inertia(model, "body").diagonal().copy()


def body_frame_inertia(model, body) -> np.ndarray:
    """A body's compiled 3x3 inertia about its centre of mass, in the body frame (kg m^2):
    body_inertia turned by body_iquat."""
    props = compiled.body_mass_properties(model, body)
    return props.axes @ np.diag(props.principal) @ props.axes.T


@compiled.remembered
def shape_mass_and_inertia(kind: str, size, density: float) -> tuple[float, np.ndarray]:
    """(mass kg, moments kg m^2 about the shape's x, y, z axes) MuJoCo compiles for one
    axis-aligned shape of `density` kg/m^3."""
    model = compiled.compile_xml(scenes.shape_body(kind, size, density))
    return float(model.body("body").mass[0]), body_frame_inertia(model, "body").diagonal()


def compare_solid_inertia(solid_inertia, kind: str, size, density: float) -> None:
    """Assert solid_inertia(kind, size, density) gives the mass (kg) and the moments
    (kg m^2, about the shape's x, y, z axes) of MuJoCo's compiled one-geom body."""
    want_mass, want = shape_mass_and_inertia(kind, size, density)
    what = f"solid_inertia({kind!r}, {list(size)}, {density:g})"
    result = expect.answered(solid_inertia(kind, list(size), density), what)
    mass, inertia = expect.sequence_of(result, 2, what)
    hint = SHAPE_HINTS[kind]
    expect.close(mass, want_mass, f"the mass from {what}", rtol=1e-9, hint=hint)
    expect.close(inertia, want, f"the inertia from {what}", rtol=1e-6, atol=1e-15, hint=hint)


@expect.visible_check
def solid_inertia(solid_inertia, kind: str, cases=None) -> None:
    """Compare solid_inertia with MuJoCo's compiler on shapes of `kind`.

    cases: (MJCF size in m, density in kg/m^3) pairs; default the lesson's shapes of that kind.
    """
    if cases is None:
        cases = [(size, density) for k, size, density in SHAPE_CASES if k == kind]
    for size, density in cases:
        compare_solid_inertia(solid_inertia, kind, size, density)
    expect.ok(f"solid_inertia matches MuJoCo's compiler on {len(cases)} {kind} shape(s).")


# --------------------------------------------------------------------------------------------
# Step 2 · several geoms, one body


def _inertia_hint(got, own_sum, want) -> str:
    """The likely mistake behind a wrong inertia, from MuJoCo's numbers alone: the parts'
    own inertias summed (no parallel-axis term), or that term taken with the wrong sign."""
    try:
        got = np.asarray(expect.as_floats(got, "the inertia"), dtype=float)
    except (AssertionError, ValueError):
        got = None
    scale = float(np.abs(want).max())
    if got is not None and got.shape == (3, 3):
        if np.abs(got - own_sum).max() < 1e-6 * scale:
            return (
                "That is the parts' own inertias added up: move each one from its own "
                "centre to the body's centre of mass first (parallel-axis term, Step 2)."
            )
        if np.abs(got - (2 * own_sum - want)).max() < 1e-6 * scale:
            return (
                "The parallel-axis term is added, never subtracted: moving mass away from "
                "an axis makes the body harder to spin about it."
            )
    return (
        "Each part's inertia must be moved from its own centre to the body's centre of "
        "mass (parallel-axis theorem, Step 2); moving it away makes it larger."
    )


@compiled.remembered
def parts_mass_properties(parts) -> tuple[compiled.MassProperties, np.ndarray]:
    """MuJoCo's compiled mass properties of one body made of `parts` (kind, size, pos,
    mass), and its 3x3 inertia about the centre of mass in the body frame (kg m^2)."""
    model = compiled.compile_xml(scenes.parts_body(parts))
    return compiled.body_mass_properties(model, "body"), body_frame_inertia(model, "body")


def compare_combine_parts(combine_parts, parts, check_inertia: bool) -> None:
    """Assert combine_parts on `parts` (kind, size, pos, mass) gives MuJoCo's body_mass and
    body_ipos and, with check_inertia, its inertia about the centre of mass (body frame)."""
    want, tensor = parts_mass_properties(parts)
    masses = [p[3] for p in parts]
    positions = [list(p[2]) for p in parts]
    own = [part_inertia(kind, size, mass) for kind, size, _, mass in parts]
    what = f"combine_parts on {len(parts)} parts"
    result = expect.answered(combine_parts(masses, positions, [i.tolist() for i in own]), what)
    mass, com, inertia = expect.sequence_of(result, 3, what)
    expect.close(
        mass, want.mass, "the total mass", rtol=1e-9, hint="The body's mass is all its parts'."
    )
    expect.close(
        com,
        want.com,
        "the centre of mass",
        rtol=1e-9,
        atol=1e-12,
        hint="The centre of mass is the mass-weighted mean of the parts' positions.",
    )
    if check_inertia:
        hint = _inertia_hint(inertia, sum(np.diag(i) for i in own), tensor)
        expect.inertia_matches(
            inertia, want.principal, want.axes, "the inertia about the centre of mass", hint=hint
        )


@expect.visible_check
def combine_parts_mass_and_com(combine_parts, bodies=(TWO_PARTS,)) -> None:
    """Compare combine_parts' mass and centre of mass with MuJoCo's, for each body of
    `bodies` (each a list of parts (kind, size, pos, mass)); default Step 2's body."""
    for parts in bodies:
        compare_combine_parts(combine_parts, parts, check_inertia=False)
    expect.ok(f"combine_parts gives MuJoCo's mass and centre of mass for {len(bodies)} body(ies).")


@expect.visible_check
def combine_parts_inertia(combine_parts, bodies=(TWO_PARTS,)) -> None:
    """Compare combine_parts' inertia about the centre of mass with MuJoCo's, for each body
    of `bodies`; default Step 2's body."""
    for parts in bodies:
        compare_combine_parts(combine_parts, parts, check_inertia=True)
    expect.ok(f"combine_parts gives MuJoCo's inertia about the COM for {len(bodies)} body(ies).")


# --------------------------------------------------------------------------------------------
# Step 3 · the Euler step


def _pair(result):
    """The (x, v) one of the learner's steps returned; NotAnswered when it returned nothing,
    AssertionError for anything else that is not a pair."""
    result = expect.answered(result, "semi_implicit_euler(...)")
    return expect.sequence_of(result, 2, "semi_implicit_euler(...)")


@compiled.remembered
def free_fall_positions(v0, timestep: float, steps: int) -> np.ndarray:
    """Displacements (m) of Experiment A's cube after 0..`steps` mj_steps in vacuum, thrown
    at `v0` (m/s): shape (steps + 1, 3)."""
    xml = falls.shape_drop("box", (0.1, 0.1, 0.1), 0.1, 0.0, timestep)
    return compiled.free_body_positions(compiled.compile_xml(xml), steps, v0)


def compare_free_fall(semi_implicit_euler, v0, timestep: float, steps: int) -> None:
    """Assert repeated semi_implicit_euler steps of a free fall follow mj_step.

    v0: start velocity (m/s), a 3-vector; positions are displacements from the start (m);
    gravity 9.81 m/s^2 along -z.
    """
    want = free_fall_positions(v0, timestep, steps)

    gravity = expect.Formula("lambda x, v: np.array([0.0, 0.0, -9.81])", "gravity")
    x0, v0 = np.zeros(3), np.array(v0, dtype=float)
    xs, _, stopped = expect.trajectory(semi_implicit_euler, gravity, x0, v0, timestep, steps)
    for k, x in enumerate(xs[1:], start=1):
        expect.close(
            x,
            want[k],
            f"the position after {k} step(s)",
            rtol=0,
            atol=1e-12,
            hint="MuJoCo's Euler updates the velocity first and then moves with the NEW "
            "velocity; moving with the old one is explicit Euler.",
        )
    if stopped is not None:
        _pair(stopped[0])


@expect.visible_check
def semi_implicit_euler(semi_implicit_euler, cases=None) -> None:
    """Compare the learner's step with mj_step's free fall: cases are (start velocity m/s,
    timestep s, steps); default Experiment A's fall from rest, 143 steps of 2 ms."""
    cases = cases or [((0.0, 0.0, 0.0), 0.002, FREE_FALL_STEPS)]
    for v0, timestep, steps in cases:
        compare_free_fall(semi_implicit_euler, v0, timestep, steps)
    expect.ok(f"{sum(c[2] for c in cases)} steps of free fall match mj_step.")


def compare_damped(semi_implicit_euler, mass, damping, timestep, steps, v0) -> None:
    """Assert the learner's step with implicit damping follows mj_step on a damped slider."""
    want_x, want_v = compiled.joint_trajectory(
        scenes.damped_slider(mass, damping, timestep), steps, 0.0, v0
    )

    rate = damping / mass
    gravity_and_damping = expect.Formula(
        "lambda x, v: -9.81 - rate * v", "gravity_and_damping", rate=rate
    )
    xs, vs, stopped = expect.trajectory(
        semi_implicit_euler, gravity_and_damping, 0.0, v0, timestep, steps, rate
    )
    for k, (x, v) in enumerate(zip(xs[1:], vs[1:], strict=True), start=1):
        expect.close(
            v,
            want_v[k],
            f"the velocity after {k} step(s) with damping",
            rtol=1e-9,
            atol=1e-12,
            hint="The damping is treated implicitly: the velocity change "
            "h * accel is divided by (1 + h * c_implicit).",
        )
        expect.close(
            x, want_x[k], f"the position after {k} step(s) with damping", rtol=1e-9, atol=1e-12
        )
    if stopped is not None:
        _pair(stopped[0])


@expect.visible_check
def semi_implicit_damping(semi_implicit_euler, cases=None) -> None:
    """Compare the learner's step with implicit damping on damped sliders: cases are (mass
    kg, damping N s/m, timestep s, steps, start velocity m/s); default a 0.5 kg slider."""
    cases = cases or [(0.5, 2.0, 0.002, 100, 1.0)]
    for mass, damping, timestep, steps, v0 in cases:
        compare_damped(semi_implicit_euler, mass, damping, timestep, steps, v0)
    expect.ok(f"{len(cases)} damped slider(s) match mj_step, damping treated implicitly.")


# --------------------------------------------------------------------------------------------
# Step 4 · air drag


@compiled.remembered
def drag_box_reference(kind, size, mass) -> tuple[compiled.MassProperties, np.ndarray]:
    """A shape's compiled mass properties in air, and the face areas (m^2) MuJoCo's drag
    model gives it along x, y and z."""
    xml = falls.shape_drop(kind, size, mass, air_density=1.2)
    props = compiled.body_mass_properties(compiled.compile_xml(xml), "body")
    return props, compiled.drag_areas(xml, 1.2)


def compare_inertia_box(inertia_box, kind, size, mass) -> None:
    """Assert inertia_box gives the sides MuJoCo's drag model uses for this shape."""
    props, areas = drag_box_reference(kind, size, mass)
    what = f"inertia_box for the {kind} of size {list(size)}"
    sides = expect.as_floats(inertia_box(props.mass, props.principal.tolist()), what)
    if not isinstance(sides, list) or len(sides) != 3:
        raise AssertionError(f"{what} should be 3 full side lengths, got {sides}")
    faces = [sides[1] * sides[2], sides[0] * sides[2], sides[0] * sides[1]]
    expect.close(
        faces,
        areas,
        f"the face areas of {what}",
        rtol=1e-6,
        hint="The sides are full lengths of the uniform box with the same mass and principal "
        "inertia: Step 1's box formula solved for the sides.",
    )


@expect.visible_check
def inertia_box(inertia_box, cases=None) -> None:
    """Compare inertia_box with MuJoCo's drag areas: cases are (kind, MJCF size m, mass kg);
    default the 100 g cube and Step 1's slab."""
    cases = cases or [("box", (0.1, 0.1, 0.1), 0.1), ("box", (0.1, 0.05, 0.02), 0.56)]
    for kind, size, mass in cases:
        compare_inertia_box(inertia_box, kind, size, mass)
    expect.ok(f"inertia_box gives the boxes MuJoCo's drag model uses for {len(cases)} shape(s).")


def compare_quadratic_drag(quadratic_drag, box, velocity, air_density) -> None:
    """Assert quadratic_drag(velocity, box, rho) equals MuJoCo's qfrc_fluid on that box."""
    half = [s / 2 for s in box]
    xml = falls.shape_drop("box", half, 0.1, air_density=air_density)
    want = compiled.fluid_force(xml, velocity)
    got = quadratic_drag(np.array(velocity, dtype=float), np.array(box, dtype=float), air_density)
    expect.close(
        got,
        want,
        f"quadratic_drag at v = {list(velocity)} m/s",
        rtol=1e-9,
        atol=1e-15,
        hint="Drag opposes the motion along each axis separately, grows with the square of "
        "the speed, and uses the area the box presents to that axis.",
    )


@expect.visible_check
def quadratic_drag(quadratic_drag, cases=None) -> None:
    """Compare quadratic_drag with qfrc_fluid: cases are (box full sides m, velocity m/s,
    fluid density kg/m^3); default the 100 g cube falling at 1 and 2.8 m/s in air."""
    cases = cases or [((0.2, 0.2, 0.2), (0.0, 0.0, vz), 1.2) for vz in (-1.0, -2.8)]
    for box, velocity, rho in cases:
        compare_quadratic_drag(quadratic_drag, box, velocity, rho)
    expect.ok(f"quadratic_drag matches MuJoCo's qfrc_fluid in {len(cases)} case(s).")


# --------------------------------------------------------------------------------------------
# Step 5 and Experiment A · drops


DROP_HINT = (
    "drop_heights uses your solid_inertia, inertia_box, quadratic_drag and semi_implicit_euler: "
    "are their checks above all OK? Then look at the acceleration: gravity plus the drag "
    "divided by the mass."
)


def _drop_hint(got: list, want: np.ndarray, kind, size, mass, air_density, height, timestep):
    """The likely mistake behind wrong drop heights, from mj_step's drops alone."""
    if len(got) == len(want) + 1 and np.allclose(got[2:], want[1:], rtol=0, atol=1e-9):
        return (
            "Your heights lag mj_step's by one step: the position must move with the NEW "
            "velocity (Step 3)."
        )
    if kind != "box" and air_density > 0:  # drag from the geom's own bounding box
        outer = (size[0], size[0], size[-1]) if kind == "cylinder" else None
        if outer is not None:
            geom_box = drop.shape_drop_heights("box", outer, mass, air_density, height, timestep)
            if len(got) == len(geom_box) and np.allclose(got, geom_box, rtol=0, atol=1e-9):
                return (
                    "Your drag acts on the geom's own box; MuJoCo's acts on the equivalent "
                    "inertia box (Step 4), which for a cylinder is not the geom's outline."
                )
    return DROP_HINT


def compare_drop_heights(drop_heights, kind, size, mass, air_density, drop_height, timestep):
    """Assert the learner's drop loop reproduces mj_step's heights (m) to 1e-9 m, step by
    step, landing step included; a mismatch names the first step that differs."""
    want = drop.shape_drop_heights(kind, size, mass, air_density, drop_height, timestep)
    what = f"drop_heights({kind!r}, {list(size)}, {mass:g} kg, rho_air={air_density:g})"
    got = expect.as_floats(
        drop_heights(
            kind, list(size), mass, drop_height=drop_height, rho_air=air_density, timestep=timestep
        ),
        what,
    )
    if not isinstance(got, list) or not got or any(isinstance(h, list) for h in got):
        raise AssertionError(f"{what} should be a 1-D array of heights, one per step.")
    bad = [h for h in got if not math.isfinite(h)]
    if bad:
        raise AssertionError(f"{what} contains {bad[0]}, not a finite height. {DROP_HINT}")
    hint = _drop_hint(got, want, kind, size, mass, air_density, drop_height, timestep)
    expected = want.tolist()
    shared = range(min(len(got), len(expected)))
    wrong = [k for k in shared if abs(got[k] - expected[k]) > 1e-9]
    if wrong:
        worst = max(shared, key=lambda k: abs(got[k] - expected[k]))
        raise AssertionError(
            f"{what} leaves mj_step's heights after {wrong[0]} step(s), and after {worst} it is "
            f"{got[worst]:.6f} m where mj_step has {expected[worst]:.6f} m. {hint}"
        )
    if len(got) != len(want):
        raise AssertionError(
            f"{what} lands at step {len(got) - 1}, mj_step at step {len(want) - 1}, with the "
            "same heights until then: stop at the first height at or below 0, and keep the "
            "start height as element 0."
        )


@expect.visible_check
def drop_heights(drop_heights, cases=None) -> None:
    """Compare the learner's drop loop with mj_step: cases are (kind, MJCF size m, mass kg,
    air kg/m^3, drop height m, timestep s); default the 100 g cube in vacuum and in air."""
    cases = cases or [("box", (0.1, 0.1, 0.1), 0.1, air, 0.40, 0.002) for air in (0.0, 1.2)]
    for case in cases:
        compare_drop_heights(drop_heights, *case)
    expect.ok(f"drop_heights follows mj_step in {len(cases)} drop(s).")


def _delay_hint(got, timestep: float, default: str) -> str:
    """The likely mistake behind a wrong delay (ms): a whole number of steps means the
    landings were not interpolated."""
    try:
        steps = float(got) / (1000 * timestep)
    except (TypeError, ValueError):
        return default
    if math.isfinite(steps) and abs(steps - round(steps)) < 1e-6:
        return (
            "Your delay is a whole number of timesteps: interpolate each landing within its "
            "step with landing_time (the cell gives it)."
        )
    return default


@expect.visible_check
def delay_table(landing_delay_ms, light_masses_kg=drop.SWEEP_MASSES_KG) -> None:
    """Compare the learner's delays (ms) behind a 1 kg cube, in air, with MuJoCo's, for each
    light cube of `light_masses_kg` (kg; the lesson's sweep by default)."""
    table = drop.delay_sweep(tuple(light_masses_kg))
    for light_kg, want in table.items():
        got = expect.answered(landing_delay_ms(light_kg), f"landing_delay_ms({light_kg:g})")
        hint = _delay_hint(
            got,
            0.002,
            "Use your drop_heights for both cubes (is its check above OK?) and interpolate "
            "each landing with landing_time; a table typed in cannot answer masses it does not "
            "list.",
        )
        expect.close(got, want, f"landing_delay_ms({light_kg:g})", rtol=0, atol=0.005, hint=hint)
    expect.ok(f"your delays match MuJoCo's for all {len(table)} masses to 0.01 ms.")


@expect.visible_check
def delay_variant(landing_delay_ms, cases=DELAY_VARIANT) -> None:
    """Compare landing_delay_ms with mj_step on other drops: cases are (light kg, heavy kg,
    air kg/m^3, drop height m, timestep s)."""
    for light, heavy, rho_air, height, timestep in cases:
        want = drop.run_two_cube_drop(
            light, heavy, rho_air, drop_height=height, timestep=timestep
        ).delay_ms
        what = f"landing_delay_ms({light}, {heavy}, {rho_air}, {height}, {timestep})"
        got = expect.answered(landing_delay_ms(light, heavy, rho_air, height, timestep), what)
        hint = _delay_hint(
            got,
            timestep,
            "Compute the delay from your own drops for any masses, height and timestep; a "
            "table typed in for the lesson's case cannot answer this.",
        )
        expect.close(got, want, what, rtol=0, atol=0.005, hint=hint)
    expect.ok(f"landing_delay_ms matches mj_step on {len(cases)} other drop(s).")
