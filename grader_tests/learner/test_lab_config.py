"""The learner's JupyterLab (`make lab`, lab/learner/) has none of nbgrader's UI and no news
pop-up; the instructor's keeps nbgrader.

Each test starts a real JupyterLab server (127.0.0.1, a free port, a token, empty user config)
the way its user does, and asks it for nbgrader's pages and for the page config the browser
reads: nbgrader's lab extension disabled, its formgrader and assignment list not served.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LEARNER_CONFIG = ROOT / "lab" / "learner"
START_S = 90


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as reply:
            return reply.status
    except urllib.error.HTTPError as error:
        return error.code
    except (urllib.error.URLError, OSError):
        return 0  # not listening yet


@pytest.fixture
def serve(tmp_path):
    """serve(config_path) -> (base url, token) of a JupyterLab started with that
    JUPYTER_CONFIG_PATH (None: the instructor's, from the course directory)."""
    started = []

    def start(config_path: Path | None):
        port, token = _free_port(), uuid.uuid4().hex
        env = {k: v for k, v in os.environ.items() if not k.startswith("JUPYTER_")}
        env["JUPYTER_CONFIG_DIR"] = str(tmp_path / f"user-{port}")  # no one's own settings
        if config_path is not None:
            env["JUPYTER_CONFIG_PATH"] = str(config_path)
        command = [sys.executable, "-m", "jupyterlab", "--no-browser", "--ServerApp.ip=127.0.0.1"]
        command += [f"--ServerApp.port={port}", f"--IdentityProvider.token={token}"]
        command += ["--allow-root"] if os.geteuid() == 0 else []
        log = open(tmp_path / f"lab-{port}.log", "w")  # noqa: SIM115 - closed at teardown
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log)
        started.append((process, log))
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + START_S
        while _status(f"{url}/api/status?token={token}") != 200:
            assert process.poll() is None, (tmp_path / f"lab-{port}.log").read_text()
            assert time.monotonic() < deadline, f"JupyterLab did not answer in {START_S} s"
            time.sleep(0.5)
        return url, token

    yield start
    for process, log in started:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


def _page_config(url: str, token: str) -> dict:
    with urllib.request.urlopen(f"{url}/lab?token={token}", timeout=30) as reply:
        html = reply.read().decode()
    found = re.search(
        r'<script id="jupyter-config-data" type="application/json">(.*?)</script>', html, re.S
    )
    assert found, "JupyterLab's page has no jupyter-config-data"
    return json.loads(found.group(1))


@pytest.mark.timeout(180)
def test_learner_lab_has_no_nbgrader_ui(serve):
    url, token = serve(LEARNER_CONFIG)
    config = _page_config(url, token)
    assert "@jupyter/nbgrader" in config.get("disabledExtensions", []), config.get(
        "disabledExtensions"
    )
    for page in ("formgrader", "assignments", "courses"):
        assert _status(f"{url}/{page}?token={token}") == 404, f"/{page} is served"


@pytest.mark.timeout(180)
def test_learner_lab_asks_about_no_news(serve):
    """No "official Jupyter news?" pop-up over the corner: the page tells JupyterLab that news
    is off (JupyterLab's default, a news feed, would ask; without news it checks for no
    updates either)."""
    url, token = serve(LEARNER_CONFIG)
    config = _page_config(url, token)
    assert config.get("news") == {"disabled": True}, config.get("news")


@pytest.mark.timeout(180)
def test_instructor_lab_keeps_nbgrader(serve):
    url, token = serve(None)
    config = _page_config(url, token)
    assert "@jupyter/nbgrader" not in config.get("disabledExtensions", [])
    assert config.get("news") == {"disabled": False}, "the instructor's JupyterLab is as installed"
    assert _status(f"{url}/formgrader?token={token}") == 200
