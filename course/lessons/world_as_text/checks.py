"""Visible checks for lesson 01, "The world as text": the cases the lesson shows.

Hidden tests use the same comparisons on cases the lesson never shows.
"""

import numpy as np

from course import compiled, expect, falls
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
    "box": "MJCF box sizes are half-lengths: size .1 .1 .1 is a 20 cm cube.",
    "sphere": "Is the ball weighed as a uniform solid, not as a hollow shell?",
    "cylinder": "A cylinder's size is (radius, half-length): its length is twice size[1].",
    "capsule": "A capsule is a cylinder with a hemispherical cap on each end; each cap's "
    "centre of mass sits beyond the cylinder's end, far from the capsule's centre.",
}

# Build it, Step 2: a 1 kg, 10 cm cube 10 cm above a 0.5 kg ball of radius 5 cm.
TWO_PARTS = (
    ("box", (0.05, 0.05, 0.05), (0.0, 0.0, 0.1), 1.0),
    ("sphere", (0.05,), (0.0, 0.0, -0.1), 0.5),
)

FREE_FALL_STEPS = 143  # Experiment A's landing step in vacuum


def _ok(message: str) -> None:
    print(f"OK: {message}")


def part_inertia(kind: str, size, mass: float) -> np.ndarray:
    """Principal inertia (kg m^2) MuJoCo compiles for one axis-aligned shape of `mass` kg."""
    model = compiled.compile_xml(scenes.parts_body([(kind, size, (0, 0, 0), mass)]))
    return compiled.body_mass_properties(model, "body").principal


def compare_solid_inertia(solid_inertia, kind: str, size, density: float) -> None:
    """Assert solid_inertia(kind, size, density) matches MuJoCo's compiled body."""
    model = compiled.compile_xml(scenes.shape_body(kind, size, density))
    want = compiled.body_mass_properties(model, "body")
    result = solid_inertia(kind, list(size), density)
    what = f"solid_inertia({kind!r}, {list(size)}, {density:g})"
    if result is None:
        raise expect.NotAnswered(f"{what} returned None: write the body of solid_inertia.")
    expect.sequence_of(result, 2, what)
    mass, inertia = result
    hint = SHAPE_HINTS[kind]
    expect.close(mass, want.mass, f"the mass from {what}", rtol=1e-9, hint=hint)
    expect.inertia_matches(
        np.diag(expect.as_floats(inertia, what)),
        want.principal,
        want.axes,
        f"the inertia from {what}",
        hint=hint,
    )


def solid_inertia(solid_inertia, kind: str) -> None:
    """Compare solid_inertia with MuJoCo on the lesson's shapes of this kind."""
    cases = [case for case in SHAPE_CASES if case[0] == kind]
    for _, size, density in cases:
        compare_solid_inertia(solid_inertia, kind, size, density)
    _ok(f"solid_inertia matches MuJoCo's compiler on {len(cases)} {kind} shape(s).")


def compare_combine_parts(combine_parts, parts, check_inertia: bool) -> None:
    """Assert combine_parts on `parts` (kind, size, pos, mass) matches MuJoCo's body."""
    model = compiled.compile_xml(scenes.parts_body(parts))
    want = compiled.body_mass_properties(model, "body")
    masses = [p[3] for p in parts]
    positions = [list(p[2]) for p in parts]
    inertias = [part_inertia(kind, size, mass).tolist() for kind, size, _, mass in parts]
    result = combine_parts(masses, positions, inertias)
    if result is None:
        raise expect.NotAnswered("combine_parts returned None: write its body.")
    expect.sequence_of(result, 3, "combine_parts(...)")
    mass, com, inertia = result
    expect.close(
        mass,
        want.mass,
        "the total mass",
        rtol=1e-9,
        hint="The body's mass is all of its parts' mass.",
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
        expect.inertia_matches(
            inertia,
            want.principal,
            want.axes,
            "the inertia about the centre of mass",
            hint="Each part's inertia must be moved from its own centre to the body's "
            "centre of mass (parallel-axis theorem); moving it away makes it larger.",
        )


def combine_parts_mass_and_com(combine_parts) -> None:
    """Compare combine_parts' mass and centre of mass with MuJoCo on the lesson's body."""
    compare_combine_parts(combine_parts, TWO_PARTS, check_inertia=False)
    _ok("combine_parts gives MuJoCo's mass and centre of mass for the box above the ball.")


def combine_parts_inertia(combine_parts) -> None:
    """Compare combine_parts' inertia about the centre of mass with MuJoCo's."""
    compare_combine_parts(combine_parts, TWO_PARTS, check_inertia=True)
    _ok("combine_parts gives MuJoCo's inertia about the centre of mass.")


def _step(semi_implicit_euler, *args):
    """(x, v) after one of the learner's steps; NotAnswered when it returns nothing."""
    result = semi_implicit_euler(*args)
    if result is None:
        raise expect.NotAnswered("semi_implicit_euler returned None: write its body.")
    return expect.sequence_of(result, 2, "semi_implicit_euler(...)")


def compare_free_fall(semi_implicit_euler, v0, timestep: float, steps: int) -> None:
    """Assert repeated semi_implicit_euler steps of a free fall follow mj_step.

    v0: start velocity (m/s), a 3-vector; positions are displacements from the start (m);
    gravity 9.81 m/s^2 along -z.
    """
    xml = falls.shape_drop("box", (0.1, 0.1, 0.1), 0.1, 0.0, timestep)
    want = compiled.free_body_positions(compiled.compile_xml(xml), steps, v0)

    def gravity(x, v):
        return np.array([0.0, 0.0, -9.81])

    x, v = np.zeros(3), np.array(v0, dtype=float)
    for k in range(1, steps + 1):
        x, v = _step(semi_implicit_euler, x, v, gravity, timestep)
        expect.close(
            x,
            want[k],
            f"the position after {k} step(s)",
            rtol=0,
            atol=1e-12,
            hint="MuJoCo's Euler updates the velocity first and then moves with the NEW "
            "velocity; moving with the old one is explicit Euler.",
        )


def semi_implicit_euler(semi_implicit_euler) -> None:
    """Compare the learner's step on Experiment A's free fall with mj_step."""
    compare_free_fall(semi_implicit_euler, (0.0, 0.0, 0.0), 0.002, FREE_FALL_STEPS)
    _ok(f"{FREE_FALL_STEPS} steps of free fall match mj_step.")


def compare_damped(semi_implicit_euler, mass, damping, timestep, steps, v0) -> None:
    """Assert the learner's step with implicit damping follows mj_step on a damped slider."""
    want_x, want_v = compiled.joint_trajectory(
        scenes.damped_slider(mass, damping, timestep), steps, 0.0, v0
    )

    def gravity_and_damping(x, v):
        return -9.81 - damping / mass * v

    x, v = 0.0, v0
    for k in range(1, steps + 1):
        x, v = _step(semi_implicit_euler, x, v, gravity_and_damping, timestep, damping / mass)
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


def semi_implicit_damping(semi_implicit_euler) -> None:
    """Compare the learner's step with implicit damping on a 0.5 kg damped slider."""
    compare_damped(semi_implicit_euler, 0.5, 2.0, 0.002, 100, 1.0)
    _ok("100 steps of a damped slider match mj_step, damping treated implicitly.")


def compare_inertia_box(inertia_box, kind, size, mass) -> None:
    """Assert inertia_box gives the sides MuJoCo's drag model uses for this shape."""
    xml = falls.shape_drop(kind, size, mass, air_density=1.2)
    props = compiled.body_mass_properties(compiled.compile_xml(xml), "body")
    areas = compiled.drag_areas(xml, 1.2)
    sides = inertia_box(props.mass, props.principal.tolist())
    what = f"inertia_box for the {kind} of size {list(size)}"
    sides = expect.as_floats(sides, what)
    if len(sides) != 3:
        raise AssertionError(f"{what} should be 3 full side lengths, got {sides}")
    faces = [sides[1] * sides[2], sides[0] * sides[2], sides[0] * sides[1]]
    expect.close(
        faces,
        areas,
        f"the face areas of {what}",
        rtol=1e-6,
        hint="The sides are full lengths of the uniform box with the same mass "
        "and principal inertia.",
    )


def inertia_box(inertia_box) -> None:
    """Compare inertia_box with MuJoCo's drag areas for the lesson's 100 g cube and a slab."""
    compare_inertia_box(inertia_box, "box", (0.1, 0.1, 0.1), 0.1)
    compare_inertia_box(inertia_box, "box", (0.1, 0.05, 0.02), 0.56)
    _ok("inertia_box gives the boxes MuJoCo's drag model uses (0.2 m cube for the 100 g cube).")


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


def quadratic_drag(quadratic_drag) -> None:
    """Compare quadratic_drag with qfrc_fluid for the 100 g cube falling at 1 and 2.8 m/s."""
    for vz in (-1.0, -2.8):
        compare_quadratic_drag(quadratic_drag, (0.2, 0.2, 0.2), (0.0, 0.0, vz), 1.2)
    _ok("quadratic_drag matches MuJoCo's qfrc_fluid for the falling cube.")


def compare_drop_heights(drop_heights, kind, size, mass, air_density, drop_height, timestep):
    """Assert the learner's drop loop reproduces mj_step's heights, landing step included."""
    want = drop.shape_drop_heights(kind, size, mass, air_density, drop_height, timestep)
    got = drop_heights(
        kind, list(size), mass, drop_height=drop_height, rho_air=air_density, timestep=timestep
    )
    what = f"drop_heights({kind!r}, {list(size)}, {mass:g} kg, rho_air={air_density:g})"
    got = expect.as_floats(got, what)
    if len(got) != len(want):
        raise AssertionError(
            f"{what} has {len(got)} heights, so it lands at step {len(got) - 1}; mj_step lands "
            f"at step {len(want) - 1}. Stop at the first height at or below 0, and keep the "
            "start height as element 0."
        )
    expect.close(
        got,
        want,
        what,
        rtol=0,
        atol=1e-9,
        hint="Use your semi_implicit_euler with gravity plus drag divided by the mass.",
    )


def drop_heights(drop_heights) -> None:
    """Compare the learner's drop loop with mj_step for the 100 g cube in vacuum and air."""
    for air in (0.0, 1.2):
        compare_drop_heights(drop_heights, "box", (0.1, 0.1, 0.1), 0.1, air, 0.40, 0.002)
    _ok("drop_heights follows mj_step for the 100 g cube, in vacuum and in air.")


def delay_table(landing_delay_ms, light_masses_kg=drop.SWEEP_MASSES_KG) -> None:
    """Compare the learner's delays (ms) behind a 1 kg cube, in air, with MuJoCo's, for each
    light cube of `light_masses_kg` (kg; the lesson's sweep by default)."""
    table = drop.delay_sweep(tuple(light_masses_kg))
    for light_kg, want in table.items():
        got = landing_delay_ms(light_kg)
        expect.close(
            got,
            want,
            f"landing_delay_ms({light_kg:g})",
            rtol=0,
            atol=0.005,
            hint="Use your drop_heights for both cubes and interpolate each landing with "
            "landing_time; a table typed in cannot answer masses it does not list.",
        )
    _ok(f"your delays match MuJoCo's for all {len(table)} masses to 0.01 ms.")
