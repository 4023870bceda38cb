"""Tests of course.render: real frames, small videos, and a one-line message instead of a crash.

MuJoCo reads MUJOCO_GL once, when it is imported, so every test that renders or needs another
back end runs in its own Python process with the environment it needs.
"""

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

# Two cubes dropped from different heights onto a floor, seen by the free camera or "side".
DROP_XML = """
<mujoco>
  <worldbody>
    <light pos="0 0 3" dir="0 0 -1"/>
    <camera name="side" pos="0 -2 0.6" xyaxes="1 0 0 0 0 1"/>
    <geom type="plane" size="1 1 0.1" rgba="0.8 0.8 0.8 1"/>
    <body pos="-0.2 0 1.0">
      <freejoint/>
      <geom type="box" size="0.05 0.05 0.05" rgba="0.9 0.2 0.2 1"/>
    </body>
    <body pos="0.2 0 0.6">
      <freejoint/>
      <geom type="box" size="0.05 0.05 0.05" rgba="0.2 0.3 0.9 1"/>
    </body>
  </worldbody>
</mujoco>
"""


def run_python(code: str, timeout: float = 60, **env_changes) -> subprocess.CompletedProcess:
    """Run `code` in a fresh interpreter from the repository root.

    env_changes sets variables; a value of None removes one. DISPLAY, PYOPENGL_PLATFORM and
    NBGRADER_EXECUTION are removed unless given, so the child picks its back end afresh.
    """
    env = dict(os.environ)
    for key in ("DISPLAY", "PYOPENGL_PLATFORM", "NBGRADER_EXECUTION", "MUJOCO_GL"):
        env.pop(key, None)
    for key, value in env_changes.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.fixture(scope="module")
def egl_render():
    """Render the drop with EGL once in a child process; return what it measured (a dict).

    Skips when no EGL back end can start on this machine (CI installs Mesa's EGL).
    """
    code = f"""
        import json
        import numpy as np
        import course.render as render

        xml = {DROP_XML!r}
        out = {{}}
        try:
            states = []
            frames = render.simulate_frames(
                xml, 1.5, fps=30, width=320, height=240,
                setup=lambda model, data: states.append(data),
            )
        except render.RenderingUnavailable as exc:
            print(json.dumps({{"unavailable": str(exc)}}))
            raise SystemExit(0)
        out["count"] = len(frames)
        out["shapes"] = sorted({{f.shape for f in frames}})
        out["dtypes"] = sorted({{str(f.dtype) for f in frames}})
        out["end_time"] = states[0].time
        out["distinct_colours_first"] = int(len(np.unique(frames[0].reshape(-1, 3), axis=0)))
        first, last = frames[0].astype(int), frames[-1].astype(int)
        out["first_last_diff"] = float(np.abs(first - last).mean())
        out["video_bytes"] = len(render.encode_video(frames, fps=30))

        side = render.simulate_frames(xml, 0.1, camera="side")
        free = render.simulate_frames(xml, 0.1)
        out["side_shape"] = side[0].shape
        out["side_vs_free"] = float(np.abs(side[0].astype(int) - free[0].astype(int)).mean())
        try:
            render.simulate_frames(xml, 0.1, camera="no_such_camera")
            out["bad_camera"] = "no error"
        except ValueError as exc:
            out["bad_camera"] = str(exc)

        out["shown"] = render.show_simulation(xml, 0.5)
        print(json.dumps(out))
    """
    start = time.monotonic()
    result = run_python(code, MUJOCO_GL="egl")
    elapsed = time.monotonic() - start
    assert result.returncode == 0, result.stderr
    measured = json.loads(result.stdout.strip().splitlines()[-1])
    if "unavailable" in measured:
        pytest.skip(f"EGL cannot render on this machine: {measured['unavailable']}")
    measured["elapsed"] = elapsed
    measured["stdout"] = result.stdout
    return measured


def test_frames_have_requested_count_shape_and_type(egl_render):
    """A 1.5 s clip at 30 fps is 46 frames (t = 0 .. 1.5 s) of 240x320 RGB uint8 pixels."""
    assert egl_render["count"] == 46
    assert egl_render["shapes"] == [[240, 320, 3]]
    assert egl_render["dtypes"] == ["uint8"]


def test_frames_show_a_scene_that_moves(egl_render):
    """The first frame is not one flat colour, and the last differs from it (the cubes fell)."""
    assert egl_render["distinct_colours_first"] > 10, "the first frame is (nearly) one colour"
    assert egl_render["first_last_diff"] > 0.5, "the last frame looks like the first"


def test_simulation_reaches_the_requested_time(egl_render):
    """After the last frame, simulated time is 1.5 s to within one 2 ms default timestep."""
    assert abs(egl_render["end_time"] - 1.5) <= 0.002 + 1e-9


def test_drop_clip_encodes_well_under_one_megabyte(egl_render):
    """The 1.5 s, 320x240, 30 fps drop encodes to under 1 MB (it is embedded in the notebook)."""
    assert 0 < egl_render["video_bytes"] < 1_000_000
    # Far under, in fact: a budget that catches a codec or size change early.
    assert egl_render["video_bytes"] < 200_000


def test_named_camera_renders_its_own_view(egl_render):
    """camera="side" renders from that camera (not the free camera); an unknown name raises."""
    assert egl_render["side_shape"] == [240, 320, 3]
    assert egl_render["side_vs_free"] > 1.0, "the named camera's view equals the free camera's"
    assert "no_such_camera" in egl_render["bad_camera"]


def test_show_simulation_shows_a_video_when_rendering_works(egl_render):
    """With EGL and ffmpeg, show_simulation returns True and prints no 'Video skipped' line."""
    assert egl_render["shown"] is True
    assert "Video skipped" not in egl_render["stdout"]


def test_osmesa_without_its_library_falls_back_to_egl():
    """MUJOCO_GL=osmesa without libOSMesa would break `import mujoco`: course says so, uses egl."""
    import ctypes.util

    if ctypes.util.find_library("OSMesa") is not None:
        pytest.skip("OSMesa is installed here, so osmesa is a working back end")
    result = run_python(
        "import course, mujoco, os; print('GL', os.environ['MUJOCO_GL'])", MUJOCO_GL="osmesa"
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert lines[0].startswith("MUJOCO_GL=osmesa needs the OSMesa library")
    assert lines[-1] == "GL egl"


@pytest.mark.parametrize(
    "backend, where",
    [("glfw", "fails when the renderer is created (no DISPLAY)")],
)
def test_broken_backend_prints_one_line_and_returns_false(backend, where):
    """A back end that cannot start gives one clear 'Video skipped' line and False, no traceback."""
    code = f"""
        import course.render as render
        shown = render.show_simulation({DROP_XML!r}, 1.5)
        print("RESULT", shown)
    """
    result = run_python(code, MUJOCO_GL=backend)
    assert result.returncode == 0, f"{backend} {where}, and it raised:\n{result.stderr}"
    lines = result.stdout.strip().splitlines()
    if lines and lines[-1] == "RESULT True":
        pytest.skip(f"MUJOCO_GL={backend} works on this machine, so it is not a broken back end")
    assert lines[-1] == "RESULT False"
    assert len(lines) == 2, f"expected one message line, got {lines[:-1]}"
    message = lines[0]
    assert message.startswith(
        f"Video skipped: no OpenGL back end could start (MUJOCO_GL={backend}): "
    )
    assert message.endswith("The numbers above do not depend on it.")
    assert "Traceback" not in result.stderr


def test_grading_skips_video_with_one_line(monkeypatch, capsys):
    """While grading, show_simulation prints 'Video skipped while grading.' and renders nothing."""
    import course.render as render

    def must_not_render(*args, **kwargs):
        raise AssertionError("show_simulation rendered while grading")

    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    monkeypatch.setattr(render, "simulate_frames", must_not_render)
    assert render.show_simulation(DROP_XML, 1.5) is False
    assert capsys.readouterr().out == "Video skipped while grading.\n"


def test_ffmpeg_comes_from_imageio_when_not_on_path():
    """With no ffmpeg on PATH, ensure_ffmpeg points mediapy at imageio-ffmpeg's binary."""
    code = """
        import shutil
        import mediapy
        import course.render as render
        assert shutil.which("ffmpeg") is None
        print("before", mediapy.video_is_available())
        render.ensure_ffmpeg()
        print("after", mediapy.video_is_available())
    """
    result = run_python(code, PATH=str(REPO / "no-such-dir"))
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["before", "False", "after", "True"]


def test_missing_ffmpeg_prints_one_line_and_returns_false():
    """Without any ffmpeg (none on PATH, no imageio-ffmpeg), show_simulation says so and goes on."""
    code = f"""
        import sys
        sys.modules["imageio_ffmpeg"] = None  # as if imageio-ffmpeg were not installed
        import course.render as render
        print("RESULT", render.show_simulation({DROP_XML!r}, 1.5))
    """
    result = run_python(code, PATH=str(REPO / "no-such-dir"), MUJOCO_GL="egl")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert lines[-1] == "RESULT False"
    assert len(lines) == 2
    assert lines[0].startswith("Video skipped: no ffmpeg program found")
    assert "pip install imageio-ffmpeg" in lines[0]


@pytest.mark.parametrize(
    "kwargs, fragment",
    [
        ({"width": 321}, "width must be a positive even number"),
        ({"height": 0}, "height must be a positive even number"),
        ({"fps": 0}, "must be positive"),
    ],
)
def test_bad_sizes_and_rates_raise_clear_errors(kwargs, fragment):
    """Odd or zero sizes and a zero rate raise ValueError naming the problem (before rendering)."""
    import course.render as render

    with pytest.raises(ValueError, match=fragment):
        render.simulate_frames(DROP_XML, 1.0, **kwargs)
