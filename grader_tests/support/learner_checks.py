"""What the learner-experience tests check in a notebook, and the kernels they run it in.

Shared by test_browser.py (JupyterLab in Chromium), test_colab_like.py (Colab's versions) and
test_offline.py (no network): reading an executed notebook (errors, stderr, what the set-up
cell printed, embedded videos, the quiz widgets and what their Output areas received) and
preparing a kernel (an IPython startup folder that blocks the network or plays Colab).
"""

from __future__ import annotations

import base64
import json
import os
import re
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

from classroom import setup_cell

# A drop clip is a few tens of kilobytes; a clip near this limit means a wrong size or rate.
VIDEO_LIMIT_BYTES = 1_000_000

CHOOSE_CALL = re.compile(r"""\bquiz\.choose\(\s*["'](\w+)["']""")
EMBEDDED_VIDEO = re.compile(r"data:video/[\w.+-]+;base64,([A-Za-z0-9+/=\s]+)")
OFFLINE_LINE = "is not available offline"
RECORDED = 'Recorded for this session: {name} = "{letter}".'

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


def video_cells(nb: nbformat.NotebookNode) -> list[int]:
    """Indices of the code cells that show a simulation video."""
    return [index for index, cell in code_cells(nb) if "show_simulation(" in cell.source]


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
    for choice in report["choices"]:
        name, letter = choice["name"], choice["letter"]
        if choice["recorded"] != letter:
            problems.append(f"{name}: a click on {letter} recorded {choice['recorded']!r}")
        text = texts.get(choice["output"], "")
        if RECORDED.format(name=name, letter=letter) not in text:
            problems.append(f"{name}: the widget's feedback after a click is {text!r}")
        elif len(text.strip().splitlines()) < 2:
            problems.append(f"{name}: no explanation was shown after the click: {text!r}")
    return problems


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


def execute(
    nb: nbformat.NotebookNode,
    workdir: Path,
    env: dict[str, str],
    *,
    timeout: float = 180,
    **client_options,
) -> float:
    """Run nb in place (errors recorded, not raised) in a fresh kernel; return the seconds."""
    client = NotebookClient(
        nb,
        timeout=timeout,
        allow_errors=True,
        resources={"metadata": {"path": str(workdir)}},
        **client_options,
    )
    start = time.perf_counter()
    client.execute(env=env)
    return time.perf_counter() - start


def offline_attempts(log: Path) -> list[dict]:
    """The attempts to reach the network that OFFLINE_GUARD logged."""
    if not Path(log).is_file():
        return []
    return [json.loads(line) for line in Path(log).read_text().splitlines() if line.strip()]
