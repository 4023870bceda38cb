"""Everything but a Menagerie download runs without network.

Each released lesson, with the solution answers filled in, runs in a kernel whose IPython
startup file (learner_checks.OFFLINE_GUARD) makes every connection and name lookup beyond
loopback fail and logs it, with an empty Menagerie cache. The notebook must run without an
error or a warning, its Menagerie cells must print their one offline line, the only host it
reached for must be Menagerie's download server, and its videos must render (Mesa EGL on the
CPU) and stay small.
"""

import urllib.parse

import mujoco_menagerie
import nbformat
import pytest
from learner_checks import (
    OFFLINE_GUARD,
    OFFLINE_LINE,
    RELEASED,
    assert_clips_small,
    assert_runs_cleanly,
    embedded_videos,
    execute,
    kernel_env,
    menagerie_cells,
    offline_attempts,
    printed,
    startup_folder,
    video_cells,
)
from nbgrader_harness import filled_release

# The last cell tries a host under ".invalid" (a name that never resolves, so nothing leaves the
# machine even without the guard): its entry in the log proves the guard was on in the kernel.
PROBE_HOST = "course-offline-probe.invalid"
PROBE_CELL = f"""\
import socket as _socket

try:
    _socket.create_connection(("{PROBE_HOST}", 443), timeout=5).close()
    print("connected")
except OSError as _exc:
    print("blocked:", _exc)
"""


@pytest.fixture(scope="module", params=RELEASED)
def offline_run(request, tmp_path_factory):
    """(lesson, executed notebook, logged network attempts) for one released lesson."""
    lesson = request.param
    tmp = tmp_path_factory.mktemp(f"offline-{lesson}")
    nb = filled_release(lesson)
    nb.cells.append(nbformat.v4.new_code_cell(PROBE_CELL))
    log = tmp / "network-attempts.jsonl"
    env = kernel_env(
        IPYTHONDIR=str(startup_folder(tmp / "ipython", {"00-offline.py": OFFLINE_GUARD})),
        COURSE_OFFLINE_LOG=str(log),
        MENAGERIE_CACHE_DIR=str(tmp / "menagerie-cache"),
    )
    (tmp / "work").mkdir()
    execute(nb, tmp / "work", env, kernel_name="python3", timeout=120)
    return lesson, nb, offline_attempts(log)


def _cells_or_skip(offline_run, find, none_means: str):
    """(lesson, notebook, the cell indices `find` picks out of it) of one offline run; the
    test is skipped, saying the lesson `none_means`, when it has no such cell."""
    lesson, nb, _ = offline_run
    cells = find(nb)
    if not cells:
        pytest.skip(f"{lesson} {none_means}")
    return lesson, nb, cells


@pytest.mark.timeout(300)
def test_lesson_runs_offline_without_errors(offline_run):
    """No error and no warning, and the set-up cell prints one short line."""
    lesson, nb, _ = offline_run
    assert_runs_cleanly(lesson, nb, "offline")


@pytest.mark.timeout(300)
def test_guard_was_on_and_only_menagerie_reached_for_the_network(offline_run):
    """The kernel could not leave the machine, and nothing but Menagerie tried to."""
    lesson, nb, attempts = offline_run
    assert printed(nb.cells[-1]).startswith("blocked:"), printed(nb.cells[-1])
    hosts = {attempt["host"] for attempt in attempts}
    assert PROBE_HOST in hosts, f"the offline guard logged nothing for the probe: {attempts}"
    menagerie_host = urllib.parse.urlsplit(mujoco_menagerie.Cache().base_url).hostname
    allowed = {PROBE_HOST} | ({menagerie_host} if menagerie_cells(nb) else set())
    assert hosts <= allowed, f"{lesson} reached for {sorted(hosts - allowed)} offline"


@pytest.mark.timeout(300)
def test_menagerie_cells_say_they_need_the_network(offline_run):
    """Each Menagerie cell prints its one offline line instead of failing."""
    lesson, nb, cells = _cells_or_skip(offline_run, menagerie_cells, "loads no Menagerie model")
    for index in cells:
        text = printed(nb.cells[index])
        assert OFFLINE_LINE in text, f"{lesson} cell {index} printed {text!r}"
        assert len(text.strip().splitlines()) == 1, f"{lesson} cell {index}: {text!r}"


@pytest.mark.timeout(300)
def test_videos_render_offline_and_stay_small(offline_run):
    """Every video cell embeds a clip (rendered on the CPU) of less than 1 MB."""
    lesson, nb, cells = _cells_or_skip(offline_run, video_cells, "shows no video")
    skipped = [i for i in cells if "Video skipped: no OpenGL back end" in printed(nb.cells[i])]
    if skipped:
        pytest.skip(
            f"no OpenGL back end here (CI installs Mesa EGL): {printed(nb.cells[skipped[0]])}"
        )
    videos = embedded_videos(nb)
    assert sorted({index for index, _ in videos}) == cells, f"{lesson}: videos {videos}"
    assert_clips_small(lesson, videos)
