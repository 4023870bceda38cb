"""course.compiled's tables agree with MuJoCo: every integrator has its MJCF keyword; a
remembered reference answer is MuJoCo's own, told apart by exact arguments, and each caller's
copy is its own."""

import mujoco
import numpy as np
import pytest

from course import compiled, mjcf


def test_every_integrator_has_a_keyword():
    assert set(compiled.INTEGRATOR_KEYWORDS) == set(mujoco.mjtIntegrator.__members__.values())


@pytest.mark.parametrize("keyword", mjcf.INTEGRATORS)
def test_each_keyword_compiles_to_its_integrator(keyword):
    xml = f'<mujoco><option integrator="{keyword}"/><worldbody/></mujoco>'
    integrator = mujoco.mjtIntegrator(mujoco.MjModel.from_xml_string(xml).opt.integrator)
    assert compiled.INTEGRATOR_KEYWORDS[integrator] == keyword
    assert compiled.compiled_defaults(xml)["integrator"] == keyword


FALL = """<mujoco><option timestep="0.002"/><worldbody>
<body name="body" pos="0 0 1"><freejoint/><geom type="box" size=".1 .1 .1" mass=".1"/></body>
</worldbody></mujoco>"""


def _mj_step_heights(xml: str, steps: int) -> np.ndarray:
    model = mujoco.MjModel.from_xml_string(xml)
    data = mujoco.MjData(model)
    heights = [data.qpos[2]]
    for _ in range(steps):
        mujoco.mj_step(model, data)
        heights.append(data.qpos[2])
    return np.array(heights) - heights[0]


def test_a_remembered_answer_is_mujoco_s_own_and_each_caller_gets_a_copy():
    compiled.free_body_heights.forget()
    first = compiled.free_body_heights(FALL, 50)
    np.testing.assert_array_equal(first, _mj_step_heights(FALL, 50))
    first[:] = 99.0  # a caller spoiling its copy spoils nobody else's
    again = compiled.free_body_heights(FALL, 50)
    np.testing.assert_array_equal(again, _mj_step_heights(FALL, 50))
    assert again is not first


def test_remembered_answers_are_told_apart_by_exact_arguments():
    calls = []

    @compiled.remembered
    def echo(*args, **kwargs):
        calls.append((args, kwargs))
        return len(calls)

    assert echo(0.1, [1, 2]) == echo(0.1, (1, 2)) == 1  # a list and a tuple alike
    assert echo(0.1 + 1e-18, [1, 2]) == 1  # rounds to the same float
    assert echo(np.nextafter(0.1, 1.0), [1, 2]) == 2  # the next float is another case
    assert echo(-0.0) != echo(0.0)
    assert echo(1) != echo(1.0)
    assert echo(np.array([1.0, 2.0])) != echo(np.array([1.0, 2.5]))
    assert echo(steps=3) != echo(steps=4)
    model = mujoco.MjModel.from_xml_string(FALL)
    assert echo(model) != echo(model)  # no value key: asked afresh each time
    parts = np.array([[1.0], "box"], dtype=object)  # an object array's bytes are pointers
    assert echo(parts) != echo(parts)
