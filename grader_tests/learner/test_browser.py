"""The lessons as a learner meets them: JupyterLab 4 in a real browser.

One JupyterLab server (127.0.0.1, a free port, a token, its own config and data folders) serves
a temporary copy of the course: nbgrader_config.py, source/ and release/ of every released
lesson, and my-lessons/<lesson>/<lesson>.ipynb, the release notebook with the solution answers
filled in. Debian's chromium, driven by Playwright (never a browser Playwright downloads),
opens each lesson, runs all cells from the Run menu and checks what the learner sees: no error
output, the set-up cell's one line, every predict-first widget rendered and answering a click
with the recorded line and its explanation, the drop video loaded, and the saved notebook free
of errors. Screenshots go to grader_tests/artefacts/. The formgrader page, opened as the
instructor (the user running the server), must list every lesson.

The kernel has no network (learner_checks.OFFLINE_GUARD), so the Menagerie cell prints its
offline line whether or not the machine is online, and the run is bounded in time.

Needs /usr/bin/chromium (`apt-get install chromium`; .ci/run installs it). Without it the tests
are skipped with that message, except under CI (CI=true), where they fail.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import pytest
from learner_checks import (
    OFFLINE_GUARD,
    VIDEO_LIMIT_BYTES,
    choose_calls,
    code_cells,
    errors,
    startup_folder,
    video_cells,
)
from nbgrader_harness import filled_release

from classroom import notebooks, setup_cell

ROOT = Path(__file__).resolve().parents[2]
ARTEFACTS = Path(__file__).resolve().parents[1] / "artefacts"
RELEASED = sorted(p.parent.name for p in ROOT.glob("release/*/*.ipynb") if p.stem == p.parent.name)

CHROMIUM = Path(os.environ.get("COURSE_CHROMIUM", "/usr/bin/chromium"))
# Headless, as root, and quiet: without the background-networking flags chromium keeps
# trying to reach Google's servers, which this machine's closed network refuses.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
LEARNER_FOLDER = "my-lessons"
SERVER_START_S = 90
RUN_ALL_S = 240

# JupyterLab user settings for the test's own config folder: every cell kept in the page (no
# windowing, so each cell can be found by its index) and no news or update check.
LAB_SETTINGS = {
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {
        "fetchNews": "false",
        "checkForUpdates": False,
    },
}

try:
    from playwright.sync_api import expect, sync_playwright
except ImportError:  # pragma: no cover - the dev extra installs it
    sync_playwright = None


def _unavailable(message: str) -> None:
    """Skip on a developer's machine, fail under CI, where the browser must be there."""
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="module")
def browser():
    """Debian's chromium, headless, launched by Playwright with executable_path."""
    if sync_playwright is None:
        _unavailable("the playwright package is missing: `make test` installs the dev extra")
    if not os.access(CHROMIUM, os.X_OK):
        _unavailable(
            f"Debian's chromium is not installed ({CHROMIUM}): `apt-get install chromium` "
            "(CI's .ci/run installs it)"
        )
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS, timeout=60_000
        )
        try:
            yield browser
        finally:
            browser.close()


# --------------------------------------------------------------------------------------------
# JupyterLab on a temporary copy of the course


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _course_copy(folder: Path) -> Path:
    """nbgrader_config.py, source/ and release/ of the released lessons, and the learner's
    filled-in copies in my-lessons/."""
    folder.mkdir(parents=True)
    shutil.copyfile(ROOT / "nbgrader_config.py", folder / "nbgrader_config.py")
    ignore = shutil.ignore_patterns(*notebooks.IGNORED)
    for lesson in RELEASED:
        for step in ("source", "release"):
            shutil.copytree(ROOT / step / lesson, folder / step / lesson, ignore=ignore)
        notebooks.write(
            filled_release(lesson), folder / LEARNER_FOLDER / lesson / f"{lesson}.ipynb"
        )
    return folder


def _stop(process: subprocess.Popen) -> None:
    """Stop the server and its kernels (its own process group): TERM, then KILL."""
    if process.poll() is not None:
        return
    for sig, wait in ((signal.SIGTERM, 15), (signal.SIGKILL, 5)):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        try:
            process.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


@pytest.fixture(scope="module")
def lab(tmp_path_factory, browser):
    """A running JupyterLab: {"url", "token", "course", "log"}; stopped after the module.
    (It asks for the browser first, so a missing browser skips or fails before it starts.)"""
    tmp = tmp_path_factory.mktemp("lab")
    course = _course_copy(tmp / "course")
    config = tmp / "jupyter-config"
    for name, values in LAB_SETTINGS.items():
        path = config / "lab" / "user-settings" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values))
    port, token = _free_port(), uuid.uuid4().hex
    scripts = str(Path(sys.executable).parent)
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("PYTHONPATH", "DISPLAY", "MUJOCO_GL", "PYOPENGL_PLATFORM")
        and key not in ("NBGRADER_EXECUTION", "MENAGERIE_ROOT", "JUPYTER_RUNTIME_DIR")
    }
    env.update(
        PATH=os.pathsep.join([scripts, env.get("PATH", "")]),  # nbgrader runs alembic
        JUPYTER_CONFIG_DIR=str(config),
        JUPYTER_DATA_DIR=str(tmp / "jupyter-data"),
        IPYTHONDIR=str(startup_folder(tmp / "ipython", {"00-offline.py": OFFLINE_GUARD})),
        COURSE_OFFLINE_LOG=str(tmp / "network-attempts.jsonl"),
        MENAGERIE_CACHE_DIR=str(tmp / "menagerie-cache"),
        NBGRADER_EXCHANGE=str(tmp / "exchange"),
    )
    (tmp / "exchange").mkdir()
    log_path = tmp / "jupyterlab.log"
    command = [
        sys.executable,
        "-m",
        "jupyterlab",
        "--no-browser",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={course}",
    ] + (["--allow-root"] if os.geteuid() == 0 else [])  # CI runs as root
    with open(log_path, "w") as log:
        process = subprocess.Popen(
            command,
            cwd=course,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + SERVER_START_S
        while True:
            if process.poll() is not None:
                pytest.fail(f"JupyterLab exited ({process.returncode}):\n{log_path.read_text()}")
            try:
                with urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=5):
                    break
            except (urllib.error.URLError, OSError):
                if time.monotonic() > deadline:
                    pytest.fail(f"JupyterLab did not answer in {SERVER_START_S} s")
                time.sleep(0.5)
        yield {"url": url, "token": token, "course": course, "log": log_path}
    finally:
        _stop(process)


# --------------------------------------------------------------------------------------------
# What the learner does and sees


def _menu(page, menu: str, item: str) -> None:
    """Click a menu of the menu bar, then one of its items."""
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(f"^{menu}$")).click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(f"^{item}$")).click()


def _dismiss_toasts(page) -> None:
    """Close any notification (the news question) that would cover the notebook."""
    for button in page.locator(".Toastify__toast .jp-toast-button, .Toastify__close-button").all():
        try:
            button.click(timeout=1000)
        except Exception:  # a toast that went away by itself
            pass


def _wait_for_run_all(page, n_prompts: int) -> None:
    """Wait until every code cell shows an execution count ([n]:), none queued or running.
    (A cell whose source is hidden shows no prompt: n_prompts counts the others.)"""
    page.wait_for_function(
        """(n) => {
            const prompts = [...document.querySelectorAll(
                '.jp-Notebook .jp-CodeCell .jp-InputArea-prompt')];
            return prompts.length === n
                && prompts.every(p => /^\\[\\d+\\]:$/.test(p.textContent.trim()));
        }""",
        arg=n_prompts,
        timeout=RUN_ALL_S * 1000,
        polling=500,
    )


def _cell(page, index: int):
    return page.locator(".jp-Notebook .jp-Cell").nth(index)


def _shoot(page, locator, name: str) -> Path:
    ARTEFACTS.mkdir(exist_ok=True)
    path = ARTEFACTS / name
    locator.scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    page.screenshot(path=str(path))
    return path


@pytest.mark.timeout(600)
@pytest.mark.parametrize("lesson", RELEASED)
def test_lesson_runs_in_jupyterlab(lesson, lab, browser):
    """Run All: no error, one set-up line, each quiz answers a click, the video plays."""
    nb = filled_release(lesson)
    n_prompts = sum(
        1 for _, cell in code_cells(nb) if not cell.metadata.get("jupyter", {}).get("source_hidden")
    )
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page_errors = []
    page.on("pageerror", lambda error: page_errors.append(str(error)))
    try:
        # A workspace of its own, reset, so the lessons opened before it are not restored
        # beside it (every locator below assumes one open notebook).
        page.goto(
            f"{lab['url']}/lab/workspaces/{lesson}/tree/{LEARNER_FOLDER}/{lesson}/{lesson}.ipynb"
            f"?reset&token={lab['token']}"
        )
        expect(page.locator(".jp-Notebook .jp-Cell").first).to_be_visible(timeout=60_000)
        expect(page.locator(".jp-Notebook .jp-Cell")).to_have_count(len(nb.cells))
        # The kernel must be up before Run All, or the first cells would wait in a queue.
        kernel = page.locator("#jp-main-statusbar .jp-StatusBar-TextItem", has_text=" | ")
        expect(kernel).to_contain_text("| Idle", timeout=60_000)
        _dismiss_toasts(page)
        _shoot(page, _cell(page, 0), f"{lesson}-opened.png")

        _menu(page, "Run", "Run All Cells")
        _wait_for_run_all(page, n_prompts)

        # No error output anywhere (JupyterLab shows tracebacks and stderr with this type).
        stderr = page.locator(
            ".jp-Notebook .jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']"
        )
        assert stderr.count() == 0, (
            f"{lesson}: error output in the page: {stderr.all_inner_texts()}"
        )

        # The set-up cell prints one short line.
        setup = _cell(page, setup_cell.setup_cell_index(nb)).locator(".jp-OutputArea-output")
        lines = [line for line in "\n".join(setup.all_inner_texts()).splitlines() if line.strip()]
        assert len(lines) == 1 and len(lines[0]) <= 100, f"{lesson}: set-up printed {lines}"

        # Every predict-first widget renders with nothing chosen, and a click records the
        # letter and reveals the explanation.
        quizzes = choose_calls(nb)
        for number, (index, name) in enumerate(quizzes):
            cell = _cell(page, index)
            radios = cell.locator(".widget-radio-box input[type='radio']")
            expect(radios.first).to_be_attached(timeout=30_000)
            assert radios.count() >= 2, f"{lesson} cell {index}: {radios.count()} choices"
            labels = cell.locator(".widget-radio-box label").all_inner_texts()
            assert [label.strip()[:2] for label in labels] == [
                f"{letter}." for letter in "ABCDEFGH"[: len(labels)]
            ], labels
            checked = [i for i, radio in enumerate(radios.all()) if radio.is_checked()]
            output = cell.locator(".widget-output")
            if not checked:  # nothing recorded yet: the explanation stays hidden
                assert output.inner_text().strip() == "", f"{name}: text before a click"
            click = 1 if checked != [1] else 0
            radios.nth(click).scroll_into_view_if_needed()
            radios.nth(click).click()
            letter = "ABCDEFGH"[click]
            expect(output).to_contain_text(
                f'Recorded for this session: {name} = "{letter}".', timeout=15_000
            )
            assert len(output.inner_text().strip().splitlines()) >= 2, (
                f"{name}: no explanation after the click: {output.inner_text()!r}"
            )
            if number == 0:
                _shoot(page, cell, f"{lesson}-quiz.png")

        # Each video cell shows a <video> that loads, and is small.
        for index in video_cells(nb):
            cell = _cell(page, index)
            video = cell.locator("video")
            expect(video.first).to_be_attached(timeout=30_000)
            video.first.scroll_into_view_if_needed()
            handle = video.first.element_handle()
            page.wait_for_function("(v) => v.readyState >= 2", arg=handle, timeout=30_000)
            state = video.first.evaluate(
                """(v) => ({readyState: v.readyState, duration: v.duration,
                            width: v.videoWidth,
                            bytes: Math.floor(((v.currentSrc || '').split(',')[1] || '')
                                              .length * 3 / 4)})"""
            )
            assert state["duration"] > 0 and state["width"] > 0, f"{lesson} cell {index}: {state}"
            assert 0 < state["bytes"] < VIDEO_LIMIT_BYTES, f"{lesson} cell {index}: {state}"
            _shoot(page, cell, f"{lesson}-video.png")

        # What the learner would save has no error output either.
        _menu(page, "File", "Save Notebook")
        saved = lab["course"] / LEARNER_FOLDER / lesson / f"{lesson}.ipynb"
        deadline = time.monotonic() + 30
        while (written := _read_when_written(saved)) is None or not any(
            c.get("outputs") for c in written.cells
        ):
            assert time.monotonic() < deadline, f"{lesson}: the notebook was not saved"
            time.sleep(0.5)
        assert errors(written) == [], f"{lesson}: errors in the saved notebook"
    except Exception:
        ARTEFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTEFACTS / f"{lesson}-failure.png"))
        if page_errors:
            print(f"page errors: {page_errors}")
        print(lab["log"].read_text()[-4000:])
        raise
    finally:
        page.close()


@pytest.mark.timeout(300)
def test_formgrader_lists_every_lesson(lab, browser):
    """The instructor's formgrader (nbgrader's Manage Assignments) lists every lesson."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        page.goto(f"{lab['url']}/formgrader?token={lab['token']}")
        heading = page.get_by_role("heading", name="Manage Assignments")
        expect(heading).to_be_visible(timeout=60_000)
        table = page.locator("#main-table")
        for lesson in RELEASED:
            expect(table).to_contain_text(lesson, timeout=60_000)
        _shoot(page, table, "formgrader.png")
    except Exception:
        ARTEFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTEFACTS / "formgrader-failure.png"))
        print(lab["log"].read_text()[-4000:])
        raise
    finally:
        page.close()


def _read_when_written(path):
    """The saved notebook, or None while JupyterLab is still writing it (empty or partial)."""
    try:
        return notebooks.read(path)
    except ValueError:  # nbformat's NotJSONError is a ValueError
        return None
