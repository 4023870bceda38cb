"""Lesson 08 (course/lessons/contacts/): the scenes build what the lesson says and measure
what it shows, the hidden cases reach what the visible ones cannot, and CLAIMS binds each
confirmable sentence of the prose to an assertion (docs/writing-tests.md). Its visible checks
and slips are run by test_visible_checks.py."""

import functools
import itertools
import math

import lesson_code
import mujoco
import numpy as np
import pytest

from course import compiled
from course.lessons.contacts import checks as check
from course.lessons.contacts import pictures, scenes

LESSON = "08-contacts"
mistake = functools.partial(lesson_code.mistake, LESSON)  # mistake(fixture, function)
pytestmark = pytest.mark.usefixtures("no_mujoco_log")
SOLUTION = lesson_code.namespace(LESSON)  # the source notebook's answer cells, executed
PROSE = lesson_code.prose(LESSON)
G = 9.81


def forward(xml: str) -> tuple[mujoco.MjModel, mujoco.MjData]:
    model = compiled.compile_xml(xml)
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    return model, data


def settle(xml: str, seconds: float = 1.0) -> tuple[mujoco.MjModel, mujoco.MjData]:
    model = compiled.compile_xml(xml)
    data = mujoco.MjData(model)
    mujoco.mj_step(model, data, nstep=round(seconds / model.opt.timestep))
    mujoco.mj_forward(model, data)
    return model, data


# --- scenes -----------------------------------------------------------------------------------


def test_pair_xml_places_the_surfaces_at_the_distance():
    for distance in (-0.05, 0.02):
        contact = scenes.pair_contact({"margin": 0.05}, {}, distance)
        assert contact.dist == pytest.approx(distance, abs=1e-12)


def test_attributes_writes_lists_space_separated():
    assert scenes.attributes({"friction": [0.3, 0.01, 0.001], "condim": 4}) == (
        'friction="0.3 0.01 0.001" condim="4"'
    )


def test_slide_is_tilted_gravity_along_x():
    model = compiled.compile_xml(scenes.slope_xml(0.5, math.radians(30), G))
    assert model.opt.gravity == pytest.approx([G * 0.5, 0, -G * math.cos(math.radians(30))])
    assert scenes.slide(0.1, math.radians(30)).distance > 0.5  # it slides towards +x


def test_roll_starts_rolling_without_slipping():
    """Condim 3 and no rolling friction: the ball keeps its speed, so it started rolling."""
    run = scenes.roll(1.0, 0.05, 0.001, condim=3, limit=2.0)
    assert run.speed == pytest.approx(1.0, abs=1e-3)
    assert run.distance == pytest.approx(2.0, rel=1e-3)


# --- visible checks and hidden cases ------------------------------------------------------------


def test_hidden_cases_catch_what_the_visible_cases_cannot():
    """Priority ignored is caught by the hidden draws too (a pair whose lower-priority geom
    holds the larger values); refsafe forgotten passes the visible check, and a hidden
    timeconst below two timesteps catches it."""
    ignored = mistake("priority_ignored", "contact_pair_parameters")
    geom1, geom2 = (
        check.random_geom(np.random.default_rng(1)),
        check.random_geom(np.random.default_rng(2)),
    )
    geom1.update(priority=0, condim=6)
    geom2.update(priority=1, condim=1)
    with pytest.raises(AssertionError, match="priority"):
        check.compare_pair_parameters(ignored, geom1, geom2)
    unraised = mistake("timeconst_not_raised", "resting_penetration")
    check.resting_penetration(unraised)
    with pytest.raises(AssertionError, match="two timesteps"):
        check.compare_penetration(unraised, 1.0, G, 0.001, 1.0, 0.9, 0.002)


def test_hidden_generators_draw_what_the_tests_need():
    rng = np.random.default_rng(8)
    outcomes = {scenes.collides(*check.random_masks(rng)) for _ in range(40)}
    assert outcomes == {True, False}
    low = [c for c in (check.random_penetration_case(rng) for _ in range(30)) if c[2] < 2 * c[5]]
    assert low, "no timeconst below two timesteps drawn"
    for _ in range(10):
        mu, slope, _g = check.random_slope_case(rng, between=True)
        rad = math.radians(slope)
        assert math.sin(rad) < mu < math.tan(rad)
        mu, slope, _g = check.random_slope_case(rng, between=False)
        assert abs(slope - math.degrees(math.atan(mu))) > 3


def test_a_random_slope_tells_the_edges_apart():
    """On a drawn case between sin and tan, MuJoCo's box slides well beyond the tolerance."""
    mu, slope, g = check.random_slope_case(np.random.default_rng(5), between=True)
    run = scenes.slide(mu, math.radians(slope), g)
    assert run.acceleration > 0.01 * g + 0.1
    with pytest.raises(AssertionError):
        check.compare_slope(mistake("sine_at_the_slope_edge", "slope_acceleration"), mu, slope, g)


def test_slope_plot_draws_mujoco_as_dots_the_law_as_a_line_and_the_edge(drawn):
    angles = np.array([10.0, 20.0, 30.0, 40.0])
    measured, law = [0.0, 0.01, 0.66, 2.5], [0.0, 0.0, 0.65, 2.5]
    assert pictures.slope_plot(angles, measured, law, 0.5) is None
    (ax,) = drawn().axes
    line, dots, edge = ax.lines
    np.testing.assert_allclose(line.get_ydata(), law)
    assert dots.get_linestyle() == "None" and dots.get_marker() == "o"
    np.testing.assert_allclose(dots.get_ydata(), measured)
    assert edge.get_xdata()[0] == pytest.approx(math.degrees(math.atan(0.5)))


# --- claims ---------------------------------------------------------------------------------


def _mask_defaults():
    model, _ = forward(scenes.pair_xml({}, {}))
    assert model.geom_contype.tolist() == [1, 1] and model.geom_conaffinity.tolist() == [1, 1]


def _mask_rule():
    for masks in itertools.product(range(4), repeat=4):
        c1, a1, c2, a2 = masks
        assert scenes.collides(*masks) == bool((c1 & a2) or (c2 & a1)), masks


def _parent_and_same_body_filters():
    def contacts(xml):
        return forward(f"<mujoco><worldbody>{xml}</worldbody></mujoco>")[1].ncon

    ball = '<geom type="sphere" size="0.1"/>'
    assert contacts(f"<body><freejoint/>{ball}<body><joint/>{ball}</body></body>") == 0
    assert contacts(f'<body><freejoint/>{ball}<geom type="sphere" size="0.1"/></body>') == 0
    assert contacts(f"{ball}<body><freejoint/>{ball}</body>") == 1  # the world's geom


def _welded_bodies_count_as_one():
    def contacts(xml):
        return forward(f"<mujoco><worldbody>{xml}</worldbody></mujoco>")[1].ncon

    ball, dot = '<geom type="sphere" size="0.1"/>', '<geom type="sphere" size="0.01"/>'
    hinged = f'<body pos="0 0 -0.45"><joint type="hinge"/>{ball}</body>'
    assert contacts(f"<body><freejoint/>{ball}<body><body>{ball}</body></body></body>") == 0
    welded = f'<body><freejoint/>{ball}<body pos="0 0 0.5">{dot}{hinged}</body></body>'
    jointed = f'<body><freejoint/>{ball}<body pos="0 0 0.5"><joint/>{dot}{hinged}</body></body>'
    assert contacts(welded) == 0 and contacts(jointed) == 1


def _exclude_removes_bodies():
    ball = '<geom type="sphere" size="0.1"/>'
    bodies = f'<body name="a"><freejoint/>{ball}</body><body name="b"><freejoint/>{ball}</body>'
    plain = forward(f"<mujoco><worldbody>{bodies}</worldbody></mujoco>")[1]
    excluded = forward(
        f'<mujoco><worldbody>{bodies}</worldbody><contact><exclude body1="a" body2="b"/>'
        "</contact></mujoco>"
    )[1]
    assert plain.ncon == 1 and excluded.ncon == 0


def _pair_skips_masks_and_sets_parameters():
    geom = 'type="sphere" size="0.1" contype="0" conaffinity="0"'
    xml = f"""<mujoco><worldbody>
      <body><freejoint/><geom name="a" {geom} friction="0.3 0.01 0.001"/></body>
      <body pos="0 0 0.15"><freejoint/><geom name="b" {geom}/></body></worldbody>
      <contact><pair geom1="a" geom2="b" friction="0.7 0.7 0.02 0.003 0.003"/></contact>
    </mujoco>"""
    data = forward(xml)[1]
    assert data.ncon == 1
    assert data.contact.friction[0].tolist() == pytest.approx([0.7, 0.7, 0.02, 0.003, 0.003])


def _zero_masks_touch_nothing():
    for c, a in itertools.product(range(8), repeat=2):
        assert not scenes.collides(0, 0, c, a)


def _type_without_affinity():
    assert not scenes.collides(1, 0, 1, 0)
    assert scenes.collides(1, 0, 0, 1) and scenes.collides(1, 0, 1, 1)


def _margin_gap_defaults():
    model, _ = forward(scenes.pair_xml({}, {}))
    assert model.geom_margin.tolist() == [0, 0] and model.geom_gap.tolist() == [0, 0]


def _margins_add():
    rng = np.random.default_rng(0)
    for _ in range(5):
        m1, m2 = (round(float(v), 3) for v in rng.uniform(0.001, 0.05, 2))
        contact = scenes.pair_contact({"margin": m1}, {"margin": m2})
        assert contact.includemargin == pytest.approx(m1 + m2, abs=1e-12)
    near = scenes.pair_contact({"margin": 0.01}, {"margin": 0.03, "gap": 0.01}, 0.02)
    assert near.includemargin == pytest.approx(0.04)


def _within_margin_is_active():
    model, data = forward(scenes.pair_xml({"margin": 0.01}, {"margin": 0.03}, 0.035))
    assert data.ncon == 1 and data.contact.exclude[0] == 0 and data.nefc > 0


def _gap_band_is_listed_without_force():
    pair = ({"margin": 0.01}, {"margin": 0.03, "gap": 0.01})
    for distance in (0.041, 0.045, 0.049):
        model, data = forward(scenes.pair_xml(*pair, distance))
        assert data.ncon == 1 and data.contact.exclude[0] == 1 and data.nefc == 0
    assert scenes.pair_contact(*pair, 0.051) is None
    assert scenes.pair_contact({"margin": 0.01}, {"margin": 0.03}, 0.045) is None  # no gap


def _mix(geom1, geom2):
    """The mixing rules as the lesson's table states them, written out here."""
    g1, g2 = check.complete(geom1), check.complete(geom2)
    if g1["priority"] != g2["priority"]:
        top = g1 if g1["priority"] > g2["priority"] else g2
        f = top["friction"]
        return top["condim"], [f[0], f[0], f[1], f[2], f[2]], top["solref"], top["solimp"]
    w = g1["solmix"] / (g1["solmix"] + g2["solmix"])
    f = np.maximum(g1["friction"], g2["friction"])
    return (
        max(g1["condim"], g2["condim"]),
        [f[0], f[0], f[1], f[2], f[2]],
        (w * np.array(g1["solref"]) + (1 - w) * np.array(g2["solref"])).tolist(),
        (w * np.array(g1["solimp"]) + (1 - w) * np.array(g2["solimp"])).tolist(),
    )


def _mixing_table():
    rng = np.random.default_rng(3)
    for _ in range(20):
        g1, g2 = check.random_geom(rng), check.random_geom(rng)
        condim, friction, solref, solimp = _mix(g1, g2)
        contact = scenes.pair_contact(g1, g2)
        assert contact.condim == condim
        np.testing.assert_allclose(contact.friction, friction, rtol=1e-12)
        np.testing.assert_allclose(contact.solref, solref, rtol=1e-12)
        np.testing.assert_allclose(contact.solimp, solimp, rtol=1e-12)


def _friction_layout():
    contact = scenes.pair_contact({"friction": [0.4, 0.02, 0.003]}, {"friction": [0.1, 0, 0]})
    assert contact.friction == pytest.approx((0.4, 0.4, 0.02, 0.003, 0.003))


def _friction_larger():
    contact = scenes.pair_contact({"friction": [0.3, 0.01, 0.001]}, {"friction": [0.8, 0, 0]})
    assert contact.friction[0] == pytest.approx(0.8)


def _condim_meanings():
    """Rows per contact with an elliptic cone: condim; condim 1 lets a box slide as if on ice,
    condim 4 stops a ball spinning about the normal, condim 3 does not."""
    for condim in (1, 3, 4, 6):
        xml = scenes.pair_xml({"condim": condim}, {"condim": condim}).replace(
            "<option ", '<option cone="elliptic" '
        )
        assert forward(xml)[1].nefc == condim
    ice = scenes.slope_xml(0.5, math.radians(10), G).replace(
        '<geom type="box"', '<geom condim="1" type="box"'
    )
    ice = ice.replace('<geom type="plane"', '<geom condim="1" type="plane"')
    model, data = settle(ice, 0.5)
    assert data.qvel[0] == pytest.approx(G * math.sin(math.radians(10)) * 0.5, rel=0.02)

    def spin(condim):
        xml = scenes.ball_on_floor_xml(f'condim="{condim}"')
        model = compiled.compile_xml(xml)
        data = mujoco.MjData(model)
        data.qvel[5] = 10.0  # spinning about the vertical, the contact's normal
        mujoco.mj_step(model, data, nstep=500)
        return data.qvel[5]

    assert spin(3) == pytest.approx(10.0, rel=1e-3) and spin(4) < 5.0


def _priority_frictionless():
    contact = scenes.pair_contact(*[check.complete(g) for g in check.SHOWN_PAIRS[1][1:]])
    assert contact.condim == 1


def _solmix_three_times():
    contact = scenes.pair_contact(
        {"solmix": 1, "solref": [0.02, 1]}, {"solmix": 3, "solref": [0.06, 0.5]}
    )
    assert contact.solref == pytest.approx((0.25 * 0.02 + 0.75 * 0.06, 0.25 * 1 + 0.75 * 0.5))


def _ball_efc(solref="0.02 1", solimp="0.9 0.9 0.001 0.5 2", mass=1.0, g=G, step=0.002):
    contact = f'condim="1" solref="{solref}" solimp="{solimp}"'
    return settle(scenes.ball_on_floor_xml(contact, mass, g, step), 2.0)


def _stiffness_and_damping():
    for tc, zeta, dmax in ((0.02, 1.0, 0.95), (0.05, 0.7, 0.8)):
        model, data = _ball_efc(f"{tc} {zeta}", f"0.7 {dmax} 0.001 0.5 2")
        k, b = data.efc_KBIP[0, 0], data.efc_KBIP[0, 1]
        assert k == pytest.approx(1 / (dmax**2 * tc**2 * zeta**2), rel=1e-9)
        assert b == pytest.approx(2 / (dmax * tc), rel=1e-9)


def _reference_acceleration():
    model, data = _ball_efc()
    k, b, d = data.efc_KBIP[0, :3]
    want = -b * data.efc_vel[0] - k * d * data.efc_pos[0]
    assert data.efc_aref[0] == pytest.approx(want, rel=1e-9)


def _impedance_rises_with_depth():
    def impedance(depth):
        model, data = forward(
            scenes.ball_on_floor_xml('condim="1" solimp="0.5 0.9 0.01 0.5 2"').replace(
                'pos="0 0 0.05"', f'pos="0 0 {0.05 - depth}"'
            )
        )
        return data.efc_KBIP[0, 2]

    assert impedance(1e-5) == pytest.approx(0.5, abs=0.01)
    assert 0.5 < impedance(0.005) < 0.9
    assert impedance(0.02) == pytest.approx(0.9, abs=1e-9)


def _regulariser_of_a_ball():
    for mass in (1.0, 4.0):
        model, data = _ball_efc(mass=mass)
        d = data.efc_KBIP[0, 2]
        assert data.efc_R[0] == pytest.approx((1 - d) / d / mass, rel=1e-6)


def _force_is_weight_and_aref_over_r():
    model, data = _ball_efc(mass=3.0)
    assert data.efc_force[0] == pytest.approx(3.0 * G, rel=1e-6)
    assert data.efc_force[0] == pytest.approx(data.efc_aref[0] / data.efc_R[0], rel=1e-6)


def _refsafe():
    model, data = _ball_efc("0.001 1", step=0.002)
    assert data.efc_KBIP[0, 1] == pytest.approx(2 / (0.9 * 0.004), rel=1e-9)
    deep = [scenes.resting_ball_penetration(1, G, tc, 1, 0.9) for tc in (0.001, 0.004, 0.008)]
    assert deep[0] == pytest.approx(deep[1], rel=1e-9) and deep[2] > 2 * deep[1]


def _depth_independent_of_mass():
    light, heavy = (scenes.settled_penetration(scenes.ball_on_floor_xml("", m)) for m in (1, 10))
    assert light == pytest.approx(heavy, rel=1e-6)


def _box_four_corners():
    model, data = settle(scenes.slope_xml(1.0, 0.0, G))
    assert data.ncon == 4


def _soft_push_in_proportion():
    one = scenes.resting_ball_penetration(1.0, G, 0.02, 1.0, 0.9)
    two = scenes.resting_ball_penetration(1.0, 2 * G, 0.02, 1.0, 0.9)
    assert two == pytest.approx(2 * one, rel=1e-6)
    assert 0 < scenes.settled_penetration(scenes.slope_xml(1.0, 0.0, G)) < 1e-3


def _tilted_gravity_is_a_slope():
    """A box on a plane tilted by 30 degrees under plain gravity slides as the tilted-gravity
    box does."""
    theta = math.radians(30)
    quat = np.array([math.cos(theta / 2), 0, -math.sin(theta / 2), 0])
    rotation = np.zeros(9)
    mujoco.mju_quat2Mat(rotation, quat)
    normal = rotation.reshape(3, 3)[:, 2]
    q, p = (" ".join(repr(float(v)) for v in vector) for vector in (quat, 0.02 * normal))
    friction = 'friction="0.3 0.005 0.0001"'
    tilted = f"""<mujoco><worldbody>
      <geom type="plane" size="20 20 0.1" quat="{q}" {friction}/>
      <body pos="{p}" quat="{q}"><freejoint/><geom type="box" size="0.1 0.1 0.02" {friction}/>
      </body></worldbody></mujoco>"""
    model = compiled.compile_xml(tilted)
    data = mujoco.MjData(model)
    mujoco.mj_step(model, data, nstep=500)
    speed = np.linalg.norm(data.qvel[:3])
    law = G * (math.sin(theta) - 0.3 * math.cos(theta))
    assert speed == pytest.approx(law * 1.0, rel=0.02)
    assert scenes.slide(0.3, theta).acceleration == pytest.approx(law, rel=0.01)


def _slope_law():
    for mu, degrees in ((0.3, 30), (0.5, 45), (0.8, 50), (0.6, 20), (0.5, 25)):
        theta = math.radians(degrees)
        law = G * (math.sin(theta) - mu * math.cos(theta)) if math.tan(theta) > mu else 0.0
        assert scenes.slide(mu, theta).acceleration == pytest.approx(law, abs=0.01 * G), degrees


def _holds_at_25():
    assert math.tan(math.radians(25)) == pytest.approx(0.47, abs=0.005)
    assert abs(scenes.slide(0.5, math.radians(25)).acceleration) < 1e-3


def _creeps_below_edge():
    one, two = (scenes.slide(0.5, math.radians(25), seconds=s).distance for s in (1.0, 2.0))
    assert 1e-3 < two - one < 1e-2  # millimetres a second, never zero


def _video_boxes():
    model = compiled.compile_xml(scenes.slope_video_xml(30.0, (0.3, 0.7)))
    data = mujoco.MjData(model)
    start = data.qpos[[0, 7]].copy()
    mujoco.mj_step(model, data, nstep=600)
    moved = np.abs(data.qpos[[0, 7]] - start)
    assert moved[0] > 0.5 and moved[1] < 0.01
    assert math.tan(math.radians(30)) == pytest.approx(0.58, abs=0.005)


def _both_cones_near_the_law():
    theta = math.radians(45)
    law = G * (math.sin(theta) - 0.5 * math.cos(theta))
    for cone in ("pyramidal", "elliptic"):
        assert scenes.slide(0.5, theta, cone=cone).acceleration == pytest.approx(law, rel=0.005)


def _soft_roll_almost_three_times():
    stiff = scenes.roll(1.0, 0.05, 0.001).distance
    soft = scenes.roll(1.0, 0.05, 0.001, contact="", cone="pyramidal", limit=60.0).distance
    assert 2.5 < soft / stiff < 3.0


def _pyramidal_default_and_impratio():
    model, data = forward(
        scenes.pair_xml({}, {}).replace("<option ", '<option cone="elliptic" impratio="10" ')
    )
    r = data.efc_R
    assert compiled.compile_xml(scenes.pair_xml({}, {})).opt.cone == mujoco.mjtCone.mjCONE_PYRAMIDAL
    assert r[1] == pytest.approx(r[0] / 10, rel=1e-9)  # friction rows: stiffer


def _pyramid_rows():
    for condim in (3, 4, 6):
        assert forward(scenes.pair_xml({"condim": condim}, {}))[1].nefc == 2 * (condim - 1)


def _contact_force_normal_first():
    model, data = settle(scenes.slope_xml(1.0, math.radians(20), G, 2.0), 0.5)
    force = np.zeros(6)
    mujoco.mj_contactForce(model, data, 0, force)
    assert force[0] > 0 and data.contact.frame[0][:3] == pytest.approx([0, 0, 1])


def _downhill_carries_more():
    model, data = settle(scenes.slope_xml(1.0, math.radians(20), G, 2.0), 0.5)
    normals = scenes.normal_forces(model, data)
    downhill = data.contact.pos[:, 0] > data.qpos[0]  # gravity pulls along +x
    assert normals[downhill].min() > normals[~downhill].max()


def _normal_force_is_m_g_cos():
    for mass, degrees in ((2.0, 20.0), (0.7, 35.0)):
        got = scenes.resting_normal_force(mass, math.radians(degrees))
        assert got == pytest.approx(mass * G * math.cos(math.radians(degrees)), rel=1e-5)


def _rolling_only_with_condim_6():
    assert scenes.roll(1.0, 0.05, 0.001, condim=3, limit=10.0).speed == pytest.approx(1, abs=1e-3)
    assert scenes.roll(1.0, 0.05, 0.001).speed < 0.01


def _rolling_torque_is_mu_r_n():
    """The stiff ball's stop matches a torque mu_r N against the spin, for two radii."""
    for v0, radius, mu_r in ((1.0, 0.05, 0.001), (0.8, 0.02, 0.002)):
        law = 7 * v0**2 * radius / (10 * mu_r * G)  # energy 7/10 m v^2 over mu_r m g / r
        assert scenes.roll(v0, radius, mu_r).distance == pytest.approx(law, rel=0.01)


def _soft_rolling_creeps():
    stiff = scenes.roll(1.0, 0.05, 0.001).distance
    soft = scenes.roll(1.0, 0.05, 0.001, contact="", cone="pyramidal", limit=60.0).distance
    assert soft > 2.5 * stiff


def _foot_depth():
    depth = scenes.settled_penetration(scenes.ball_on_floor_xml("", mass=2.0))
    assert round(depth * 1000, 1) == 0.4


def _priority_decides():
    contact = scenes.pair_contact({"condim": 6}, {"condim": 1, "priority": 1})
    assert contact.condim == 1


CLAIMS = [
    ("**contype and conaffinity** are bit masks (integers, 1 by default).", _mask_defaults),
    ("Two geoms can collide when the contype of one shares a bit with the conaffinity of the "
     "other, in either direction: `(contype1 & conaffinity2) or (contype2 & conaffinity1)`.",
     _mask_rule),
    ("a body's geoms never collide with the geoms of its parent body (the world's geoms "
     "excepted), nor with each other.", _parent_and_same_body_filters),
    ("Bodies welded together (a child body with no joint of its own) count as one body here: a "
     "hinged body never touches the geoms of the body its parent is welded to.",
     _welded_bodies_count_as_one),
    ("**`<exclude body1=... body2=...>`** removes every contact between two bodies.",
     _exclude_removes_bodies),
    ("makes a pair explicitly: it skips the bit masks and takes its parameters from the pair "
     "element, not from the geoms.", _pair_skips_masks_and_sets_parameters),
    ("A geom with contype 0 and conaffinity 0 touches nothing", _zero_masks_touch_nothing),
    ("Two geoms of contype 1 and conaffinity 0 never touch each other, but both touch a floor "
     "of conaffinity 1.", _type_without_affinity),
    ("Each geom has a `margin` (m, 0 by default) and a `gap` (m, 0 by default).",
     _margin_gap_defaults),
    ("MuJoCo 4 adds the two geoms' margins", _margins_add),
    ("within that distance the contact is active, a constraint the solver can push with.",
     _within_margin_is_active),
    ("The gaps add on top: between 40 and 50 mm here, the contact is still listed in "
     "`data.contact`, with `exclude` 1, but gets no force. Beyond 50 mm there is no contact.",
     _gap_band_is_listed_without_force),
    ("| `condim` | the larger of the two |", _mixing_table),
    ("| `friction` (sliding, torsional, rolling) | each coefficient the larger of the two |",
     _friction_larger),
    ("| `solref`, `solimp` | the average weighted by `solmix`: geom 1 counts $s_1/(s_1+s_2)$ |",
     _solmix_three_times),
    ("| all of them, when the `priority` values differ | the higher-priority geom's own |",
     _priority_decides),
    ("The contact's `friction` has five numbers, the sliding one twice (two tangent "
     "directions), then the torsional one, then the rolling one twice.", _friction_layout),
    ("1 frictionless, 3 sliding friction, 4 adds torsional friction, 6 adds rolling friction.",
     _condim_meanings),
    ("the more slippery geom does not make the contact slippery.", _friction_larger),
    ("With priority, a condim 1 geom makes a frictionless contact with a condim 6 one.",
     _priority_frictionless),
    ("Solmix 1 against 3 weighs the second geom three times as much", _solmix_three_times),
    ("MuJoCo takes each friction coefficient as the larger of the two geoms' (unless one geom "
     "has a higher priority).", _mixing_table),
    ("a spring-damper pulling the overlap back to zero.", _reference_acceleration),
    ("$k = 1/(d_\\text{max}^2\\,\\tau^2\\,\\zeta^2)$ and $b = 2/(d_\\text{max}\\,\\tau)$",
     _stiffness_and_damping),
    ("it rises from its first number $d_0$ to $d_\\text{max}$ as the overlap grows to its "
     "third number, the width.", _impedance_rises_with_depth),
    ("where $A$ is how easily the contact moves under a unit force: for a free ball on a "
     "floor, $1/m$.", _regulariser_of_a_ball),
    ("the force carries the weight, $f = m g$, and it equals $a_\\text{ref} / R$.",
     _force_is_weight_and_aref_over_r),
    ("a timeconst below two timesteps is raised to two timesteps (MuJoCo's `refsafe`)",
     _refsafe),
    ("the mass cancels, because a heavier ball is also harder to move ($A = 1/m$)",
     _depth_independent_of_mass),
    ("The box, on four corner contacts, rests", _box_four_corners),
    ("MuJoCo's contacts are soft: a contact pushes back in proportion to how far the geoms "
     "overlap, so a resting body sits where that push balances its weight, a fraction of a "
     "millimetre deep.", _soft_push_in_proportion),
    ("In the scenes here the floor stays level and gravity is tilted by $\\theta$: in the "
     "slope's own frame the physics is the same.", _tilted_gravity_is_a_slope),
    ("so in the ideal law the box stays when $\\tan\\theta \\le \\mu$, and otherwise slides "
     "with $g(\\sin\\theta - \\mu\\cos\\theta)$.", _slope_law),
    ("Friction can hold up to 0.5 times the normal force, and the slope asks only tan(25°) = "
     "0.47 times it.", _holds_at_25),
    ("it creeps by a few millimetres a second, because its contacts are soft.",
     _creeps_below_edge),
    ("Above the edge it slides with the law's acceleration.", _slope_law),
    ("MuJoCo's boxes lie on the law on both sides of it.", _slope_law),
    ("With tan 30° = 0.58 between the two, the box with friction 0.3 slides down and the one "
     "with 0.7 stays where it was put.", _video_boxes),
    ("both within 0.5 % of it.", _both_cones_near_the_law),
    ("MuJoCo's default friction cone is `pyramidal`", _pyramidal_default_and_impratio),
    ("The `impratio` option makes friction stiffer than the normal direction",
     _pyramidal_default_and_impratio),
    ("writes contact $i$'s force into six numbers in the contact's own frame: the normal "
     "force first", _contact_force_normal_first),
    ("with a pyramidal cone those rows are the pyramid's edges", _pyramid_rows),
    ("The corners do not share the load evenly (the ones downhill carry more)",
     _downhill_carries_more),
    ("the floor pushes with $m g\\cos\\theta$", _normal_force_is_m_g_cos),
    ("A ball that rolls does not slide at its contact point, so sliding friction has nothing "
     "to oppose and does no work. Only rolling friction (condim 6) stops it.",
     _rolling_only_with_condim_6),
    ("Rolling friction is a torque against the spin, at most $\\mu_r$ times the normal force: "
     "$\\mu_r$ is a length, in metres.", _rolling_torque_is_mu_r_n),
    ("almost three times as far as the stiff one.", _soft_roll_almost_three_times),
    ("At low speed the soft rolling constraint cannot produce its full torque",
     _soft_rolling_creeps),
    ("A foot rests on the floor 0.4 mm deep with solref (0.02, 1) at a 2 ms step.", _foot_depth),
    ("a ball's depth does not depend on its mass", _depth_independent_of_mass),
]  # fmt: skip

test_claim_is_in_the_prose_and_true, test_claims_count = lesson_code.claims_tests(
    CLAIMS, PROSE, minimum=50
)


# --- plot helpers -------------------------------------------------------------------------------
# Each helper of pictures.py with a call on arguments of this lesson's shapes: the registry's
# test_plot_helpers.py draws each one, with and without the grader.
PLOTS = {
    "slope_plot": lambda: pictures.slope_plot(
        [20.0, 30.0, 40.0], [0.0, 0.66, 2.0], [0.0, 0.65, 2.0], 0.5
    ),
}


@pytest.mark.parametrize("seed", range(10))
def test_one_way_masks_collide_through_one_direction_only(seed):
    """MuJoCo makes a contact for one_way_masks, yet no contype shares a bit with the other
    contype nor a conaffinity with the other conaffinity (what contype_against_contype tests)."""
    rng = np.random.default_rng(seed)
    for first in (True, False):
        contype1, conaffinity1, contype2, conaffinity2 = check.one_way_masks(rng, first)
        assert scenes.collides(contype1, conaffinity1, contype2, conaffinity2)
        assert contype1 & contype2 == 0 and conaffinity1 & conaffinity2 == 0
        assert bool(contype1 & conaffinity2) == first and bool(contype2 & conaffinity1) != first


# Seeds on which a mistake once passed a test's hidden part, {salt: seeds}, swept again by
# grader_tests/lessons/test_mistake_sweep.py: no masks that meet one way only (salt 39).
ESCAPED_SEEDS = {39: (2, 3)}
