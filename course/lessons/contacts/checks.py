"""Visible checks for lesson 08, "Contacts": the cases the lesson shows.

Hidden tests use the same comparisons on cases the lesson never shows (the `random_*`
generators). Every reference is MuJoCo's: the contact it makes between two geoms, a box
simulated on a slope, mj_contactForce on a resting box, the depth at which a ball rests, and
a ball rolled to a stop.
"""

from __future__ import annotations

import math

import numpy as np

from course import expect
from course.expect import letter  # noqa: F401 (test cells call check.letter)
from course.lessons.contacts import scenes

# --------------------------------------------------------------------------------------------
# Step 1: which pairs touch


def compare_collide(geoms_collide, contype1, conaffinity1, contype2, conaffinity2) -> None:
    """Assert geoms_collide says what MuJoCo does for two overlapping geoms with these masks."""
    masks = (contype1, conaffinity1, contype2, conaffinity2)
    call = "geoms_collide({}, {}, {}, {})".format(*masks)
    got = expect.answered(geoms_collide(*masks), call)
    if not isinstance(got, bool | np.bool_):
        raise AssertionError(f"{call} should be True or False, got {got!r}")
    want = scenes.collides(*masks)
    if bool(got) != want:
        made = "makes a contact" if want else "makes no contact"
        raise AssertionError(
            f"{call} = {bool(got)}, but MuJoCo {made} between the two overlapping geoms. Which "
            "geom's contype is compared with which geom's conaffinity, and in both directions?"
        )


SHOWN_MASKS = ((1, 1, 1, 1), (1, 0, 1, 0), (1, 0, 0, 1), (2, 1, 1, 2), (4, 4, 2, 3), (0, 0, 1, 1))


@expect.visible_check
def geoms_collide(geoms_collide) -> None:
    """Compare geoms_collide with MuJoCo on the lesson's six pairs of masks."""
    for masks in SHOWN_MASKS:
        compare_collide(geoms_collide, *masks)
    expect.ok("geoms_collide agrees with MuJoCo on the six pairs of masks.")


def random_masks(rng: np.random.Generator) -> tuple[int, int, int, int]:
    """Four bit masks of up to three bits each (0 to 7)."""
    return tuple(int(v) for v in rng.integers(0, 8, 4))


def one_way_masks(rng: np.random.Generator, first: bool) -> tuple[int, int, int, int]:
    """Masks (contype1, conaffinity1, contype2, conaffinity2) that share a bit in one
    direction only: the first geom's contype with the second's conaffinity when `first`,
    else the other way round. Three different bits of 0 to 5: no contype shares one with
    the other contype, nor a conaffinity with the other conaffinity."""
    shared, other, third = (1 << int(b) for b in rng.choice(6, size=3, replace=False))
    if first:
        return shared, other, third, shared
    return third, shared, shared, other


# --------------------------------------------------------------------------------------------
# Step 2: mixing two geoms' parameters


def _plain(geom: dict) -> dict:
    return {k: list(v) if isinstance(v, list | tuple) else v for k, v in geom.items()}


def compare_pair_parameters(contact_pair_parameters, geom1: dict, geom2: dict, what="") -> None:
    """Assert contact_pair_parameters gives the condim, friction, solref and solimp of the
    contact MuJoCo makes between two geoms with these attributes."""
    call = f"contact_pair_parameters for {what or 'two geoms'}"
    got = expect.answered(contact_pair_parameters(_plain(geom1), _plain(geom2)), call)
    condim, friction, solref, solimp = expect.sequence_of(got, 4, call)
    want = scenes.pair_contact(geom1, geom2)
    shown = f"{call} ({geom1} and {geom2})"
    if not isinstance(condim, int | float | np.number) or condim != want.condim:
        raise AssertionError(
            f"{shown}: condim {condim!r}, but MuJoCo's contact has {want.condim}. The larger "
            "of the two, unless one geom has the higher priority: then its own."
        )
    expect.close(
        friction,
        want.friction,
        f"{shown}: friction",
        hint="Five numbers: sliding twice, torsional, rolling twice. Are they each geom's "
        "larger one (or the higher-priority geom's own), not an average?",
    )
    hint = (
        "A weighted average with weights solmix1 / (solmix1 + solmix2) for geom1: which "
        "weight goes with which geom? And priority decides alone when the two differ."
    )
    expect.close(solref, want.solref, f"{shown}: solref", rtol=1e-9, atol=1e-12, hint=hint)
    expect.close(solimp, want.solimp, f"{shown}: solimp", rtol=1e-9, atol=1e-12, hint=hint)


SHOWN_PAIRS = (
    ("condim 1 and 4", {"condim": 1}, {"condim": 4}),
    (
        "priority",
        {"condim": 1, "priority": 1, "friction": [0.3, 0.01, 0.001]},
        {"condim": 6, "friction": [0.8, 0.002, 0.0002]},
    ),
    ("friction", {"friction": [0.3, 0.01, 0.001]}, {"friction": [0.8, 0.002, 0.0002]}),
    ("solmix 1 and 3", {"solmix": 1, "solref": [0.02, 1]}, {"solmix": 3, "solref": [0.06, 0.5]}),
)
DEFAULTS = {  # MuJoCo's defaults for a geom's contact attributes
    "condim": 3,
    "friction": [1.0, 0.005, 0.0001],
    "priority": 0,
    "solmix": 1.0,
    "solref": [0.02, 1.0],
    "solimp": [0.9, 0.95, 0.001, 0.5, 2.0],
}


def complete(geom: dict) -> dict:
    """A geom's contact attributes, MuJoCo's defaults where `geom` leaves one out."""
    return {**DEFAULTS, **geom}


@expect.visible_check
def contact_pair_parameters(contact_pair_parameters) -> None:
    """Compare contact_pair_parameters with MuJoCo's contacts for the lesson's four pairs."""
    for what, geom1, geom2 in SHOWN_PAIRS:
        compare_pair_parameters(contact_pair_parameters, complete(geom1), complete(geom2), what)
    expect.ok("condim, friction, solref and solimp are MuJoCo's for the four pairs.")


def random_geom(rng: np.random.Generator) -> dict:
    """A geom's contact attributes drawn at random (solref positive, solimp valid)."""
    d0, dwidth = sorted(rng.uniform(0.5, 0.99, 2))
    return {
        "condim": int(rng.choice([1, 3, 4, 6])),
        "friction": [
            round(float(rng.uniform(0.1, 1.5)), 3),
            round(float(rng.uniform(0.001, 0.05)), 4),
            round(float(rng.uniform(1e-5, 0.005)), 5),
        ],
        "priority": int(rng.choice([0, 0, 1, 2])),
        "solmix": round(float(rng.uniform(0.2, 5.0)), 3),
        "solref": [round(float(rng.uniform(0.005, 0.1)), 4), round(float(rng.uniform(0.3, 2)), 3)],
        "solimp": [
            round(float(d0), 3),
            round(float(dwidth), 3),
            round(float(rng.uniform(0.001, 0.02)), 4),
            round(float(rng.uniform(0.1, 0.9)), 3),
            round(float(rng.uniform(1, 4)), 3),
        ],
    }


# --------------------------------------------------------------------------------------------
# Step 3: the resting penetration


def compare_penetration(resting_penetration, mass, g, timeconst, dampratio, impedance, step):
    """Assert resting_penetration gives the depth at which MuJoCo's ball rests."""
    args = (mass, g, timeconst, dampratio, impedance, step)
    call = "resting_penetration({:g}, {:g}, {:g}, {:g}, {:g}, {:g})".format(*args)
    got = expect.answered(resting_penetration(*args), call)
    want = scenes.resting_ball_penetration(*args)
    expect.close(
        got,
        want,
        call + " (m)",
        rtol=1e-3,
        hint="At rest the solver's force balances gravity and the reference acceleration "
        "balances the regularised force. Did you raise timeconst to two timesteps?",
    )


SHOWN_PENETRATIONS = (
    (1.0, 9.81, 0.02, 1.0, 0.9, 0.002),
    (5.0, 9.81, 0.02, 1.0, 0.9, 0.002),
    (0.5, 9.81, 0.03, 0.7, 0.95, 0.002),
)


@expect.visible_check
def resting_penetration(resting_penetration) -> None:
    """Compare resting_penetration with the depth at which MuJoCo's ball rests, three cases."""
    for case in SHOWN_PENETRATIONS:
        compare_penetration(resting_penetration, *case)
    expect.ok("resting_penetration gives the depth at which MuJoCo's ball rests.")


def random_penetration_case(rng: np.random.Generator, low: bool | None = None) -> tuple[float, ...]:
    """(mass kg, g m/s^2, timeconst s, dampratio, impedance, timestep s); with `low` the
    timeconst is below two timesteps (True), or not (False); None: one case in three. Dampratio
    0.7 to 1 and timeconst up to 40 ms, so that the ball settles well within the 2 s the
    reference simulates."""
    step = float(rng.choice([0.001, 0.002, 0.004]))
    low = rng.random() < 1 / 3 if low is None else low
    timeconst = rng.uniform(0.2, 1.9) * step if low else rng.uniform(2.5 * step, 0.04)
    return (
        round(float(rng.uniform(0.1, 20)), 3),
        round(float(rng.uniform(1.6, 25)), 3),
        round(float(timeconst), 5),
        round(float(rng.uniform(0.7, 1.0)), 3),
        round(float(rng.uniform(0.6, 0.99)), 3),
        step,
    )


# --------------------------------------------------------------------------------------------
# Steps 4 and 5: the box on a slope


def compare_slope(slope_acceleration, mu: float, slope_deg: float, g: float = 9.81) -> None:
    """Assert slope_acceleration agrees with MuJoCo's box, to 0.01 g + 2 % (MuJoCo's soft
    contact lets a holding box creep, and a sliding one differ by a little from the law)."""
    slope = math.radians(slope_deg)
    call = f"slope_acceleration({mu:g}, radians({slope_deg:g}), {g:g})"
    got = expect.answered(slope_acceleration(mu, slope, g), call)
    want = scenes.slide(mu, slope, g).acceleration
    expect.close(
        got,
        want,
        call + " (m/s^2)",
        rtol=0.02,
        atol=0.01 * g,
        hint="Where is the edge between holding and sliding: which ratio of the slope's "
        "components does friction have to beat?",
    )


SHOWN_SLOPES = ((0.5, 25.0), (0.3, 30.0), (0.5, 45.0), (0.8, 50.0))


@expect.visible_check
def slope_acceleration(slope_acceleration) -> None:
    """Compare slope_acceleration with MuJoCo's box on the lesson's four slopes."""
    for mu, slope in SHOWN_SLOPES:
        compare_slope(slope_acceleration, mu, slope)
    expect.ok("slope_acceleration agrees with MuJoCo's box on the four slopes.")


def random_slope_case(rng: np.random.Generator, between: bool) -> tuple[float, float, float]:
    """(mu, slope in degrees, g), at least 3 degrees from the edge tan(slope) = mu. between:
    a slope steep enough that sin(slope) < mu < tan(slope), where the box slides. Slopes stay
    at or below 50 degrees: steeper, MuJoCo's box departs from the law by up to 5 %."""
    g = round(float(rng.uniform(3, 20)), 3)
    if between:
        slope = float(rng.uniform(40, 50))
        rad = math.radians(slope)
        return round(float(rng.uniform(math.sin(rad) + 0.03, math.tan(rad) - 0.08)), 3), slope, g
    while True:
        mu, slope = round(float(rng.uniform(0.1, 1.0)), 3), float(rng.uniform(5, 50))
        if abs(slope - math.degrees(math.atan(mu))) > 3:
            return mu, round(slope, 2), g


def compare_normal_force(normal_force, mass: float, slope_deg: float, g: float = 9.81) -> None:
    """Assert normal_force gives the total normal force mj_contactForce reads on a box at
    rest on a slope."""
    call = f"normal_force({mass:g}, radians({slope_deg:g}), {g:g})"
    got = expect.answered(normal_force(mass, math.radians(slope_deg), g), call)
    want = scenes.resting_normal_force(mass, math.radians(slope_deg), g)
    expect.close(
        got,
        want,
        call + " (N)",
        rtol=1e-4,
        hint="The floor pushes back against the part of the weight that points into it.",
    )


@expect.visible_check
def normal_force(normal_force) -> None:
    """Compare normal_force with mj_contactForce on boxes at rest on three slopes."""
    for mass, slope in ((1.0, 0.0), (2.0, 20.0), (0.5, 35.0)):
        compare_normal_force(normal_force, mass, slope)
    expect.ok("normal_force is the sum of the normal forces mj_contactForce reads.")


# --------------------------------------------------------------------------------------------
# Step 6: rolling friction


def compare_rolling(rolling_stop_distance, v0: float, radius: float, mu_roll: float, g=9.81):
    """Assert rolling_stop_distance agrees, to 3 %, with how far MuJoCo's ball (condim 6,
    stiff elliptic contact) rolls until its speed falls below 1 % of the start."""
    call = f"rolling_stop_distance({v0:g}, {radius:g}, {mu_roll:g}, {g:g})"
    got = expect.answered(rolling_stop_distance(v0, radius, mu_roll, g), call)
    want = scenes.roll(v0, radius, mu_roll, g).distance
    expect.close(
        got,
        want,
        call + " (m)",
        rtol=0.03,
        hint="The ball's kinetic energy includes its spin (a solid ball: I = 2/5 m r^2), and "
        "the rolling friction coefficient is a length: the torque is mu_roll times the normal "
        "force.",
    )


SHOWN_ROLLS = ((1.0, 0.05, 0.001), (2.0, 0.1, 0.005))


@expect.visible_check
def rolling_stop_distance(rolling_stop_distance) -> None:
    """Compare rolling_stop_distance with MuJoCo's ball on the lesson's two rolls."""
    for case in SHOWN_ROLLS:
        compare_rolling(rolling_stop_distance, *case)
    expect.ok("rolling_stop_distance agrees with MuJoCo's ball within 3 %.")


def random_roll_case(rng: np.random.Generator) -> tuple[float, float, float, float]:
    """(v0 m/s, radius m, mu_roll m, g m/s^2) for a roll of about 0.5 to 6 m, within 15 s
    and mu_roll / radius below 0.1: shorter rolls and relatively stronger rolling friction
    depart from the law by more than the check's 3 % (3.4 % at 10 cm, 3.5 % at 0.33)."""
    while True:
        v0 = round(float(rng.uniform(0.3, 2.0)), 3)
        radius = round(float(rng.uniform(0.015, 0.12)), 4)
        mu_roll = round(float(rng.uniform(0.0005, 0.006)), 5)
        g = round(float(rng.uniform(5, 15)), 3)
        stop_time = 7 * v0 * radius / (5 * mu_roll * g)
        if 0.7 < v0**2 * radius / (mu_roll * g) < 8 and stop_time < 15 and mu_roll < 0.1 * radius:
            return v0, radius, mu_roll, g
