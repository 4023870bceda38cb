"""Warm kernels (classroom.isolation.zygote): forked from one pre-imported zygote per slot,
inside the slot's sandbox, and still nothing one submission does reaches the next.

Each test grades "submissions" one after another in the same slot, as a worker does, and
checks first that they really shared the zygote (the same PID namespace: the same sandbox),
so that what the later one does not see was left and then removed, not merely elsewhere.
What a submission tries to leave: files in /tmp, HOME, /dev/shm, the work folder and the
kernel folder; a detached process; a change to an imported module; an extended attribute,
a mode or a time on a writable folder; a kernel key or a SysV IPC object (refused by the
seccomp filter); and it tries to trace, read, write or signal the zygote. A sandbox that
cannot be made as new is discarded. GuardedExecute's restarts and interrupts work on warm
kernels as on cold ones.

Every test needs the sandbox: under CI a missing sandbox fails them, elsewhere it skips them.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import nbformat
import pytest
from fd_listing import run_in_kernel
from sandbox_required import require_sandbox
from traitlets.config import Config

from classroom.isolation import kernels, sandbox, zygote
from classroom.nbgrader_ext.notes import notes_of
from classroom.nbgrader_ext.preprocessors import GuardedExecute, decide_verdicts

FIXTURES = Path(__file__).resolve().parent / "preprocessors" / "fixtures"
PROBE = "double(21) = 42\n"


@pytest.fixture(autouse=True)
def _no_zygote_left():
    """Every zygote this test started is killed after it, with its sandbox."""
    yield
    zygote.stop_all()
    kernels.remove_socket_dir()


# --------------------------------------------------------------------------------------------
# Kernels one after another in one slot


async def run_kernel(folder: Path, slot: int, code: str) -> dict:
    """Start a warm kernel for folder, run code (which prints one JSON line last), stop it;
    that JSON, with the zygote that forked the kernel."""
    km = zygote.WarmKernelManager(kernel_name="python3", slot=slot)
    await km.start_kernel(cwd=str(folder))
    forked_by = km._zygote
    reply, printed = await run_in_kernel(km, code)
    assert reply["status"] == "ok", reply
    report = json.loads(printed.strip().splitlines()[-1])
    report["zygote"] = forked_by
    return report


def submission(tmp_path: Path, name: str) -> Path:
    folder = tmp_path / name
    folder.mkdir()
    (folder / f"{name}.ipynb").write_text("{}")
    return folder


LEAVE = r"""
import ctypes, json, os, subprocess, sys, time
import numpy, course
numpy.LEFT_BY_A = 1
course.LEFT_BY_A = 1
sys.modules["left_by_a"] = sys
os.environ["LEFT_BY_A"] = "1"
places = ["/tmp/a", os.path.expanduser("~/a"), "/dev/shm/a", "/notebook/a", "/run/kernel/a"]
for path in places:
    with open(path, "w") as f:
        f.write("left by a")
os.makedirs("/tmp/deep/er/still", exist_ok=True)
os.symlink("/etc/passwd", "/tmp/link")
os.setxattr("/tmp", "user.left_by_a", b"1")
os.utime("/tmp", (12345, 12345))
modes = {p: os.stat(p).st_mode for p in ("/tmp", "/dev/shm", "/notebook")}
os.chmod("/dev/shm", 0o700)
daemon = ("import os, time\nif os.fork() == 0:\n    os.setsid()\n    while True:\n"
          "        open('/tmp/daemon', 'a').write('x'); time.sleep(0.05)\n")
subprocess.Popen([sys.executable, "-c", daemon], start_new_session=True)
time.sleep(0.3)
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
key = libc.syscall(248, b"user", b"left_by_a", b"1", 1, ctypes.c_int(-4))  # add_key @u
shm = libc.shmget(0, 4096, 0o1600)
print(json.dumps({"ns": os.readlink("/proc/self/ns/pid"), "modes": modes, "key": key,
                  "shm": shm, "daemon": os.path.exists("/tmp/daemon")}))
"""

LOOK = r"""
import ctypes, json, os, sys
import numpy, course
found = [p for p in ("/tmp/a", os.path.expanduser("~/a"), "/dev/shm/a", "/notebook/a",
                     "/run/kernel/a", "/tmp/deep", "/tmp/link", "/tmp/daemon")
         if os.path.lexists(p)]
processes = {}
for pid in filter(str.isdigit, os.listdir("/proc")):
    try:
        processes[pid] = open(f"/proc/{pid}/cmdline", "rb").read().replace(b"\0", b" ").decode()
    except OSError:
        processes[pid] = "?"
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
buf = ctypes.create_string_buffer(4096)
user_keys = libc.syscall(250, 11, ctypes.c_int(-4), buf, 4096)  # KEYCTL_READ @u
print(json.dumps({
    "ns": os.readlink("/proc/self/ns/pid"), "found": found, "processes": processes,
    "me": os.getpid(),
    "modules": [hasattr(numpy, "LEFT_BY_A"), hasattr(course, "LEFT_BY_A"),
                "left_by_a" in sys.modules, "LEFT_BY_A" in os.environ],
    "xattrs": os.listxattr("/tmp"), "mtime": os.stat("/tmp").st_mtime,
    "modes": {p: os.stat(p).st_mode for p in ("/tmp", "/dev/shm", "/notebook")},
    "notebook": sorted(os.listdir("/notebook")), "user_keys": user_keys,
    "sysvipc": [len(open(f"/proc/sysvipc/{t}").read().splitlines()) for t in ("shm", "sem", "msg")],
}))
"""


def then_look(tmp_path: Path, slot: int, code: str) -> tuple[dict, dict]:
    """The reports of two submissions graded one after the other in one slot, as a worker
    grades them: "a" runs code, then "b" runs LOOK (what "a" left that "b" can see)."""

    async def scenario():
        first = await run_kernel(submission(tmp_path, "a"), slot, code)
        second = await run_kernel(submission(tmp_path, "b"), slot, LOOK)
        return first, second

    return asyncio.run(scenario())


@pytest.mark.timeout(120)
def test_one_submission_leaves_nothing_for_the_next(tmp_path):
    require_sandbox()
    first, second = then_look(tmp_path, 940, LEAVE)
    assert first["zygote"] is second["zygote"]  # one zygote, one sandbox, for both
    assert first["ns"] == second["ns"]
    assert first["daemon"]  # the detached process ran
    assert first["key"] == -1 and first["shm"] == -1  # refused by the seccomp filter
    assert second["found"] == []
    # Only the zygote (pid 1) and this kernel: nothing of the first submission runs on.
    assert set(second["processes"]) == {"1", str(second["me"])}, second["processes"]
    assert second["modules"] == [False, False, False, False]
    assert second["xattrs"] == [] and second["mtime"] != 12345
    assert second["modes"] == first["modes"]
    assert second["notebook"] == ["b.ipynb"]
    assert second["user_keys"] <= 0 and second["sysvipc"] == [1, 1, 1]  # headers only


ZYGOTE = r"""
import ctypes, errno, json, os, signal, time
libc = ctypes.CDLL(None, use_errno=True)
libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
found = {}
found["ptrace_attach"] = libc.ptrace(16, 1, None, None), ctypes.get_errno()  # PTRACE_ATTACH
found["ptrace_seize"] = libc.ptrace(0x4206, 1, None, None), ctypes.get_errno()
for name, flags in (("mem", os.O_RDWR), ("mem_read", os.O_RDONLY), ("environ", os.O_RDONLY),
                    ("maps", os.O_RDONLY), ("fd/0", os.O_RDWR), ("cwd", os.O_RDONLY)):
    try:
        os.close(os.open(f"/proc/1/{name.removesuffix('_read')}", flags))
        found[name] = "opened"
    except OSError as error:
        found[name] = error.errno
try:
    found["fds"] = os.listdir("/proc/1/fd")
except OSError as error:
    found["fds"] = error.errno
for signum in (signal.SIGSTOP, signal.SIGTERM, signal.SIGKILL, signal.SIGINT):
    os.kill(1, signum)
time.sleep(0.3)
found["ns"] = os.readlink("/proc/self/ns/pid")
found["dumpable_self"] = libc.prctl(3, 0, 0, 0, 0)
print(json.dumps(found))
"""


@pytest.mark.timeout(120)
def test_a_kernel_cannot_trace_read_write_or_stop_the_zygote(tmp_path):
    require_sandbox()
    first, after = then_look(tmp_path, 941, ZYGOTE)
    assert first["ptrace_attach"][0] == -1 and first["ptrace_seize"][0] == -1
    for name in ("mem", "mem_read", "environ", "maps", "fd/0", "cwd", "fds"):
        assert first[name] == 13, (name, first[name])  # EACCES
    assert first["dumpable_self"] == 1  # the kernel is its own, as a cold one
    # Signals did nothing: the same zygote forked the next kernel, in the same namespace.
    assert after["zygote"] is first["zygote"] and after["ns"] == first["ns"]
    assert after["zygote"].ready["dumpable"] == 0


LOCK_OUT = r"""
import json, os
os.makedirs("/tmp/locked/inside")
open("/tmp/locked/inside/secret", "w").write("left by a")
os.chmod("/tmp/locked", 0)
print(json.dumps({"ns": os.readlink("/proc/self/ns/pid")}))
"""


@pytest.mark.timeout(120)
def test_a_sandbox_that_cannot_be_emptied_is_discarded(tmp_path):
    require_sandbox()
    first, second = then_look(tmp_path, 942, LOCK_OUT)
    assert not first["zygote"].alive  # the reset failed: its sandbox was killed
    assert second["zygote"] is not first["zygote"] and second["ns"] != first["ns"]
    assert second["found"] == [] and second["notebook"] == ["b.ipynb"]


# --------------------------------------------------------------------------------------------
# GuardedExecute with warm kernels


def guarded(**options) -> GuardedExecute:
    config = Config()
    config.Execute.timeout = 3
    config.Execute.iopub_timeout = 4
    config.SandboxedKernelManager.slot = 943
    config.GuardedExecute.notebook_timeout = 60
    config.GuardedExecute.interrupt_grace = 1
    for name, value in options.items():
        setattr(config.GuardedExecute, name, value)
    return GuardedExecute(config=config)


def run_fixture(name: str, folder: Path, **options):
    executor = guarded(**options)
    nb = nbformat.read(FIXTURES / f"{name}.ipynb", as_version=4)
    nb, _ = executor.preprocess(nb, {"metadata": {"path": str(folder)}})
    return nb, executor


def printed(cell) -> str:
    return "".join(o.text for o in cell.outputs if o.output_type == "stream")


def test_warm_is_the_default_and_cold_stays_a_switch():
    require_sandbox()
    assert guarded().kernel_manager_class is zygote.WarmKernelManager
    assert guarded(warm=False).kernel_manager_class is sandbox.SandboxedKernelManager
    assert guarded(sandboxed=False).kernel_manager_class is kernels.IpcKernelManager


@pytest.mark.timeout(90)
def test_a_kernel_death_mid_notebook_restarts_from_the_zygote(tmp_path):
    require_sandbox()
    nb, _ = run_fixture("kernel_exits", tmp_path)
    (started,) = zygote._ZYGOTES.values()
    assert [o.ename for o in nb.cells[4].outputs if o.output_type == "error"] == ["KernelDied"]
    assert printed(nb.cells[9]) == PROBE  # double defined again in the new kernel
    assert [n.kind for n in notes_of(nb)].count("kernel-died") == 1
    assert started.uses == 2  # both kernels were forked, not started cold


@pytest.mark.timeout(90)
def test_an_interrupt_stops_a_loop_in_a_warm_kernel(tmp_path):
    require_sandbox()
    nb, _ = run_fixture("loops_forever", tmp_path)
    (started,) = zygote._ZYGOTES.values()
    assert "CellTimeoutError" in [o.ename for o in nb.cells[3].outputs if "ename" in o]
    assert printed(nb.cells[8]) == PROBE  # the same kernel went on
    assert [n.kind for n in notes_of(nb)] == ["cell-timeout"]
    assert started.uses == 1  # interrupted, not restarted


# --------------------------------------------------------------------------------------------
# Answer processes


ANSWER_LEAVES = (
    "import os, subprocess, sys\n"
    "open('/tmp/left_by_a', 'w').write('x')\n"
    "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'], "
    "start_new_session=True)\n"
    "ns = os.readlink('/proc/self/ns/pid')\n"
)
ANSWER_LOOKS = (
    "import os\n"
    "ns = os.readlink('/proc/self/ns/pid')\n"
    "found = os.path.exists('/tmp/left_by_a')\n"
    "others = sorted(p for p in os.listdir('/proc') if p.isdigit() and int(p) != os.getpid())\n"
)


@pytest.mark.timeout(90)
def test_one_answer_process_leaves_nothing_for_the_next():
    require_sandbox()
    seen = []
    for source in (ANSWER_LEAVES, ANSWER_LOOKS):
        answers, held = decide_verdicts.answer_process(944, warm=True)
        try:
            answers.start()
            assert answers.exec_cell(source).ok, answers.stderr_tail
            names = ("ns", "found", "others") if source is ANSWER_LOOKS else ("ns",)
            seen.append({name: answers.value(name) for name in names})
        finally:
            decide_verdicts.close_answer_process(answers, held)
        assert isinstance(held.zygote, zygote.Zygote)  # forked: the warm path served
    assert seen[0]["ns"] == seen[1]["ns"]  # the same sandbox served both
    assert seen[1]["found"] is False and seen[1]["others"] == ["1"]  # only the zygote


# --------------------------------------------------------------------------------------------
# What a run's zygotes preload


def test_the_preload_is_the_base_and_the_set_ups_imports_in_order():
    found = zygote.preload_for(
        ["import mujoco\nimport matplotlib.pyplot as plt", "from course.lessons.x import y"]
    )
    assert found[: len(zygote.BASE_KERNEL_PRELOAD)] == zygote.BASE_KERNEL_PRELOAD
    assert found[len(zygote.BASE_KERNEL_PRELOAD) :] == ("matplotlib.pyplot", "course.lessons.x")
    assert "matplotlib.pyplot" not in zygote.preload_for(["import numpy as np"])


def _lesson_importing(root: Path, lesson: str, setup: str) -> None:
    """source/<lesson>/<lesson>.ipynb under root: a locked set-up cell `setup`, an answer."""
    nb = nbformat.v4.new_notebook()
    locked = {"nbgrader": {"grade_id": "setup", "locked": True, "grade": False, "solution": False}}
    answer = {"nbgrader": {"grade_id": "answer", "solution": True, "grade": False}}
    nb.cells = [
        nbformat.v4.new_code_cell(setup, metadata=locked),
        nbformat.v4.new_code_cell("import scipy  # the learner's own", metadata=answer),
    ]
    folder = root / "source" / lesson
    folder.mkdir(parents=True)
    nbformat.write(nb, str(folder / f"{lesson}.ipynb"))


def test_a_run_preloads_what_its_own_lessons_set_ups_import(tmp_path):
    """Lessons 01 to 06 draw through their helpers (no pyplot in a set-up); a lesson whose
    set-up imports pyplot has a run with it preload pyplot, what its answers import is left
    out; a lesson that cannot be read leaves the default."""
    from classroom.grading import worker
    from classroom.grading.plan import GraderSetup
    from classroom.nbgrader_ext import notebooks

    def preload(lessons, root):
        setup = GraderSetup(root, root, "00", 60, 1000, lessons=tuple(lessons))
        return worker.kernel_preload(setup)

    root = Path(__file__).resolve().parents[2]
    every = notebooks.discover_lessons(root)
    assert len(every) >= 6
    first = preload(every, root)
    assert "matplotlib.pyplot" not in first and "course.lessons.world_as_text" in first
    _lesson_importing(tmp_path, "draws", "import numpy as np\nimport matplotlib.pyplot as plt")
    drawing = preload(["draws"], tmp_path)
    assert "matplotlib.pyplot" in drawing and "scipy" not in drawing
    assert preload(["no-such-lesson"], root) is None
    assert preload([], root) is None


@pytest.mark.timeout(120)
def test_kernels_are_forked_with_the_run_s_preload_and_no_more(tmp_path):
    require_sandbox()
    code = (
        "import json, sys\n"
        "print(json.dumps({m: m in sys.modules for m in ('mujoco', 'matplotlib.pyplot')}))"
    )
    reports = {}
    try:
        plots = zygote.preload_for(["import matplotlib.pyplot as plt"])
        for name, preload in (("a", zygote.preload_for(["import mujoco"])), ("b", plots)):
            zygote.use_kernel_preload(preload)
            reports[name] = asyncio.run(run_kernel(submission(tmp_path, name), 944, code))
    finally:
        zygote.use_kernel_preload(zygote.KERNEL_PRELOAD)
    assert {k: v for k, v in reports["a"].items() if k != "zygote"} == {
        "mujoco": True,
        "matplotlib.pyplot": False,
    }
    assert reports["b"]["matplotlib.pyplot"] is True  # a lesson whose set-up imports pyplot
    assert reports["a"]["zygote"] is not reports["b"]["zygote"]  # a new preload, a new zygote
