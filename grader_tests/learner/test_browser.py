"""The lessons as a learner meets them: JupyterLab 4 in a real browser.

Two JupyterLab servers (127.0.0.1, a free port, a token, their own config and data folders)
serve temporary copies of the course:

- the instructor's (no learner config, as `.venv/bin/jupyter lab` from the course directory):
  nbgrader_config.py, source/ and release/ of every released lesson, and
  my-lessons/<lesson>/<lesson>.ipynb, the release notebook with the solution answers filled in;
- the learner's, started as `make lab` starts it (JUPYTER_CONFIG_PATH=lab/learner, nbgrader's
  UI off), serving blank copies of release/ as a learner gets them, one copy per kind of test
  (run-all/, wrong-answer/, quiz/), so no test sees another's edits.

Debian's chromium, driven by Playwright (never a browser Playwright downloads), opens the
notebooks and checks what the learner sees:

- a filled-in lesson, Run All: no error output, the set-up cell's one line, every quiz widget
  rendered and answering a click (a prediction says right or wrong, then why; a graded
  question's buttons only record), the drop video loaded, the saved notebook free of errors;
- the learner's JupyterLab: no nbgrader menu or "Create Assignment" sidebar (the instructor's
  has both, which proves the selectors), the set-up cell folded;
- a blank lesson, Run All: it reaches the last cell, with no raw error output (a "…" line for
  an unwritten function, or a check's short block, is what the learner should see);
- a wrong answer typed into the lesson's first graded function (a mistake fixture's text):
  its check shows one block of at most 8 lines with the hint, no traceback through course code;
- a predict-first question: the first click, on the right letter, says "Right:" and reminds
  the learner to write the line in the answer cell; a wrong one "Not this one:"; every quiz's
  labels stay within the cell (a long choice wraps).

Screenshots go to grader_tests/artefacts/. The formgrader page, opened as the instructor (the
user running the server), must list every lesson.

The kernels have no network (learner_checks.OFFLINE_GUARD), so the Menagerie cell prints its
offline line whether or not the machine is online, and the run is bounded in time. Each test
shuts down the kernels it started.

Needs /usr/bin/chromium (`apt-get install chromium`; .ci/run installs it). Without it the tests
are skipped with that message, except under CI (CI=true), where they fail.
"""

from __future__ import annotations

import contextlib
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
from chromium import launch
from course_copies import course_copy
from learner_checks import (
    OFFLINE_GUARD,
    RECORDED,
    RELEASED,
    RIGHT,
    ROOT,
    VIDEO_LIMIT_BYTES,
    WRONG,
    check_block_problems,
    code_cells,
    errors,
    feedback_problems,
    quiz_cells,
    saved_error_problems,
    startup_folder,
    video_cells,
    wrong_answer,
)
from nbgrader_harness import blank_release, filled_release

from classroom import setup_cell
from classroom.nbgrader_ext import notebooks
from course import quiz

ARTEFACTS = Path(__file__).resolve().parents[1] / "artefacts"
LEARNER_CONFIG = ROOT / "lab" / "learner"

VIEWPORT = {"width": 1280, "height": 900}
LEARNER_FOLDER = "my-lessons"
# The learner's server: one blank copy of release/ per kind of test.
LEARNER_COPIES = ("run-all", "wrong-answer", "quiz")
SERVER_START_S = 90
RUN_ALL_S = 240

# JupyterLab user settings for the test's own config folders: every cell kept in the page (no
# windowing, so each cell can be found by its index), no news or update check, and no autosave
# (a test saves when it means to).
LAB_SETTINGS = {
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {
        "fetchNews": "false",
        "checkForUpdates": False,
    },
    "@jupyterlab/docmanager-extension/plugin.jupyterlab-settings": {"autosave": False},
}
# Environment variables a server must not inherit: they would choose the kernel's packages,
# its OpenGL back end, its grading mode, its Menagerie copy or the server's configuration.
SERVER_ENV_DROPPED = (
    "PYTHONPATH",
    "DISPLAY",
    "MUJOCO_GL",
    "PYOPENGL_PLATFORM",
    "NBGRADER_EXECUTION",
    "MENAGERIE_ROOT",
    "JUPYTER_RUNTIME_DIR",
    "JUPYTER_CONFIG_PATH",
)

try:
    from playwright.sync_api import expect
except ImportError:  # pragma: no cover - the dev extra installs it; launch() says so
    expect = None

browser = pytest.fixture(scope="module")(launch)


# --------------------------------------------------------------------------------------------
# JupyterLab on a temporary copy of the course


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _course_copy(folder: Path) -> Path:
    """nbgrader_config.py, source/ and release/ of the released lessons, and the learner's
    filled-in copies in my-lessons/."""
    course_copy(folder, *RELEASED)
    for lesson in RELEASED:
        notebooks.write(
            filled_release(lesson), folder / LEARNER_FOLDER / lesson / f"{lesson}.ipynb"
        )
    return folder


def _learner_copies(folder: Path) -> Path:
    """release/ as `make lab` copies it for a learner, once in each of LEARNER_COPIES."""
    ignore = shutil.ignore_patterns(*notebooks.IGNORED)
    for copy in LEARNER_COPIES:
        for lesson in RELEASED:
            shutil.copytree(ROOT / "release" / lesson, folder / copy / lesson, ignore=ignore)
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


def _server_env(tmp: Path, config_path: Path | None) -> dict[str, str]:
    """The server's environment: its own config, data and IPython folders, the kernel offline,
    and JUPYTER_CONFIG_PATH only for the learner's server."""
    config = tmp / "jupyter-config"
    for name, values in LAB_SETTINGS.items():
        path = config / "lab" / "user-settings" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values))
    env = {key: value for key, value in os.environ.items() if key not in SERVER_ENV_DROPPED}
    env.update(
        PATH=os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")]),
        JUPYTER_CONFIG_DIR=str(config),
        JUPYTER_DATA_DIR=str(tmp / "jupyter-data"),
        IPYTHONDIR=str(startup_folder(tmp / "ipython", {"00-offline.py": OFFLINE_GUARD})),
        COURSE_OFFLINE_LOG=str(tmp / "network-attempts.jsonl"),
        MENAGERIE_CACHE_DIR=str(tmp / "menagerie-cache"),
        NBGRADER_EXCHANGE=str(tmp / "exchange"),
    )
    (tmp / "exchange").mkdir(exist_ok=True)
    if config_path is not None:
        env["JUPYTER_CONFIG_PATH"] = str(config_path)
    return env


def _wait_until_up(process: subprocess.Popen, url: str, token: str, log_path: Path) -> None:
    deadline = time.monotonic() + SERVER_START_S
    while True:
        if process.poll() is not None:
            pytest.fail(f"JupyterLab exited ({process.returncode}):\n{log_path.read_text()}")
        try:
            with urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=5):
                return
        except (urllib.error.URLError, OSError):
            if time.monotonic() > deadline:
                pytest.fail(f"JupyterLab did not answer in {SERVER_START_S} s")
            time.sleep(0.5)


@contextlib.contextmanager
def _serve(tmp: Path, course: Path, config_path: Path | None = None):
    """A running JupyterLab on `course`: {"url", "token", "course", "log"}; stopped on exit."""
    env = _server_env(tmp, config_path)
    port, token = _free_port(), uuid.uuid4().hex
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
    log_path = tmp / "jupyterlab.log"
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
        _wait_until_up(process, url, token, log_path)
        yield {"url": url, "token": token, "course": course, "log": log_path}
    finally:
        _stop(process)


@pytest.fixture(scope="module")
def lab(tmp_path_factory, browser):
    """The instructor's JupyterLab, nbgrader's UI on; stopped after the module.
    (It asks for the browser first, so a missing browser skips or fails before it starts.)"""
    tmp = tmp_path_factory.mktemp("lab")
    with _serve(tmp, _course_copy(tmp / "course")) as server:
        yield server


@pytest.fixture(scope="module")
def learner_lab(tmp_path_factory, browser):
    """The learner's JupyterLab, started as `make lab` starts it (JUPYTER_CONFIG_PATH=
    lab/learner), on blank copies of release/; stopped after the module."""
    tmp = tmp_path_factory.mktemp("learner-lab")
    with _serve(tmp, _learner_copies(tmp / "course"), LEARNER_CONFIG) as server:
        yield server


def _shutdown_kernels(server) -> None:
    """End every session of the server, and so its kernel: a page left running kernels."""
    api = f"{server['url']}/api/sessions"
    headers = {"Authorization": f"token {server['token']}"}
    try:
        with urllib.request.urlopen(urllib.request.Request(api, headers=headers), timeout=10) as r:
            sessions = json.load(r)
        for session in sessions:
            ending = urllib.request.Request(
                f"{api}/{session['id']}", method="DELETE", headers=headers
            )
            urllib.request.urlopen(ending, timeout=30).close()
    except (urllib.error.URLError, OSError) as exc:  # the next test's kernel starts anyway
        print(f"could not end the sessions of {server['url']}: {exc}")


# --------------------------------------------------------------------------------------------
# What the learner does and sees


@contextlib.contextmanager
def _page(browser, server, failure_name: str):
    """A new page; on a failure a screenshot (artefacts/<failure_name>), the page's errors and
    the server's log; afterwards the page closed and the server's kernels ended."""
    page = browser.new_page(viewport=VIEWPORT)
    page_errors = []
    page.on("pageerror", lambda error: page_errors.append(str(error)))
    try:
        yield page
    except Exception:
        ARTEFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTEFACTS / failure_name))
        if page_errors:
            print(f"page errors: {page_errors}")
        print(server["log"].read_text()[-4000:])
        raise
    finally:
        page.close()
        _shutdown_kernels(server)


def _open(page, server, path: str, nb, workspace: str) -> None:
    """Open the notebook at `path` (relative to the server's root) in a workspace of its own,
    reset, so notebooks opened before it are not restored beside it (every locator below
    assumes one open notebook); wait for every cell and an idle kernel."""
    page.goto(
        f"{server['url']}/lab/workspaces/{workspace}/tree/{path}?reset&token={server['token']}"
    )
    expect(page.locator(".jp-Notebook .jp-Cell").first).to_be_visible(timeout=60_000)
    expect(page.locator(".jp-Notebook .jp-Cell")).to_have_count(len(nb.cells))
    # The kernel must be up before anything runs, or the first cells would wait in a queue.
    kernel = page.locator("#jp-main-statusbar .jp-StatusBar-TextItem", has_text=" | ")
    expect(kernel).to_contain_text("| Idle", timeout=60_000)
    _dismiss_toasts(page)


def _menu(page, menu: str, item: str) -> None:
    """Click a menu of the menu bar, then one of its items."""
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(f"^{menu}$")).click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(f"^{re.escape(item)}$")).click()


def _dismiss_toasts(page) -> None:
    """Close any notification (the news question) that would cover the notebook."""
    for button in page.locator(".Toastify__toast .jp-toast-button, .Toastify__close-button").all():
        try:
            button.click(timeout=1000)
        except Exception:  # a toast that went away by itself
            pass


def _folded(cell) -> bool:
    return bool(cell.metadata.get("jupyter", {}).get("source_hidden"))


def _wait_for_run_to_stop(page) -> None:
    """Wait until Run All has stopped, at the end or at an exception: some cell has run and
    none is queued or running ([*]:), three polls in a row."""
    page.evaluate("() => { window.__courseQuiet = 0; }")
    page.wait_for_function(
        """() => {
            const prompts = [...document.querySelectorAll(
                '.jp-Notebook .jp-CodeCell .jp-InputArea-prompt')].map(p => p.textContent.trim());
            const busy = prompts.some(p => p === '[*]:');
            const ran = prompts.some(p => /^\\[\\d+\\]:$/.test(p));
            window.__courseQuiet = busy || !ran ? 0 : window.__courseQuiet + 1;
            return window.__courseQuiet >= 3;
        }""",
        timeout=RUN_ALL_S * 1000,
        polling=500,
    )


def _cell(page, index: int):
    return page.locator(".jp-Notebook .jp-Cell").nth(index)


def _prompt(page, index: int) -> str:
    prompt = _cell(page, index).locator(".jp-InputArea-prompt")
    return prompt.first.inner_text().strip() if prompt.count() else ""


def _run_cells_above(page, index: int) -> None:
    """Select cell `index` (by its prompt: a click that neither edits nor unfolds) and run
    every cell above it, as Run > Run All Above Selected Cell does."""
    _cell(page, index).locator(".jp-InputPrompt").first.click()
    expect(_cell(page, index)).to_have_class(re.compile(r"\bjp-mod-active\b"))
    _menu(page, "Run", "Run All Above Selected Cell")


def _run_cell(page, index: int) -> None:
    """Select the code cell `index` by its prompt, run it (Ctrl+Enter) and wait for its count."""
    _cell(page, index).locator(".jp-InputPrompt").first.click()
    expect(_cell(page, index)).to_have_class(re.compile(r"\bjp-mod-active\b"))
    page.keyboard.press("Control+Enter")
    _wait_for_count(page, index)


def _wait_for_count(page, index: int) -> None:
    prompt = _cell(page, index).locator(".jp-InputArea-prompt")
    expect(prompt).to_have_text(re.compile(r"^\[\d+\]:$"), timeout=60_000)


def _shoot(page, locator, name: str) -> Path:
    ARTEFACTS.mkdir(exist_ok=True)
    path = ARTEFACTS / name
    locator.scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    page.screenshot(path=str(path))
    return path


def _save(page, saved: Path):
    """File > Save Notebook, then the notebook as written to disk (with outputs)."""
    _menu(page, "File", "Save Notebook")
    deadline = time.monotonic() + 30
    while (written := _read_when_written(saved)) is None or not any(
        c.get("outputs") for c in written.cells
    ):
        assert time.monotonic() < deadline, f"{saved.name} was not saved"
        time.sleep(0.5)
    return written


def _read_when_written(path):
    """The saved notebook, or None while JupyterLab is still writing it (empty or partial)."""
    try:
        return notebooks.read(path)
    except ValueError:  # nbformat's NotJSONError is a ValueError
        return None


def _error_texts(page, index: int | None = None) -> list[str]:
    """What the page shows as error output (tracebacks and stderr share this type), in one
    cell or in the whole notebook."""
    scope = page.locator(".jp-Notebook") if index is None else _cell(page, index)
    found = scope.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
    return found.all_inner_texts()


def _nbgrader_ui(page) -> dict[str, list[str]]:
    """nbgrader's pieces in the page: its menu, its sidebar tabs, any "Create Assignment"."""
    return page.evaluate(
        """() => ({
            menus: [...document.querySelectorAll('.lm-MenuBar-itemLabel')]
                .map(m => m.textContent.trim()).filter(t => /nbgrader/i.test(t)),
            tabs: [...document.querySelectorAll('.jp-SideBar .lm-TabBar-tab')]
                .filter(t => /nbgrader|create.assignment/i.test(
                    (t.dataset.id || '') + ' ' + (t.title || '') + ' ' + t.textContent))
                .map(t => t.title || t.dataset.id),
            texts: document.body.innerText.includes('Create Assignment')
                ? ['Create Assignment'] : [],
        })"""
    )


def _setup_problems(page, nb) -> list[str]:
    """What shows the set-up cell's source in JupyterLab: it should be folded to its title."""
    index = setup_cell.setup_cell_index(nb)
    problems = [] if _folded(nb.cells[index]) else ["jupyter.source_hidden is not set"]
    cell = _cell(page, index)
    placeholder = cell.locator(".jp-InputPlaceholder")
    if not placeholder.count() or not placeholder.first.is_visible():
        problems.append("the cell is not folded to a placeholder")
    elif setup_cell.SETUP_TITLE not in placeholder.first.inner_text():
        problems.append(f"the fold shows {placeholder.first.inner_text()!r}")
    editors = cell.locator(".jp-InputArea-editor")
    if any(editor.is_visible() for editor in editors.all()):
        problems.append("its source editor is visible")
    return problems


def _stopped_at(page, nb) -> str:
    """Where Run All stopped: the first visible code cell without a count, and the error shown."""
    for index, cell in code_cells(nb):
        if not _folded(cell) and not re.fullmatch(r"\[\d+\]:", _prompt(page, index)):
            shown = [(i, text) for i, _ in code_cells(nb) for text in _error_texts(page, i)]
            return f"cell {index} never ran; error output shown: {shown[:3]}"
    return ""


# --------------------------------------------------------------------------------------------
# The instructor's JupyterLab: a filled-in lesson, the formgrader, nbgrader's UI


def _check_quizzes(page, nb, lesson: str) -> None:
    """Every quiz widget renders with nothing chosen (or the answer cell's letter), and a
    click records the letter: a prediction then says right or wrong and why, a graded
    question's buttons say nothing more."""
    for number, question in enumerate(quiz_cells(nb)):
        cell = _cell(page, question.index)
        radios = cell.locator(".widget-radio-box input[type='radio']")
        expect(radios.first).to_be_attached(timeout=30_000)
        assert radios.count() == question.choices, f"{lesson}: {question}: {radios.count()}"
        labels = cell.locator(".widget-radio-box label").all_inner_texts()
        assert [label.strip()[:2] for label in labels] == [
            f"{letter}." for letter in "ABCDEFGH"[: len(labels)]
        ], labels
        overflowing = _labels_past_the_edge(cell)
        assert overflowing == [], f"{lesson}: {question.name}: labels past the cell's edge"
        checked = [i for i, radio in enumerate(radios.all()) if radio.is_checked()]
        output = cell.locator(".widget-output")
        if not checked:  # nothing recorded yet: the explanation stays hidden
            assert output.inner_text().strip() == "", f"{question.name}: text before a click"
        click = 1 if checked != [1] else 0
        radios.nth(click).scroll_into_view_if_needed()
        radios.nth(click).click()
        letter = "ABCDEFGH"[click]
        expect(output).to_contain_text(
            RECORDED.format(name=question.name, letter=letter), timeout=15_000
        )
        problems = feedback_problems(question.name, letter, question.answer, output.inner_text())
        assert not problems, f"{lesson}: {problems}"
        if number == 0:
            _shoot(page, cell, f"{lesson}-quiz.png")


def _labels_past_the_edge(cell) -> list[str]:
    """The quiz labels of `cell` whose right edge lies beyond the cell's: a long choice must
    wrap inside the notebook, not run past its right edge."""
    edge = cell.bounding_box()
    return [
        label.inner_text()
        for label in cell.locator(".widget-radio-box label").all()
        if (box := label.bounding_box()) and box["x"] + box["width"] > edge["x"] + edge["width"] + 1
    ]


def _check_videos(page, nb, lesson: str) -> None:
    """Each video cell shows a <video> that loads, and is small."""
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


@pytest.mark.timeout(600)
@pytest.mark.parametrize("lesson", RELEASED)
def test_lesson_runs_in_jupyterlab(lesson, lab, browser):
    """Run All: no error, one set-up line, each quiz answers a click, the video plays."""
    nb = filled_release(lesson)
    with _page(browser, lab, f"{lesson}-failure.png") as page:
        _open(page, lab, f"{LEARNER_FOLDER}/{lesson}/{lesson}.ipynb", nb, lesson)
        _shoot(page, _cell(page, 0), f"{lesson}-opened.png")

        _menu(page, "Run", "Run All Cells")
        _wait_for_run_to_stop(page)
        stopped = _stopped_at(page, nb)
        assert not stopped, f"{lesson}: Run All stopped early: {stopped}"
        errors_shown = _error_texts(page)
        assert errors_shown == [], f"{lesson}: error output in the page: {errors_shown}"

        # The set-up cell prints one short line.
        setup = _cell(page, setup_cell.setup_cell_index(nb)).locator(".jp-OutputArea-output")
        lines = [line for line in "\n".join(setup.all_inner_texts()).splitlines() if line.strip()]
        assert len(lines) == 1 and len(lines[0]) <= 100, f"{lesson}: set-up printed {lines}"

        _check_quizzes(page, nb, lesson)
        _check_videos(page, nb, lesson)

        # What the learner would save has no error output either.
        saved = _save(page, lab["course"] / LEARNER_FOLDER / lesson / f"{lesson}.ipynb")
        assert errors(saved) == [], f"{lesson}: errors in the saved notebook"


@pytest.mark.timeout(300)
def test_formgrader_lists_every_lesson(lab, browser):
    """The instructor's formgrader (nbgrader's Manage Assignments) lists every lesson."""
    with _page(browser, lab, "formgrader-failure.png") as page:
        page.goto(f"{lab['url']}/formgrader?token={lab['token']}")
        heading = page.get_by_role("heading", name="Manage Assignments")
        expect(heading).to_be_visible(timeout=60_000)
        table = page.locator("#main-table")
        for lesson in RELEASED:
            expect(table).to_contain_text(lesson, timeout=60_000)
        _shoot(page, table, "formgrader.png")


@pytest.mark.timeout(300)
def test_instructor_lab_keeps_nbgrader_ui(lab, browser):
    """The instructor's JupyterLab shows nbgrader's menu and its "Create Assignment" sidebar
    (so the learner's test below, which finds neither, looks in the right places)."""
    lesson = RELEASED[-1]
    nb = filled_release(lesson)
    with _page(browser, lab, "instructor-lab-failure.png") as page:
        _open(page, lab, f"{LEARNER_FOLDER}/{lesson}/{lesson}.ipynb", nb, "instructor-ui")
        expect(page.locator(".lm-MenuBar-itemLabel", has_text="Nbgrader")).to_be_visible()
        ui = _nbgrader_ui(page)
        assert ui["menus"] and ui["tabs"] and ui["texts"], ui


# --------------------------------------------------------------------------------------------
# The learner's JupyterLab, on blank lessons


@pytest.mark.timeout(300)
def test_learner_lab_has_no_nbgrader_ui(learner_lab, browser):
    """The learner's JupyterLab (`make lab`): no nbgrader menu, no "Create Assignment" or other
    nbgrader sidebar, and the set-up cell folded to its title line."""
    lesson = RELEASED[-1]
    nb = blank_release(lesson)
    with _page(browser, learner_lab, "learner-lab-failure.png") as page:
        _open(page, learner_lab, f"run-all/{lesson}/{lesson}.ipynb", nb, "learner-ui")
        expect(page.locator(".lm-MenuBar-itemLabel", has_text="Help")).to_be_visible()
        page.wait_for_timeout(2000)  # every extension has had its turn to add its menus
        ui = _nbgrader_ui(page)
        assert ui == {"menus": [], "tabs": [], "texts": []}, f"nbgrader in the learner's lab: {ui}"
        assert _setup_problems(page, nb) == [], f"{lesson}: the set-up cell"
        _shoot(page, _cell(page, 0), "learner-lab.png")


@pytest.mark.timeout(600)
@pytest.mark.parametrize("lesson", RELEASED)
def test_blank_lesson_runs_to_the_end(lesson, learner_lab, browser):
    """Run All on the blank release reaches the last cell (every code cell gets a count), with
    no raw error output: unwritten functions say so in one line; the set-up cell is folded."""
    nb = blank_release(lesson)
    with _page(browser, learner_lab, f"{lesson}-blank-failure.png") as page:
        _open(page, learner_lab, f"run-all/{lesson}/{lesson}.ipynb", nb, f"{lesson}-blank")
        assert _setup_problems(page, nb) == [], f"{lesson}: the set-up cell"
        _menu(page, "Run", "Run All Cells")
        _wait_for_run_to_stop(page)
        stopped = _stopped_at(page, nb)
        assert not stopped, f"{lesson}: Run All stopped early: {stopped}"
        shown = [problem for text in _error_texts(page) for problem in check_block_problems(text)]
        assert shown == [], f"{lesson}: raw error output in the page: {shown}"
        last = max(index for index, _ in code_cells(nb))
        _shoot(page, _cell(page, last), f"{lesson}-blank-run-all.png")

        saved = _save(page, learner_lab["course"] / "run-all" / lesson / f"{lesson}.ipynb")
        unrun = [i for i, cell in code_cells(saved) if cell.get("execution_count") is None]
        assert unrun == [], f"{lesson}: code cells without an execution count: {unrun}"
        counts = [cell.execution_count for _, cell in code_cells(saved)]
        assert saved.cells[last].execution_count == max(counts), f"{lesson}: {counts}"
        assert saved_error_problems(saved) == [], f"{lesson}: raw error output when saved"


def _type_answer(page, index: int, text: str) -> None:
    """Replace the answer cell's source through its editor, as a learner types it."""
    editor = _cell(page, index).locator(".jp-InputArea-editor .cm-content")
    editor.click()
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(text)  # as typed, without the editor's auto-indent on Enter
    lines = editor.locator(".cm-line").all_text_contents()  # innerText doubles empty lines
    typed = "\n".join(line.replace("\u00a0", " ").rstrip() for line in lines).strip("\n")
    wanted = "\n".join(line.rstrip() for line in text.splitlines()).strip("\n")
    assert typed == wanted, f"the editor holds {typed!r}"


@pytest.mark.timeout(300)
@pytest.mark.parametrize("lesson", RELEASED)
def test_wrong_answer_shows_a_short_check_block(lesson, learner_lab, browser):
    """A wrong answer typed into the lesson's first graded function (a mistake fixture's text):
    its check shows one block of at most 8 lines with the hint, and no traceback."""
    nb = blank_release(lesson)
    case = wrong_answer(lesson)
    with _page(browser, learner_lab, f"{lesson}-wrong-answer-failure.png") as page:
        _open(page, learner_lab, f"wrong-answer/{lesson}/{lesson}.ipynb", nb, f"{lesson}-wrong")
        setup = setup_cell.setup_cell_index(nb)
        _run_cells_above(page, setup + 1)
        expect(_cell(page, setup).locator(".jp-OutputArea-output")).to_have_count(1)

        _type_answer(page, case.answer_index, case.text)
        page.keyboard.press("Control+Enter")
        _wait_for_count(page, case.answer_index)
        assert _error_texts(page, case.answer_index) == [], f"{lesson}: {case.fixture}"
        for index in case.test_indices:
            _run_cell(page, index)
        failing = case.test_indices[-1]
        blocks = _error_texts(page, failing)
        assert len(blocks) == 1, f"{lesson} ({case.fixture}): the check showed {blocks}"
        problems = check_block_problems(blocks[0])
        assert not problems and blocks[0].lstrip().startswith("✗"), f"{lesson}: {problems}"
        flat = " ".join(blocks[0].split())
        assert " ".join(case.hint.split()) in flat, f"{lesson}: no hint {case.hint!r} in {flat!r}"
        assert " ".join(case.message.split()) in flat, f"{lesson}: {flat!r}"
        _shoot(page, _cell(page, failing), f"{lesson}-wrong-answer.png")


@pytest.mark.timeout(300)
@pytest.mark.parametrize("lesson", RELEASED)
def test_quiz_click_says_right_or_wrong(lesson, learner_lab, browser):
    """On the first predict-first question, the first click (on the right letter, the one its
    explanation opens with) records the letter, reminds the learner to write that line in the
    answer cell (quiz.KEEP_IT) and says "Right:"; a second click, on another letter, "Not this
    one:"; each followed by the explanation."""
    nb = blank_release(lesson)
    question = next((q for q in quiz_cells(nb) if q.answer), None)
    assert question, f"{lesson}: no predict-first question tells its right letter"
    wrong = next(letter for letter in "ABCDEFGH" if letter != question.answer)
    with _page(browser, learner_lab, f"{lesson}-quiz-failure.png") as page:
        _open(page, learner_lab, f"quiz/{lesson}/{lesson}.ipynb", nb, f"{lesson}-quiz")
        _run_cells_above(page, question.index + 1)
        cell = _cell(page, question.index)
        radios = cell.locator(".widget-radio-box input[type='radio']")
        expect(radios).to_have_count(question.choices, timeout=60_000)
        output = cell.locator(".widget-output")
        for letter, told, shot in (
            (question.answer, RIGHT, "right"),
            (wrong, WRONG, "wrong"),
        ):
            radios.nth("ABCDEFGH".index(letter)).click()
            verdict = told.format(letter=letter, answer=question.answer)
            expect(output).to_contain_text(verdict, timeout=15_000)
            expect(output).to_contain_text(quiz.KEEP_IT)  # the first click's message too
            problems = feedback_problems(
                question.name, letter, question.answer, output.inner_text()
            )
            assert not problems, f"{lesson}: {problems}"
            _shoot(page, cell, f"{lesson}-quiz-{shot}.png")
