"""Lesson 01's own tests: its helpers, its visible checks, its figures, its claims, its Run All.

- The helpers (scenes, drop, pictures) build what they say and ask MuJoCo, nothing else; the
  drop runner reproduces the figures in REFERENCE.md.
- The visible checks pass the source notebook's answers (support/lesson_code.py) and fail each
  mistake fixture of grader_tests/mistakes/01-world-as-text/ with the hint that names it, in a
  block of at most 8 lines; an unwritten function gets one line.
- CLAIMS: every factual sentence of the prose that MuJoCo can confirm, beside an assertion
  that confirms it with MuJoCo 4.0 (or with the XML reference MuJoCo ships); each sentence
  must still be in the notebook, word for word.
- The blank release runs top to bottom without an error (Run All on an untouched lesson), and
  its test cells use only the set-up's names, literals and answer names.
"""

import ast
import builtins
import inspect
import math
import re
import warnings
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import inertia_boxes
import lesson_code
import mujoco
import numpy as np
import pytest
from learner_checks import VIDEO_LIMIT_BYTES

from classroom.nbgrader_ext import notebooks
from course import compiled, expect, falls, mjcf, render
from course.lessons.world_as_text import checks as check
from course.lessons.world_as_text import drop, pictures, scenes

LESSON = "01-world-as-text"
SOLUTION = lesson_code.namespace(LESSON)  # the source notebook's answer cells, executed
REFERENCE = Path(mujoco.__file__).parent / "doc" / "XMLreference.rst"  # shipped with MuJoCo
AIR = drop.AIR_DENSITY


def mistake(name, function):
    return lesson_code.mistake(LESSON, name, function)


def _model(xml: str) -> mujoco.MjModel:
    return compiled.compile_xml(xml)


def _body_xml(inside: str, compiler: str = "", option: str = "") -> str:
    """One free body named "body" holding `inside` (geoms, an inertial)."""
    return (
        f"<mujoco>{compiler}{option}<worldbody><body name='body'><freejoint/>{inside}"
        "</body></worldbody></mujoco>"
    )


def _reference_says(*phrases: str) -> None:
    """Each phrase is in MuJoCo's own XML reference (white space collapsed)."""
    text = re.sub(r"\s+", " ", REFERENCE.read_text(encoding="utf-8"))
    for phrase in phrases:
        assert phrase in text, f"MuJoCo's XML reference no longer says {phrase!r}"


def _tensor(model, body="body") -> np.ndarray:
    return check.body_frame_inertia(model, body)


def _box_moments(mass, a, b, c) -> np.ndarray:
    """A uniform box of full sides a, b, c: the textbook moments (Step 1's table)."""
    return mass / 12 * np.array([b * b + c * c, a * a + c * c, a * a + b * b])


def _equivalent_box(mass, moments) -> np.ndarray:
    """Full sides of the uniform box with this mass and principal moments (Step 4)."""
    i1, i2, i3 = moments
    return np.sqrt(6 / mass * np.array([i2 + i3 - i1, i1 + i3 - i2, i1 + i2 - i3]))


# --------------------------------------------------------------------------------------------
# The claims: (a sentence of the prose, word for word, the function that confirms it)


PROSE = lesson_code.prose(LESSON)


def _empty_file_gets_documented_defaults():
    defaults = compiled.compiled_defaults("<mujoco/>")
    assert defaults["timestep"] == 0.002 and defaults["integrator"] == "Euler"
    assert defaults["density"] == 0 and defaults["viscosity"] == 0
    np.testing.assert_allclose(defaults["gravity"], [0, 0, -9.81])
    _reference_says(
        ':at:`timestep`: :at-val:`real, "0.002"`',
        ':at:`integrator`: :at-val:`[Euler, RK4, implicit, implicitfast, discrete], "Euler"`',
        ':at:`density`: :at-val:`real, "0"`',
        ':at:`viscosity`: :at-val:`real, "0"`',
        ':at:`density`: :at-val:`real, "1000"`',
    )


def _solution_delays_within_a_hundredth_ms():
    for light_kg, want in drop.delay_sweep().items():
        assert abs(SOLUTION["landing_delay_ms"](light_kg) - want) < 0.005


def _reference_warns_about_urdf_inertias():
    _reference_says(
        "a number of publicly available URDF models have seemingly arbitrary inertias which are "
        "too large compared to the mass. This results in equivalent inertia boxes which extend "
        "far beyond the geometric boundaries of the model."
    )


def _vacuum_fall_is_mass_free():
    run = drop.run_two_cube_drop(0.1, 1.0, 0.0)
    assert run.light_step == run.heavy_step == 143
    np.testing.assert_array_equal(run.heights[:, 0], run.heights[:, 1])


def _missing_mass_is_default_density():
    model = _model(_body_xml("<geom type='box' size='.1 .05 .02'/>"))  # no mass, no density
    assert model.body_mass[1] == pytest.approx(1000 * 0.2 * 0.1 * 0.04, rel=1e-12)
    _reference_says(':at:`density`: :at-val:`real, "1000"`')


def _same_size_same_drag_and_halved_mass_doubles_slowing():
    light = _model(falls.shape_drop("box", (0.1, 0.1, 0.1), 0.02, AIR))
    heavy = _model(falls.shape_drop("box", (0.1, 0.1, 0.1), 1.0, AIR))
    half = _model(falls.shape_drop("box", (0.1, 0.1, 0.1), 0.01, AIR))
    v = [0.0, 0.0, -2.0]
    np.testing.assert_allclose(drop.drag_on(light, v), drop.drag_on(heavy, v), rtol=1e-12)
    slowing = [drop.drag_on(m, v)[2] / m.body_mass[1] for m in (light, half)]
    assert slowing[1] == pytest.approx(2 * slowing[0], rel=1e-12)


def _step_leaves_model_unchanged_and_advances_data():
    model = _model(scenes.two_cube_drop(0.1, 1.0, AIR))
    data = mujoco.MjData(model)
    fields = ("body_mass", "body_inertia", "geom_size", "actuator_gainprm", "dof_damping")
    before = {name: np.array(getattr(model, name)).copy() for name in fields}
    timestep = model.opt.timestep
    qpos = data.qpos.copy()
    for k in range(1, 51):
        mujoco.mj_step(model, data)
        assert data.time == pytest.approx(k * timestep)
    for name, value in before.items():
        np.testing.assert_array_equal(getattr(model, name), value)
    assert model.opt.timestep == timestep and not np.array_equal(data.qpos, qpos)


def _gripper_shell_weighed_as_solid_water():
    inferred = _model(scenes.gripper("true"))
    core, shell = 0.08 * 0.06 * 0.03, 0.1 * 0.08 * 0.05  # full sides of the palm's two boxes
    assert inferred.body("palm").mass[0] == pytest.approx(1000 * (core + shell), rel=1e-9)


def _scene_option_sets_gravity_only():
    option = ElementTree.fromstring(scenes.two_cube_drop(0.1, 1.0)).find("option")
    assert set(option.attrib) == {"gravity"}


def _compiler_fills_timestep_integrator_no_air():
    xml = scenes.two_cube_drop(0.1, 1.0)
    assert "timestep" not in xml and "integrator" not in xml and "density" not in xml
    defaults = compiled.compiled_defaults(xml)
    assert (defaults["timestep"], defaults["integrator"], defaults["density"]) == (
        0.002,
        "Euler",
        0.0,
    )


def _option_attributes_and_defaults():
    _empty_file_gets_documented_defaults()
    model = _model(
        '<mujoco><option timestep="0.001" integrator="RK4" gravity="0 0 -1" density="1.2" '
        'viscosity="0.1" cone="elliptic"/></mujoco>'
    )
    assert model.opt.integrator == mujoco.mjtIntegrator.mjINT_RK4
    assert model.opt.cone == mujoco.mjtCone.mjCONE_ELLIPTIC and model.opt.viscosity == 0.1


def _geom_collides_and_weighs_by_default():
    model = _model(_body_xml("<geom type='box' size='.1 .1 .1' friction='.5 .01 .001'/>"))
    assert model.geom_contype[0] == 1 and model.geom_conaffinity[0] == 1
    assert model.body_mass[1] == pytest.approx(1000 * 0.2**3, rel=1e-12)  # half-lengths
    assert model.geom_friction[0][0] == 0.5


def _joint_types_and_their_dofs():
    for kind, nv in (("hinge", 1), ("slide", 1), ("ball", 3), ("free", 6)):
        joint = f"<joint type='{kind}' damping='1' armature='.1'"
        joint += " axis='0 1 0' range='-1 1'/>" if kind in ("hinge", "slide") else "/>"
        xml = f"<mujoco><worldbody><body>{joint}<geom size='.1'/></body></worldbody></mujoco>"
        assert _model(xml).nv == nv, kind


def _inertial_states_mass_com_and_inertia():
    stated = _model(
        _body_xml(
            "<inertial pos='0 0 .2' mass='2' fullinertia='.3 .2 .1 0 0 0'/>"
            "<geom type='box' size='.1 .1 .1'/>"
        )
    )
    assert stated.body_mass[1] == 2 and stated.body_ipos[1][2] == pytest.approx(0.2)
    np.testing.assert_allclose(np.diag(_tensor(stated)), [0.3, 0.2, 0.1], rtol=1e-12)


def _default_class_gives_every_joint_its_damping():
    xml = (
        "<mujoco><default><default class='servo'><joint damping='0.7'/></default></default>"
        "<worldbody><body childclass='servo'><joint type='hinge'/><geom size='.1'/>"
        "<body><joint type='hinge'/><geom size='.1'/></body></body>"
        "<body><joint class='servo' type='slide'/><geom size='.1'/></body></worldbody></mujoco>"
    )
    np.testing.assert_array_equal(_model(xml).dof_damping, [0.7, 0.7, 0.7])


def _actuators_produce_force():
    kinds = ("motor", "position", "velocity", "general")
    actuators = "".join(f"<{k} joint='j' gear='2' ctrlrange='-1 1'/>" for k in kinds)
    xml = (
        "<mujoco><worldbody><body><joint name='j' type='hinge'/><geom size='.1'/></body>"
        f"</worldbody><actuator>{actuators}</actuator></mujoco>"
    )
    model = _model(xml)
    data = mujoco.MjData(model)
    data.ctrl[:] = [0.5, 0, 0, 0]
    mujoco.mj_forward(model, data)
    assert model.nu == 4 and data.qfrc_actuator[0] == pytest.approx(2 * 0.5)


def _sensors_write_sensordata():
    xml = (
        "<mujoco><worldbody><body name='b'><joint name='j' type='hinge'/><geom size='.1'/>"
        "<site name='s' size='.1'/></body></worldbody><sensor><jointpos joint='j'/>"
        "<framequat objtype='body' objname='b'/><touch site='s'/></sensor></mujoco>"
    )
    model = _model(xml)
    data = mujoco.MjData(model)
    data.qpos[0] = 0.3
    mujoco.mj_forward(model, data)
    assert model.nsensordata == 1 + 4 + 1 and data.sensordata[0] == pytest.approx(0.3)


def _body_pose_is_relative_to_its_parent():
    xml = (
        "<mujoco><worldbody><body pos='1 0 0' quat='0.7071068 0 0 0.7071068'><geom size='.1'/>"
        "<body name='child' pos='1 0 0'><geom size='.1'/></body></body></worldbody></mujoco>"
    )
    model = _model(xml)
    data = mujoco.MjData(model)
    mujoco.mj_kinematics(model, data)
    np.testing.assert_allclose(data.body("child").xpos, [1, 1, 0], atol=1e-6)


def _quaternions_scalar_first_half_angle():
    quat = np.zeros(4)
    axis, angle = np.array([0.0, 0.6, 0.8]), 1.2
    mujoco.mju_axisAngle2Quat(quat, axis, angle)
    np.testing.assert_allclose(quat, [np.cos(angle / 2), *(np.sin(angle / 2) * axis)])
    xml = _body_xml("<geom size='.1'/>").replace("name='body'", "name='body' quat='1 0 0 0'")
    model = _model(xml)
    data = mujoco.MjData(model)
    mujoco.mj_kinematics(model, data)
    np.testing.assert_allclose(data.xmat[1].reshape(3, 3), np.eye(3))


def _only_bodies_keep_mass():
    model = _model(scenes.gripper("true"))
    assert not any(name.startswith("geom_") and "mass" in name for name in dir(model))
    assert model.body_mass.shape == (model.nbody,)


def _compile_inertial(rule: str, inertial: bool, moving: bool = True):
    stated = "<inertial pos='0 0 0' mass='2' diaginertia='.1 .1 .1'/>" if inertial else ""
    joint = "<freejoint/>" if moving else ""
    return compiled.compile_or_error(
        f"<mujoco><compiler inertiafromgeom='{rule}'/><worldbody><body>{joint}{stated}"
        "<geom type='sphere' size='.1' mass='1'/></body></worldbody></mujoco>"
    )


def _auto_infers_only_without_inertial():
    assert _compile_inertial("auto", True)[0].body_mass[1] == 2
    assert _compile_inertial("auto", False)[0].body_mass[1] == 1
    assert (
        mujoco.MjSpec().compiler.inertiafromgeom == mujoco.mjtInertiaFromGeom.mjINERTIAFROMGEOM_AUTO
    )


def _true_always_infers():
    assert _compile_inertial("true", True)[0].body_mass[1] == 1


def _false_never_infers_and_moving_bodies_need_inertial():
    assert _compile_inertial("false", True)[0].body_mass[1] == 2
    model, error = _compile_inertial("false", False)
    assert model is None and "mass and inertia of moving bodies" in error
    static, _ = _compile_inertial("false", False, moving=False)
    assert static is not None and static.body_mass[1] == 0


URDF = """<robot name="r">
  <link name="base"/>
  <link name="link">
    <inertial><origin xyz="0.1 0 0.05" rpy="0 0 0"/><mass value="2"/>
      <inertia ixx="0.03" ixy="0.004" ixz="0" iyy="0.025" iyz="0" izz="0.02"/></inertial>
    <collision><geometry><box size="0.2 0.2 0.2"/></geometry></collision>
  </link>
  <joint name="j" type="revolute"><parent link="base"/><child link="link"/>
    <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>"""


def _urdf_compiles_to_nested_bodies():
    model = mujoco.MjModel.from_xml_string(URDF)
    link = model.body("link")
    assert model.njnt == 1 and model.jnt_bodyid[0] == link.id
    assert model.body(link.parentid[0]).name in ("base", "world") and link.mass[0] == 2


def _urdf_box_is_full_sides():
    model = mujoco.MjModel.from_xml_string(URDF)
    np.testing.assert_allclose(model.geom_size[0], [0.1, 0.1, 0.1])


def _copied_box_size_is_eight_times_the_volume():
    urdf_like = _model(_body_xml("<geom type='box' size='.1 .1 .1'/>"))
    copied = _model(_body_xml("<geom type='box' size='.2 .2 .2'/>"))
    assert copied.body_mass[1] == pytest.approx(8 * urdf_like.body_mass[1])


def _solid(kind, size, density=1000.0):
    model = _model(scenes.shape_body(kind, size, density))
    return model.body_mass[1], np.diag(_tensor(model))


def _sizes_are_half_lengths():
    mass, _ = _solid("box", (0.1, 0.1, 0.1))
    assert mass == pytest.approx(1000 * 0.2**3)
    for kind in ("cylinder", "capsule"):
        model = _model(scenes.shape_body(kind, (0.03, 0.1), 1000))
        np.testing.assert_allclose(
            model.geom_aabb[0][3:], [0.03, 0.03, 0.1 + (kind == "capsule") * 0.03]
        )


def _box_row():
    mass, moments = _solid("box", (0.1, 0.05, 0.02), 700)
    assert mass == pytest.approx(700 * 0.2 * 0.1 * 0.04)
    np.testing.assert_allclose(moments, _box_moments(mass, 0.2, 0.1, 0.04), rtol=1e-12)


def _sphere_row():
    mass, moments = _solid("sphere", (0.04,))
    assert mass == pytest.approx(1000 * 4 / 3 * np.pi * 0.04**3)
    np.testing.assert_allclose(moments, 2 / 5 * mass * 0.04**2, rtol=1e-12)


def _cylinder_row():
    mass, moments = _solid("cylinder", (0.03, 0.1))
    r, length = 0.03, 0.2
    assert mass == pytest.approx(1000 * np.pi * r**2 * length)
    side = mass / 12 * (3 * r**2 + length**2)
    np.testing.assert_allclose(moments, [side, side, mass * r**2 / 2], rtol=1e-12)


def _capsule_row():
    mass, moments = _solid("capsule", (0.03, 0.1))
    r, length = 0.03, 0.2
    m_cyl, m_s = 1000 * np.pi * r**2 * length, 1000 * 4 / 3 * np.pi * r**3
    side = m_cyl / 12 * (3 * r**2 + length**2) + m_s * (
        2 / 5 * r**2 + length**2 / 4 + 3 / 8 * length * r
    )
    axis = m_cyl * r**2 / 2 + 2 / 5 * m_s * r**2
    assert mass == pytest.approx(m_cyl + m_s)
    np.testing.assert_allclose(moments, [side, side, axis], rtol=1e-12)


def _caps_beyond_the_ends():
    """The capsule minus a cylinder and a whole sphere at its centre: the offset term only."""
    r, half = 0.03, 0.1
    capsule = _model(scenes.parts_body([("capsule", (r, half), (0, 0, 0), 1.0)]))
    density = 1.0 / (np.pi * r**2 * 2 * half + 4 / 3 * np.pi * r**3)
    parts = [
        ("cylinder", (r, half), (0, 0, 0), density * np.pi * r**2 * 2 * half),
        ("sphere", (r,), (0, 0, 0), density * 4 / 3 * np.pi * r**3),
    ]
    centred = _model(scenes.parts_body(parts))
    m_s, length = parts[1][3], 2 * half
    extra = _tensor(capsule)[0, 0] - _tensor(centred)[0, 0]
    assert extra == pytest.approx(m_s * (length**2 / 4 + 3 / 8 * length * r), rel=1e-9)


def _mean_square_over_a_side():
    a = 0.3
    x = np.linspace(-a / 2, a / 2, 200_001)
    assert np.trapezoid(x**2, x) / a == pytest.approx(a**2 / 12, rel=1e-8)
    _box_row()


def _inertia_measures_resistance_to_spin():
    model = _model(
        scenes.shape_body("box", (0.1, 0.05, 0.02), 700).replace(
            '<option gravity="0 0 0"/>', "<option gravity='0 0 0'/>"
        )
    )
    data = mujoco.MjData(model)
    data.qfrc_applied[3] = 0.01  # a torque about x, N m
    mujoco.mj_forward(model, data)
    assert data.qacc[3] == pytest.approx(0.01 / _tensor(model)[0, 0], rel=1e-9)


def _given_mass_fixes_the_density():
    by_mass = _model(_body_xml("<geom type='cylinder' size='.03 .1' mass='0.7'/>"))
    density = 0.7 / (np.pi * 0.03**2 * 0.2)
    by_density = _model(_body_xml(f"<geom type='cylinder' size='.03 .1' density='{density!r}'/>"))
    np.testing.assert_allclose(_tensor(by_mass), _tensor(by_density), rtol=1e-12)


def _lesson_03_derives_the_capsule():
    source = notebooks.read_lesson("03-mass-and-inertia")
    text = " ".join(c.source for c in source.cells if c.cell_type == "markdown")
    assert "capsule" in text and "hemisphere" in text and "\\tfrac38 r" in text


def _first_row_is_the_100_g_cube():
    mass, moments = _solid("box", (0.1, 0.1, 0.1), 12.5)
    assert mass == pytest.approx(0.1)
    assert [f"{m:.4e}" for m in moments] == ["6.6667e-04"] * 3


def _masses_add_com_is_weighted_mean():
    model = _model(scenes.parts_body(scenes.OFFSET_PARTS))
    masses = np.array([p[3] for p in scenes.OFFSET_PARTS])
    positions = np.array([p[2] for p in scenes.OFFSET_PARTS])
    assert model.body_mass[1] == pytest.approx(masses.sum())
    np.testing.assert_allclose(model.body_ipos[1], masses @ positions / masses.sum(), atol=1e-12)


def _parallel_axis_theorem():
    model = _model(scenes.parts_body(scenes.OFFSET_PARTS))
    com = model.body_ipos[1]
    total = np.zeros((3, 3))
    for kind, size, pos, mass in scenes.OFFSET_PARTS:
        r = np.asarray(pos) - com
        total += np.diag(check.part_inertia(kind, size, mass))
        total += mass * (r @ r * np.eye(3) - np.outer(r, r))
    np.testing.assert_allclose(_tensor(model), total, rtol=1e-9, atol=1e-12)


def _shift_term_is_never_negative():
    rng = np.random.default_rng(7)
    for r in rng.normal(size=(20, 3)):
        assert (np.diag(r @ r * np.eye(3) - np.outer(r, r)) >= 0).all()
    near = _model(
        scenes.parts_body(
            [("sphere", (0.03,), (0, 0, 0.1), 1), ("sphere", (0.03,), (0, 0, -0.1), 1)]
        )
    )
    far = _model(
        scenes.parts_body(
            [("sphere", (0.03,), (0, 0, 0.2), 1), ("sphere", (0.03,), (0, 0, -0.2), 1)]
        )
    )
    assert _tensor(far)[0, 0] > _tensor(near)[0, 0]


def _two_parts_are_as_described():
    (box, box_size, box_pos, box_mass), (ball, radius, ball_pos, ball_mass) = check.TWO_PARTS
    assert (box, ball, box_mass, ball_mass) == ("box", "sphere", 1.0, 0.5)
    assert 2 * box_size[0] == 0.1 and radius == (0.05,)
    assert box_pos[2] - ball_pos[2] == pytest.approx(0.2)


def _seven_times_easier_without_the_term():
    model = _model(scenes.parts_body(check.TWO_PARTS))
    own = sum(check.part_inertia(k, s, m)[0] for k, s, _, m in check.TWO_PARTS)
    ratio = _tensor(model)[0, 0] / own
    assert f"{ratio:.1f}" == "7.2" and ratio > 3  # "several times"


def _principal_axes_and_iquat():
    model = _model(scenes.parts_body(scenes.OFFSET_PARTS))
    axes = np.zeros(9)
    mujoco.mju_quat2Mat(axes, model.body_iquat[1])
    axes = axes.reshape(3, 3)
    np.testing.assert_allclose(
        axes.T @ _tensor(model) @ axes, np.diag(model.body_inertia[1]), atol=1e-12
    )
    assert abs(model.body_iquat[1][0]) < 0.99  # turned: not 1 0 0 0


def _on_axis_parts_are_diagonal():
    model = _model(scenes.parts_body(check.TWO_PARTS))
    np.testing.assert_allclose(model.body_iquat[1], [1, 0, 0, 0])


def _euler_is_semi_implicit():
    h = 0.002
    positions = compiled.free_body_positions(_model(falls.shape_drop("box", (0.1,) * 3, 0.1)), 50)
    x, v = 0.0, 0.0
    for k in range(1, 51):
        v = v + h * -9.81
        x = x + h * v
        assert positions[k][2] == pytest.approx(x, abs=1e-15)


def _damping_is_implicit_and_stable():
    mass, damping, h = 0.5, 2.0, 0.002
    _, velocity = compiled.joint_trajectory(scenes.damped_slider(mass, damping, h), 20, 0.0, 1.0)
    v, c = 1.0, damping / mass
    for k in range(1, 21):
        v = v + h * (-9.81 - c * v) / (1 + h * c)
        assert velocity[k] == pytest.approx(v, rel=1e-12)
    _, stiff = compiled.joint_trajectory(scenes.damped_slider(0.5, 1e6, h), 50, 0.0, 1.0)
    assert np.all(np.isfinite(stiff)) and np.abs(stiff).max() <= 1.0 + 1e-9


def _drag_on_the_equivalent_box():
    rng = np.random.default_rng(11)
    for kind, size in (
        ("cylinder", (0.04, 0.1)),
        ("box", (0.1, 0.05, 0.02)),
        ("capsule", (0.03, 0.08)),
    ):
        model = _model(falls.shape_drop(kind, size, 0.3, AIR))
        sides = _equivalent_box(model.body_mass[1], model.body_inertia[1])
        area = np.array([sides[1] * sides[2], sides[0] * sides[2], sides[0] * sides[1]])
        v = rng.uniform(-3, 3, 3)
        np.testing.assert_allclose(
            drop.drag_on(model, v), -0.5 * AIR * area * np.abs(v) * v, rtol=1e-9
        )


def _cube_is_its_box_others_are_not():
    np.testing.assert_allclose(
        compiled.drag_areas(falls.shape_drop("box", (0.1,) * 3, 0.1, AIR), AIR), 0.04
    )
    cylinder = compiled.drag_areas(falls.shape_drop("cylinder", (0.05, 0.1), 0.3, AIR), AIR)
    for silhouette in (np.pi * 0.05**2, 0.1**2):  # the disc seen from below, its square
        assert abs(cylinder[2] / silhouette - 1) > 0.03
    sphere = compiled.drag_areas(falls.shape_drop("sphere", (0.05,), 0.3, AIR), AIR)
    assert abs(sphere[0] / (np.pi * 0.05**2) - 1) > 0.2


def _cube_drag_values():
    cube = falls.shape_drop("box", (0.1, 0.1, 0.1), 0.1, AIR)
    forces = [compiled.fluid_force(cube, [0, 0, vz])[2] for vz in (-1.0, -2.8)]
    assert [f"{f:.6f}" for f in forces] == ["0.024000", "0.188160"]
    assert f"{forces[1] / forces[0]:.2f}" == "7.84"
    assert f"{math.sqrt(2 * 9.81 * 0.40):.1f}" == "2.8"  # a 40 cm fall in vacuum


def _falling_shape_never_rotates():
    model = _model(falls.shape_drop("cylinder", (0.05, 0.1), 0.2, AIR))
    data = mujoco.MjData(model)
    for _ in range(150):
        mujoco.mj_step(model, data)
    assert np.abs(data.qvel[3:]).max() == 0 and np.allclose(data.qpos[3:], [1, 0, 0, 0])


def _two_cubes_free_and_40_cm_up():
    model = _model(scenes.two_cube_drop(0.1, 1.0))
    assert model.nv == 12 and model.njnt == 2
    for name in ("light", "heavy"):
        bottom = model.body(name).pos[2] - scenes.CUBE_HALF_SIDE
        assert bottom - scenes.TABLE_TOP_Z == pytest.approx(0.40)
        assert 2 * model.geom_size[model.body(name).geomadr[0]][0] == pytest.approx(0.2)


def _cubes_weighed_from_their_geoms():
    xml = scenes.two_cube_drop(0.1, 1.0)
    assert "inertial" not in xml
    model = _model(xml)
    np.testing.assert_allclose(model.body("light").inertia, _box_moments(0.1, 0.2, 0.2, 0.2))


def _lesson_edits_masses_and_density():
    base = scenes.two_cube_drop(0.1, 1.0).splitlines()
    edited = scenes.two_cube_drop(0.005, 2.0, AIR).splitlines()
    changed = [(a, b) for a, b in zip(base, edited, strict=True) if a != b]
    assert len(changed) == 3
    assert changed[0][1] == changed[0][0].replace("/>", ' density="1.2"/>')
    assert [b for a, b in changed[1:]] == [
        a.replace('mass="0.1"', 'mass="0.005"').replace('mass="1"', 'mass="2"')
        for a, _ in changed[1:]
    ]


def _sixteen_lines():
    assert len(scenes.two_cube_drop().strip().splitlines()) == 16


def _vacuum_steps_and_analytic_time():
    _vacuum_fall_is_mass_free()
    analytic = math.sqrt(2 * 0.40 / 9.81)
    assert f"{analytic:.4f}" == "0.2856" and math.ceil(analytic / 0.002) == 143


def _air_steps_gap_and_delay():
    air = drop.run_two_cube_drop(0.1, 1.0, AIR)
    assert (air.light_step, air.heavy_step) == (145, 143)
    assert (f"{air.gap_cm:.2f}", f"{air.delay_ms:.2f}") == ("1.10", "4.08")


def _interpolation_shows_delays_within_a_step():
    run = drop.run_two_cube_drop(0.5, 1.0, AIR)
    assert run.light_step == run.heavy_step and 0 < run.delay_ms < 2.0


def _five_gram_figures():
    run = drop.run_two_cube_drop(0.005, 1.0, AIR)
    assert (run.light_step, f"{run.gap_cm:.2f}", f"{run.delay_ms:.2f}") == (190, "13.21", "93.44")
    _air_steps_gap_and_delay()


def _slow_motion_as_described():
    defaults = inspect.signature(pictures.show_slow_drop).parameters
    assert defaults["slower"].default == 10
    assert (defaults["start"].default, defaults["stop"].default) == (0.18, 0.40)
    assert defaults["light_kg"].default == 0.005 and defaults["heavy_kg"].default == 1.0


def _light_cube_is_blue():
    model = _model(scenes.two_cube_drop())
    red, green, blue, _ = model.geom_rgba[model.body("light").geomadr[0]]
    assert blue > max(red, green)


def _landing_time_formula():
    heights = drop.shape_drop_heights("box", (0.1,) * 3, 0.1, AIR)
    k = int(np.argmax(heights <= 0))
    want = (k - 1 + heights[k - 1] / (heights[k - 1] - heights[k])) * 0.002
    assert falls.landing_time(heights, 0.002) == pytest.approx(want, rel=1e-15)


def _delay_table_ends_and_follows_one_over_m():
    table = drop.delay_sweep()
    assert (f"{table[0.005]:.2f}", f"{table[0.5]:.2f}") == ("93.44", "0.45")
    products = [d * m for m, d in table.items() if m <= 0.1]
    assert max(products) / min(products) < 1.2


def _bends_because_the_heavy_cube_slows():
    table = drop.delay_sweep()
    corrected = [d * m / (1 - m) for m, d in table.items() if m < 1.0]
    assert max(corrected) / min(corrected) < 1.05
    guide = table[0.005] * 0.005
    assert all(table[m] < guide / m for m in (0.2, 0.5))


def _vacuum_delays_are_zero():
    assert all(d == 0 for d in drop.delay_sweep(air_density=0.0).values())


def _distance_lost_estimate():
    k, g, T = 0.5 * AIR * 0.04, 9.81, math.sqrt(2 * 0.40 / 9.81)
    t = np.linspace(0, T, 20_001)
    inner = g**2 * t**3 / 3  # the integral of g^2 s^2 from 0 to t
    assert np.trapezoid(inner, t) == pytest.approx(g**2 * T**4 / 12, rel=1e-6)
    lost = [100 * k / m * g**2 * T**4 / 12 for m in (0.1, 1.0)]
    assert f"{lost[0] - lost[1]:.2f}" == "1.15"
    assert f"{drop.run_two_cube_drop(0.1, 1.0, AIR).gap_cm:.2f}" == "1.10"


def _four_arrays_per_body():
    model = _model(scenes.parts_body(scenes.OFFSET_PARTS))
    shapes = [
        getattr(model, f).shape for f in ("body_mass", "body_ipos", "body_inertia", "body_iquat")
    ]
    assert shapes == [(2,), (2, 3), (2, 3), (2, 4)]
    data = mujoco.MjData(model)
    mujoco.mj_kinematics(model, data)
    xmat = data.xmat[1].reshape(3, 3)
    np.testing.assert_allclose(data.xipos[1], data.xpos[1] + xmat @ model.body_ipos[1])
    _principal_axes_and_iquat()


def _mjcf_inertial_row():
    diag = _model(
        _body_xml(
            "<inertial pos='0 0 0' mass='1' diaginertia='.3 .2 .1' quat='0.7071068 0 0 0.7071068'/>"
        )
    )
    full = _model(_body_xml("<inertial pos='0 0 0' mass='1' fullinertia='.2 .3 .1 0 0 0'/>"))
    np.testing.assert_allclose(_tensor(diag), _tensor(full), atol=1e-6)


def _urdf_inertial_row():
    link = mujoco.MjModel.from_xml_string(URDF).body("link")
    assert link.mass[0] == 2
    np.testing.assert_allclose(link.ipos, [0.1, 0, 0.05], atol=1e-12)
    want = np.linalg.eigvalsh([[0.03, 0.004, 0], [0.004, 0.025, 0], [0, 0, 0.02]])
    np.testing.assert_allclose(np.sort(link.inertia), want, rtol=1e-9)


SLAB = falls.shape_drop("box", (0.1, 0.05, 0.02), 0.56, AIR)


def _slab_models(set_const: bool = True):
    """The slab as compiled, with body_mass doubled, with mj_setTotalmass x2."""
    as_compiled, edited, rescaled = _model(SLAB), _model(SLAB), _model(SLAB)
    edited.body_mass[1] *= 2
    mujoco.mj_setTotalmass(rescaled, 2 * compiled.total_mass(rescaled))
    if set_const:
        for model in (edited, rescaled):
            mujoco.mj_setConst(model, mujoco.MjData(model))
    return as_compiled, edited, rescaled


def _forces_follow_at_once_constants_only_with_set_const():
    as_compiled, stale, stale_rescaled = _slab_models(set_const=False)
    np.testing.assert_array_equal(stale.body_inertia, as_compiled.body_inertia)
    assert drop.drag_on(stale, [0, 0, -1.0])[2] == pytest.approx(0.006)  # forces: at once
    for model in (stale, stale_rescaled):  # the mass matrix: still the compiled one
        assert model.body_simple[1] == 1
        assert drop.acceleration_at_rest(model) == pytest.approx(-2 * 9.81, rel=1e-9)
    _, edited, rescaled = _slab_models()
    for model in (edited, rescaled):
        assert drop.acceleration_at_rest(model) == pytest.approx(-9.81, rel=1e-9)


def _slab_falls_twice_as_fast_without_set_const():
    _, stale, _ = _slab_models(set_const=False)
    assert f"{-drop.acceleration_at_rest(stale):.2f}" == "19.62"
    _forces_follow_at_once_constants_only_with_set_const()


def _edited_mass_shrinks_the_box():
    as_compiled, edited, _ = _slab_models()
    before = _equivalent_box(as_compiled.body_mass[1], as_compiled.body_inertia[1])
    after = _equivalent_box(edited.body_mass[1], edited.body_inertia[1])
    np.testing.assert_allclose(after, before / np.sqrt(2), rtol=1e-12)


def _slab_drag_figures():
    drags = [f"{drop.drag_on(m, [0, 0, -1.0])[2]:.6f}" for m in _slab_models()]
    assert drags == ["0.012000", "0.006000", "0.012000"]


def _settotalmass_scales_both():
    as_compiled, _, rescaled = _slab_models()
    _forces_follow_at_once_constants_only_with_set_const()
    assert rescaled.body_mass[1] == pytest.approx(2 * as_compiled.body_mass[1])
    np.testing.assert_allclose(rescaled.body_inertia, 2 * as_compiled.body_inertia, rtol=1e-12)
    _slab_drag_figures()


def _scaling_both_arrays_keeps_the_drag():
    as_compiled, scaled, rescaled = _slab_models()
    scaled.body_inertia[1] *= 2
    np.testing.assert_allclose(drop.drag_on(scaled, [0, 0, -1]), drop.drag_on(rescaled, [0, 0, -1]))
    _settotalmass_scales_both()


def _local_servo_arm_counts():
    xml = (
        "<mujoco><worldbody><body><joint name='a' type='hinge'/><geom size='.1'/><body>"
        "<joint name='b' type='hinge'/><geom size='.1'/></body></body></worldbody><actuator>"
        "<position joint='a' kp='998.22' kv='2.731'/></actuator></mujoco>"
    )
    model = _model(xml)
    assert model.nbody == 3 and model.nv == 2  # the world counts as a body
    assert model.actuator_gaintype[0] == mujoco.mjtGain.mjGAIN_FIXED
    assert model.actuator_biastype[0] == mujoco.mjtBias.mjBIAS_AFFINE


def _so101_spec():
    from course import menagerie

    spec = menagerie.load_spec("robotstudio_so101", check_network=True)
    if spec is None:
        pytest.skip("the SO-101 file needs Menagerie, which cannot download here")
    return spec


def _so101_states_most_inertials():
    spec = _so101_spec()
    stated = [b for b in spec.bodies[1:] if b.explicitinertial]
    assert len(stated) > len(spec.bodies[1:]) / 2


def _so101_option_block():
    model = _so101_spec().compile()
    assert model.opt.integrator == mujoco.mjtIntegrator.mjINT_IMPLICITFAST
    assert model.opt.timestep > 0.002


def _gripper_is_three_stated_bodies_with_shells():
    model = _model(scenes.gripper("auto"))
    root = ElementTree.fromstring(scenes.gripper("auto"))
    bodies = root.iter("body")
    assert all(body.find("inertial") is not None for body in bodies) and model.nbody == 4
    shells = [g for g in range(model.ngeom) if model.geom_group[g] == 2]
    assert len(shells) == 3 and all(
        model.geom_contype[g] == model.geom_conaffinity[g] == 0 for g in shells
    )


def _gripper_figures_without_a_word():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any warning fails
        written, inferred = (_model(scenes.gripper(rule)) for rule in ("auto", "true"))
    totals = [compiled.total_mass(written), compiled.total_mass(inferred)]
    assert [f"{t:.3f}" for t in totals] == ["0.160", "0.647"]
    assert f"{totals[1] / totals[0]:.2f}" == "4.05"


def _shells_counted_through_inertiagrouprange():
    assert list(mujoco.MjSpec().compiler.inertiagrouprange) == [0, 5]
    _reference_says(':at:`inertiagrouprange`: :at-val:`int(2), "0 5"`')
    _gripper_shell_weighed_as_solid_water()
    narrow = scenes.gripper("true").replace(
        '<compiler inertiafromgeom="true"/>',
        '<compiler inertiafromgeom="true" inertiagrouprange="0 1"/>',
    )
    assert _model(narrow).body("palm").mass[0] == pytest.approx(1000 * 0.08 * 0.06 * 0.03)


def _wrist_torque(rule: str) -> float:
    """Gravity torque (N m) on a wrist hinge holding the gripper, turned by 0.5 rad."""
    xml = scenes.gripper(rule).replace(
        '<body name="palm" pos="0 0 .3">',
        '<body name="palm" pos="0 0 .3">'
        '<joint name="wrist" type="hinge" axis="0 1 0" pos="0 0 .05"/>',
    )
    model = _model(xml)
    data = mujoco.MjData(model)
    data.qpos[model.joint("wrist").qposadr[0]] = 0.5
    mujoco.mj_forward(model, data)
    return float(data.qfrc_bias[model.joint("wrist").dofadr[0]])


def _weight_and_gravity_torque_follow_the_mass():
    written, inferred = (_model(scenes.gripper(rule)) for rule in ("auto", "true"))
    ratio = compiled.total_mass(inferred) / compiled.total_mass(written)
    gravity = -written.opt.gravity[2]
    weights = [gravity * compiled.total_mass(m) for m in (written, inferred)]
    assert weights[1] / weights[0] == pytest.approx(ratio)
    assert _wrist_torque("true") / _wrist_torque("auto") > 3


def _drawn_inertia_boxes(rule: str) -> dict[int, np.ndarray]:
    """{body id: full extents along the body's axes (m)} of the boxes mjVIS_INERTIA draws."""
    boxes = {}
    for geom in inertia_boxes.drawn_geoms(_model(scenes.gripper(rule)), maxgeom=200):
        if geom.category == mujoco.mjtCatBit.mjCAT_DECOR and geom.type == mujoco.mjtGeom.mjGEOM_BOX:
            boxes[geom.objid] = 2 * np.abs(geom.mat.reshape(3, 3)) @ geom.size
    return boxes


def _mujoco_draws_the_step_4_box():
    for rule in ("auto", "true"):
        model = _model(scenes.gripper(rule))
        boxes = _drawn_inertia_boxes(rule)
        assert sorted(boxes) == [1, 2, 3]
        for body, extents in boxes.items():
            want = _equivalent_box(model.body_mass[body], model.body_inertia[body])
            np.testing.assert_allclose(np.sort(extents), np.sort(want), rtol=1e-5)


def _palm_box_against_its_shell():
    shell = np.array([0.1, 0.08, 0.05])  # the palm's decorative box, full sides
    written, inferred = _drawn_inertia_boxes("auto")[1], _drawn_inertia_boxes("true")[1]
    assert (written < shell).all() and (inferred < shell).all()
    assert (inferred / shell > 0.9).all() and written.prod() < 0.5 * shell.prod()


def _several_times_the_parts_own():
    _seven_times_easier_without_the_term()


def _own_loop_follows_mj_step_in_air():
    for air in (0.0, AIR):
        ours = SOLUTION["drop_heights"]("box", [0.1, 0.1, 0.1], 0.1, rho_air=air)
        theirs = drop.shape_drop_heights("box", (0.1, 0.1, 0.1), 0.1, air)
        assert len(ours) == len(theirs) and np.abs(ours - theirs).max() < 1e-12


def _runner_takes_gravity():
    moon = drop.run_two_cube_drop(0.1, 1.0, 0.0, gravity=1.62)
    assert moon.light_step == moon.heavy_step
    assert abs(moon.light_step - math.sqrt(2 * 0.40 / 1.62) / 0.002) < 1


def _wrong_choice_changes_mass_several_times_silently():
    _gripper_figures_without_a_word()


def _half_lengths_and_scalar_first():
    _sizes_are_half_lengths()
    _quaternions_scalar_first_half_angle()


CLAIMS = [
    (
        "Every number MuJoCo simulates with was either written in that file or filled in by "
        "the compiler from a documented default.",
        _empty_file_gets_documented_defaults,
    ),
    (
        "reproduce MuJoCo's timing to a hundredth of a millisecond with your own code",
        _solution_delays_within_a_hundredth_ms,
    ),
    (
        "MuJoCo's own XML reference warns that a number of public URDF models have inertias "
        "that look arbitrary and are too large for their mass, so that their equivalent inertia "
        "boxes reach far beyond the shapes of the model.",
        _reference_warns_about_urdf_inertias,
    ),
    (
        "Gravity's force is m g, so the acceleration F / m = g does not depend on the mass.",
        _vacuum_fall_is_mass_free,
    ),
    (
        "A missing mass is not an error: it is a default you did not choose.",
        _missing_mass_is_default_density,
    ),
    ("geom/density defaults to 1000 kg/m³ (water)", _missing_mass_is_default_density),
    (
        "Both cubes have the same size, so the same drag force at the same speed; the "
        "deceleration is that force divided by the mass, k v² / m. Halve the mass and the "
        "slowing doubles.",
        _same_size_same_drag_and_halved_mass_doubles_slowing,
    ),
    (
        "**`mjModel`** holds the constants, which `mj_step` reads and never changes: masses, "
        "sizes, gains, the timestep. **`mjData`** holds the state, which it does change",
        _step_leaves_model_unchanged_and_advances_data,
    ),
    (
        "A simulation is a loop that calls `mj_step`, which reads `mjModel` and advances "
        "`mjData` by one timestep.",
        _step_leaves_model_unchanged_and_advances_data,
    ),
    (
        "with the wrong one a thin decorative shell is weighed as a solid block of water.",
        _gripper_shell_weighed_as_solid_water,
    ),
    ("Its `<option>` element sets gravity and nothing else.", _scene_option_sets_gravity_only),
    (
        "The file never mentions the timestep: the compiler chose **0.002** s, the `Euler` "
        "integrator and no air at all (density **0**).",
        _compiler_fills_timestep_integrator_no_air,
    ),
    (
        "| `option` | global physics settings | `timestep` (default 0.002 s), `integrator` "
        "(default `Euler`), `gravity`, `density` and `viscosity` (default 0: vacuum), `cone` |",
        _option_attributes_and_defaults,
    ),
    (
        "| `body` | a rigid frame in the tree | `pos`, `quat` relative to the parent |",
        _body_pose_is_relative_to_its_parent,
    ),
    (
        "| `geom` | a shape for collisions and, by default, for mass | `type`, `size` "
        "(half-lengths for a box), `mass` or `density` (default 1000 kg/m³), `friction` |",
        _geom_collides_and_weighs_by_default,
    ),
    (
        "| `joint` | a degree of freedom between a body and its parent | `type` (`hinge`, "
        "`slide`, `ball`, `free`), `axis`, `range`, `damping`, `armature` |",
        _joint_types_and_their_dofs,
    ),
    (
        "| `inertial` | a body's mass properties, stated explicitly | `mass`, `pos` (centre of "
        "mass), `diaginertia` or `fullinertia` |",
        _inertial_states_mass_com_and_inertia,
    ),
    (
        "| `default`, `class`, `childclass` | named templates of attribute values | every joint "
        "of one servo type gets the same `damping` |",
        _default_class_gives_every_joint_its_damping,
    ),
    (
        "| `actuator` | something that produces force | `motor`, `position`, `velocity`, "
        "`general`; `gear`, `ctrlrange` |",
        _actuators_produce_force,
    ),
    (
        "| `sensor` | a quantity written to `mjData.sensordata` | `jointpos`, `framequat`, "
        "`touch` |",
        _sensors_write_sensordata,
    ),
    (
        "A *joint* gives a body a degree of freedom (dof), one independent way to move "
        "relative to its parent.",
        _joint_types_and_their_dofs,
    ),
    (
        "Orientations are quaternions written **scalar first**: a rotation by angle $a$ about "
        "the unit axis $(x, y, z)$ is $(\\cos\\frac a2,\\ \\sin\\frac a2\\,x,\\ \\sin\\frac "
        "a2\\,y,\\ \\sin\\frac a2\\,z)$, and `1 0 0 0` means no rotation.",
        _quaternions_scalar_first_half_angle,
    ),
    (
        "At run time only *bodies* have mass properties; a geom's mass is used while compiling "
        "and then forgotten.",
        _only_bodies_keep_mass,
    ),
    (
        "| `auto` (default) | infers a body's mass from its geoms only when the body has no "
        "`<inertial>` |",
        _auto_infers_only_without_inertial,
    ),
    (
        "| `true` | always infers from the geoms, replacing any `<inertial>` |",
        _true_always_infers,
    ),
    (
        "| `false` | never infers: every moving body must have an `<inertial>` |",
        _false_never_infers_and_moving_bodies_need_inertial,
    ),
    ("MuJoCo compiles a subset of it directly.", _urdf_compiles_to_nested_bodies),
    (
        "| tree | `link` elements joined by `joint` elements | nested `body` elements, each "
        "with its joints |",
        _urdf_compiles_to_nested_bodies,
    ),
    (
        "| mass | an `inertial` per link | an `inertial`, or inferred from geoms |",
        _urdf_inertial_row,
    ),
    ("| box size | full side lengths | half side lengths |", _urdf_box_is_full_sides),
    (
        "a box size copied from URDF to MJCF is twice as long on each side, eight times the "
        "volume.",
        _copied_box_size_is_eight_times_the_volume,
    ),
    (
        "The inertia $I_{xx}$ measures how hard the body is to spin about the $x$ axis through "
        "its centre of mass.",
        _inertia_measures_resistance_to_spin,
    ),
    (
        'MJCF sizes are **half**-lengths: `size=".1 .1 .1"` is a 20 cm cube; cylinders and '
        "capsules give a radius and a half-length along their $z$ axis.",
        _sizes_are_half_lengths,
    ),
    (
        "| box, sides $a, b, c$ | $abc$ | $I_{xx} = \\frac{m}{12}(b^2 + c^2)$, and cyclically |",
        _box_row,
    ),
    (
        "| solid sphere, radius $r$ | $\\frac43\\pi r^3$ | $\\frac25 m r^2$ about every axis |",
        _sphere_row,
    ),
    (
        "| cylinder, radius $r$, length $L$ | $\\pi r^2 L$ | $I_{xx} = I_{yy} = "
        "\\frac{m}{12}(3r^2 + L^2)$, $I_{zz} = \\frac12 m r^2$ |",
        _cylinder_row,
    ),
    (
        "cylinder's terms, plus $I_{zz} \\mathrel{+}= \\frac25 m_s r^2$ and $I_{xx} "
        "\\mathrel{+}= m_s\\left(\\frac25 r^2 + \\frac14 L^2 + \\frac38 L r\\right)$ |",
        _capsule_row,
    ),
    (
        "the mean of $x^2$ over the box is $\\frac1a\\int_{-a/2}^{a/2} x^2\\,dx = \\frac{a^2}{12}$",
        _mean_square_over_a_side,
    ),
    (
        "The capsule's extra $\\frac14 L^2 + \\frac38 Lr$ is there because each cap sits "
        "beyond an end of the cylinder, not at the capsule's centre",
        _caps_beyond_the_ends,
    ),
    ("(Lesson 03 derives it.)", _lesson_03_derives_the_capsule),
    (
        "A geom given `mass` instead of `density` simply fixes the density.",
        _given_mass_fixes_the_density,
    ),
    (
        "The first row is Experiment A's 100 g cube: **6.6667e-04** kg m² about every axis.",
        _first_row_is_the_100_g_cube,
    ),
    (
        "With several geoms the compiler adds the masses and puts the centre of mass (COM) at "
        "their mass-weighted mean position.",
        _masses_add_com_is_weighted_mean,
    ),
    (
        "$$I_{\\text{part about COM}} = I_{\\text{part about its centre}} + "
        "m\\left(\\lVert r\\rVert^2 \\mathbf{1} - r\\, r^\\top\\right).$$",
        _parallel_axis_theorem,
    ),
    (
        "The extra term is never negative along any axis: moving mass away from an axis makes "
        "the body harder to spin about it.",
        _shift_term_is_never_negative,
    ),
    (
        "The body of the check above is a 1 kg cube of side 10 cm whose centre sits 20 cm "
        "above the centre of a 0.5 kg ball of radius 5 cm.",
        _two_parts_are_as_described,
    ),
    (
        "Without the parallel-axis term the body would seem about **7.2** times easier to "
        "spin about $x$.",
        _seven_times_easier_without_the_term,
    ),
    (
        "MuJoCo stores the result in principal axes: `body_inertia` holds the three moments "
        "and `body_iquat` the rotation to their axes.",
        _principal_axes_and_iquat,
    ),
    (
        "Here the parts lie on the $z$ axis, so the matrix is already diagonal and "
        "`body_iquat` is `1 0 0 0`.",
        _on_axis_parts_are_diagonal,
    ),
    (
        "MuJoCo's default integrator, `Euler`, is *semi-implicit*: it updates the velocity "
        "first and then moves with the **new** velocity,",
        _euler_is_semi_implicit,
    ),
    (
        "MuJoCo's Euler also treats joint damping implicitly: with a damping rate $c$ "
        "(damping divided by inertia, 1/s) the velocity update becomes $v_{k+1} = v_k + h\\,a "
        "/ (1 + h c)$, which stays stable however stiff the damping is.",
        _damping_is_implicit_and_stable,
    ),
    (
        "With `option/density` above zero, MuJoCo's default fluid model replaces each body by "
        "the **uniform box with the same mass and principal inertia** and applies quadratic "
        "drag on each of its faces",
        _drag_on_the_equivalent_box,
    ),
    (
        "$F_x = -\\frac12 \\rho_{\\text{air}} A_x |v_x| v_x$, where $A_x$ is the area of the "
        "box facing $x$ (its $y$ side times its $z$ side), and likewise along $y$ and $z$.",
        _drag_on_the_equivalent_box,
    ),
    (
        "For a cube the equivalent box is the cube itself; for a cylinder or a sphere it is "
        "not, and the drag area is **not** the geom's silhouette.",
        _cube_is_its_box_others_are_not,
    ),
    (
        "The cube's inertia box is the cube itself, with faces of **0.04** m².",
        _cube_is_its_box_others_are_not,
    ),
    (
        "At 1 m/s it feels **0.024000** N of drag; at 2.8 m/s, the speed a 40 cm fall reaches "
        "in vacuum, **0.188160** N, **7.84** times as much for 2.8 times the speed: the drag "
        "grows with the square of the speed.",
        _cube_drag_values,
    ),
    (
        "Since the shape never rotates, its lowest point moves exactly as its centre does.",
        _falling_shape_never_rotates,
    ),
    ("## Experiment A · Two cubes, sixteen lines", _sixteen_lines),
    (
        "two 20 cm cubes on free joints (`<freejoint/>` gives a body all six directions of "
        "motion), their bottom faces 40 cm above the table top.",
        _two_cubes_free_and_40_cm_up,
    ),
    (
        "Neither body has an `<inertial>`, so both get their mass properties from their geom.",
        _cubes_weighed_from_their_geoms,
    ),
    (
        'The lesson edits the two `mass` attributes and, for air, adds `density="1.2"` '
        "(kg/m³) to `option`.",
        _lesson_edits_masses_and_density,
    ),
    (
        "In vacuum both cubes reach the table top at step **143**, as the analytic $T = "
        "\\sqrt{2h/g}$ = **0.2856** s predicts: mass cancels.",
        _vacuum_steps_and_analytic_time,
    ),
    (
        "With air the heavy cube still lands at step **143** and the light one at step "
        "**145**; when the heavy one lands the light one is **1.10** cm higher, an "
        "interpolated delay of **4.08** ms.",
        _air_steps_gap_and_delay,
    ),
    (
        "The runner interpolates each landing linearly within its landing step, so delays "
        "shorter than a timestep still show.",
        _interpolation_shows_delays_within_a_step,
    ),
    (
        "When the 1 kg cube lands, the 100 g cube is **1.10** cm above the table and the 5 g "
        "cube **13.21** cm: it lands at step **190**, **93.44** ms later.",
        _five_gram_figures,
    ),
    ("(the light cube is blue)", _light_cube_is_blue),
    (
        "The same 5 g drop in slow motion, ten times slower than real time, from 180 ms after "
        "the release until 400 ms",
        _slow_motion_as_described,
    ),
    (
        "it reaches the table top at $t = \\left(k - 1 + \\frac{h_{k-1}}{h_{k-1} - "
        "h_k}\\right)\\Delta t$, the straight line between the two heights crossing zero.",
        _landing_time_formula,
    ),
    (
        "The delay falls from **93.44** ms at 5 g to **0.45** ms at 500 g and follows the "
        "$1/m$ line: at equal size and speed the drag force is the same",
        _delay_table_ends_and_follows_one_over_m,
    ),
    (
        "Near 1 kg the points bend below the guide, because the heavy cube is slowed a little too.",
        _bends_because_the_heavy_cube_slows,
    ),
    ("In vacuum every delay is 0.", _vacuum_delays_are_zero),
    (
        "integrating it twice over the fall time $T$ gives the distance lost, $\\Delta z "
        "\\approx \\frac{k}{m}\\,\\frac{g^2 T^4}{12}$",
        _distance_lost_estimate,
    ),
    (
        "The estimate, **1.15** cm, is close to the simulated **1.10** cm",
        _distance_lost_estimate,
    ),
    (
        "A compiled model keeps four arrays per body: `body_mass` (kg), `body_ipos` (the "
        "centre of mass in the body's frame, m), `body_inertia` (the three principal moments, "
        "kg m²) and `body_iquat` (the rotation from the body's frame to its principal axes, "
        "scalar first).",
        _four_arrays_per_body,
    ),
    (
        "Here `body_iquat` is not `1 0 0 0`: the principal axes are turned against the body's "
        "frame, and `body_inertia` is diagonal only in those turned axes.",
        _principal_axes_and_iquat,
    ),
    (
        "| MJCF `<inertial>` | `mass` | `pos` | `diaginertia` (with `quat`) or `fullinertia` "
        "(six numbers) |",
        _mjcf_inertial_row,
    ),
    (
        "| URDF `<inertial>` | `<mass value>` | `<origin xyz rpy>` | `<inertia ixx ixy ixz iyy "
        "iyz izz>` |",
        _urdf_inertial_row,
    ),
    (
        "| compiled `mjModel` | `body_mass` | `body_ipos` | `body_inertia` (principal) and "
        "`body_iquat` |",
        _four_arrays_per_body,
    ),
    (
        "You may change these arrays in place, and the forces use the new numbers at the next "
        "`mj_forward` or `mj_step`. But the compiler also derives constants from them, and "
        "MuJoCo recomputes those only in `mujoco.mj_setConst(model, data)`: call it after every "
        "edit.",
        _forces_follow_at_once_constants_only_with_set_const,
    ),
    (
        "For a lone free body such as Step 1's slab (0.56 kg, 20 × 10 × 4 cm), the whole mass "
        "matrix is such a constant.",
        _forces_follow_at_once_constants_only_with_set_const,
    ),
    (
        "Without `mj_setConst` the slab with the doubled `body_mass` falls at **19.62** m/s², "
        "twice gravity: its weight is new and its mass matrix old.",
        _slab_falls_twice_as_fast_without_set_const,
    ),
    (
        "Editing `body_mass` by hand leaves `body_inertia` as it was, so the inertia box of "
        "Step 4, which MuJoCo rebuilds from both, becomes the box of a smaller, denser body",
        _edited_mass_shrinks_the_box,
    ),
    (
        "doubling the mass this way halves the drag on the slab, from **0.012000** N to "
        "**0.006000** N, though nothing about its shape changed.",
        _slab_drag_figures,
    ),
    (
        "`mj_setTotalmass` scales every body's mass and inertia by the same factor, so the box "
        "stays as it was and so does the drag, **0.012000** N; it needs `mj_setConst` "
        "afterwards too.",
        _settotalmass_scales_both,
    ),
    (
        "The SO-101 file comes from the arm's manufacturer and states an `<inertial>` for most "
        "of its bodies.",
        _so101_states_most_inertials,
    ),
    (
        "the count of bodies includes the world; each hinge joint is one dof; a `<position>` "
        "servo is stored as a fixed gain with an affine bias",
        _local_servo_arm_counts,
    ),
    (
        "the option block chooses `implicitfast` and a longer timestep than the default.",
        _so101_option_block,
    ),
    (
        "Here is a small gripper whose three bodies state their mass in `<inertial>` and also "
        "carry decorative, non-colliding visual geoms.",
        _gripper_is_three_stated_bodies_with_shells,
    ),
    (
        'With `inertiafromgeom="true"` the total mass grows from **0.160** kg to **0.647** kg, '
        "about **4.05** times, and nothing warns you",
        _gripper_figures_without_a_word,
    ),
    (
        "the compiler replaced every `<inertial>` with geoms weighed as solid water, the "
        "decorative shells included (every geom in the default `inertiagrouprange`, groups 0 "
        "to 5, counts).",
        _shells_counted_through_inertiagrouprange,
    ),
    (
        "The weight an arm carrying this gripper must hold up grows by the same factor, and a "
        "gravity-compensation torque or a parameter fit computed from such a model inherits "
        "the error.",
        _weight_and_gravity_torque_follow_the_mass,
    ),
    (
        "it draws each body's inertia box, the uniform box of Step 4 with the body's mass and "
        "principal inertia.",
        _mujoco_draws_the_step_4_box,
    ),
    (
        "As written, the palm's box is smaller than its decorative shell; with "
        '`inertiafromgeom="true"` it nearly fills the shell, because the shell is now weighed '
        "as a solid.",
        _palm_box_against_its_shell,
    ),
    (
        "Why is the body's $I_{xx}$ several times the sum of the two parts' own $I_{xx}$?",
        _several_times_the_parts_own,
    ),
    (
        "In Step 5 your own loop follows `mj_step`'s heights step by step, in air too.",
        _own_loop_follows_mj_step_in_air,
    ),
    ("(`drop.run_two_cube_drop` takes it)", _runner_takes_gravity),
    (
        "`inertiafromgeom` decides, and the wrong choice changes the mass several times over "
        "without an error.",
        _wrong_choice_changes_mass_several_times_silently,
    ),
    (
        "MJCF sizes are half-lengths and MJCF quaternions are scalar first.",
        _half_lengths_and_scalar_first,
    ),
    (
        "MuJoCo's `Euler` moves with the new velocity, and its air drag acts on the body's "
        "equivalent inertia box, built from `body_mass` and `body_inertia`: both reproduced "
        "here to rounding error.",
        _own_loop_follows_mj_step_in_air,
    ),
    (
        "To change a mass after compiling, use `mj_setTotalmass` or scale `body_inertia` with "
        "`body_mass`, then call `mj_setConst`.",
        _scaling_both_arrays_keeps_the_drag,
    ),
]

# Factual sentences of the prose that MuJoCo cannot confirm, and why (counted in the report).
NOT_CHECKABLE = {
    "URDF is the robot format of the ROS ecosystem.": "a fact about ROS, not about MuJoCo",
    "Some other libraries put the scalar last.": "a fact about other libraries",
    "| actuators, sensors, solver and contact settings | not part of the format | first-class "
    "elements |": "a fact about the URDF specification (MuJoCo reads its own extensions)",
    "| templates | none | `default` classes |": "the URDF half is about the URDF specification",
    "MuJoCo Menagerie collects curated robot models.": "about Menagerie, not MuJoCo",
    "The `mujoco-menagerie` package downloads a model the first time you use it": (
        "needs the network; grader_tests/learner/test_offline.py covers the offline path"
    ),
    "Both describe MuJoCo's drag model, not a measurement of real cubes.": (
        "about the physical world, which no simulation confirms"
    ),
}

# The second also keeps the list of what is not checked true: NOT_CHECKABLE stays in the prose.
test_claim_is_in_the_prose_and_true, test_claims_are_listed_once_and_the_rest_named = (
    lesson_code.claims_tests(CLAIMS, PROSE, minimum=80, unchecked=NOT_CHECKABLE)
)


# --------------------------------------------------------------------------------------------
# The helpers and the figures of REFERENCE.md


def test_two_cube_drop_reproduces_reference_figures():
    """The MuJoCo runner gives REFERENCE.md's steps 143/145, 1.10 cm and 4.08 ms."""
    vacuum = drop.run_two_cube_drop(0.1, 1.0, 0.0)
    air = drop.run_two_cube_drop(0.1, 1.0, 1.2)
    assert (vacuum.light_step, vacuum.heavy_step) == (143, 143)
    assert (air.light_step, air.heavy_step) == (145, 143)
    assert f"{air.gap_cm:.2f}" == "1.10"
    assert f"{air.delay_ms:.2f}" == "4.08"


def test_delay_sweep_matches_reference_table():
    """The mass sweep reproduces REFERENCE.md's delay table row for row."""
    reference = [93.44, 46.25, 22.59, 8.65, 4.08, 1.81, 0.45, 0.00]
    got = [round(d, 2) for d in drop.delay_sweep().values()]
    assert got == reference


def test_scene_writes_only_options_it_changes():
    """The two-cube file states the timestep and the air only where they are not defaults."""
    option = ElementTree.fromstring(scenes.two_cube_drop(0.1, 1.0, 1.2, timestep=0.004))
    assert option.find("option").attrib == {
        "gravity": "0 0 -9.81",
        "timestep": "0.004",
        "density": "1.2",
    }


def test_landing_time_interpolates_within_the_step():
    """Landing time is linear between the last height above and the first at or below 0."""
    assert falls.landing_time([1.0, 0.5, -0.5], 0.1) == pytest.approx(0.15)
    assert falls.landing_step([1.0, 0.0]) == 1
    with pytest.raises(ValueError, match="never reaches"):
        falls.landing_step([1.0, 0.5])


def test_compile_error_is_clear():
    """A broken MJCF raises ModelError quoting MuJoCo's message."""
    with pytest.raises(compiled.ModelError, match="could not compile"):
        compiled.compile_xml("<mujoco><worldbody><geom type='box'/></worldbody>")


def test_bad_shape_is_refused_with_a_plain_message():
    """Scene builders reject an unknown kind or a wrong number of sizes."""
    with pytest.raises(ValueError, match="kind is one of"):
        scenes.shape_body("cone", [0.1], 1000)
    with pytest.raises(ValueError, match="needs 3 size numbers"):
        scenes.shape_body("box", [0.1, 0.1], 1000)


def test_part_inertia_is_in_the_shapes_own_axes():
    """part_inertia gives the moments about x, y, z in order, whatever MuJoCo's principal order."""
    np.testing.assert_allclose(
        check.part_inertia("box", (0.1, 0.05, 0.02), 0.56), _box_moments(0.56, 0.2, 0.1, 0.04)
    )


def test_drag_on_reads_an_edited_model():
    """drag_on uses the model as it is now: an edited mass changes the drag."""
    model = _model(falls.shape_drop("box", (0.1, 0.1, 0.1), 0.1, AIR))
    before = drop.drag_on(model, [0, 0, -1.0])[2]
    model.body_mass[1] *= 4
    assert drop.drag_on(model, [0, 0, -1.0])[2] == pytest.approx(before / 4)


def test_expect_close_survives_rebound_numpy():
    """Rebinding numpy.allclose or numpy.array after import cannot make a wrong value pass."""
    saved = np.allclose, np.array
    try:
        np.allclose = lambda *a, **k: True
        np.array = lambda *a, **k: 0
        with pytest.raises(AssertionError):
            expect.close(1.0, 2.0, "x")
    finally:
        np.allclose, np.array = saved


def test_choice_validates_letters():
    """Multiple-choice answers must be one of the offered letters."""
    assert expect.choice("q", " b", 3) == "B"
    with pytest.raises(AssertionError, match="one of A, B, C"):
        expect.choice("q", "D", 3)
    with pytest.raises(expect.NotAnswered):
        expect.choice("q", None, 3)


def test_check_yourself_keys_agree_with_mujoco():
    """The keys of the four graded questions, as MuJoCo shows them."""
    _seven_times_easier_without_the_term()  # check_parallel_axis A: the parallel-axis term
    _slab_drag_figures()  # check_drag_area C: same geom, other mass, other drag
    _delay_table_ends_and_follows_one_over_m()  # quiz_delay_scaling C: roughly 1/m
    _gripper_figures_without_a_word()  # quiz_inertiafromgeom A: compiles, mass from geoms


# --------------------------------------------------------------------------------------------
# The visible checks: the solution passes, each mistake fails with its hint, briefly

VISIBLE = {
    "solid_inertia": lambda f: [check.solid_inertia(f, k) for k in mjcf.SHAPE_KINDS],
    "combine_parts": lambda f: (
        check.combine_parts_mass_and_com(f),
        check.combine_parts_inertia(f),
    ),
    "semi_implicit_euler": lambda f: (check.semi_implicit_euler(f), check.semi_implicit_damping(f)),
    "inertia_box": lambda f: check.inertia_box(f),
    "quadratic_drag": lambda f: check.quadratic_drag(f),
    "drop_heights": lambda f: check.drop_heights(f),
    "landing_delay_ms": lambda f: (check.delay_table(f), check.delay_variant(f)),
}
RISING = [((0.2, 0.2, 0.2), (0.0, 0.0, 1.5), 1.2)]
CYLINDER_DROP = [("cylinder", (0.05, 0.1), 0.2, 1.2, 0.5, 0.002)]

# (fixture, its function, the check it fails (None: that function's visible checks), the hint)
HINTS = [
    ("box_full_side_lengths", "solid_inertia", None, "MJCF box sizes are half-lengths"),
    ("capsule_caps_at_centre", "solid_inertia", None, "sits beyond the cylinder's end"),
    ("sphere_as_shell", "solid_inertia", None, "not as a hollow shell"),
    ("no_parallel_axis_term", "combine_parts", None, "the parts' own inertias added up"),
    ("parallel_axis_wrong_sign", "combine_parts", None, "added, never subtracted"),
    ("explicit_euler", "semi_implicit_euler", None, "moves with the NEW velocity"),
    ("explicit_euler", "drop_heights", None, "lag mj_step's by one step"),
    ("damping_applied_explicitly", "semi_implicit_euler", None, "divided by (1 + h *"),
    (
        "drag_always_upward",
        "quadratic_drag",
        lambda f: check.quadratic_drag(f, RISING),
        "Drag opposes the motion",
    ),
    (
        "drag_area_from_geom",
        "drop_heights",
        lambda f: check.drop_heights(f, CYLINDER_DROP),
        "equivalent inertia box (Step 4)",
    ),
    ("box_full_side_lengths", "drop_heights", None, "are their checks above all OK?"),
    ("typed_in_delay_table", "landing_delay_ms", None, "a table typed in"),
    ("delay_in_whole_steps", "landing_delay_ms", None, "a whole number of timesteps"),
]


@pytest.mark.parametrize("name", list(VISIBLE))
def test_visible_check_accepts_the_solution(name, strict, capsys):
    VISIBLE[name](SOLUTION[name])
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines and all(line.startswith("OK: ") for line in lines)


@pytest.mark.parametrize(
    ("fixture", "function", "call", "hint"), HINTS, ids=[h[0] + "-" + h[1] for h in HINTS]
)
def test_visible_check_names_the_mistake(fixture, function, call, hint, strict):
    with pytest.raises(AssertionError, match=re.escape(hint)):
        (call or VISIBLE[function])(mistake(fixture, function))


@pytest.mark.parametrize(
    ("fixture", "function", "call", "hint"), HINTS, ids=[h[0] + "-" + h[1] for h in HINTS]
)
def test_a_mistake_shows_at_most_8_lines_in_the_notebook(fixture, function, call, hint):
    """In the notebook (not strict) a failure is one CheckFailed block: the message and the
    hint, wrapped, at most 8 lines, no traceback through course code."""
    with pytest.raises(expect.CheckFailed) as failure:
        (call or VISIBLE[function])(mistake(fixture, function))
    lines = failure.value._render_traceback_()
    assert len(lines) <= 8 and lines[0].startswith("✗")
    assert hint in re.sub(r"\s+", " ", " ".join(lines))


def test_every_fixture_of_the_lesson_has_its_hint_tested():
    fixtures = {m.name for m in notebooks.load_mistakes(LESSON)}
    assert fixtures - {h[0] for h in HINTS} == {"wrong_check_answer"}  # a letter: no hint


def test_an_unwritten_function_is_one_line_in_the_notebook(capsys):
    for name, run in VISIBLE.items():
        run(lambda *args, **kwargs: None)  # not strict: prints, does not raise
        out = capsys.readouterr().out.strip().splitlines()
        assert len(out) >= 1 and all(
            line.startswith(("… Not checked yet", "  ")) for line in out
        ), name


def test_a_letter_is_recorded_not_judged(capsys, strict):
    check.letter("quiz_x", "B")
    assert capsys.readouterr().out.startswith('OK: quiz_x = "B" is recorded')
    with pytest.raises(AssertionError, match="one of A, B, C"):
        check.letter("quiz_x", "b!")


# --------------------------------------------------------------------------------------------
# The notebook's test cells and buttons


SOURCE = notebooks.read_lesson(LESSON)


def _names_of(source_cell: str) -> set[str]:
    """Names a cell's code reads but does not bind itself."""
    tree = ast.parse(source_cell)
    bound = {
        n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
    }
    bound |= {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    bound |= {a.arg for n in ast.walk(tree) if isinstance(n, ast.arguments) for a in n.args}
    read = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    return read - bound - set(dir(builtins))


def test_test_cells_use_only_setup_names_literals_and_answer_names():
    """A test cell imports nothing and reads only the set-up's names and the answer names (the
    grader has nothing else), and ends with a call, so it echoes no value."""
    setup = ast.parse(lesson_code.setup_imports(SOURCE))
    setup_names = {(a.asname or a.name).split(".")[0] for n in setup.body for a in n.names}
    answers = set()
    for text in notebooks.solutions(SOURCE).values():
        answers |= {n.id for n in ast.walk(ast.parse(text)) if isinstance(n, ast.Name)}
        answers |= {n.name for n in ast.walk(ast.parse(text)) if isinstance(n, ast.FunctionDef)}
    assert "expect" in setup_names
    for cell in SOURCE.cells:
        if cell.cell_type == "code" and notebooks.is_test(cell):
            tree = ast.parse(cell.source)
            assert not any(isinstance(n, ast.Import | ast.ImportFrom) for n in ast.walk(tree))
            assert _names_of(cell.source) <= setup_names | answers, cell.source[:80]
            visible = cell.source.split("### BEGIN HIDDEN TESTS")[0]
            last = ast.parse(visible).body[-1]
            assert isinstance(last, ast.Expr) and isinstance(last.value, ast.Call), cell.source[:80]


def test_graded_questions_have_buttons_that_hold_no_key():
    """After each graded letter's answer cell, a plain cell shows its buttons with no `why` and
    no `answer`; the choices live in the buttons only, not in the markdown too."""
    cells = SOURCE.cells
    letters = [
        "check_parallel_axis",
        "check_drag_area",
        "quiz_delay_scaling",
        "quiz_inertiafromgeom",
    ]
    for name in letters:
        (index,) = [i for i, c in enumerate(cells) if notebooks.grade_id(c) == name]
        buttons = cells[index + 1]
        assert buttons.cell_type == "code" and "nbgrader" not in buttons.metadata
        call = ast.parse(buttons.source).body[-1].value
        assert ast.unparse(call.func) == "quiz.choose" and call.args[0].value == name
        assert not call.keywords and len(call.args) == 2
        assert "- **A.**" not in cells[index - 1].source


# --------------------------------------------------------------------------------------------
# The pictures


def test_pictures_are_skipped_while_grading(monkeypatch, capsys):
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    assert pictures.show_slow_drop() is False
    assert pictures.show_inertia_boxes({"palm": scenes.gripper("auto")}) is False
    out = capsys.readouterr().out
    assert "Video skipped while grading." in out and "Picture skipped while grading." in out


def test_slow_drop_is_large_small_and_shows_the_lag(egl):
    """640 x 360 frames, ten times slower than real time, a clip far under the size limit, and
    in the frame where the heavy cube lands the light one is still well above it."""
    frames = pictures.slow_drop_frames(0.005, 1.0, AIR, 0.18, 0.40, 1 / 200, 640, 360)
    assert len(frames) == 45 and frames[0].shape == (360, 640, 3)
    assert 0 < len(render.encode_video(frames, fps=20)) < VIDEO_LIMIT_BYTES / 10
    landed = frames[int(round((0.286 - 0.18) * 200))]
    blue = (landed[..., 2] > 150) & (landed[..., 0] < 120)  # the light cube
    red = (landed[..., 0] > 180) & (landed[..., 2] < 120)  # the heavy cube
    assert np.nonzero(blue)[0].min() < np.nonzero(red)[0].min() - 20  # its top well above


def test_inertia_boxes_render_small(egl):
    image = render.inertia_box_image(scenes.gripper("true"), size=(320, 240), **GRIPPER)
    assert image.shape == (240, 320, 3) and image.std() > 10


def test_landing_plot_has_two_panels(drawn):
    assert pictures.landing_plot() is None
    fig = drawn()
    assert len(fig.axes) == 2 and fig.axes[1].get_title().startswith("5 g beside 1000 g")


def test_delay_plot_leaves_out_the_1_kg_row_and_draws_the_guide(drawn):
    pictures.delay_plot([0.005, 0.1, 1.0], [30.0, 1.5, 0.0], [29.0, 1.6, 0.0])
    fig = drawn()
    lines = {line.get_label(): line for line in fig.axes[0].lines}
    assert sorted(lines) == ["1/m guide", "mj_step, with air", "your integrator"]
    assert list(lines["mj_step, with air"].get_xdata()) == [5.0, 100.0]
    # The guide goes through the first point and falls as 1/m: 30 ms at 5 g, 1.5 ms at 100 g.
    assert np.allclose(lines["1/m guide"].get_ydata(), [30.0, 1.5])
    assert fig.axes[0].get_xscale() == "log" and fig.axes[0].get_yscale() == "log"


def test_delay_plot_without_the_learners_numbers_draws_mujocos_only(drawn):
    pictures.delay_plot([0.005, 0.1, 1.0], [30.0, 1.5, 0.0])
    fig = drawn()
    assert "your integrator" not in [line.get_label() for line in fig.axes[0].lines]


GRIPPER = pictures.GRIPPER_CAMERA


@pytest.fixture
def egl():
    try:
        render.inertia_box_image(scenes.gripper("auto"), size=(32, 24), **GRIPPER)
    except render.RenderingUnavailable as exc:
        pytest.skip(f"no OpenGL here: {exc}")


# --------------------------------------------------------------------------------------------
# Run All on the blank release


@pytest.mark.timeout(180)
def test_blank_release_runs_to_the_end(tmp_path):
    """Every cell of the untouched release runs without an error; unwritten functions are named
    in one line each; no test cell echoes a value; experiments and plots appear anyway."""
    nb, outputs, printed = lesson_code.run_blank_release(LESSON, tmp_path)  # raises at an error
    assert "Traceback" not in printed and "Error" not in printed
    assert printed.count("Not checked yet") == 17
    assert printed.count("above to see this cell's result") == 4
    tests = [c for c in nb.cells if c.cell_type == "code" and notebooks.is_test(c)]
    assert not [c for c in tests for o in c.outputs if o.output_type == "execute_result"]
    plots = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(plots) == 2  # the landing plot and the delay plot, without the learner's code


# --- plot helpers -------------------------------------------------------------------------------
# Each helper of pictures.py with a call on arguments of this lesson's shapes: the registry's
# test_plot_helpers.py draws each one, with and without the grader.
_MASSES, _DELAYS = np.array([0.005, 0.1, 1.0]), np.array([30.0, 1.5, 0.0])
PLOTS = {
    "landing_plot": lambda: pictures.landing_plot(),
    "delay_plot": lambda: pictures.delay_plot(_MASSES, _DELAYS, _DELAYS * 1.01),
}
