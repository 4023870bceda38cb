"""Tests of course.menagerie: offline behaviour of load_model, and model_summary's counts.

No test needs the network. Downloads go to an empty cache in a temporary directory, and the
server is either the real one (on an offline machine) or a host under ".invalid", a top-level
domain reserved never to resolve, so the package's own download code fails for real.
"""

import contextlib
import io
import re
import socket
import time
import urllib.request

import mujoco_menagerie
import pytest

import course.menagerie as menagerie
from classroom.nbgrader_ext import notebooks

# mujoco is imported inside the tests, after `course` (imported above) has chosen MUJOCO_GL:
# mujoco reads it once, and other tests in this session may render.

ROBOT = "robotstudio_so101"
OFFLINE_LINE = (
    f"Menagerie model '{ROBOT}' is not available offline: the mujoco-menagerie package "
    "downloads each model on first use, so this cell needs internet access once (or "
    "MENAGERIE_ROOT pointing at a checkout). Nothing graded depends on it.\n"
)
UNREACHABLE = "https://menagerie-assets.invalid/assets"

# A course-made model: "arm" states its inertia, the unnamed body and "slider" get theirs from
# their geoms (given masses, so the total is easy to check: 2.5 + 1.5 + 0.5 + 0.25 kg).
SUMMARY_XML = """
<mujoco>
  <compiler inertiafromgeom="{inertiafromgeom}"/>
  <worldbody>
    <geom type="plane" size="1 1 0.1"/>
    <body name="arm" pos="0 0 1">
      <joint name="shoulder" type="hinge" axis="0 1 0"/>
      <inertial pos="0 0 -0.2" mass="2.5" diaginertia="0.03 0.03 0.002"/>
      <geom type="capsule" fromto="0 0 0 0 0 -0.4" size="0.03" mass="1"/>
      <body pos="0 0 -0.4">
        <joint type="hinge" axis="0 1 0"/>
        <geom type="box" size="0.05 0.05 0.05" mass="1.5"/>
      </body>
    </body>
    <body name="puck" pos="1 0 0.1">
      <freejoint/>
      <geom type="cylinder" size="0.1 0.02" mass="0.5"/>
    </body>
    <body name="slider" pos="0 1 0.1">
      <joint type="slide" axis="1 0 0"/>
      <geom type="sphere" size="0.05" mass="0.25"/>
    </body>
  </worldbody>
  <actuator>
    <motor joint="shoulder" gear="10"/>
  </actuator>
</mujoco>
"""


@pytest.fixture
def empty_cache(tmp_path, monkeypatch):
    """An empty Menagerie cache, no local checkout, not grading."""
    monkeypatch.setenv("MENAGERIE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("MENAGERIE_ROOT", raising=False)
    monkeypatch.delenv("MENAGERIE_BASE_URL", raising=False)
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)
    return tmp_path / "cache"


def test_offline_load_returns_none_with_one_line_quickly(empty_cache, monkeypatch, capsys):
    """Offline, load_model returns None within seconds and prints exactly the offline line."""
    monkeypatch.setenv("MENAGERIE_BASE_URL", UNREACHABLE)
    start = time.monotonic()
    model = menagerie.load_model(ROBOT)
    elapsed = time.monotonic() - start
    assert model is None
    assert capsys.readouterr().out == OFFLINE_LINE
    assert elapsed < 10, f"took {elapsed:.1f} s; the network probe should answer at once"


def test_offline_download_through_the_package_fails_cleanly(empty_cache, monkeypatch, capsys):
    """Without the probe the package's real download fails; load_model still prints the line."""
    monkeypatch.setenv("MENAGERIE_BASE_URL", UNREACHABLE)
    start = time.monotonic()
    model = menagerie.load_model(ROBOT, check_network=False)
    elapsed = time.monotonic() - start
    assert model is None
    assert capsys.readouterr().out == OFFLINE_LINE
    assert elapsed < 30, f"took {elapsed:.1f} s"
    assert not mujoco_menagerie.Cache().is_cached(mujoco_menagerie.get(ROBOT))


def test_default_server_offline(empty_cache, capsys):
    """With the real download server on an offline machine: None and the offline line, < 30 s."""
    if menagerie._server_answers(mujoco_menagerie.Cache().base_url):
        pytest.skip("this machine reaches the Menagerie server; the test is for offline machines")
    start = time.monotonic()
    assert menagerie.load_model(ROBOT) is None
    assert capsys.readouterr().out == OFFLINE_LINE
    assert time.monotonic() - start < 30


def test_grading_never_touches_the_network(empty_cache, monkeypatch, capsys):
    """While nbgrader grades, load_model opens no connection and prints one 'skipped' line."""

    def no_network(*args, **kwargs):
        raise AssertionError("load_model used the network while grading")

    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    monkeypatch.setattr(socket, "create_connection", no_network)
    monkeypatch.setattr(urllib.request, "urlopen", no_network)
    assert menagerie.load_model(ROBOT) is None
    assert menagerie.load_spec(ROBOT) is None
    out = capsys.readouterr().out.splitlines()
    assert (
        out
        == [f"Menagerie model '{ROBOT}' skipped while grading. Nothing graded depends on it."] * 2
    )


def test_misspelt_name_raises_with_a_suggestion(empty_cache):
    """A misspelt robot name is a bug in the cell: it raises and suggests the right name."""
    with pytest.raises(mujoco_menagerie.UnknownRobotError, match=ROBOT):
        menagerie.load_model("robotstudio_so10")


def test_misspelt_entry_point_raises_before_any_download(empty_cache, monkeypatch):
    """An unknown entry point raises at once, listing the real ones, without a download."""
    monkeypatch.setattr(socket, "create_connection", None)  # any use would raise TypeError
    with pytest.raises(mujoco_menagerie.UnknownEntryPointError, match="scene"):
        menagerie.load_model(ROBOT, entry="scenery")


def test_local_checkout_loads_without_network(empty_cache, tmp_path, monkeypatch, capsys):
    """With MENAGERIE_ROOT pointing at a checkout, the model compiles from disk, silently."""
    import mujoco

    root = tmp_path / "menagerie"
    (root / ROBOT).mkdir(parents=True)
    (root / ROBOT / "scene.xml").write_text(SUMMARY_XML.format(inertiafromgeom="auto"))
    monkeypatch.setenv("MENAGERIE_ROOT", str(root))
    monkeypatch.setattr(socket, "create_connection", None)
    model = menagerie.load_model(ROBOT)
    assert isinstance(model, mujoco.MjModel)
    assert model.body("arm").mass[0] == pytest.approx(2.5)
    spec = menagerie.load_spec(ROBOT)
    assert isinstance(spec, mujoco.MjSpec)
    assert capsys.readouterr().out == ""


def test_checkout_without_the_model_prints_one_line(empty_cache, tmp_path, monkeypatch, capsys):
    """A MENAGERIE_ROOT that lacks the model gives None and one line naming MENAGERIE_ROOT."""
    monkeypatch.setenv("MENAGERIE_ROOT", str(tmp_path))
    assert menagerie.load_model(ROBOT) is None
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1
    assert out[0].startswith(f"Menagerie model '{ROBOT}' could not be loaded:")
    assert "MENAGERIE_ROOT" in out[0]


def test_summary_counts_bodies_joints_actuators_geoms_and_mass():
    """model_summary counts the world body, joints by type, actuators, geoms and total mass."""
    summary = menagerie.model_summary(SUMMARY_XML.format(inertiafromgeom="auto"))
    assert summary["bodies"] == 5  # world, arm, its unnamed child, puck, slider
    assert summary["joints"] == {"free": 1, "ball": 0, "slide": 1, "hinge": 2}
    assert summary["dofs"] == 6 + 1 + 2
    assert summary["actuators"] == 1
    assert summary["geoms"] == 5
    assert summary["total_mass"] == pytest.approx(2.5 + 1.5 + 0.5 + 0.25)


def test_summary_lists_only_bodies_with_an_explicit_inertial():
    """Only "arm" states <inertial>; the others are inferred from geoms and are not listed."""
    summary = menagerie.model_summary(SUMMARY_XML.format(inertiafromgeom="auto"))
    assert summary["explicit_inertial"] == ["arm"]


def test_summary_accepts_spec_text_and_path_alike(tmp_path):
    """An MjSpec, MJCF text and a file path give the same summary."""
    import mujoco

    xml = SUMMARY_XML.format(inertiafromgeom="auto")
    path = tmp_path / "model.xml"
    path.write_text(xml)
    from_text = menagerie.model_summary(xml)
    assert menagerie.model_summary(mujoco.MjSpec.from_string(xml)) == from_text
    assert menagerie.model_summary(path) == from_text
    assert menagerie.model_summary(str(path)) == from_text


def test_summary_of_compiled_model_cannot_tell_explicit_inertials():
    """From a compiled MjModel the counts are the same, but explicit_inertial is None."""
    import mujoco

    xml = SUMMARY_XML.format(inertiafromgeom="auto")
    from_model = menagerie.model_summary(mujoco.MjModel.from_xml_string(xml))
    from_text = menagerie.model_summary(xml)
    assert from_model["explicit_inertial"] is None
    assert {k: v for k, v in from_model.items() if k != "explicit_inertial"} == {
        k: v for k, v in from_text.items() if k != "explicit_inertial"
    }


def test_summary_with_inertia_from_geoms_lists_no_explicit_inertial():
    """With inertiafromgeom="true" MuJoCo ignores <inertial>: the list is empty, arm weighs 1 kg."""
    summary = menagerie.model_summary(SUMMARY_XML.format(inertiafromgeom="true"))
    assert summary["explicit_inertial"] == []
    assert summary["total_mass"] == pytest.approx(1 + 1.5 + 0.5 + 0.25)


def test_summary_names_an_unnamed_explicit_body_by_id():
    """An unnamed body with <inertial> is listed as "body <id>", its id in the compiled model."""
    xml = """
    <mujoco>
      <worldbody>
        <body name="first"><freejoint/><geom size="0.1"/></body>
        <body><freejoint/><inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/></body>
      </worldbody>
    </mujoco>
    """
    assert menagerie.model_summary(xml)["explicit_inertial"] == ["body 2"]


# A stand-in for the SO-101 (the real files are a 4 MB download this test cannot make): a
# two-link arm on a base, its bodies stating <inertial>, coloured so a render shows it.
STAND_IN = """
<mujoco model="so101 stand-in">
  <worldbody>
    <light pos="0 0 2"/>
    <geom type="plane" size="1 1 0.01" rgba="0.2 0.2 0.2 1"/>
    <body name="base" pos="0 0 0.05">
      <inertial pos="0 0 0" mass="0.5" diaginertia="0.001 0.001 0.001"/>
      <geom type="cylinder" size="0.05 0.05" rgba="1 0.5 0 1"/>
      <body name="upper_arm" pos="0 0 0.05">
        <joint name="shoulder" axis="0 1 0"/>
        <inertial pos="0 0 0.1" mass="0.2" diaginertia="0.001 0.001 0.0001"/>
        <geom type="capsule" fromto="0 0 0 0 0 0.2" size="0.02" rgba="1 0.5 0 1"/>
        <body name="forearm" pos="0 0 0.2">
          <joint name="elbow" axis="0 1 0"/>
          <geom type="capsule" fromto="0 0 0 0.15 0 0" size="0.015" rgba="1 0.5 0 1"/>
        </body>
      </body>
    </body>
  </worldbody>
  <actuator><position joint="shoulder" kp="10"/><position joint="elbow" kp="5"/></actuator>
</mujoco>
"""


def _publish_earlier_copy(cache_dir, robot, oid: str = "0123456789abcdef"):
    """Lay out a copy of `robot` as mujoco_menagerie publishes one in its cache, under another
    version's oid: <cache>/models/<name>-<oid>/ with its entry files and the marker last."""
    folder = cache_dir / "models" / f"{robot.name}-{oid}"
    folder.mkdir(parents=True)
    for entry in robot.entry_points:
        (folder / entry.file).write_text(STAND_IN)
    (folder / menagerie._PUBLISHED).write_text("{}")
    return folder


def test_course_reads_the_cache_as_the_package_writes_it(tmp_path):
    """The folder name and completion marker _earlier_copy looks for are the package's own."""
    robot = mujoco_menagerie.get(ROBOT)
    path = mujoco_menagerie.Cache(dir=tmp_path).model_path(robot)
    assert path.parent == tmp_path / "models"
    assert re.fullmatch(rf"{ROBOT}-[0-9a-f]{{16}}", path.name)
    assert mujoco_menagerie._cache.SENTINEL == menagerie._PUBLISHED


def test_half_written_copy_is_not_taken(empty_cache, monkeypatch, capsys):
    """A copy without the package's completion marker is ignored: offline line, None."""
    folder = _publish_earlier_copy(empty_cache, mujoco_menagerie.get(ROBOT))
    (folder / menagerie._PUBLISHED).unlink()
    monkeypatch.setenv("MENAGERIE_BASE_URL", UNREACHABLE)
    assert menagerie.load_model(ROBOT) is None
    assert capsys.readouterr().out == OFFLINE_LINE


def _menagerie_cell() -> str:
    """The source of lesson 01's code cell that loads the SO-101 from Menagerie."""
    nb = notebooks.read_lesson("01-world-as-text")
    (cell,) = [c for c in nb.cells if c.cell_type == "code" and "menagerie.load_" in c.source]
    return cell.source


def test_lesson_01_menagerie_cell_renders_the_robot_offline(empty_cache, monkeypatch):
    """With the network cut and the robot only where an earlier version of the package put it
    in its cache, lesson 01's Menagerie cell prints the model's summary (not the offline
    line), and the model it loads renders: the arm's pixels are there."""
    import mujoco

    from course import render

    _publish_earlier_copy(empty_cache, mujoco_menagerie.get(ROBOT))

    def no_network(*args, **kwargs):
        raise OSError("the network is cut in this test")

    monkeypatch.setattr(socket, "create_connection", no_network)
    monkeypatch.setattr(socket, "getaddrinfo", no_network)
    monkeypatch.setattr(urllib.request, "urlopen", no_network)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(_menagerie_cell(), {"menagerie": menagerie})
    printed = out.getvalue()
    assert "not available offline" not in printed, printed
    assert re.search(r"^bodies\s+4$", printed, re.MULTILINE), printed
    assert "['base', 'upper_arm']" in printed, printed  # explicit_inertial

    model = menagerie.load_model(ROBOT)
    assert isinstance(model, mujoco.MjModel)
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    camera = render.free_camera(lookat=[0, 0, 0.2], distance=0.8)

    def orange_pixels():
        with render.open_renderer(model, 160, 120) as renderer:
            renderer.update_scene(data, camera)
            image = renderer.render().astype(int)
        return int(((image[..., 0] > 150) & (image[..., 2] < 80)).sum())

    shown = orange_pixels()
    model.geom_rgba[1:, 3] = 0  # the arm hidden, the floor kept: its pixels must go
    assert shown > 100 and orange_pixels() == 0, f"{shown} orange pixels with the arm"
