"""Lesson 06 (course/lessons/slender_parts/): the builders compile to what the lesson states
and the runners simulate what it shows; CLAIMS holds each sentence of the prose that MuJoCo
can confirm, with its assertion (docs/writing-tests.md). test_visible_checks.py runs its
visible checks and slips."""

import functools
import math
from pathlib import Path

import lesson_code
import mujoco
import numpy as np
import pytest

from classroom.nbgrader_ext import notebooks
from classroom.nbgrader_ext.verdicts.boundary import AnswerProcess
from course import compiled, expect
from course.lessons.slender_parts import checks as check
from course.lessons.slender_parts import parts, pictures, runs

LESSON = "06-slender-parts"
mistake = functools.partial(lesson_code.mistake, LESSON)  # mistake(fixture, function)
pytestmark = pytest.mark.usefixtures("no_mujoco_log")
SOLUTION = lesson_code.namespace(LESSON)  # the source notebook's answer cells, executed
R0 = 0.009
G = 9.81


def law(r_g, radius, slope_deg=10.0, g=G):
    return g * math.sin(math.radians(slope_deg)) / (1 + r_g**2 / radius**2)


def axial_rg(name) -> float:
    props = parts.properties(name)
    return math.sqrt(check._moment_about_z(props) / props.mass)


# --- parts: builders and readers ----------------------------------------------------------


@pytest.mark.parametrize(("mass", "radius"), [(0.0158, 0.009), (0.005, 2.5e-3), (1.0, 0.3)])
def test_ring_inertia_is_exactly_the_ring(mass, radius):
    """The ring's balls' own moments cancel: what is left is m r^2 to rounding."""
    assert parts.ring_inertia(mass, radius) == pytest.approx(mass * radius**2, rel=1e-12)


def test_a_tiny_ring_still_compiles():
    """A radius far below the balls' own size (a learner's I / m) still gives m r^2."""
    assert parts.ring_inertia(0.0158, 3.8e-5) == pytest.approx(0.0158 * 3.8e-5**2, rel=1e-9)


def test_stated_rod_compiles_to_the_seed_marker():
    """The marker is 15.8 g with an axial radius of gyration of 6.2 mm, its axis along z."""
    props = parts.properties("marker")
    assert props.mass == pytest.approx(0.0158)
    assert axial_rg("marker") == pytest.approx(0.0062, rel=1e-9)
    np.testing.assert_allclose(props.axes, np.eye(3), atol=1e-12)


def test_model_arrays_are_copies_with_the_body_names():
    model = compiled.compile_xml(parts.lesson_workbench())
    arrays = parts.model_arrays(model)
    assert arrays["body_names"] == [
        "world",
        "marker",
        "pencil",
        "coin",
        "die",
        *("upper_arm", "forearm"),
    ]
    arrays["dof_armature"][:] = 1.0
    assert not model.dof_armature.any()


def test_free_bodies_leave_the_arm_out():
    model = compiled.compile_xml(parts.lesson_workbench())
    assert [model.body(b).name for b in parts.free_bodies(model)] == [
        "marker", "pencil", "coin", "die"
    ]  # fmt: skip


def test_floor_bodies_writes_rotational_dofs_only():
    model = compiled.compile_xml(parts.lesson_workbench())
    parts.floor_bodies(model, ["marker"], R0)
    dofs = parts.rotational_dofs(model, "marker")
    written = np.flatnonzero(model.dof_armature)
    assert list(written) == list(range(dofs.start, dofs.stop))
    smallest = parts.rotational_moments(model, "marker")[0]
    assert smallest == pytest.approx(0.0158 * R0**2, rel=1e-12)


def test_slope_places_every_part_on_the_plane():
    """At rest on the slope, each lane's part touches the plane and nothing else."""
    lanes = {lane: parts.part(name) for lane, name in runs.RACE.items()}
    model = compiled.compile_xml(parts.slope(lanes))
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    touching = {model.geom_bodyid[c.geom2] for c in data.contact[: data.ncon]}
    assert touching == {model.body(name).id for name in lanes}
    assert all(abs(c.dist) < 1e-6 for c in data.contact[: data.ncon])


def test_roll_starts_at_rest_and_speeds_up():
    roll = runs.roll({"rod": "rod 9 mm"}, 10.0, 0.3)["rod"]
    assert abs(roll.distances[0]) < 1e-4
    assert np.all(np.diff(roll.speeds[40:]) > 0)


def test_roll_window_samples_the_trajectory():
    roll = runs.roll({"rod": "rod 9 mm"}, 10.0, 0.3)["rod"]
    times, distances = roll.window(0.1, 0.2, every=4)
    assert times[0] == pytest.approx(0.1) and times[-1] <= 0.2 + 1e-12
    assert len(times) == len(distances) == 21


def test_spin_after_impulse_is_the_angular_impulse_over_the_moment():
    spun = runs.spin_after_impulse("coin", 1e-3)
    props = parts.properties("coin")
    assert spun.spin == pytest.approx(1e-3 * 0.0129 / check._moment_about_z(props), rel=1e-9)


# --- the visible checks pass the solution and name each slip -------------------------------


def test_hidden_cases_catch_what_the_visible_cases_cannot():
    """Set-not-add needs armature already there; the r_g >= r0 branch needs a tube."""
    added = mistake("armature_added_not_set", "floor_arrays")
    check.apply_inertia_floor(added)  # the lesson's workbench has no armature to add to
    xml = check.random_workbench(np.random.default_rng(3))
    prefill = compiled.compile_xml(xml).dof_armature + 1e-7
    with pytest.raises(AssertionError, match="SET"):
        check.compare_apply_floor(added, xml, R0, prefill)
    above = mistake("floored_ratio_for_parts_above_the_floor", "floored_rolling_ratio")
    with pytest.raises(AssertionError, match="not raised"):
        check.compare_floored_ratio(above, parts.PARTS["tube"], 0.008, 15.0)
    with pytest.raises(AssertionError, match="slope"):
        tangent = mistake("slope_with_tangent", "rolling_acceleration")
        check.compare_rolling(tangent, "solid cylinder", 30.0)


def test_floored_ratio_is_asked_only_about_slender_parts():
    """The lesson's rule raises a part only when it is slender (largest / smallest >= 4). A
    compact cylinder (R = 14 mm, L = 60 mm: 3.56) below r0 is not raised, so its true ratio is
    1, which (r_g, r0, R) cannot tell from a slender part's: the check refuses to ask about it
    (the hidden test once did, expecting 0.865), and the hidden test's parts are all slender."""
    compact = parts.Part("compact", parts.cylinder(0.014, 0.03, 0.05, "1 1 1 1"), 0.014, "")
    moments = parts.properties(compact).principal
    assert moments.max() / moments.min() == pytest.approx((3 * 14**2 + 60**2) / (6 * 14**2))
    r0 = 1.3 * check.rolling_rg(compact)  # its r_g is below this floor
    assert not check.raised(float(parts.properties(compact).mass), moments.tolist(), r0)[0]
    with pytest.raises(ValueError, match="compact"):
        check.compare_floored_ratio(SOLUTION["floored_rolling_ratio"], compact, r0)
    rng = np.random.default_rng(6601)
    for kind in ("cylinder", "stated") * 4:
        drawn = check.random_slender_round_part(rng, min_radius=0.009, max_radius=0.014, kind=kind)
        drawn_moments = parts.properties(drawn).principal
        assert drawn_moments.max() >= 4 * drawn_moments.min()


def test_checks_say_when_the_body_is_missing():
    def unwritten(*args):
        return None

    for name in ("radius_of_gyration", "needs_inertia_floor", "floor_armature"):
        with pytest.raises(expect.NotAnswered, match="write the body"):
            getattr(check, name).__wrapped__(unwritten)


def test_not_in_place_is_named():
    def replaces_the_array(arrays, r0):
        result = SOLUTION["floor_arrays"](arrays, r0)
        return {"names": result["names"], "dof_armature": np.array(arrays["dof_armature"])}

    with pytest.raises(AssertionError, match="in place"):
        check.compare_apply_floor(replaces_the_array, parts.lesson_workbench(), R0)


def test_hidden_generators_give_both_outcomes():
    rng = np.random.default_rng(7)
    outcomes = set()
    for _ in range(60):
        content = check.random_part(rng)
        props = check._content_properties(content)
        if check.clear_case(content, R0):
            outcomes.add(check.raised(props.mass, props.principal.tolist(), R0)[0])
    assert outcomes == {True, False}
    model = compiled.compile_xml(check.random_workbench(rng))
    assert set(model.jnt_type) == {0, 1, 2, 3}  # free, ball, slide, hinge


def test_floor_arrays_crosses_the_boundary():
    """In the grader's NumPy-only answer process, floor_arrays gets plain arrays, runs the
    learner's apply_inertia_floor on an object of them and sends back the changed array."""
    source = notebooks.solutions(notebooks.read_lesson(LESSON))
    model = compiled.compile_xml(parts.lesson_workbench())
    with AnswerProcess(call_timeout=10.0) as answers:
        for gid in ("needs_inertia_floor", "floor_armature", "apply_inertia_floor"):
            assert answers.exec_cell(source[gid]).ok
        result = answers.function("floor_arrays")(parts.model_arrays(model), R0)
    assert result["names"] == ["marker", "pencil"]
    armature = np.asarray(result["dof_armature"])
    assert armature.shape == (model.nv,)
    assert np.count_nonzero(armature) == 6


# --- the plots (pictures.py): what each figure shows ----------------------------------------


def test_strike_plot_leaves_out_the_row_before_the_blow(drawn):
    """Rotation per step above, kinetic energy (log) below on the same time axis, from the
    step after the blow on: the first row is the marker at rest, energy 0."""
    times = parts.RIGID_STEP * np.arange(5)
    turns = {"without the floor": [0.0, 0.35, 0.34, 0.4, 0.5], "with the floor": [0.0, *[0.19] * 4]}
    energies = {
        "without the floor": [0.0, 0.042, 0.05, 1.0, 8.8],
        "with the floor": [0.0, *[0.028] * 4],
    }
    assert pictures.strike_plot(times, turns, energies) is None
    bottom, top = drawn().axes  # the panel with the time label is the figure's first
    assert bottom.get_xlabel() == "time (s)" and bottom.get_yscale() == "log"
    assert top.get_position().y0 > bottom.get_position().y1 and top.get_xlabel() == ""
    assert top.get_shared_x_axes().joined(top, bottom)
    assert top.xaxis.get_tick_params()["labelbottom"] is False  # as plt.subplots(sharex=True)
    for ax, series in ((top, turns), (bottom, energies)):
        lines = {line.get_label(): line for line in ax.lines}
        assert list(lines) == list(series)
        for label, values in series.items():
            np.testing.assert_array_equal(lines[label].get_xdata(), times[1:])
            np.testing.assert_array_equal(lines[label].get_ydata(), values[1:])
    assert [t.get_text() for t in top.get_legend().get_texts()] == list(turns)


def test_race_plot_draws_each_law_dashed_in_its_lanes_colour(drawn):
    """Each lane's distance (cm) solid, its law's a t^2 / 2 dashed in the same colour; the
    legend names the lanes only."""
    times = np.linspace(0.0, 0.6, 7)
    laws = {"marker": 1.224, "tube": 0.868}
    distances = {lane: 0.99 * 0.5 * a * times**2 for lane, a in laws.items()}
    assert pictures.race_plot(times, distances, laws) is None
    (ax,) = drawn().axes
    solid = [line for line in ax.lines if line.get_linestyle() == "-"]
    dashed = [line for line in ax.lines if line.get_linestyle() == "--"]
    assert [line.get_label() for line in solid] == list(laws) and len(dashed) == len(laws)
    for simulated, law, lane in zip(solid, dashed, laws, strict=True):
        assert law.get_color() == simulated.get_color()
        np.testing.assert_allclose(simulated.get_ydata(), 100 * distances[lane])
        np.testing.assert_allclose(law.get_ydata(), 50 * laws[lane] * times**2)
    assert len({line.get_color() for line in solid}) == len(laws)
    assert [t.get_text() for t in ax.get_legend().get_texts()] == list(laws)


# --- the lesson's claims: each sentence of the prose, word for word, beside MuJoCo --------

PROSE = lesson_code.prose(LESSON)


def _spin_of_the_strike():
    run = runs.strike("marker", 0.02)
    assert run.rotation_per_step[1] / parts.RIGID_STEP > 200
    assert 0.3 < run.rotation_per_step[1] < 0.4


def _ring_has_the_moment():
    props = parts.properties("marker")
    for moment in props.principal:
        r_g = math.sqrt(moment / props.mass)
        assert parts.ring_inertia(props.mass, r_g) == pytest.approx(moment, rel=1e-9)


def _marker_radii():
    props = parts.properties("marker")
    radii = np.sqrt(props.principal / props.mass)
    assert 0.001 < radii.min() < 0.01 < radii.max() < 0.1
    assert parts.MARKER_RADIUS < 0.01


def _default_integrator_is_euler():
    assert compiled.compiled_defaults("<mujoco/>")["integrator"] == "Euler"


def _with_armature(name, armature, dofs=slice(3, 6), set_const=True):
    model = compiled.compile_xml(parts.free_part(parts.PARTS[name].content))
    model.dof_armature[dofs] = armature
    if set_const:
        mujoco.mj_setConst(model, mujoco.MjData(model))
    return model


def _armature_on_the_diagonal():
    plain = parts.mass_matrix(_with_armature("marker", 0.0))
    raised = parts.mass_matrix(_with_armature("marker", 2e-7))
    np.testing.assert_allclose(raised - plain, np.diag([0, 0, 0, 2e-7, 2e-7, 2e-7]), atol=1e-20)


def _every_axis_raised_alike():
    props = parts.properties("marker")
    moments = parts.rotational_moments(_with_armature("marker", 2e-7), "part")
    np.testing.assert_allclose(moments, np.sort(props.principal) + 2e-7, rtol=1e-12)


def _push_and_fall(model):
    """(push response, fall acceleration) of a free part: one step under a 1 N push along x,
    then one step of free fall."""
    data = mujoco.MjData(model)
    data.xfrc_applied[1, 0] = 1.0
    mujoco.mj_step(model, data)
    push = data.qvel[0] / model.opt.timestep
    model.opt.gravity[:] = (0, 0, -G)
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    return push, data.qacc[2]


def _mass_and_pull_unchanged():
    mass = parts.properties("marker").mass
    push, fall = _push_and_fall(_with_armature("marker", 6.7e-7))
    assert push == pytest.approx(1.0 / mass, rel=1e-12)
    assert fall == pytest.approx(-G, rel=1e-12)


def _pencil_six_times_the_coin():
    pencil, coin, die = (runs.spin_after_impulse(n, 1e-3).spin for n in ("pencil", "coin", "die"))
    assert 5.5 < pencil / coin < 6.5 and pencil > die > coin


def _spin_is_angular_impulse_over_moment():
    for name in ("pencil", "coin", "die", "marker"):
        props = parts.properties(name)
        want = 1e-3 * parts.PARTS[name].radius / check._moment_about_z(props)
        assert runs.spin_after_impulse(name, 1e-3).spin == pytest.approx(want, rel=1e-9)


def _energy_from_nowhere():
    plain, floored = runs.strike("marker", 0.02), runs.strike("marker", 0.02, r0=R0)
    assert plain.kinetic_energy.max() > 100 * plain.kinetic_energy[1]
    assert plain.height.max() > 0.1
    assert floored.kinetic_energy.max() == floored.kinetic_energy[1]
    assert floored.kinetic_energy[1] < plain.kinetic_energy[1]
    assert floored.rotation_per_step[1] < plain.rotation_per_step[1]


def _energy_grows_in_the_air():
    """After 0.16 s the struck marker touches nothing and its energy still grows."""
    model = compiled.compile_xml(parts.part_on_floor("marker"))
    data = mujoco.MjData(model)
    force = 0.02 / parts.RIGID_STEP
    data.xfrc_applied[1, :3] = (force, 0, 0)
    data.xfrc_applied[1, 3:] = (0, force * parts.MARKER_RADIUS, 0)
    airborne = []
    while data.time < 0.4:
        mujoco.mj_step(model, data)
        data.xfrc_applied[:] = 0
        if data.time > 0.17:
            airborne.append((data.ncon, data.energy[1]))
    assert all(contacts == 0 for contacts, _ in airborne)
    assert airborne[-1][1] > 2 * airborne[0][1]


def _integrators():
    assert runs.free_spin_energy_gain("marker", 280.0, 1e-3, "Euler") > 1e5
    for integrator in ("implicitfast", "RK4"):
        assert runs.free_spin_energy_gain("marker", 280.0, 1e-3, integrator) < 1.001
    assert runs.free_spin_energy_gain("marker", 150.0, 1e-3, "Euler") < 1.001


def _euler_takes_forces_at_the_start():
    """One Euler step moves the velocity by h times the acceleration of the state it starts
    from, the spin's velocity forces included."""
    model = compiled.compile_xml(parts.free_part(parts.PARTS["marker"].content))
    data = mujoco.MjData(model)
    data.qvel[3:6] = (5.0, 0.0, 280.0)
    mujoco.mj_forward(model, data)
    start_qacc, start_qvel = data.qacc.copy(), data.qvel.copy()
    assert np.abs(start_qacc[3:5]).max() > 1.0  # the gyroscopic term is there
    mujoco.mj_step(model, data)
    np.testing.assert_allclose(data.qvel, start_qvel + model.opt.timestep * start_qacc)


def _mass_cancels():
    for name in ("marker", "pencil", "coin", "dowel"):
        props = parts.properties(name)
        for scale in (0.1, 10.0):
            assert (
                check.raised(props.mass * scale, (props.principal * scale).tolist(), R0)[0]
                == check.raised(props.mass, props.principal.tolist(), R0)[0]
            )


def _compact_parts_not_covered():
    for name in ("coin", "short cylinder", "marble", "die"):
        props = parts.properties(name)
        assert props.principal.max() / props.principal.min() < 4
        radii = np.sqrt(props.principal / props.mass)
        assert radii.max() / radii.min() < 1.42  # within a factor of about 1.4
        assert not check.raised(props.mass, props.principal.tolist(), R0)[0]
    assert min(np.sqrt(parts.properties("coin").principal / 0.0085)) < R0  # light and thin


def _dowel_above_the_floor():
    props = parts.properties("dowel")
    assert props.principal.max() / props.principal.min() >= 4
    assert math.sqrt(props.principal.min() / props.mass) > R0


def _marker_and_pencil_figures():
    marker = parts.properties("marker")
    floored = parts.rotational_moments(
        _with_armature("marker", 0.0158 * R0**2 - 6.07352e-7), "part"
    )
    assert f"{floored[0]:.3g}" == "1.28e-06"
    assert f"{floored[0] / marker.principal.min():.2f}" == "2.11"
    assert f"{100 * (floored[2] / marker.principal.max() - 1):.1f}" == "3.4"
    assert 2.09 <= floored[0] / 6.1e-7 < 2.10  # the seed's x2.09, from 6.1e-7
    pencil = parts.properties("pencil")
    assert 0.005 * R0**2 / pencil.principal.min() > floored[0] / marker.principal.min()


def _freejoint_has_no_armature():
    _, error = compiled.compile_or_error(parts.free_joint_armature('<freejoint armature="0.1"/>'))
    assert "unrecognized attribute: 'armature'" in error


def _free_joint_armature_on_six_dofs():
    model = compiled.compile_xml(parts.free_joint_armature('<joint type="free" armature="0.1"/>'))
    np.testing.assert_array_equal(model.dof_armature, [0.1] * 6)
    push, fall = _push_and_fall(model)
    mass = model.body_mass[1]
    assert push == pytest.approx(1.0 / (mass + 0.1))
    assert -G < fall < 0  # falls slower than g


def _dof_order_of_a_free_joint():
    model = compiled.compile_xml(parts.free_part(parts.PARTS["marker"].content))
    data = mujoco.MjData(model)
    data.xfrc_applied[1] = (1.0, 0, 0, 0, 0, 0)
    mujoco.mj_forward(model, data)
    assert np.flatnonzero(np.abs(data.qacc) > 1e-9).tolist() == [0]
    data.xfrc_applied[1] = (0, 0, 0, 0, 0, 1e-6)
    mujoco.mj_forward(model, data)
    assert np.flatnonzero(np.abs(data.qacc) > 1e-9).tolist() == [5]


def _set_const_trap():
    rod = compiled.compile_xml(parts.slope({"rod": parts.PARTS["rod 9 mm"]}))
    assert rod.body_simple[rod.body("rod").id] == 1
    plain = runs.roll_model(rod, ["rod"], 10.0, 0.5)["rod"].acceleration()
    parts.floor_bodies(rod, ["rod"], R0, set_const=False)
    written = runs.roll_model(rod, ["rod"], 10.0, 0.5)["rod"].acceleration()
    mujoco.mj_setConst(rod, mujoco.MjData(rod))
    after = runs.roll_model(rod, ["rod"], 10.0, 0.5)["rod"].acceleration()
    assert f"{written / plain:.3f}" == "1.000" and f"{after / plain:.3f}" == "0.747"


def _cylinders_along_z_are_simple():
    for name in ("pencil", "coin", "rod 9 mm", "dowel", "solid cylinder", "tube", "marker"):
        model = compiled.compile_xml(parts.free_part(parts.PARTS[name].content))
        assert model.body_simple[1] == 1, name


def _simple_body_uses_dof_m0():
    model = compiled.compile_xml(parts.free_part(parts.PARTS["rod 9 mm"].content))
    compiled_m0 = model.dof_M0.copy()
    model.dof_armature[3:6] = 1e-6
    np.testing.assert_array_equal(model.dof_M0, compiled_m0)
    np.testing.assert_allclose(parts.mass_matrix(model), np.diag(compiled_m0))
    mujoco.mj_setConst(model, mujoco.MjData(model))
    np.testing.assert_allclose(model.dof_M0[3:6], compiled_m0[3:6] + 1e-6)
    np.testing.assert_allclose(parts.mass_matrix(model), np.diag(model.dof_M0))


def _not_simple_takes_it_at_once():
    offset = parts.PARTS["rod 9 mm"].content.replace("mass=", 'pos="0 0 0.002" mass=')
    model = compiled.compile_xml(parts.free_part(offset))
    assert model.body_simple[1] == 0
    before = parts.rotational_moments(model, "part")
    model.dof_armature[3:6] = 1e-6
    np.testing.assert_allclose(parts.rotational_moments(model, "part"), before + 1e-6)


def _free_body_test():
    model = compiled.compile_xml(parts.lesson_workbench())
    assert model.body_jntadr[0] == -1
    assert int(mujoco.mjtJoint.mjJNT_FREE) == 0
    assert [model.jnt_type[model.body_jntadr[b]] for b in range(1, 5)] == [0, 0, 0, 0]


def _solid_and_tube_fractions():
    solid = runs.roll({"p": "solid cylinder"}, 10.0)["p"].acceleration()
    tube = runs.roll({"p": "tube"}, 10.0)["p"].acceleration()
    pull = G * math.sin(math.radians(10.0))
    assert axial_rg("solid cylinder") ** 2 == pytest.approx(parts.MARKER_RADIUS**2 / 2)
    assert solid / pull == pytest.approx(2 / 3, rel=0.01)
    assert tube / pull == pytest.approx(0.5, rel=0.03)


def _rod_rolls_at_0992():
    roll = runs.roll({"rod": "rod 9 mm"}, 10.0)["rod"]
    assert f"{roll.acceleration() / law(axial_rg('rod 9 mm'), 0.009):.3f}" == "0.992"


def _soft_contact_and_rolling_radius():
    """The rod sinks about 0.2 mm; its contact points sit in the middle of the overlap; it
    rolls on 8.90 mm, and the law with that radius is within 0.1 % of MuJoCo."""
    model = compiled.compile_xml(parts.slope({"rod": parts.PARTS["rod 9 mm"]}))
    data = mujoco.MjData(model)
    for _ in range(300):
        mujoco.mj_step(model, data)
    depth = -np.mean([c.dist for c in data.contact[: data.ncon]])
    assert 0.00015 < depth < 0.00025
    axis = data.xmat[model.body("rod").id].reshape(3, 3)[:, 2]
    centre = data.xpos[model.body("rod").id]
    for contact in data.contact[: data.ncon]:
        offset = contact.pos - centre
        from_axis = np.linalg.norm(offset - (offset @ axis) * axis)
        assert from_axis == pytest.approx(0.009 - depth / 2, abs=2e-6)
    roll = runs.roll({"rod": "rod 9 mm"}, 10.0)["rod"]
    assert f"{roll.rolling_radius() * 1000:.2f}" == "8.90"
    effective = law(axial_rg("rod 9 mm"), roll.rolling_radius())
    assert roll.acceleration() == pytest.approx(effective, rel=1e-3)


def _every_part_within_one_percent():
    rolls = runs.race()
    for lane, roll in rolls.items():
        r_g = R0 if lane == "floored marker" else axial_rg(runs.RACE[lane])
        ratio = roll.acceleration() / law(r_g, parts.MARKER_RADIUS)
        assert 0.985 < ratio <= 1.0, lane
    rod = runs.roll({"rod": "rod 9 mm"}, 10.0)["rod"]
    assert 0.99 < rod.acceleration() / law(axial_rg("rod 9 mm"), 0.009) <= 1.0


def _floored_figures():
    marker = runs.roll({"m": "marker"}, 10.0)["m"].acceleration()
    floored = runs.roll({"m": "marker"}, 10.0, floored=["m"])["m"].acceleration()
    assert f"{floored / marker:.3f}" == "0.760"
    assert f"{(0.0062 / 0.0099) ** 2:.2f}" == "0.39" and f"{(R0 / 0.0099) ** 2:.2f}" == "0.83"
    rod = runs.roll({"r": "rod 9 mm"}, 10.0)["r"].acceleration()
    rod_floored = runs.roll({"r": "rod 9 mm"}, 10.0, floored=["r"])["r"].acceleration()
    assert f"{rod_floored / rod:.3f}" == "0.747"


def _tube_is_a_shell():
    assert axial_rg("tube") / parts.MARKER_RADIUS > 0.95
    assert axial_rg("solid cylinder") / parts.MARKER_RADIUS == pytest.approx(2**-0.5)


def _race_order():
    rolls = runs.race()
    order = sorted(rolls, key=lambda lane: -rolls[lane].acceleration_between(0.1, 0.6))
    assert order == ["marker", "solid cylinder", "floored marker", "tube"]
    for lane, roll in rolls.items():
        r_g = R0 if lane == "floored marker" else axial_rg(runs.RACE[lane])
        assert abs(roll.acceleration_between(0.1, 0.6) / law(r_g, parts.MARKER_RADIUS) - 1) < 0.011


def _tumbling_32_times():
    props = parts.properties("marker")
    assert 32 <= props.principal.max() / props.principal.min() < 33


def _aluminium_rod():
    content = parts.cylinder(0.01, 0.5, 0.85, "1 1 1 1")
    by_density = compiled.compile_xml(
        parts.free_part('<geom type="cylinder" size="0.01 0.5" density="2700"/>')
    )
    assert by_density.body_mass[1] == pytest.approx(0.85, abs=0.005)
    props = check._content_properties(content)
    assert f"{math.sqrt(props.principal.min() / props.mass) * 1000:.1f}" == "7.1"
    assert check.raised(props.mass, props.principal.tolist(), R0)[0]


def _marker_is_15_8_g():
    marker = compiled.compile_xml(parts.free_part(parts.PARTS["marker"].content))
    assert f"{marker.body_mass[1] * 1000:.1f}" == "15.8"
    assert marker.geom_type[0] == mujoco.mjtGeom.mjGEOM_CYLINDER and marker.ngeom == 1


def _three_parts_as_stated():
    """Masses and sizes read off the compiled models; the pencil's 7.2 mm (not 7) is what
    gives 1e-3 N s x 3.6 mm / (5 g x (3.6 mm)^2 / 2) = 111.1 rad/s."""
    sizes = {}
    for name in ("pencil", "coin", "die"):
        model = compiled.compile_xml(parts.free_part(parts.PARTS[name].content))
        size = model.geom_size[0]
        across = 2 * size[0] if model.geom_type[0] == mujoco.mjtGeom.mjGEOM_CYLINDER else 2 * size
        sizes[name] = (model.body_mass[1] * 1000, np.atleast_1d(across) * 1000)
    assert f"{sizes['pencil'][0]:g} {sizes['pencil'][1][0]:.1f}" == "5 7.2"
    assert f"{sizes['coin'][0]:g} {sizes['coin'][1][0]:.0f}" == "8.5 26"
    assert f"{sizes['die'][0]:g}" == "5" and np.allclose(sizes["die"][1], 16)
    assert f"{2 * 1e-3 / (0.005 * 0.0036):.1f}" == "111.1"  # J R / (m R^2 / 2) at 7.2 mm
    assert f"{2 * 1e-3 / (0.005 * 0.0035):.1f}" != "111.1"  # what 7 mm would give


def _pencil_moment_is_the_smallest():
    moments = {n: check._moment_about_z(parts.properties(n)) for n in ("pencil", "coin", "die")}
    assert moments["pencil"] < moments["die"] < moments["coin"]
    props = parts.properties("pencil")
    assert math.sqrt(moments["pencil"] / props.mass) < parts.PARTS["pencil"].radius


def _floor_raises_axial_keeps_mass():
    props = parts.properties("marker")
    armature = props.mass * R0**2 - props.principal.min()
    model = _with_armature("marker", armature)
    assert parts.rotational_moments(model, "part")[0] > props.principal.min()
    assert model.body_mass[1] == props.mass
    _mass_and_pull_unchanged()


def _turn_per_step():
    model = compiled.compile_xml(parts.free_part(parts.PARTS["marker"].content))
    model.opt.timestep = parts.RIGID_STEP
    data = mujoco.MjData(model)
    data.qvel[5] = 280.0  # about the body's z, its long axis
    mujoco.mj_step(model, data)
    w, _, _, z = data.qpos[3:7]
    assert 2 * math.atan2(z, w) == pytest.approx(280.0 * parts.RIGID_STEP, rel=1e-6)


def _strike_figures():
    plain, floored = runs.strike("marker", 0.02), runs.strike("marker", 0.02, r0=R0)
    assert f"{plain.rotation_per_step[1]:.3f}" == "0.348"
    assert f"{plain.kinetic_energy[1]:.4f} {plain.kinetic_energy.max():.4f}" == "0.0420 8.7921"
    assert f"{plain.height.max() * 1000:.0f}" == "163"
    assert f"{floored.rotation_per_step[1]:.3f} {floored.kinetic_energy.max():.4f}" == (
        "0.189 0.0279"
    )
    _energy_from_nowhere()


def _strike_uses_euler_at_the_rigid_step():
    _default_integrator_is_euler()
    model = compiled.compile_xml(parts.part_on_floor("marker"))
    assert model.opt.timestep == parts.RIGID_STEP == 0.00125
    assert model.opt.integrator == mujoco.mjtIntegrator.mjINT_EULER


def _integrator_figures():
    _integrators()
    assert f"{runs.free_spin_energy_gain('marker', 280.0, 1e-3, 'Euler'):.2g}" == "5e+05"
    assert f"{150.0 * parts.RIGID_STEP:.2f}" == "0.19"


def _radii_table():
    def radii(name):
        props = parts.properties(name)
        return np.sqrt(props.principal / props.mass) * 1000

    assert f"{radii('marker').min():.2f} {radii('marker').max():.2f}" == "6.20 35.20"
    assert f"{radii('pencil').min():.2f}" == "2.55"
    assert f"{parts.properties('marker').mass * 1000:.1f}" == "15.8"


def _compact_ratios():
    _compact_parts_not_covered()
    ratios = {
        n: parts.properties(n).principal.max() / parts.properties(n).principal.min()
        for n in ("coin", "short cylinder", "marble", "die")
    }
    assert [f"{ratios[n]:.2f}" for n in ratios] == ["1.98", "1.17", "1.00", "1.00"]


def _coin_spins_up():
    assert f"{runs.spin_after_impulse('coin', 1e-3).spin:.0f}" == "18"


def _dowel_figures():
    _dowel_above_the_floor()
    props = parts.properties("dowel")
    assert f"{math.sqrt(props.principal.min() / props.mass) * 1000:.2f}" == "10.61"


def _pencil_factor():
    props = parts.properties("pencil")
    factor = props.mass * R0**2 / props.principal.min()
    assert f"{factor:.2f}" == "12.50"
    _marker_and_pencil_figures()


def _pencil_spin_figures():
    _pencil_six_times_the_coin()
    spins = [runs.spin_after_impulse(n, 1e-3).spin for n in ("pencil", "coin", "die")]
    assert [f"{s:.1f}" for s in spins] == ["111.1", "18.2", "37.5"]


def _rolls_on_its_radius():
    roll = runs.roll({"rod": "rod 9 mm"}, 10.0)["rod"]
    assert roll.rolling_radius() == pytest.approx(0.009, rel=0.015)  # spin = v / R, nearly


def _rolling_mass_cancels():
    light = parts.Part("light", parts.cylinder(0.009, 0.06, 0.01, "1 1 1 1"), 0.009, "")
    heavy = parts.Part("heavy", parts.cylinder(0.009, 0.06, 0.1, "1 1 1 1"), 0.009, "")
    rolls = runs.roll({"light": light, "heavy": heavy}, 10.0)
    assert rolls["light"].acceleration() == pytest.approx(rolls["heavy"].acceleration(), rel=1e-3)


def _not_raised_roll_as_before():
    for name, below in (("dowel", False), ("short cylinder", True)):
        props = parts.properties(name)
        assert (math.sqrt(props.principal.min() / props.mass) < R0) == below
        assert not check.raised(props.mass, props.principal.tolist(), R0)[0]


def _law_figures():
    _floored_figures()
    assert f"{(1 + 0.39) / (1 + 0.83):.3f}" == "0.760"  # the rounded figures
    rg, radius = axial_rg("marker"), parts.MARKER_RADIUS
    assert f"{(1 + rg**2 / radius**2) / (1 + R0**2 / radius**2):.3f}" == "0.762"
    assert f"{(1 + 0.5) / (1 + 1):.3f}" == "0.750"  # a solid cylinder of radius r0
    assert f"{radius * 1000:.1f}" == "9.9"


def _race_figures():
    _race_order()
    rolls = runs.race()
    fitted = [
        f"{rolls[lane].acceleration_between(0.1, 0.6):.3f}"
        for lane in ("marker", "solid cylinder", "floored marker", "tube")
    ]
    assert fitted == ["1.216", "1.128", "0.924", "0.859"]


def _tumbling_figures():
    _tumbling_32_times()
    props = parts.properties("marker")
    armature = props.mass * R0**2 - props.principal.min()
    assert f"{(props.principal.max() + armature) / props.principal.max():.3f}" == "1.034"
    assert f"{(props.principal.min() + armature) / props.principal.min():.2f}" == "2.11"


def _armature_then_set_const():
    _dof_order_of_a_free_joint()
    _simple_body_uses_dof_m0()


def _ring_and_spin_takeaway():
    _ring_has_the_moment()
    _marker_radii()
    _spin_of_the_strike()


def _arm_links_left_alone():
    """The workbench's arm links are slender capsules on hinges, thin enough that the shape
    and floor tests alone would raise them: only their joint keeps them out."""
    bench = compiled.compile_xml(parts.lesson_workbench())
    arm = [b for b in range(1, bench.nbody) if bench.jnt_type[bench.body_jntadr[b]] != 0]
    assert [bench.body(b).name for b in arm] == ["upper_arm", "forearm"]
    for b in arm:
        assert bench.jnt_type[bench.body_jntadr[b]] == mujoco.mjtJoint.mjJNT_HINGE
        geoms = [g for g in range(bench.ngeom) if bench.geom_bodyid[g] == b]
        assert [bench.geom_type[g] for g in geoms] == [mujoco.mjtGeom.mjGEOM_CAPSULE]
        assert check.raised(bench.body_mass[b], bench.body_inertia[b].tolist(), R0)[0]
    result = SOLUTION["floor_arrays"](parts.model_arrays(bench), R0)
    assert sorted(result["names"]) == ["marker", "pencil"]
    for b in arm:
        assert result["dof_armature"][bench.body_dofadr[b]] == 0.0


CLAIMS = [
    # the opening and the problem
    ("A marker pen lying on a table looks like the easiest thing to simulate: one cylinder, "
     "15.8 g.", _marker_is_15_8_g),
    ("a blow at its rim can spin it about its long axis at hundreds of radians per second",
     _spin_of_the_strike),
    ("A pencil (5 g, 7.2 mm across), a coin (8.5 g, 26 mm across) and a die (5 g, 16 mm) each "
     "get the same small blow, 1 mN s, tangentially at their rims.", _three_parts_as_stated),
    # the predictions' explanations
    ("The spin is the blow's moment about the axis (impulse times the rim's distance from it) "
     "divided by the moment of inertia about that axis.", _spin_is_angular_impulse_over_moment),
    ("The pencil's rim is close to its axis, but its whole mass is closer still, so its moment "
     "of inertia is tiny.", _pencil_moment_is_the_smallest),
    ("The tube's mass is all at the rim, so spinning it costs more and less is left for "
     "motion.", _solid_and_tube_fractions),
    ("The inertia floor raises a marker's moment of inertia about its long axis and leaves its "
     "mass alone.", _floor_raises_axial_keeps_mass),
    ("At a given speed it must still spin at speed / R, and spinning it now costs more",
     _floored_figures),
    ("Rolling, each turns as fast as it moves (spin = speed / R), so every metre of descent "
     "pays for motion and for spin.", _rolls_on_its_radius),
    # the core idea
    ("the radius of the thin ring that has the same mass and the same moment of inertia.",
     _ring_has_the_moment),
    ("all of a marker's mass lies within a centimetre of its axis, so about that axis $r_g$ is "
     "a few millimetres, while about a cross axis it is a few centimetres.", _marker_radii),
    ("A part spinning at $\\omega$ turns by $|\\omega|\\,h$ radians in one step of length $h$.",
     _turn_per_step),
    ("and, in MuJoCo's default `Euler` integrator, the velocity forces of the spin itself) is "
     "then $|\\omega|\\,h$ out of date at the end of the step.", _euler_takes_forces_at_the_start),
    ("| not covered | compact parts, whose largest / smallest is under 4: a coin, a short "
     "cylinder, a marble, a cube |", _compact_parts_not_covered),
    ("`dof_armature` is added to the diagonal of the mass matrix", _armature_on_the_diagonal),
    ("The same armature on a free body's three rotational dofs raises its moment about every "
     "axis through the body's origin by that amount, so the smallest comes up to "
     "$m\\,r_0^2$,", _every_axis_raised_alike),
    ("while the mass, and so every push and gravity's pull, stays as it is.",
     _mass_and_pull_unchanged),
    # Step 1 and Experiment A
    ("has an axial radius of gyration of **6.20** mm against **35.20** mm across; the pencil's "
     "axial one is only **2.55** mm.", _radii_table),
    ("A compact part's three radii are within a factor of about 1.4 of each other: the coin's "
     "largest / smallest moment is **1.98**, the die's and the marble's **1.00**.",
     _compact_ratios),
    ("The pencil spins at **111.1** rad/s, six times the coin's **18.2** rad/s (the die: "
     "**37.5**).", _pencil_spin_figures),
    ("A blow $J$ at distance $R$ from the axis gives the spin $\\omega = J R / (m\\,r_g^2)$: the "
     "pencil's rim is close to its axis, but $r_g^2$ is smaller still.",
     _spin_is_angular_impulse_over_moment),
    ("simulated with MuJoCo's default integrator, `Euler`, at the seed's 1.25 ms step.",
     _strike_uses_euler_at_the_rigid_step),
    ("Without the floor the blow turns the marker **0.348** rad per step, close to the seed's "
     "0.4 to 0.7.", _strike_figures),
    ("Its kinetic energy, **0.0420** J just after the blow, then grows until it reaches "
     "**8.7921** J, and the marker jumps until its centre is **163** mm up: energy from "
     "nowhere.", _strike_figures),
    ("With the floor the same blow turns it **0.189** rad per step, and its energy never rises "
     "above **0.0279** J (it has more inertia to spin, so the same blow gives it less spin and "
     "less energy).", _energy_from_nowhere),
    ("Look at the plot after about 0.16 s: the marker is in the air, no contact touches it, and "
     "its energy still grows.", _energy_grows_in_the_air),
    ("With `Euler` the tiny tumble grows at every step until it swamps the spin: the energy "
     "grows about **5e+05** times.", _integrator_figures),
    ("`Euler` takes the velocity forces of the spin (the gyroscopic term that keeps a spinning "
     "body's tumble in check) at the start of the step, and by its end they are a third of a "
     "radian out of date.", _euler_takes_forces_at_the_start),
    ("`implicitfast` and `RK4` keep the energy (**1**), and so does `Euler` at 0.19 rad per "
     "step (**1**).", _integrators),
    # Steps 2 to 4
    ("The mass cancels out of the second test: the rule looks at shape, not weight.",
     _mass_cancels),
    ("The compact parts are not covered, however light: the coin's ratio is **1.98**, the short "
     "cylinder's **1.17**, the marble's and the die's **1.00**.", _compact_ratios),
    ("A struck coin spins up too (Experiment A gave it 18 rad/s for a small blow)",
     _coin_spins_up),
    ("The dowel is slender, but its smallest radius of gyration, **10.61** mm, is already above "
     "$r_0$.", _dowel_figures),
    ("The marker's axial moment goes from **6.07e-07** to **1.28e-06** kg m², **2.11** times (the "
     "seed writes x2.09, dividing by the moment rounded to 6.1e-7), while its tumbling moment "
     "goes up **3.4** % (the seed: 3 %).", _marker_and_pencil_figures),
    ("The pencil's axial moment is multiplied by **12.50**: the thinner the part, the larger "
     "the price.", _pencil_factor),
    ("`<freejoint>` has no `armature` attribute", _freejoint_has_no_armature),
    ("`armature` on `<joint type=\"free\">` lands on all six dofs, the three translations too: "
     "the part would be heavier to push, and would even fall slower than $g$",
     _free_joint_armature_on_six_dofs),
    ("A free joint's dofs are its translations first (`jnt_dofadr` to `jnt_dofadr + 2`), then "
     "its rotations (`+3` to `+5`).", _dof_order_of_a_free_joint),
    ("Written but not set, the armature changes nothing: **1.000** of the plain acceleration. "
     "After `mj_setConst` the rod rolls at **0.747** of it.", _set_const_trap),
    ("The rod is a *simple* body (`body_simple` **1**: its centre of mass at the body origin "
     "and its principal axes on the body's axes, like any cylinder along z)",
     _cylinders_along_z_are_simple),
    ("for a simple body MuJoCo's mass matrix is the diagonal `dof_M0` that it computed when it "
     "compiled the model. `mj_setConst` computes it again, armature included.",
     _simple_body_uses_dof_m0),
    ("A body that is not simple (its centre of mass off the origin, say) takes the written "
     "armature at once", _not_simple_takes_it_at_once),
    ("A body moves on a free joint when its first joint, `body_jntadr[b]` (`-1` when it has "
     "none), has `jnt_type` 0.", _free_body_test),
    ("So the floor is written after compiling, into `dof_armature`, on the rotational dofs "
     "only.", _armature_then_set_const),
    ("Robot links, on hinges, slides and ball joints, are left alone.", _arm_links_left_alone),
    ("a marker, a pencil, a coin and a die beside a two-link arm whose links are slender "
     "capsules on hinges", _arm_links_left_alone),
    # Steps 5 and 6
    ("Rolling means the contact point is at rest: the part spins at $\\omega = v / R$",
     _rolls_on_its_radius),
    ("The mass cancels; only $r_g / R$ counts.", _rolling_mass_cancels),
    ("A solid cylinder ($r_g^2 = R^2 / 2$) gets two thirds of $g \\sin\\theta$; a thin tube "
     "($r_g \\approx R$) about half.", _solid_and_tube_fractions),
    ("MuJoCo rolls the rod at **0.992** of the law.", _rod_rolls_at_0992),
    ("Its contacts are soft: the rod sinks about 0.2 mm into the slope and rolls about a "
     "contact point in the middle of that overlap, so its speed over its spin, the radius it "
     "really rolls on, is **8.90** mm instead of 9.", _soft_contact_and_rolling_radius),
    ("For a given speed it spins a little faster, and the law with that radius comes within "
     "0.1 % of MuJoCo.", _soft_contact_and_rolling_radius),
    ("Every part of this lesson rolls within about 1 % of the law.",
     _every_part_within_one_percent),
    ("A part whose $r_g$ is already at least $r_0$ is not raised, and rolls as before; nor is a "
     "compact part (largest / smallest under 4), whatever its $r_g$.",
     _not_raised_roll_as_before),
    ("The floored marker rolls at **0.762** of its true acceleration, $(1 + 0.39) / (1 + "
     "0.83)$ at its 9.9 mm radius (the seed: 0.76x), and MuJoCo gives **0.760**.", _law_figures),
    ("A solid cylinder of radius $r_0$ = 9 mm gets exactly **0.750**, and MuJoCo rolls the rod "
     "at **0.747** of its unfloored acceleration.", _law_figures),
    ("a marker tumbling end over end has only **3.4** % more inertia to turn (Step 3).",
     _marker_and_pencil_figures),
    # Experiment B
    ("the tube is weighed by MuJoCo as a thin shell, `shellinertia=\"true\"`", _tube_is_a_shell),
    ("The marker, with its mass near the axis, is fastest, then the solid cylinder, the "
     "floored marker and the tube last; each within 1.1 % of its law.", _race_figures),
    ("The floor turns the fastest part of the race into the second slowest.", _race_order),
    # check yourself and the takeaways
    ("The floor multiplies the marker's axial moment by 2.11 but its tumbling moment by only "
     "1.034.", _tumbling_figures),
    ("A solid aluminium rod, 20 mm across and 1 m long, weighs 0.85 kg.", _aluminium_rod),
    ("You compile a model, write the floor's armature into `dof_armature` for a cylinder that "
     "lies along its body's z axis, and simulate. It rolls exactly as before.", _set_const_trap),
    ("The cylinder is a simple body, whose mass matrix MuJoCo computed when it compiled the "
     "model; mj_setConst must run to take the new armature in.", _simple_body_uses_dof_m0),
    ("A part's radius of gyration $r_g = \\sqrt{I/m}$ about an axis is the radius of the ring "
     "with its mass and its moment; a slender part's axial one is millimetres, so a blow at its "
     "rim spins it at hundreds of radians per second.", _ring_and_spin_takeaway),
    ("In MuJoCo: write `dof_armature[dofadr+3 : dofadr+6]` after compiling, then call "
     "`mj_setConst`.", _armature_then_set_const),
]  # fmt: skip

CLAIM_IDS = [f"{i:02d}-{confirm.__name__.strip('_')}" for i, (_, confirm) in enumerate(CLAIMS)]
test_claim_is_in_the_prose_and_true, test_claims_count = lesson_code.claims_tests(
    CLAIMS, PROSE, minimum=55, ids=CLAIM_IDS
)


def test_every_claim_is_in_the_notebook_or_its_figures():
    """The claims name figures the lesson prints; a claim whose figure left the prose goes."""
    prose = " ".join(
        c.source for c in notebooks.read_lesson(LESSON).cells if c.cell_type == "markdown"
    )
    for figure in ("0.992", "8.90", "0.747", "1.000", "0.760", "2.11", "3.4", "5e+05"):
        assert f"**{figure}**" in prose, figure
    assert Path(check.__file__).with_name("models").is_dir()


# --- plot helpers -------------------------------------------------------------------------------
# Each helper of pictures.py with a call on arguments of this lesson's shapes: the registry's
# test_plot_helpers.py draws each one, with and without the grader.
_TIMES = 0.01 * np.arange(51)
PLOTS = {
    "strike_plot": lambda: pictures.strike_plot(
        _TIMES[:5], {"plain": np.array([0, 0.35, 0.34, 0.4, 0.5])}, {"plain": np.ones(5)}
    ),
    "race_plot": lambda: pictures.race_plot(
        _TIMES, {"marker": 0.6 * _TIMES**2, "tube": 0.43 * _TIMES**2}, {"marker": 1.2, "tube": 0.9}
    ),
}


# Seeds on which a mistake once passed a test's hidden part, {salt: seeds}, swept again by
# grader_tests/lessons/test_mistake_sweep.py: ten clear-cut parts, none of them raised: a rule that
# never raises passed (salt 9039).
ESCAPED_SEEDS = {9039: (37,)}
