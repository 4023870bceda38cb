"""Lesson 04's own tests: its helpers, its visible checks, its figures and its claims.

- The helpers (trees, scenes, bodies, spin) build what they say and ask MuJoCo, nothing else.
- The visible checks pass the source notebook's answers (support/lesson_code.py) and fail each
  mistake fixture of grader_tests/mistakes/04-frames-and-quaternions/ with the hint that
  names it.
- The figures the prose states (issue 14's, measured with MuJoCo 4.0) are what MuJoCo gives.
- CLAIMS: every factual sentence of the prose that MuJoCo can confirm, beside an assertion
  that confirms it; each sentence must still be in the notebook, word for word.
- The blank release runs top to bottom without an error (Run All on an untouched lesson).
"""

import re

import lesson_code
import mujoco
import numpy as np
import pytest

from course import compiled, expect, frames
from course.lessons.frames_and_quaternions import bodies, pictures, scenes, spin, trees
from course.lessons.frames_and_quaternions import checks as check

LESSON = "04-frames-and-quaternions"
SOLUTION = lesson_code.namespace(LESSON)


def mistake(name, function):
    return lesson_code.mistake(LESSON, name, function)


PROSE = lesson_code.prose(LESSON)


def _model(xml: str) -> mujoco.MjModel:
    return compiled.compile_xml(xml)


def _turn(axis, angle):
    return frames.axis_angle_quat(axis, angle)


def _same_rotation(q1, q2, atol=1e-9) -> bool:
    q1, q2 = np.asarray(q1, dtype=float), np.asarray(q2, dtype=float)
    return min(np.abs(q1 - q2).max(), np.abs(q1 + q2).max()) < atol


def _euler(angles, seq):
    return check.compiled_euler_quat(angles, seq)


def _hamilton(q1, q2) -> np.ndarray:
    """The quaternion product q1 q2, (w, x, y, z), written out here."""
    w1, x1, y1, z1 = q1
    w2, x2, y2, z2 = q2
    return np.array([
        w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2,
        w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
        w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,
        w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2,
    ])  # fmt: skip


def _mujoco_quat(axis, angle) -> np.ndarray:
    quat = np.zeros(4)
    mujoco.mju_axisAngle2Quat(quat, np.asarray(axis, dtype=float), angle)
    return quat


def _mujoco_product(q1, q2) -> np.ndarray:
    product = np.zeros(4)
    mujoco.mju_mulQuat(product, np.asarray(q1, dtype=float), np.asarray(q2, dtype=float))
    return product


# --------------------------------------------------------------------------------------------
# The claims: (a sentence of the prose, word for word, the function that confirms it)


def _spec_edit_changes_nothing_compiled():
    spec = mujoco.MjSpec.from_string(scenes.WELDED)
    model = spec.compile()
    spec.worldbody.add_body(name="ball").add_geom(size=[0.05, 0, 0])
    assert model.nbody == 4
    assert spec.compile().nbody == 5


def _recompile_keeps_the_shared_state():
    spec = mujoco.MjSpec.from_string(scenes.WELDED)
    model = spec.compile()
    data = mujoco.MjData(model)
    data.qpos[:3] = [0.1, 0.2, 0.3]
    ball = spec.worldbody.add_body(name="ball", pos=[0.6, 0, 0])
    ball.add_freejoint()
    ball.add_geom(size=[0.05, 0, 0])
    new_model, new_data = spec.recompile(model, data)
    assert new_model is not model and new_data is not data
    assert new_model.nbody == 5 and model.nbody == 4
    np.testing.assert_array_equal(new_data.qpos[:3], [0.1, 0.2, 0.3])


def _welded_bodies_add_mass_not_freedom():
    model = _model(scenes.WELDED)
    assert model.nv == 6
    assert list(model.body_weldid[1:]) == [1, 1, 1]
    assert model.body_subtreemass[1] > model.body_mass[1] + 0.4


def _one_body_several_joints():
    model = _model(scenes.PLANAR)
    assert model.nbody == 2 and model.njnt == 3 and model.nv == 3
    assert set(model.jnt_bodyid) == {1}


def _joints_act_in_order():
    def gripper_pos(order):
        joints = {
            "slide": trees.joint("slide", (1, 0, 0)),
            "hinge": trees.joint("hinge", (0, 0, 1)),
        }
        tree = [trees.body("b", "world", (0, 0, 0), joints=[joints[k] for k in order])]
        values = {"slide": 0.5, "hinge": np.pi / 2}
        return trees.mujoco_poses(tree, [values[k] for k in order])["b"][0]

    assert not np.allclose(gripper_pos(("slide", "hinge")), gripper_pos(("hinge", "slide")))


def _site_weighs_and_touches_nothing():
    spec = mujoco.MjSpec.from_string(scenes.WELDED)
    before = spec.compile()
    spec.body("hull").add_site(pos=[0.0, 0.0, 0.0], size=[0.5, 0.5, 0.5])
    after = spec.compile()
    np.testing.assert_array_equal(before.body_mass, after.body_mass)
    assert after.ngeom == before.ngeom and after.nsite == before.nsite + 1


def _frame_is_gone_after_compiling():
    model = _model(scenes.FRAME_ELEMENT)
    assert model.nbody == 2 and model.nv == 1
    np.testing.assert_allclose(model.body_pos[1], [1, 1, 0], atol=1e-12)
    assert _same_rotation(model.body_quat[1], _turn([0, 0, 1], np.pi / 2), 1e-7)


def _freejoint_ignores_joint_defaults():
    xml = """<mujoco><default><joint damping="3" stiffness="2" armature=".1" frictionloss=".5"/>
      </default><worldbody>
      <body name="a"><freejoint/><geom size=".1"/></body>
      <body name="b"><joint type="free"/><geom size=".1"/></body></worldbody></mujoco>"""
    model = _model(xml)
    for field in ("dof_damping", "dof_armature", "dof_frictionloss"):
        values = getattr(model, field)
        assert not values[:6].any() and values[6:].all(), field
    assert model.jnt_stiffness[0] == 0 and model.jnt_stiffness[1] == 2


def _angle_is_degree_by_default():
    assert mujoco.MjSpec().compiler.degree
    quarter = _model(scenes.angles()).body_quat[1]
    assert _same_rotation(quarter, _turn([0, 0, 1], np.pi / 2))


def _compiled_model_holds_radians():
    np.testing.assert_allclose(_model(scenes.angles("degree")).jnt_range[0], [0, np.pi / 2])
    np.testing.assert_allclose(_model(scenes.angles("radian")).jnt_range[0], [0, 90])


def _urdf_is_always_radians():
    urdf = scenes.urdf_link((0.0, 0.0, np.pi / 2))
    with_degrees = urdf.replace(
        '<link name="base"/>', '<mujoco><compiler angle="degree"/></mujoco><link name="base"/>'
    )
    for text in (urdf, with_degrees):
        assert _same_rotation(_model(text).body_quat[1], _turn([0, 0, 1], np.pi / 2))
        np.testing.assert_allclose(_model(text).jnt_range[0], [0, 1.5])


def _angle_never_changes_a_quat():
    quats = []
    for setting in ("degree", "radian"):
        xml = scenes.quat_body([0.5, 0.5, 0.5, 0.5]).replace(
            "<worldbody>", f'<compiler angle="{setting}"/><worldbody>'
        )
        quats.append(_model(xml).body_quat[1])
    np.testing.assert_array_equal(quats[0], quats[1])


def _ctrlrange_not_converted():
    xml = """<mujoco><worldbody><body><joint name="j" type="hinge" range="0 90"/>
      <geom size=".1"/></body></worldbody>
      <actuator><position joint="j" ctrlrange="0 90"/></actuator></mujoco>"""
    model = _model(xml)
    np.testing.assert_allclose(model.jnt_range[0], [0, np.pi / 2])
    np.testing.assert_allclose(model.actuator_ctrlrange[0], [0, 90])


def _drift_is_the_integrators():
    omega = np.array([0, 0, 2 * np.pi])
    linear = -np.cross(omega, spin.start_offset())
    euler = spin.run_spin(omega, linear).com_drift
    assert 0.001 < euler < 0.002
    assert spin.run_spin(omega, linear, integrator="RK4").com_drift < 1e-9


def _mujoco_w_negative_beyond_pi():
    assert frames.axis_angle_quat([0, 0, 1], 3.3)[0] < 0
    assert frames.axis_angle_quat([0, 0, 1], 3.0)[0] > 0


def _q_and_minus_q_one_rotation():
    q = frames.random_unit_quat(np.random.default_rng(1))
    np.testing.assert_allclose(frames.quat_matrix(q), frames.quat_matrix(-q), atol=1e-15)


def _product_composes_like_matrices():
    rng = np.random.default_rng(2)
    q1, q2 = frames.random_unit_quat(rng), frames.random_unit_quat(rng)
    np.testing.assert_allclose(
        frames.quat_matrix(frames.multiply(q1, q2)),
        frames.quat_matrix(q1) @ frames.quat_matrix(q2),
        atol=1e-12,
    )


def _right_moving_left_fixed():
    a, b = 0.7, -1.1
    qx, qy = _turn([1, 0, 0], a), _turn([0, 1, 0], b)
    assert _same_rotation(_euler((a, b, 0), "xyz"), frames.multiply(qx, qy))
    assert _same_rotation(_euler((a, b, 0), "XYZ"), frames.multiply(qy, qx))


def _r_of_q(q) -> np.ndarray:
    """R(q) of a unit quaternion (w, x, y, z), the lesson's formula written out here."""
    w, x, y, z = q
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ])  # fmt: skip


def _xmat_is_quat2mat_row_by_row():
    rng = np.random.default_rng(3)
    for _ in range(20):
        q = rng.normal(size=4)
        q /= np.linalg.norm(q)
        nine = np.zeros(9)
        mujoco.mju_quat2Mat(nine, q)
        np.testing.assert_allclose(nine, _r_of_q(q).ravel(), atol=1e-12)  # row by row
    # every body of a chain (each turned in its parent) and a free body at a random pose
    xml = """<mujoco><worldbody><body quat=".9 .1 -.3 .2"><geom size=".1"/>
      <body quat=".2 .7 .1 -.5" pos=".1 0 0"><geom size=".1"/></body></body>
      <body><freejoint/><geom size=".1"/></body></worldbody></mujoco>"""
    model = _model(xml)
    data = mujoco.MjData(model)
    data.qpos[3:7] = [0.3, -0.6, 0.2, 0.7141428428542851]
    mujoco.mj_kinematics(model, data)
    for body in range(1, model.nbody):
        np.testing.assert_allclose(data.xmat[body], _r_of_q(data.xquat[body]).ravel(), atol=1e-12)
    state = bodies.mass_state(bodies.random_mass_case(rng))
    np.testing.assert_allclose(state.xmat, _r_of_q(state.xquat), atol=1e-12)


def _columns_are_body_axes():
    xml = """<mujoco><worldbody><body quat="0.5 0.5 0.5 0.5"><freejoint/>
      <geom size=".01" pos=".3 0 0"/></body></worldbody></mujoco>"""
    model = _model(xml)
    data = mujoco.MjData(model)
    mujoco.mj_kinematics(model, data)
    np.testing.assert_allclose(data.geom_xpos[0], 0.3 * data.xmat[1].reshape(3, 3)[:, 0])


def _eulerseq_default_xyz():
    assert "".join(mujoco.MjSpec().compiler.eulerseq) == "xyz"
    xml = '<mujoco><worldbody><body euler="30 40 50"><geom size=".1"/></body></worldbody></mujoco>'
    assert _same_rotation(_model(xml).body_quat[1], _euler(np.radians([30, 40, 50]), "xyz"))


def _lowercase_turns_about_moving_axes():
    angles = (0.3, -0.5, 1.2)
    turns = [_turn(axis, a) for axis, a in zip(np.eye(3), angles, strict=True)]
    expected = frames.multiply(frames.multiply(turns[0], turns[1]), turns[2])
    assert _same_rotation(_euler(angles, "xyz"), expected)


def _uppercase_turns_about_fixed_axes():
    angles = (0.3, -0.5, 1.2)
    turns = [_turn(axis, a) for axis, a in zip(np.eye(3), angles, strict=True)]
    expected = frames.multiply(turns[2], frames.multiply(turns[1], turns[0]))
    assert _same_rotation(_euler(angles, "XYZ"), expected)


def _letters_may_be_mixed():
    angles = (0.3, -0.5, 1.2)
    qx, qy, qz = (_turn(axis, a) for axis, a in zip(np.eye(3), angles, strict=True))
    assert _same_rotation(_euler(angles, "xYz"), frames.multiply(frames.multiply(qy, qx), qz))


def _urdf_rpy_is_xyz():
    rng = np.random.default_rng(5)
    for _ in range(3):
        rpy = rng.uniform(-np.pi, np.pi, 3)
        urdf = _model(scenes.urdf_link(rpy)).body_quat[1]
        assert _same_rotation(urdf, _euler(rpy, "XYZ"), 1e-9)


def _quat_normalised_silently():
    np.testing.assert_allclose(
        _model(scenes.quat_body([1, 0, 0, 1])).body_quat[1], [np.sqrt(0.5), 0, 0, np.sqrt(0.5)]
    )


def _pasted_xyzw_is_a_half_turn():
    got = _model(scenes.quat_body([0, 0, np.sqrt(0.5), np.sqrt(0.5)])).body_quat[1]
    assert got[0] == 0  # w = 0: half a turn
    np.testing.assert_allclose(frames.rotation_angle([1, 0, 0, 0], got), np.pi)
    np.testing.assert_allclose(frames.rotate(got, [0, 1, 1]), [0, 1, 1], atol=1e-12)  # the axis
    np.testing.assert_allclose(
        frames.rotation_angle(_turn([0, 0, 1], np.pi / 2), got), 2 * np.pi / 3
    )


def _joint_axis_made_unit():
    tree = [trees.body("b", "world", (0, 0, 0), joints=[trees.joint("hinge", (0, 0, 2))])]
    model = _model(trees.tree_xml(tree))
    np.testing.assert_allclose(model.jnt_axis[0], [0, 0, 1])


def _hinge_keeps_its_anchor():
    tree = [
        trees.body(
            "b",
            "world",
            (0.1, 0.2, 0.3),
            _turn([1, 2, 3], 0.7),
            [trees.joint("hinge", (0, 1, 1), (0.2, -0.1, 0.05))],
        )
    ]
    model = _model(trees.tree_xml(tree))
    data = mujoco.MjData(model)
    anchors = []
    for q in (0.0, 1.3):
        data.qpos[0] = q
        mujoco.mj_kinematics(model, data)
        anchors.append(data.xanchor[0].copy())
    np.testing.assert_allclose(anchors[0], anchors[1], atol=1e-12)


def _zero_qpos_is_the_xml_pose():
    model = _model(trees.tree_xml(trees.LESSON_TREE))
    assert not model.qpos0.any()
    pos, quat = check.mujoco_compose(
        (0, 0, 0.05), (1, 0, 0, 0), (0.1, 0, 0), trees.LESSON_TREE[1]["quat"]
    )
    at_zero = trees.mujoco_poses(trees.LESSON_TREE, [0.0] * 6)
    np.testing.assert_allclose(at_zero["arm"][0], pos, atol=1e-12)


def _kinematics_inside_forward():
    model = _model(trees.tree_xml(trees.LESSON_TREE))
    data = mujoco.MjData(model)
    data.qpos[:] = trees.LESSON_QPOS
    mujoco.mj_forward(model, data)
    moved = trees.mujoco_poses(trees.LESSON_TREE, trees.LESSON_QPOS)
    np.testing.assert_allclose(data.body("gripper").xpos, moved["gripper"][0], atol=1e-12)


def _xipos_and_ximat_from_the_pose_rule():
    for seed in range(3):
        state = bodies.mass_state(bodies.random_mass_case(np.random.default_rng(seed)))
        np.testing.assert_allclose(
            state.xipos, state.xpos + state.xmat @ state.body_ipos, atol=1e-12
        )
        np.testing.assert_allclose(
            state.ximat, state.xmat @ frames.quat_matrix(state.body_iquat), atol=1e-12
        )


def _xmat_nine_numbers():
    model = _model(scenes.spin_box())
    data = mujoco.MjData(model)
    assert data.xmat.shape == (model.nbody, 9) and data.ximat.shape == (model.nbody, 9)


def _align_moves_the_frame():
    aligned = _model(scenes.spin_box(align=True))
    compiler_wide = _model(
        scenes.spin_box()
        .replace(' align="false"', "")
        .replace("<option", '<compiler alignfree="true"/><option')
    )
    for model in (aligned, compiler_wide):
        np.testing.assert_allclose(model.body_pos[1], [0.02, 0, 0])
        np.testing.assert_allclose(model.body_ipos[1], [0, 0, 0])
        np.testing.assert_allclose(model.qpos0[:3], [0.02, 0, 0])


def _not_aligned_by_default():
    assert mujoco.MjSpec().compiler.alignfree is False
    default = _model(scenes.spin_box().replace(' align="false"', ""))
    np.testing.assert_allclose(default.body_pos[1], [0, 0, 0])
    np.testing.assert_allclose(default.body_ipos[1], [0.02, 0, 0])


def _free_qvel_origin_and_body_frame():
    xml = """<mujoco><option gravity="0 0 0"/><worldbody><body quat="0.7071068 0 0 0.7071068">
      <freejoint/><inertial pos=".1 0 0" mass="1" diaginertia=".01 .01 .01"/></body>
      </worldbody></mujoco>"""
    model = _model(xml)
    data = mujoco.MjData(model)
    data.qvel[:] = [0.5, 0, 0, 1, 0, 0]
    mujoco.mj_forward(model, data)
    velocity = np.zeros(6)  # [angular, linear] at the body origin, world axes
    mujoco.mj_objectVelocity(model, data, mujoco.mjtObj.mjOBJ_XBODY, 1, velocity, 0)
    np.testing.assert_allclose(velocity[3:], [0.5, 0, 0], atol=1e-12)  # the origin's velocity
    np.testing.assert_allclose(velocity[:3], [0, 1, 0], atol=1e-7)  # body x is world y


def _com_drifts_at_omega_times_offset():
    omega = np.array([0, 0, 2 * np.pi])
    assert spin.run_spin(omega).com_speed == pytest.approx(2 * np.pi * 0.02, rel=1e-3)


def _aligned_spins_in_place():
    assert spin.run_spin(np.array([0, 0, 2 * np.pi]), align=True).com_drift < 1e-12


def _point_triangle_distance(p, a, b, c) -> float:
    """Distance (m) from point p to the triangle abc (closest point on its face or edges)."""
    normal = np.cross(b - a, c - a)
    normal /= np.linalg.norm(normal)
    foot = p - np.dot(p - a, normal) * normal
    inside = all(
        np.dot(np.cross(v1 - v0, foot - v0), normal) >= 0 for v0, v1 in ((a, b), (b, c), (c, a))
    )
    if inside:
        return float(abs(np.dot(p - a, normal)))

    def to_segment(v0, v1):
        t = np.clip(np.dot(p - v0, v1 - v0) / np.dot(v1 - v0, v1 - v0), 0.0, 1.0)
        return float(np.linalg.norm(p - (v0 + t * (v1 - v0))))

    return min(to_segment(a, b), to_segment(b, c), to_segment(c, a))


def _ball_clears_every_wall(model, data) -> float:
    """The gap (m) between the ball and the nearest triangle of the compiled U mesh, in the
    world: the mesh's vertices carried by its geom's pose, the ball's centre and radius as
    compiled (negative when the ball cuts a wall)."""
    cup = next(g for g in range(model.ngeom) if model.geom_type[g] == mujoco.mjtGeom.mjGEOM_MESH)
    ball = next(g for g in range(model.ngeom) if model.geom_type[g] == mujoco.mjtGeom.mjGEOM_SPHERE)
    mesh = model.geom_dataid[cup]
    first, count = model.mesh_vertadr[mesh], model.mesh_vertnum[mesh]
    local = model.mesh_vert[first : first + count]
    world = data.geom_xpos[cup] + local @ data.geom_xmat[cup].reshape(3, 3).T
    faces = model.mesh_face[
        model.mesh_faceadr[mesh] : model.mesh_faceadr[mesh] + model.mesh_facenum[mesh]
    ]
    centre = data.geom_xpos[ball]
    nearest = min(_point_triangle_distance(centre, *world[face]) for face in faces)
    return nearest - model.geom_size[ball][0]


def _collisions_use_the_convex_hull():
    model = _model(scenes.ball_in_cup())
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    assert data.ncon == 1  # a contact with a ball that touches no face: the hull


def _ball_floats_clear_of_every_wall():
    model = _model(scenes.ball_in_cup())
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    assert _ball_clears_every_wall(model, data) > 0.004  # 5 mm to the floor and to each wall
    ball = next(g for g in range(model.ngeom) if model.geom_type[g] == mujoco.mjtGeom.mjGEOM_SPHERE)
    assert model.geom_size[ball][0] == pytest.approx(0.02)
    assert data.geom_xpos[ball][0] == pytest.approx(0.0)  # the middle of the notch


def _legacy_default_and_overcounts():
    assert mujoco.MjSpec().add_mesh().inertia == mujoco.mjtMeshInertia.mjMESH_INERTIA_LEGACY
    masses = _prism_masses(scenes.U_OUTLINE, scenes.U_TRIANGLES)
    assert masses["legacy"] > masses["exact"] + 0.5
    assert _prism_mass(scenes.U_OUTLINE, scenes.U_TRIANGLES, None) == masses["legacy"]


def _exact_refuses_inward_faces():
    vertex, face = scenes.prism_mesh(scenes.U_OUTLINE, scenes.U_TRIANGLES)
    inward = " ".join(str(i) for t in np.array(face.split(), int).reshape(-1, 3) for i in t[::-1])
    xml = scenes.MESH_PRISM.format(vertex=vertex, face=inward, inertia=' inertia="exact"')
    model, error = compiled.compile_or_error(xml)
    assert model is None and "misoriented" in error


def _outline_area(outline):
    x, z = np.array(outline).T
    return 0.5 * abs(np.dot(x, np.roll(z, -1)) - np.dot(z, np.roll(x, -1)))


def _convex_exact_and_shell_masses():
    masses = _prism_masses(scenes.U_OUTLINE, scenes.U_TRIANGLES)
    length, density = scenes.PRISM_LENGTH, 1000.0
    area = _outline_area(scenes.U_OUTLINE)
    np.testing.assert_allclose(masses["convex"], 0.15 * 0.15 * length * density, rtol=1e-6)
    np.testing.assert_allclose(masses["exact"], area * length * density, rtol=1e-6)
    outline = np.array(scenes.U_OUTLINE)
    perimeter = np.linalg.norm(np.roll(outline, -1, axis=0) - outline, axis=1).sum()
    np.testing.assert_allclose(
        masses["shell"], (2 * area + perimeter * length) * density, rtol=1e-6
    )


def _thick_l_agrees_thin_l_does_not():
    thick = _prism_masses(scenes.l_outline(0.075), scenes.L_TRIANGLES)
    thin = _prism_masses(scenes.l_outline(0.05), scenes.L_TRIANGLES)
    assert thick["legacy"] == pytest.approx(thick["exact"], rel=1e-9)
    assert thin["legacy"] > thin["exact"] * 1.05


def _fresh_data_holds_zeros():
    model = _model(scenes.spin_box())
    data = mujoco.MjData(model)
    assert not data.xquat[1].any() and not data.xipos[1].any()
    mujoco.mj_kinematics(model, data)
    np.testing.assert_allclose(data.xquat[1], [1, 0, 0, 0])


def _writing_xpos_moves_nothing():
    model = _model(scenes.spin_box())
    data = mujoco.MjData(model)
    data.xpos[1] = [5, 5, 5]
    mujoco.mj_kinematics(model, data)
    np.testing.assert_allclose(data.xpos[1], [0, 0, 0])
    data.qpos[:3] = [0.3, 0, 0]
    mujoco.mj_kinematics(model, data)
    np.testing.assert_allclose(data.xpos[1], [0.3, 0, 0])


def _positions_lag_one_step_after_mj_step():
    """A free body pushed at 1 m/s along x: one step moves qpos x by one timestep's travel,
    while xpos x stays where the step found it, until mj_forward."""
    xml = """<mujoco><option gravity="0 0 0"/><worldbody><body><freejoint/><geom size=".1"/>
      </body></worldbody></mujoco>"""
    model = _model(xml)
    data = mujoco.MjData(model)
    data.qvel[0] = 1.0
    mujoco.mj_step(model, data)
    assert data.qpos[0] == pytest.approx(model.opt.timestep) and model.opt.timestep == 0.002
    assert data.xpos[1][0] == 0.0  # computed before qpos moved: not valid for the new qpos
    mujoco.mj_forward(model, data)
    assert data.xpos[1][0] == pytest.approx(data.qpos[0])


def _subtree_holds_all_three_masses():
    model = _model(scenes.WELDED)
    assert model.nbody == 4 and model.nv == 6
    assert f"{model.body_subtreemass[1]:.4f}" == "8.4942"
    assert model.body_subtreemass[1] == pytest.approx(model.body_mass[1:].sum(), rel=1e-12)
    assert (model.body_mass[2:] > 0).all()  # the jointless mast and keel weigh


def _w_negative_beyond_half_a_turn():
    axis = np.array([1.0, 2.0, 2.0]) / 3.0
    quat = _mujoco_quat(axis, 4.5)
    assert f"{quat[0]:.6f}" == "-0.628174" and quat[0] == pytest.approx(np.cos(4.5 / 2))
    np.testing.assert_allclose(_mujoco_quat(-axis, 2 * np.pi - 4.5), -quat, atol=1e-12)


def _mulquat_is_the_hamilton_product():
    rng = np.random.default_rng(7)
    for _ in range(10):
        q1, q2 = rng.normal(size=4), rng.normal(size=4)
        np.testing.assert_allclose(_mujoco_product(q1, q2), _hamilton(q1, q2), atol=1e-12)


def _z_axis_after_either_order():
    qz, qx = _mujoco_quat([0, 0, 1], np.pi / 2), _mujoco_quat([1, 0, 0], np.pi / 2)
    for first, then, z_axis in ((qz, qx, [1, 0, 0]), (qx, qz, [0, -1, 0])):
        nine = np.zeros(9)
        mujoco.mju_quat2Mat(nine, _mujoco_product(first, then))
        np.testing.assert_allclose(nine.reshape(3, 3)[:, 2], z_axis, atol=1e-12)
    nine = np.zeros(9)
    mujoco.mju_quat2Mat(nine, qz)
    np.testing.assert_allclose(nine.reshape(3, 3)[:, 0], [0, 1, 0], atol=1e-12)  # new x


def _quarter_turn_columns():
    nine = np.zeros(9)
    mujoco.mju_quat2Mat(nine, _mujoco_quat([0, 0, 1], np.pi / 2))
    np.testing.assert_allclose(nine.reshape(3, 3)[:, :2], [[0, -1], [1, 0], [0, 0]], atol=1e-12)


def _offset_turns_with_the_parent():
    xml = """<mujoco><worldbody><body pos="1 0 0" euler="0 0 90"><geom size=".1"/>
      <site pos="1 0 0"/></body></worldbody></mujoco>"""
    model = _model(xml)
    data = mujoco.MjData(model)
    mujoco.mj_kinematics(model, data)
    np.testing.assert_allclose(data.site_xpos[0], [1, 1, 0], atol=1e-12)
    np.testing.assert_allclose(data.xmat[1].reshape(3, 3)[:, 0], [0, 1, 0], atol=1e-12)


def _gripper_figures():
    at_zero = trees.mujoco_poses(trees.LESSON_TREE, [0.0] * 6)["gripper"][0]
    moved = trees.mujoco_poses(trees.LESSON_TREE, trees.LESSON_QPOS)["gripper"][0]
    assert f"{at_zero[0]:.4f} {abs(at_zero[1]):.4f} {at_zero[2]:.4f}" == "0.3828 0.0000 0.3328"
    assert f"{moved[0]:.4f} {moved[1]:.4f} {moved[2]:.3f}" == "0.7585 -0.3144 0.266"


def _pasted_quat_is_read_scalar_first():
    pasted = _model(scenes.quat_body((0, 0, 0.7071, 0.7071))).body_quat[1]
    np.testing.assert_allclose(pasted, [0, 0, 2**-0.5, 2**-0.5], atol=1e-12)  # normalised
    angle = 2 * np.degrees(np.arccos(min(1.0, abs(pasted[0]))))
    assert angle == pytest.approx(180.0)  # w = 0: a half turn
    np.testing.assert_allclose(pasted[1:], [0, 2**-0.5, 2**-0.5], atol=1e-12)  # between y, z
    meant = _model(scenes.quat_body((0.7071, 0, 0, 0.7071))).body_quat[1]
    assert _same_rotation(meant, _mujoco_quat([0, 0, 1], np.pi / 2))


def _centre_of_mass_keeps_its_velocity():
    """qvel[3:6] alone: the centre of mass, 2 cm from the still origin, moves off at
    |omega| x 0.02 m/s and keeps that velocity (a straight line at constant speed). With RK4:
    Euler's own error bends it by 3e-6 m/s over 2 s (the lesson measures that drift too)."""
    omega = np.array([0, 0, 2 * np.pi])
    run = spin.run_spin(omega, integrator="RK4")
    assert np.linalg.norm(spin.start_offset()) == pytest.approx(0.02)
    steps = np.diff(run.com, axis=0) / np.diff(run.times)[:, None]
    np.testing.assert_allclose(steps, np.broadcast_to(steps[0], steps.shape), atol=1e-9)
    assert np.linalg.norm(steps[0]) == pytest.approx(2 * np.pi * 0.02, rel=1e-3)


def _urdf_discards_visuals_and_fuses():
    spec = mujoco.MjSpec()
    assert not spec.compiler.discardvisual and not spec.compiler.fusestatic  # MJCF
    urdf = _model(scenes.urdf_link((0, 0, 0)))
    assert urdf.ngeom == 1  # the visual is gone, the collision box stays
    assert urdf.nbody == 2  # the fixed base link is fused into the world


def _non_colliding_geoms_still_weigh():
    xml = scenes.WELDED.replace(
        '<geom type="cylinder" size=".01 .15"/>',
        '<geom type="cylinder" size=".01 .15" contype="0" conaffinity="0"/>',
    )
    model = _model(xml)
    assert model.geom_contype[1] == 0 and model.body_mass[2] > 0.09


def _default_density_is_water():
    xml = (
        '<mujoco><worldbody><body><freejoint/><geom type="box" size=".05 .05 .05"/></body>'
        "</worldbody></mujoco>"
    )
    model = _model(xml)
    assert model.body_mass[1] == pytest.approx(1.0)
    np.testing.assert_allclose(model.opt.gravity, [0, 0, -9.81])


def _adding_an_element_renumbers():
    spec = mujoco.MjSpec.from_string(scenes.WELDED)
    view = spec.compile().body_pos
    assert spec.compile().body("keel").id == 3
    spec.body("mast").add_body(name="flag").add_geom(size=[0.01, 0, 0])
    assert spec.compile().body("keel").id == 4
    assert view.shape == (4, 3)


def _prism_mass(outline, triangles, mode):
    return float(_model(scenes.mesh_prism(outline, triangles, mode)).body_mass[1])


def _prism_masses(outline, triangles):
    return {mode: _prism_mass(outline, triangles, mode) for mode in scenes.MESH_INERTIA}


def _compiler_resolves_converts_computes():
    model = _model(scenes.FREE_DEFAULTS)
    assert model.dof_damping[6] == 3  # a default resolved
    np.testing.assert_allclose(_model(scenes.angles()).jnt_range[0], [0, np.pi / 2])  # radians
    assert model.body_mass[1] == pytest.approx(1.0)  # a 10 cm box of water


def _free_type_slows_down():
    model = _model(
        scenes.FREE_DEFAULTS.replace("<worldbody>", '<option gravity="0 0 0"/><worldbody>')
    )
    data = mujoco.MjData(model)
    data.qvel[:] = [1.0, 0, 0, 0, 0, 0] * 2
    for _ in range(100):
        mujoco.mj_step(model, data)
    assert data.qvel[0] == pytest.approx(1.0) and data.qvel[6] < 0.9


def _two_pi_more_flips_every_sign():
    q = frames.axis_angle_quat([1, -2, 0.5], 1.0)
    np.testing.assert_allclose(
        frames.axis_angle_quat([1, -2, 0.5], 1.0 + 2 * np.pi), -q, atol=1e-12
    )
    np.testing.assert_allclose(
        -frames.axis_angle_quat([1, -2, 0.5], 4.5),
        frames.axis_angle_quat([1, -2, 0.5], 4.5 - 2 * np.pi),
        atol=1e-12,
    )


def _transpose_is_the_inverse():
    q = frames.random_unit_quat(np.random.default_rng(8))
    inverse = np.zeros(4)
    mujoco.mju_negQuat(inverse, q)
    np.testing.assert_allclose(frames.quat_matrix(inverse), frames.quat_matrix(q).T, atol=1e-12)


def _scalar_part_is_the_dot_product():
    rng = np.random.default_rng(9)
    q1, q2 = frames.random_unit_quat(rng), frames.random_unit_quat(rng)
    conjugate = np.zeros(4)
    mujoco.mju_negQuat(conjugate, q1)
    relative = frames.multiply(conjugate, q2)
    assert relative[0] == pytest.approx(np.dot(q1, q2))
    assert 2 * np.arccos(abs(relative[0])) == pytest.approx(frames.rotation_angle(q1, q2))


def _one_rule_for_geoms_sites_and_com():
    model = _model(scenes.FRAME_ELEMENT)
    data = mujoco.MjData(model)
    data.qpos[0] = 0.7
    mujoco.mj_kinematics(model, data)
    rotation = data.xmat[1].reshape(3, 3)
    for placed, local in (
        (data.geom_xpos[0], model.geom_pos[0]),
        (data.site_xpos[0], model.site_pos[0]),
        (data.xipos[1], model.body_ipos[1]),
    ):
        np.testing.assert_allclose(placed, data.xpos[1] + rotation @ local, atol=1e-12)


def _slide_and_hinge_rows():
    rng = np.random.default_rng(10)
    pos, quat = rng.uniform(-1, 1, 3), frames.random_unit_quat(rng)
    axis, anchor, q = rng.normal(size=3), rng.uniform(-0.3, 0.3, 3), 0.8
    unit = axis / np.linalg.norm(axis)
    slid = trees.mujoco_poses(
        [trees.body("b", "world", pos, quat, [trees.joint("slide", axis)])], [q]
    )
    np.testing.assert_allclose(slid["b"][0], pos + frames.rotate(quat, unit) * q, atol=1e-12)
    assert _same_rotation(slid["b"][1], quat)
    hinged = trees.mujoco_poses(
        [trees.body("b", "world", pos, quat, [trees.joint("hinge", axis, anchor)])], [q]
    )
    turned = frames.multiply(quat, frames.axis_angle_quat(axis, q))
    assert _same_rotation(hinged["b"][1], turned)
    expected = pos + frames.rotate(quat, anchor) - frames.rotate(turned, anchor)
    np.testing.assert_allclose(hinged["b"][0], expected, atol=1e-12)


def _aligned_physics_is_the_same():
    omega = np.array([0.3, -1.0, 2 * np.pi])
    offset = spin.start_offset()
    drawn = spin.run_spin(omega, -np.cross(omega, offset), integrator="RK4", seconds=1.0)
    aligned = spin.run_spin(omega, align=True, integrator="RK4", seconds=1.0)
    np.testing.assert_allclose(drawn.com, aligned.com, atol=1e-9)


def _legacy_between_and_collisions_stay_convex():
    masses = _prism_masses(scenes.U_OUTLINE, scenes.U_TRIANGLES)
    assert masses["exact"] < masses["legacy"] < masses["convex"]
    xml = scenes.ball_in_cup().replace('<mesh name="cup"', '<mesh name="cup" inertia="exact"')
    model = _model(xml)
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    assert data.ncon == 1


def _inertial_away_from_every_geom():
    xml = """<mujoco><worldbody><body><freejoint/><geom size=".05"/>
      <inertial pos="1 2 3" mass="1" diaginertia=".01 .01 .01"/></body></worldbody></mujoco>"""
    np.testing.assert_allclose(_model(xml).body_ipos[1], [1, 2, 3])


CLAIMS = [
    (
        "Editing a spec changes nothing in a model compiled from it, and compiling again makes a "
        "new model.",
        _spec_edit_changes_nothing_compiled,
    ),
    (
        "`spec.recompile(model, data)` returns a new model and a new data, and keeps the state of "
        "what both models share.",
        _recompile_keeps_the_shared_state,
    ),
    (
        "A body with no joint is welded to its parent: it adds shapes and mass, never freedom.",
        _welded_bodies_add_mass_not_freedom,
    ),
    (
        "Three bodies and one free joint give `nv` = **6**: the mast and the keel move with the "
        "hull. Their geoms still weigh",
        _welded_bodies_add_mass_not_freedom,
    ),
    ("The other way round, one body may carry several joints.", _one_body_several_joints),
    ("Slide, slide, hinge on one body: planar motion with `nv` = **3**.", _one_body_several_joints),
    ("The joints act in the order they are written", _joints_act_in_order),
    ("a site weighs nothing and touches nothing", _site_weighs_and_touches_nothing),
    (
        "a pose applied, while compiling, to the elements inside it | a body or a degree of "
        "freedom: it is gone after compiling",
        _frame_is_gone_after_compiling,
    ),
    (
        "The frame is gone: its pose went into the arm's `body_pos`, $(1, 1, 0)$",
        _frame_is_gone_after_compiling,
    ),
    (
        "A `<freejoint>` takes none of the joint defaults (damping, stiffness, armature, friction "
        'loss), while a `<joint type="free">` takes them like any other joint.',
        _freejoint_ignores_joint_defaults,
    ),
    (
        "`<compiler angle>` decides how MJCF angles are read, and it is `degree` unless you say "
        "otherwise.",
        _angle_is_degree_by_default,
    ),
    ("the compiled model always holds radians", _compiled_model_holds_radians),
    ('With `angle="radian"` the same text means 90 radians', _compiled_model_holds_radians),
    ("A URDF is always read in radians, whatever the compiler says.", _urdf_is_always_radians),
    ("Quaternions are not angles, so `angle` never changes a `quat`", _angle_never_changes_a_quat),
    (
        "Nor does it convert an actuator's `ctrlrange`: a position servo on a hinge with "
        '`ctrlrange="0 90"` keeps 90, which the joint reads as radians.',
        _ctrlrange_not_converted,
    ),
    (
        "Those 1.6 mm are the error of the default `Euler` step (0.002 s, a turn every second); "
        'with `integrator="RK4"` the centre of mass stays within',
        _drift_is_the_integrators,
    ),
    (
        "MuJoCo's own `mju_axisAngle2Quat` returns a negative $w$ for angles beyond $\\pi$.",
        _mujoco_w_negative_beyond_pi,
    ),
    ("$q$ and $-q$ are the same rotation", _q_and_minus_q_one_rotation),
    (
        "it composes rotations the way matrices do: $R(q_1 q_2) = R(q_1)\\,R(q_2)$",
        _product_composes_like_matrices,
    ),
    (
        "Multiplying by a turn on the right turns about the body's own, moving axes; multiplying "
        "on the left turns about the fixed axes of the parent.",
        _right_moving_left_fixed,
    ),
    (
        "MuJoCo's `mju_quat2Mat` fills the same nine numbers, row by row, and so does `data.xmat` "
        "for every body.",
        _xmat_is_quat2mat_row_by_row,
    ),
    (
        "Its columns are the body's $x$, $y$ and $z$ axes written in the parent's frame",
        _columns_are_body_axes,
    ),
    (
        "Which axes, and in which order, is `<compiler eulerseq>`: three letters, `xyz` by "
        "default.",
        _eulerseq_default_xyz,
    ),
    (
        "a **lowercase** letter turns about the body's own axis as the turns so far have left it",
        _lowercase_turns_about_moving_axes,
    ),
    (
        "an **uppercase** letter turns about the parent's axis, which never moves",
        _uppercase_turns_about_fixed_axes,
    ),
    ("the letters may be mixed: `xYz` compiles.", _letters_may_be_mixed),
    (
        'URDF\'s `rpy="r p y"` is roll about the fixed $x$, then pitch about the fixed $y$, then '
        'yaw about the fixed $z$: `eulerseq="XYZ"`.',
        _urdf_rpy_is_xyz,
    ),
    ("the URDF's `rpy` gives exactly the quaternion of `XYZ`", _urdf_rpy_is_xyz),
    (
        "It compiles to a different rotation: with $w = 0$ it is a half turn, **180.0** degrees, "
        "about the axis $(0, 1, 1)/\\sqrt2$, and **120.0** degrees away from the quarter turn",
        _pasted_xyzw_is_a_half_turn,
    ),
    ('`quat="1 0 0 1"` is normalised silently', _quat_normalised_silently),
    ("MuJoCo makes the axis unit length.", _joint_axis_made_unit),
    (
        "The hinge's second formula keeps the anchor where it was: the frame turns about the "
        "anchor, not about its origin.",
        _hinge_keeps_its_anchor,
    ),
    (
        "`qpos` is measured from the pose the XML states (MuJoCo's `ref` is 0 here), so with every "
        "joint at 0 each body sits where its `pos` and `quat` put it.",
        _zero_qpos_is_the_xml_pose,
    ),
    (
        "MuJoCo computes these poses in `mj_kinematics`, the first stage of `mj_forward`",
        _kinematics_inside_forward,
    ),
    (
        "The compiled fields and the state fields are tied by the pose rule of Step 6",
        _xipos_and_ximat_from_the_pose_rule,
    ),
    ("`xmat` and `ximat` are stored as nine numbers each, row by row.", _xmat_nine_numbers),
    (
        "A free body's frame can be moved onto its inertial frame while compiling: `<freejoint "
        'align="true"/>` for one body, or `<compiler alignfree="true"/>` for every free body.',
        _align_moves_the_frame,
    ),
    (
        "but `qpos` now locates the centre of mass and the principal axes instead of the origin "
        "you drew",
        _align_moves_the_frame,
    ),
    ("By default (not aligned) the origin is where the XML puts it", _not_aligned_by_default),
    (
        "A free joint's `qvel` has six numbers: the first three are the velocity of the body's "
        "**origin** in the world, the last three the angular velocity in the body's own frame.",
        _free_qvel_origin_and_body_frame,
    ),
    (
        "exactly $|\\omega| \\times 0.02$ m. The linear part of a free joint's velocity belongs to "
        "the origin",
        _com_drifts_at_omega_times_offset,
    ),
    (
        "Aligned, the origin *is* the centre of mass and `qvel[3:6]` alone spins the box in place.",
        _aligned_spins_in_place,
    ),
    ("for collisions it uses the mesh's **convex hull**", _collisions_use_the_convex_hull),
    (
        "a ball of radius 2 cm floats in the middle of its notch, clear of every wall",
        _ball_floats_clear_of_every_wall,
    ),
    (
        "`legacy`, MuJoCo's default for backward compatibility, can count the volume of a "
        "non-convex mesh too high.",
        _legacy_default_and_overcounts,
    ),
    ("a face turned inwards is an error", _exact_refuses_inward_faces),
    ("`convex` weighs the convex hull, `exact` the mesh itself", _convex_exact_and_shell_masses),
    ("`shell` only the surface, at the density per square metre", _convex_exact_and_shell_masses),
    (
        "An L with thick arms gets the same mass from `legacy` and `exact` (**1.688**), yet the "
        "thinner L does not",
        _thick_l_agrees_thin_l_does_not,
    ),
    ("a fresh `MjData` holds zeros in them until then.", _fresh_data_holds_zeros),
    ("Writing an output does not move anything; `qpos` is the input", _writing_xpos_moves_nothing),
    (
        "Their geoms still weigh: the hull's subtree holds all three masses, **8.4942** kg.",
        _subtree_holds_all_three_masses,
    ),
    (
        "At 4.5 rad MuJoCo's $w$ is **-0.628174**: beyond half a turn, "
        "$\\cos\\frac\\theta2 < 0$. The same orientation is the quaternion with every sign "
        "flipped, a turn of $2\\pi - 4.5$ rad the other way round.",
        _w_negative_beyond_half_a_turn,
    ),
    ("MuJoCo's `mju_mulQuat` computes the same product.", _mulquat_is_the_hamilton_product),
    (
        "Degrees of freedom come from joints only. A body without a joint is welded to its "
        "parent: the three bodies move as one rigid body with six degrees of freedom.",
        _welded_bodies_add_mass_not_freedom,
    ),
    (
        "MJCF reads quat as (w, x, y, z), scalar first. Four numbers of unit length are always a "
        "valid rotation, so nothing can warn you: here w = 0, which is a half turn (180 "
        "degrees), about an axis between y and z.",
        _pasted_quat_is_read_scalar_first,
    ),
    (
        "qvel[:3] = 0 makes the origin still at the start, so the centre of mass, 2 cm away, "
        "starts with the speed of a point turning about the origin: |omega| times 0.02 m. With "
        "no force on it, the centre of mass keeps that velocity for ever.",
        _centre_of_mass_keeps_its_velocity,
    ),
    (
        "In $q_z q_x$ the body turns about $z$ first, then about its own new $x$ axis, which by "
        "then points along the world's $y$: its $z$ axis ends along the world's $x$. In $q_x "
        "q_z$ it turns about $x$ first and its $z$ axis ends along $-y$.",
        _z_axis_after_either_order,
    ),
    (
        "The quarter turn about $z$: the body's $x$ axis (first column) points along the "
        "world's $y$, its $y$ axis along $-x$.",
        _quarter_turn_columns,
    ),
    ("The point is at (**1**, **1**, 0).", _offset_turns_with_the_parent),
    (
        "The offset (1, 0, 0) is written along the parent's x axis, and after a quarter turn "
        "about z that axis points along the world's y.",
        _offset_turns_with_the_parent,
    ),
    (
        "The gripper's origin is at (**0.3828**, 0, **0.3328**) from the XML poses alone and at "
        "(**0.7585**, **-0.3144**, **0.266**) once the six joints move.",
        _gripper_figures,
    ),
    (
        "they are valid for the current `qpos` after `mj_kinematics` (or `mj_forward`, which calls "
        "it)",
        _writing_xpos_moves_nothing,
    ),
    (
        "`mj_step` computes them too, but before it moves `qpos`: after a step they still "
        "describe the `qpos` it started from, one step behind, until the next `mj_forward`.",
        _positions_lag_one_step_after_mj_step,
    ),
    (
        "One `mj_step` at 1 m/s moves `qpos` x to **0.002** (one 2 ms step) while `xpos` x is "
        "still **0.000**: the step computed the positions first, then moved `qpos`.",
        _positions_lag_one_step_after_mj_step,
    ),
    (
        "Only `mj_forward` brings `xpos` to **0.002**; read positions after `mj_forward`, or "
        "remember that after `mj_step` they lag one step.",
        _positions_lag_one_step_after_mj_step,
    ),
    (
        "discardvisual and fusestatic, which are on by default for a URDF and off for MJCF.",
        _urdf_discards_visuals_and_fuses,
    ),
    ("geoms that never collide still count towards the mass", _non_colliding_geoms_still_weigh),
    (
        "the default density of 1000 (water) assumes metres and kilograms, and gravity of 9.81 "
        "assumes metres and seconds",
        _default_density_is_water,
    ),
    (
        "Everything taken from the old model is stale: its NumPy views (`body_pos_view` above), "
        "and any id or address you looked up in it, since adding an element can renumber the "
        "others.",
        _adding_an_element_renumbers,
    ),
    (
        "The compiler resolves defaults, converts angles to radians, computes masses and "
        "inertias, and lays out the arrays of the model.",
        _compiler_resolves_converts_computes,
    ),
    (
        "the other gets **3** on all six dofs, so it slows down in empty space",
        _free_type_slows_down,
    ),
    (
        "turning by $\\theta + 2\\pi$ changes the sign of every number",
        _two_pi_more_flips_every_sign,
    ),
    (
        "The same orientation is the quaternion with every sign flipped, a turn of $2\\pi - 4.5$ "
        "rad the other way round.",
        _two_pi_more_flips_every_sign,
    ),
    (
        "Its transpose $R^\\top$ is the inverse rotation: it turns the other way.",
        _transpose_is_the_inverse,
    ),
    (
        "its scalar part works out to the dot product $q_1 \\cdot q_2 = \\cos\\frac\\theta2$",
        _scalar_part_is_the_dot_product,
    ),
    (
        "The same rule places a geom, a site or a centre of mass on its body",
        _one_rule_for_geoms_sites_and_com,
    ),
    (
        "| slide | metres along the axis | $p \\leftarrow p + R\\,\\hat a\\, q$; $R$ unchanged |",
        _slide_and_hinge_rows,
    ),
    (
        "| hinge | radians about the axis | $R_{\\text{new}} = R\\,\\mathrm{Rot}(\\hat a, q)$",
        _slide_and_hinge_rows,
    ),
    (
        "The physics is the same, but `qpos` now locates the centre of mass",
        _aligned_physics_is_the_same,
    ),
    ("`legacy` lands in between", _legacy_between_and_collisions_stay_convex),
    (
        "remember that an exact inertia does not make the collisions any less convex.",
        _legacy_between_and_collisions_stay_convex,
    ),
    (
        "the centre of mass may sit away from the origin and from every geom",
        _inertial_away_from_every_geom,
    ),
    (
        '`<freejoint>` ignores joint defaults, `<joint type="free">` takes them.',
        _freejoint_ignores_joint_defaults,
    ),
    ("a quaternion in the wrong order compiles without a word", _pasted_xyzw_is_a_half_turn),
    ("URDF's `rpy` is `XYZ`", _urdf_rpy_is_xyz),
    (
        "a free joint's linear velocity is the origin's, and `align` moves the frame onto the "
        "centre of mass",
        _free_qvel_origin_and_body_frame,
    ),
    (
        "Meshes collide as their convex hulls; their inferred mass depends on `<mesh inertia>`, "
        "whose default, `legacy`, can overcount a non-convex mesh.",
        _legacy_default_and_overcounts,
    ),
]

test_claim_is_in_the_prose_and_true, test_claims_count = lesson_code.claims_tests(
    CLAIMS, PROSE, minimum=50
)


# --------------------------------------------------------------------------------------------
# The figures issue 14 states, measured here with MuJoCo 4.0


def test_freejoint_and_free_type_damping_figures():
    """Default joint damping 3: 0 on the <freejoint>'s six dofs, 3 on <joint type="free">'s."""
    model = _model(scenes.FREE_DEFAULTS)
    np.testing.assert_array_equal(model.dof_damping, [0] * 6 + [3] * 6)


def test_alignfree_figures():
    """A box 0.02 m off its origin: aligned, body_pos x 0.02 and body_ipos 0; not by default."""
    aligned, default = _model(scenes.spin_box(True)), _model(scenes.spin_box(False))
    assert aligned.body_pos[1][0] == pytest.approx(0.02) and not aligned.body_ipos[1].any()
    assert default.body_ipos[1][0] == pytest.approx(0.02) and not default.body_pos[1].any()


def test_mesh_inertia_figures():
    """The U prism: legacy 2.193, convex 2.250, exact 1.625, shell 117.5 kg; legacy default."""
    masses = _prism_masses(scenes.U_OUTLINE, scenes.U_TRIANGLES)
    assert {k: round(v, 3) for k, v in masses.items()} == {
        "legacy": 2.193,
        "convex": 2.25,
        "exact": 1.625,
        "shell": 117.5,
    }


def test_spin_drift_figure():
    """qvel[3:6] alone: the centre of mass drifts at |omega| 0.02 m/s; fixed, it stays put."""
    omega = np.array([0.0, 0.0, 2 * np.pi])
    alone = spin.run_spin(omega)
    assert alone.com_speed == pytest.approx(np.linalg.norm(omega) * 0.02, rel=1e-4)
    fixed = spin.run_spin(omega, -np.cross(omega, spin.start_offset()))
    assert fixed.com_drift < 0.002 < 0.2 < alone.com_drift
    assert fixed.origin_radius == pytest.approx(0.02, rel=0.1)


def test_welded_and_planar_figures():
    """Two jointless bodies in a free body: nv 6; slide, slide, hinge on one body: nv 3."""
    assert _model(scenes.WELDED).nv == 6
    assert _model(scenes.PLANAR).nv == 3


def test_check_yourself_keys_agree_with_mujoco():
    """The keys of check yourself 1 and 2, computed by MuJoCo."""

    def moments(size, mass):
        xml = (
            f'<mujoco><worldbody><body><freejoint/><geom type="box" size="{size} {size / 2} '
            f'{size / 2}" mass="{mass}"/></body></worldbody></mujoco>'
        )
        return _model(xml).body_inertia[1]

    big = moments(0.1, 2.0)
    np.testing.assert_allclose(moments(0.01, 2.0) / big, 1e-2, rtol=1e-9)  # A: constant mass
    np.testing.assert_allclose(moments(0.01, 2.0e-3) / big, 1e-5, rtol=1e-9)  # constant density
    pos, _ = check.mujoco_compose((0, 1, 0), _turn([0, 0, 1], np.pi), (1, 0, 0), (1, 0, 0, 0))
    np.testing.assert_allclose(pos, [-1, 1, 0], atol=1e-12)  # B


# --------------------------------------------------------------------------------------------
# The helpers


def test_random_trees_are_reproducible_and_in_tree_order():
    first = trees.random_tree(np.random.default_rng(7), 6)
    assert first == trees.random_tree(np.random.default_rng(7), 6)
    seen = {"world"}
    for body in first:
        assert body["parent"] in seen
        seen.add(body["name"])
        assert 1 <= len(body["joints"]) <= 3
    lengths = [np.linalg.norm(j["axis"]) for b in first for j in b["joints"]]
    assert max(abs(length - 1) for length in lengths) > 0.1  # axes of any length


def test_tree_xml_refuses_a_parent_listed_later():
    tree = [trees.body("a", "b", (0, 0, 0)), trees.body("b", "world", (0, 0, 0))]
    with pytest.raises(ValueError, match="not listed before"):
        trees.tree_xml(tree)


def test_mujoco_poses_refuses_extra_qpos():
    with pytest.raises(ValueError, match="more numbers"):
        trees.mujoco_poses(trees.LESSON_TREE, [0.0] * 7)


def test_scene_builders_refuse_bad_input():
    with pytest.raises(ValueError, match="eulerseq"):
        scenes.euler_body((0, 0, 0), "xyw")
    with pytest.raises(ValueError, match="compiler/angle"):
        scenes.angles("gradian")
    with pytest.raises(ValueError, match="mesh/inertia"):
        scenes.mesh_prism(scenes.U_OUTLINE, scenes.U_TRIANGLES, "solid")


def test_quat_close_accepts_the_opposite_sign_only():
    q = frames.axis_angle_quat([1, 2, 3], 0.8)
    check.quat_close(-q, q, "q")
    with pytest.raises(AssertionError):
        check.quat_close(np.roll(q, 1), q, "q")


def test_spin_paths_plot_draws_each_run_from_above_in_its_own_panel(drawn):
    """One panel per run, titled with its label: the origin's and the centre of mass's (x, y)
    paths and the start dot, at equal scales; the legend and the y label on the first only."""
    omega = np.array([0.0, 0.0, 2 * np.pi])
    runs = {
        "qvel[3:6] only": spin.run_spin(omega),
        "fixed": spin.run_spin(omega, -np.cross(omega, spin.start_offset())),
    }
    assert pictures.spin_paths_plot({k: (r.origin, r.com) for k, r in runs.items()}) is None
    fig = drawn()
    assert [ax.get_title() for ax in fig.axes] == list(runs)
    for ax, run in zip(fig.axes, runs.values(), strict=True):
        origin, com, start = ax.lines
        np.testing.assert_array_equal(origin.get_xydata(), run.origin[:, :2])
        np.testing.assert_array_equal(com.get_xydata(), run.com[:, :2])
        np.testing.assert_array_equal(start.get_xydata(), run.com[:1, :2])
        assert ax.get_aspect() == 1.0 and ax.get_xlabel() == "x (m)"
    legend = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert legend == ["origin (xpos)", "centre of mass (xipos)"]
    assert fig.axes[1].get_legend() is None and fig.axes[1].get_ylabel() == ""
    assert fig.axes[0].get_ylabel() == "y (m)"
    # The drift of 0.25 m fits the first panel; the 2 cm circle, the second.
    assert fig.axes[0].get_ylim() == (-0.02, 0.27) and fig.axes[1].get_xlim() == (-0.03, 0.07)


# --------------------------------------------------------------------------------------------
# The visible checks: the solution passes, each mistake fails with its hint

VISIBLE = {
    "quat_from_axis_angle": lambda f: check.quat_from_axis_angle(f),
    "quat_multiply": lambda f: check.quat_multiply(f),
    "quat_to_matrix": lambda f: check.quat_to_matrix(f),
    "euler_to_quat": lambda f: check.euler_to_quat(f),
    "rotation_angle_between": lambda f: check.rotation_angle_between(f),
    "compose_pose": lambda f: check.compose_pose(f),
    "forward_kinematics": lambda f: [check.forward_kinematics(f, k) for k in FK_KINDS],
    "com_in_world": lambda f: check.com_in_world(f),
    "inertia_in_world": lambda f: check.inertia_in_world(f),
}
FK_KINDS = ("static", "slides", "hinges")


# (fixture, the function it changes, what the visible check's message must say)
MISTAKE_HINTS = [
    ("quaternion_scalar_last", "quat_from_axis_angle", "scalar part first"),
    ("full_angle_in_quaternion", "quat_from_axis_angle", "HALF the turning angle"),
    ("euler_moving_and_fixed_swapped", "euler_to_quat", "other way round"),
    ("euler_angles_read_as_degrees", "euler_to_quat", "radians already"),
    ("angle_between_not_folded", "rotation_angle_between", "q and -q are one rotation"),
    ("compose_product_reversed", "compose_pose", "wrong order"),
    ("hinge_about_body_origin", "forward_kinematics", "about its anchor"),
    ("hinge_turned_about_fixed_axes", "forward_kinematics", "previous joints left it"),
    ("com_added_without_rotating", "com_in_world", "turn it into the world frame"),
    ("inertia_rotated_transposed", "inertia_in_world", "R^T in place of R"),
]


@pytest.mark.parametrize("name", list(VISIBLE))
def test_visible_check_accepts_the_solution(name, strict, capsys):
    VISIBLE[name](SOLUTION[name])
    assert "OK" in capsys.readouterr().out


@pytest.mark.parametrize(("fixture", "function", "hint"), MISTAKE_HINTS)
def test_visible_check_names_the_mistake(fixture, function, hint, strict):
    with pytest.raises(AssertionError, match=re.escape(hint)):
        VISIBLE[function](mistake(fixture, function))


def test_visible_check_in_the_notebook_is_one_line_for_an_unwritten_function(capsys):
    check.quat_multiply(lambda q1, q2: None)  # not strict: prints, does not raise
    out = capsys.readouterr().out
    assert out.startswith("… Not checked yet") and "write the body" in out


def test_visible_check_in_the_notebook_fails_as_one_short_block():
    with pytest.raises(expect.CheckFailed) as failure:
        check.quat_to_matrix(lambda q: SOLUTION["quat_to_matrix"](q).T)
    lines = failure.value._render_traceback_()
    assert len(lines) <= 6 and "transpose" in " ".join(lines)


# --------------------------------------------------------------------------------------------
# Run All on the blank release


# --- plot helpers -------------------------------------------------------------------------------
# Each helper of pictures.py with a call on arguments of this lesson's shapes: the registry's
# test_plot_helpers.py draws each one, with and without the grader.
PLOTS = {
    "spin_paths_plot": lambda: pictures.spin_paths_plot(
        {"spins": (np.zeros((5, 3)), np.full((5, 3), 0.01)), "still": (np.zeros((5, 2)),) * 2}
    ),
}
