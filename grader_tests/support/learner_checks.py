"""What the learner-experience tests check in a notebook, and the kernels they run it in.

Shared by test_browser.py (JupyterLab in Chromium), test_colab_like.py (Colab's versions) and
test_offline.py (no network): reading an executed notebook (errors, stderr, what the set-up
cell printed, embedded videos, the quiz widgets and what their Output areas received), what a
learner sees (a quiz's feedback after a click, a visible check's block, a wrong answer typed
into a lesson's first function and what its check says) and preparing a kernel (an IPython
startup folder that blocks the network or plays Colab).
"""

from __future__ import annotations

import ast
import base64
import contextlib
import io
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import lesson_code
import nbformat

from classroom import setup_cell
from classroom.nbgrader_ext import notebooks
from course import expect, quiz
from course.lessons import registry

ROOT = Path(__file__).resolve().parents[2]
RELEASED = list(registry())  # the registry's lessons; test_notebook_format checks release/

# A drop clip is a few tens of kilobytes; a clip near this limit means a wrong size or rate.
VIDEO_LIMIT_BYTES = 1_000_000

VIDEO_CALL = re.compile(r"\bshow_(simulation|slow_drop)\(")
CHOOSE_CALL = re.compile(r"""\bquiz\.choose\(\s*["'](\w+)["']""")
EMBEDDED_VIDEO = re.compile(r"data:video/[\w.+-]+;base64,([A-Za-z0-9+/=\s]+)")
OFFLINE_LINE = "is not available offline"
RECORDED = 'Recorded for this session: {name} = "{letter}".'
# What a quiz says after a click when it knows the right letter (a prediction); a graded
# question's buttons say neither.
RIGHT = "Right: {answer}."
WRONG = "Not this one: you chose {letter}, the answer is {answer}."
# A failing visible check in the notebook: one short block, no traceback.
CHECK_BLOCK_LINES = 8
# A traceback's marks, in Python's form (File "...", line 3) and IPython's (File /...:3, in f).
TRACEBACK_LINE = re.compile(
    r'Traceback \(most recent call last\)|File "[^"]*", line \d+|^\s*File \S+:\d+, in |^Cell In\[',
    re.M,
)

# Variables a kernel must not inherit from the test process: they would choose its packages,
# its OpenGL back end, its grading mode or its Menagerie copy.
KERNEL_ENV_DROPPED = (
    "PYTHONPATH",
    "PYTHONHOME",
    "VIRTUAL_ENV",
    "DISPLAY",
    "MUJOCO_GL",
    "PYOPENGL_PLATFORM",
    "NBGRADER_EXECUTION",
    "MENAGERIE_ROOT",
    "JPY_PARENT_PID",
    "http_proxy",
    "https_proxy",
    "all_proxy",
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "ALL_PROXY",
)

# IPython startup file: every connection or name lookup that would leave this machine raises
# OSError and is logged (one JSON line per attempt) to $COURSE_OFFLINE_LOG. Loopback stays open.
OFFLINE_GUARD = '''\
"""Offline guard of the course's tests: nothing leaves the machine; attempts are logged."""
import errno
import ipaddress
import json
import os
import socket

_log_path = os.environ["COURSE_OFFLINE_LOG"]
_connect = socket.socket.connect
_connect_ex = socket.socket.connect_ex
_getaddrinfo = socket.getaddrinfo


def _is_local(host):
    if isinstance(host, bytes):
        host = host.decode()
    if host is None or host in ("", "localhost"):
        return True
    try:
        return ipaddress.ip_address(str(host).split("%")[0]).is_loopback
    except ValueError:
        return False


def _refuse(host, port, how):
    with open(_log_path, "a", encoding="utf-8") as log:
        log.write(json.dumps({"host": str(host), "port": port, "how": how}) + "\\n")
    return OSError(errno.ENETUNREACH, f"offline test: no network for {host}:{port}")


def _guarded_getaddrinfo(host, port, *args, **kwargs):
    if not _is_local(host):
        error = _refuse(host, port, "getaddrinfo")
        raise socket.gaierror(socket.EAI_NONAME, str(error))
    return _getaddrinfo(host, port, *args, **kwargs)


def _guarded_connect(self, address):
    if self.family in (socket.AF_INET, socket.AF_INET6) and not _is_local(address[0]):
        raise _refuse(address[0], address[1], "connect")
    return _connect(self, address)


def _guarded_connect_ex(self, address):
    if self.family in (socket.AF_INET, socket.AF_INET6) and not _is_local(address[0]):
        return _refuse(address[0], address[1], "connect_ex").errno
    return _connect_ex(self, address)


socket.getaddrinfo = _guarded_getaddrinfo
socket.socket.connect = _guarded_connect
socket.socket.connect_ex = _guarded_connect_ex
'''

# IPython startup file: a Colab kernel has google.colab imported; the lessons' first cell and
# course.runtime.in_colab() look for it in sys.modules.
FAKE_COLAB = '''\
"""Stand-in for Colab's google.colab, which a Colab kernel has imported at start."""
import sys
import types

_google = sys.modules.get("google") or types.ModuleType("google")
_google.__path__ = getattr(_google, "__path__", [])
_colab = types.ModuleType("google.colab")
_google.colab = _colab
sys.modules["google"] = _google
sys.modules["google.colab"] = _colab
'''

# Appended to an executed lesson: "clicks" a choice of every quiz widget (the second, or the
# first if the second was already chosen; the browser sets `value` the same way) and every
# option of every other selection widget (the "Break it" toggles), then prints a JSON report.
# Works under ipywidgets 7 and 8.
WIDGET_PROBE = """\
import gc as _gc
import json as _json

import ipywidgets as _ipywidgets

import course as _course
from course import quiz as _quiz

_report = {"ipywidgets": _ipywidgets.__version__, "course": _course.__file__, "choices": []}
_quiz_buttons = set()
for _choice in [o for o in _gc.get_objects() if isinstance(o, _quiz.Choice)]:
    _values = list(_choice.buttons._options_values)
    _letter = next(v for v in _values[1:] + _values[:1] if v != _choice.buttons.value)
    _choice.buttons.value = _letter
    _quiz_buttons.add(_choice.buttons.model_id)
    _report["choices"].append(
        {
            "name": _choice.name,
            "letter": _letter,
            "recorded": get_ipython().user_ns.get(_choice.name),
            "output": _choice.output.model_id,
        }
    )
_registry = getattr(_ipywidgets.widgets.widget, "_instances", None)
if _registry is None:
    _registry = _ipywidgets.Widget.widgets
_report["selections"] = []
for _widget in list(_registry.values()):
    if isinstance(_widget, _ipywidgets.widgets.widget_selection._Selection):
        if _widget.model_id not in _quiz_buttons:
            for _value in _widget._options_values:
                _widget.value = _value
            _report["selections"].append(type(_widget).__name__)
print(_json.dumps(_report))
"""


# --------------------------------------------------------------------------------------------
# Reading a notebook


def code_cells(nb: nbformat.NotebookNode):
    for index, cell in enumerate(nb.cells):
        if cell.cell_type == "code":
            yield index, cell


def errors(nb: nbformat.NotebookNode) -> list[str]:
    """Error outputs, one line each: 'cell N: Name: message'."""
    return [
        f"cell {index}: {output.ename}: {output.evalue[:300]}"
        for index, cell in code_cells(nb)
        for output in cell.get("outputs", [])
        if output.output_type == "error"
    ]


def stderr(nb: nbformat.NotebookNode) -> list[str]:
    """Text written to stderr, one item per cell that wrote any."""
    found = []
    for index, cell in code_cells(nb):
        text = "".join(
            output.text
            for output in cell.get("outputs", [])
            if output.output_type == "stream" and output.name == "stderr"
        )
        if text:
            found.append(f"cell {index}: {text.strip()[:300]}")
    return found


def printed(cell: nbformat.NotebookNode) -> str:
    """What a cell printed on stdout."""
    return "".join(
        output.text
        for output in cell.get("outputs", [])
        if output.output_type == "stream" and output.name == "stdout"
    )


def setup_lines(nb: nbformat.NotebookNode) -> list[str]:
    """Every output line of the set-up cell: what it printed, displayed or raised."""
    cell = nb.cells[setup_cell.setup_cell_index(nb)]
    lines = []
    for output in cell.get("outputs", []):
        if output.output_type == "stream":
            lines += output.text.splitlines()
        elif output.output_type == "error":
            lines.append(f"{output.ename}: {output.evalue}")
        else:
            lines.append(str(output.get("data", {}).get("text/plain", output.output_type)))
    return lines


def choose_calls(nb: nbformat.NotebookNode) -> list[tuple[int, str]]:
    """(cell index, answer variable) of every predict-first widget, `quiz.choose("name", ...)`."""
    return [
        (index, name) for index, cell in code_cells(nb) for name in CHOOSE_CALL.findall(cell.source)
    ]


class QuizCell(NamedTuple):
    """A `quiz.choose(...)` cell: its index, answer variable, number of choices and the right
    letter its buttons reveal (None for a graded question, which passes no `why` or `answer`)."""

    index: int
    name: str
    choices: int
    answer: str | None


def quiz_cells(nb: nbformat.NotebookNode) -> list[QuizCell]:
    """Every quiz.choose call of the notebook, in order, read from its source."""
    found = []
    for index, cell in code_cells(nb):
        if "quiz.choose(" not in cell.source:
            continue
        for node in ast.walk(ast.parse(cell.source)):
            if isinstance(node, ast.Call) and ast.unparse(node.func) == "quiz.choose":
                name, choices = ast.literal_eval(node.args[0]), ast.literal_eval(node.args[1])
                given = {k.arg: ast.literal_eval(k.value) for k in node.keywords if k.arg}
                answer = given.get("answer") or quiz.answer_in(given.get("why"), len(choices))
                found.append(QuizCell(index, name, len(choices), answer))
    return found


def video_cells(nb: nbformat.NotebookNode) -> list[int]:
    """Indices of the code cells that show a simulation video (course.render's
    show_simulation, or a lesson's own, such as lesson 01's show_slow_drop)."""
    return [index for index, cell in code_cells(nb) if VIDEO_CALL.search(cell.source)]


def menagerie_cells(nb: nbformat.NotebookNode) -> list[int]:
    """Indices of the code cells that load a Menagerie model."""
    return [
        index
        for index, cell in code_cells(nb)
        if re.search(r"\bmenagerie\.load_(model|spec)\(", cell.source)
    ]


def embedded_videos(nb: nbformat.NotebookNode) -> list[tuple[int, int]]:
    """(cell index, size in bytes) of every video embedded in the outputs."""
    found = []
    for index, cell in code_cells(nb):
        for output in cell.get("outputs", []):
            html = output.get("data", {}).get("text/html", "")
            html = "".join(html) if isinstance(html, list) else html
            for payload in EMBEDDED_VIDEO.findall(html):
                found.append((index, len(base64.b64decode("".join(payload.split())))))
    return found


def assert_runs_cleanly(lesson: str, nb: nbformat.NotebookNode, where: str) -> None:
    """The executed lesson `nb` has no error output and wrote nothing to stderr (the messages
    say it failed `where`, e.g. "offline"), and its set-up cell printed one line of at most 100
    characters."""
    assert errors(nb) == [], f"{lesson} failed {where}"
    assert stderr(nb) == [], f"{lesson} wrote to stderr {where}"
    lines = setup_lines(nb)
    assert len(lines) == 1 and len(lines[0]) <= 100, f"{lesson}: the set-up cell printed {lines}"


def assert_clips_small(lesson: str, videos: list[tuple[int, int]]) -> None:
    """Each (cell index, size) of `videos` (from embedded_videos) is a clip of more than 0 and
    less than VIDEO_LIMIT_BYTES bytes."""
    for index, size in videos:
        assert 0 < size < VIDEO_LIMIT_BYTES, f"{lesson} cell {index}: a {size}-byte clip"


def output_widget_texts(nb: nbformat.NotebookNode) -> dict[str, str]:
    """{model id: text} of every Output widget, from the widget state nbclient saved."""
    state = nb.metadata.get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {})
    texts = {}
    for model_id, model in state.get("state", {}).items():
        if model.get("model_name") == "OutputModel":
            outputs = model.get("state", {}).get("outputs", [])
            texts[model_id] = "".join(item.get("text", "") for item in outputs)
    return texts


def probe_report(nb: nbformat.NotebookNode) -> dict:
    """The JSON report WIDGET_PROBE printed in the last cell."""
    text = printed(nb.cells[-1]).strip()
    assert text, f"the widget probe printed nothing: {nb.cells[-1].get('outputs')}"
    return json.loads(text.splitlines()[-1])


def widget_problems(nb: nbformat.NotebookNode) -> list[str]:
    """What is wrong with the quiz widgets of a notebook run with WIDGET_PROBE appended."""
    report = probe_report(nb)
    expected = sorted(name for _, name in choose_calls(nb))
    found = sorted(choice["name"] for choice in report["choices"])
    problems = []
    if found != expected:
        problems.append(f"quiz widgets {found}, expected one per quiz.choose call: {expected}")
    texts = output_widget_texts(nb)
    answers = {question.name: question.answer for question in quiz_cells(nb)}
    for choice in report["choices"]:
        name, letter = choice["name"], choice["letter"]
        if choice["recorded"] != letter:
            problems.append(f"{name}: a click on {letter} recorded {choice['recorded']!r}")
        text = texts.get(choice["output"], "")
        problems += feedback_problems(name, letter, answers.get(name), text)
    return problems


def feedback_problems(name: str, letter: str, answer: str | None, text: str) -> list[str]:
    """What is wrong with what a quiz shows after a click on `letter`: first the recorded line;
    then, for a prediction (its right letter `answer` known), whether the letter is right and
    an explanation; for a graded question (`answer` None) nothing more, so no key leaks."""
    lines = [line for line in text.strip().splitlines() if line.strip()]
    if not lines or not lines[0].startswith(RECORDED.format(name=name, letter=letter)):
        return [f"{name}: the widget's feedback after a click on {letter} is {text!r}"]
    if len(lines) < 2 or lines[1] != quiz.KEEP_IT:
        return [f"{name}: no line saying to write the letter in the answer cell: {text!r}"]
    if answer is None:
        if len(lines) != 2:
            return [f"{name}: a graded question's buttons showed more than the record: {text!r}"]
        return []
    told = (RIGHT if letter == answer else WRONG).format(letter=letter, answer=answer)
    if len(lines) < 4 or lines[2] != told:
        return [f"{name}: after a click on {letter}, expected {told!r} and why: {text!r}"]
    return []


def check_block_problems(text: str) -> list[str]:
    """What keeps `text`, an error output as the learner sees it, from being a visible check's
    short block: one mark (✗ a mistake, … not answered), at most CHECK_BLOCK_LINES lines and
    no traceback."""
    lines = [line for line in text.strip().splitlines() if line.strip()]
    problems = []
    if not lines or lines[0][:1] not in ("✗", "…"):
        problems.append(f"not a check's block (no ✗ or … first): {text[:600]!r}")
    if len(lines) > CHECK_BLOCK_LINES:
        problems.append(f"{len(lines)} lines, more than {CHECK_BLOCK_LINES}: {text[:600]!r}")
    if TRACEBACK_LINE.search(text):
        problems.append(f"a traceback: {text[:600]!r}")
    return problems


def saved_error_problems(nb: nbformat.NotebookNode) -> list[str]:
    """Raw error output in a saved notebook: stderr text, or an error that is not a check's
    short block (the lines IPython kept as its traceback)."""
    problems = []
    for index, cell in code_cells(nb):
        for output in cell.get("outputs", []):
            if output.output_type == "stream" and output.name == "stderr":
                problems.append(f"cell {index} wrote to stderr: {output.text[:300]!r}")
            elif output.output_type == "error":
                shown = "\n".join(output.get("traceback", []))
                problems += [f"cell {index}: {p}" for p in check_block_problems(shown)]
    return problems


# --------------------------------------------------------------------------------------------
# A wrong answer, typed in


@dataclass(frozen=True)
class WrongAnswer:
    """A mistake fixture's version of a lesson's first graded function, and what the first
    visible check after it that fails says about it (run here, in this process, with the
    fixture's answers in place, as the notebook runs it)."""

    function: str  # the answer cell's grade_id
    answer_index: int  # its index in the release
    test_indices: tuple[int, ...]  # the test cells after it, up to the one that fails
    fixture: str
    text: str  # the answer cell as the fixture writes it
    message: str  # the failing check's message

    @property
    def hint(self) -> str:
        """The message's last sentence: the likely mistake it names."""
        return re.split(r"(?<=[.!?])\s+", self.message.strip())[-1]


def _first_function(release, solved: dict[str, str]) -> tuple[int, str]:
    """(index, grade_id) of the release's first answer cell whose solution is a function."""
    for index, cell in code_cells(release):
        gid = notebooks.grade_id(cell)
        if notebooks.is_answer(cell) and gid in solved:
            body = ast.parse(solved[gid]).body
            if body and all(isinstance(node, ast.FunctionDef) for node in body):
                return index, gid
    raise AssertionError("the release has no answer cell that defines a function")


def _tests_after(release, index: int) -> list[int]:
    """The test cells after the answer cell at `index`, up to the next answer cell."""
    found = []
    for later in range(index + 1, len(release.cells)):
        if notebooks.is_answer(release.cells[later]):
            break
        if notebooks.is_test(release.cells[later]):
            found.append(later)
    return found


def _first_failure(lesson: str, fixture: str, release, tests: list[int]):
    """(index, message) of the first of the test cells whose visible check fails with the
    fixture's answers in place; None when they all pass or one fails some other way (which
    the lesson's own tests report)."""
    namespace = dict(lesson_code.namespace(lesson, fixture))
    expect.grading(False)
    for index in tests:
        code = compile(release.cells[index].source, f"<{lesson} cell {index}>", "exec")
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                exec(code, namespace)
        except expect.CheckFailed as failed:
            return index, str(failed.args[0])
        except Exception:
            return None
    return None


def wrong_answer(lesson: str) -> WrongAnswer:
    """The first mistake fixture (by name) that changes the lesson's first graded function and
    fails one of the visible checks after it, with that check's message."""
    release = notebooks.read_lesson(lesson, "release")
    index, gid = _first_function(release, notebooks.solutions(notebooks.read_lesson(lesson)))
    tests = _tests_after(release, index)
    for mistake in notebooks.load_mistakes(lesson):
        if gid in mistake.cells:
            failure = _first_failure(lesson, mistake.name, release, tests)
            if failure:
                shown = tuple(tests[: tests.index(failure[0]) + 1])
                return WrongAnswer(gid, index, shown, mistake.name, mistake.cells[gid], failure[1])
    raise AssertionError(f"{lesson}: no mistake fixture changes {gid} and fails a check after it")


# --------------------------------------------------------------------------------------------
# Running a notebook


def startup_folder(ipython_dir: Path, files: dict[str, str]) -> Path:
    """An IPYTHONDIR whose default profile runs the given startup files (name: source)."""
    startup = Path(ipython_dir) / "profile_default" / "startup"
    startup.mkdir(parents=True, exist_ok=True)
    for name, source in files.items():
        (startup / name).write_text(source, encoding="utf-8")
    return Path(ipython_dir)


def kernel_env(**changes: str) -> dict[str, str]:
    """This process's environment less KERNEL_ENV_DROPPED, with changes applied."""
    env = {key: value for key, value in os.environ.items() if key not in KERNEL_ENV_DROPPED}
    env.update(changes)
    return env


# Run nb in place (errors recorded, not raised) in a fresh kernel; return the seconds. One
# runner serves the lessons' tests and the learner's.
execute = lesson_code.run_notebook


def offline_attempts(log: Path) -> list[dict]:
    """The attempts to reach the network that OFFLINE_GUARD logged."""
    if not Path(log).is_file():
        return []
    return [json.loads(line) for line in Path(log).read_text().splitlines() if line.strip()]
