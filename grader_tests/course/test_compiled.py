"""course.compiled's tables agree with MuJoCo: every integrator has its MJCF keyword."""

import mujoco
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
