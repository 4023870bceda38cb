"""course.compiled.compile_xml keeps a text it has compiled twice, and every call still gets a
model of its own; a text that names files is compiled afresh each time."""

import os

import mujoco
import numpy as np
import pytest

from course import compiled

BOX = """<mujoco><option timestep="0.004"/><worldbody><body><freejoint/>
<geom type="box" size="0.1 0.2 0.3" mass="{mass}"/></body></worldbody></mujoco>"""

TETRAHEDRON = "v 0 0 0\nv {s} 0 0\nv 0 {s} 0\nv 0 0 {s}\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n"


@pytest.mark.timeout(30)
def test_every_call_gets_a_model_of_its_own():
    xml = BOX.format(mass=1.2345)
    models = [compiled.compile_xml(xml) for _ in range(4)]  # the third and fourth are copies
    assert len({id(m) for m in models}) == 4
    models[0].body_mass[1], models[1].opt.timestep = 99.0, 0.5
    models[2].geom_size[0, 0] = 7.0
    fresh = mujoco.MjModel.from_xml_string(xml)
    last = models[3]
    assert last.body_mass[1] == pytest.approx(1.2345) and last.opt.timestep == 0.004
    np.testing.assert_array_equal(last.geom_size, fresh.geom_size)
    np.testing.assert_array_equal(last.body_inertia, fresh.body_inertia)


@pytest.mark.timeout(30)
def test_a_bad_text_raises_every_time():
    for _ in range(3):
        with pytest.raises(compiled.ModelError):
            compiled.compile_xml("<mujoco><worldbody><geom type='box'/></worldbody>")


@pytest.mark.timeout(30)
def test_a_text_naming_a_file_compiles_what_the_file_holds_now(tmp_path):
    mesh = tmp_path / "part.obj"
    xml = (
        f'<mujoco><asset><mesh name="part" file="{mesh}"/></asset><worldbody><body>'
        '<geom type="mesh" mesh="part" mass="1"/></body></worldbody></mujoco>'
    )
    extents = []
    for number, scale in enumerate((1.0, 1.0, 2.0, 2.0)):
        mesh.write_text(TETRAHEDRON.format(s=scale))
        os.utime(mesh, (1e9 + number, 1e9 + number))  # MuJoCo's own asset cache reads mtimes
        model = compiled.compile_xml(xml)
        extents.append(float(np.ptp(model.mesh_vert[:, 0])))
    assert extents[0] == extents[1] and extents[2] == pytest.approx(2 * extents[0])
