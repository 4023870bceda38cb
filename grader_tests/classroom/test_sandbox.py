"""The grading sandbox (classroom/isolation/sandbox.py), with the real bubblewrap: what learner
code in it cannot read, write, reach or leave running, its limits, and kernels started in it.

Never skipped quietly: when the sandbox cannot run on this machine (`probe()` says why), every
test fails with that reason if the environment variable CI is set, and is skipped with it
otherwise (`require_sandbox()`, each test's first line). Each test uses a slot of its own, so
"no process of the slot's uid is left" means none of this test's processes.
"""

import asyncio
import errno
import json
import os
import shutil
import socket
import subprocess
import sys
import textwrap
import time
from dataclasses import replace
from pathlib import Path

import pytest
from jupyter_core.paths import jupyter_runtime_dir
from sandbox_required import require_sandbox

from classroom.isolation import sandbox
from classroom.isolation.sandbox import (
    NOTEBOOK_DIR,
    GiB,
    Limits,
    MiB,
    Sandbox,
    SandboxedKernelManager,
)

REPO = Path(__file__).resolve().parents[2]


# --------------------------------------------------------------------------------------------
# Helpers


def outer_uid(slot: int) -> int:
    """The uid a sandbox of slot runs as, seen from outside."""
    return sandbox.slot_uid(slot) if os.geteuid() == 0 else os.getuid()


def run_python(code: str, *, timeout: float = 30, **kw) -> subprocess.CompletedProcess:
    return sandbox.run([sys.executable, "-c", textwrap.dedent(code)], timeout=timeout, **kw)


def last_json(result: subprocess.CompletedProcess) -> dict:
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def state_of(pid: int) -> str | None:
    """A process's state letter (Z: a zombie, which runs nothing and only waits to be
    reaped), or None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            return f.read().rpartition(")")[2].split()[0]
    except OSError:
        return None


def pids_in_namespace(namespace: str) -> list[int]:
    """Host pids of the live (not zombie) processes in a PID namespace ('pid:[inode]', as
    read inside)."""
    found = []
    for name in filter(str.isdigit, os.listdir("/proc")):
        try:
            inside = os.readlink(f"/proc/{name}/ns/pid") == namespace
        except OSError:  # gone, or not ours
            continue
        if inside and state_of(int(name)) not in (None, "Z"):
            found.append(int(name))
    return found


def uid_of(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Uid:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def live_pids_of(uid: int) -> list[int]:
    """Live (not zombie) processes of uid."""
    pids = map(int, filter(str.isdigit, os.listdir("/proc")))
    return [pid for pid in pids if uid_of(pid) == uid and state_of(pid) not in (None, "Z")]


def wait_until(condition, seconds: float = 5.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def snapshot(folder: Path) -> dict:
    """Every entry under folder with its content (files) and modification time."""
    found = {}
    for path in sorted(folder.rglob("*")):
        data = path.read_bytes() if path.is_file() else None
        found[str(path.relative_to(folder))] = (data, path.stat().st_mtime_ns)
    return found


def assert_nothing_left(namespace: str, slot: int) -> None:
    assert wait_until(lambda: not pids_in_namespace(namespace)), pids_in_namespace(namespace)
    if os.geteuid() == 0:
        uid = outer_uid(slot)
        assert wait_until(lambda: not live_pids_of(uid)), live_pids_of(uid)


# --------------------------------------------------------------------------------------------
# Identity and isolation

IDENTITY = """
import json, os, time
caps = [line.split()[1] for line in open("/proc/self/status") if line.startswith("CapEff")]
print(json.dumps({"uid": os.getuid(), "euid": os.geteuid(), "gid": os.getgid(),
                  "groups": os.getgroups(), "caps": int(caps[0], 16),
                  "ns": os.readlink("/proc/self/ns/pid")}), flush=True)
time.sleep(30)
"""


@pytest.mark.timeout(30)
def test_runs_as_an_unprivileged_user_inside_and_outside():
    require_sandbox()
    slot = 901
    with Sandbox(slot=slot) as box:
        process = box.popen([sys.executable, "-c", IDENTITY], stdout=subprocess.PIPE, text=True)
        try:
            inside = json.loads(process.stdout.readline())
            pids = pids_in_namespace(inside["ns"])
            outside = {pid: uid_of(pid) for pid in pids} | {process.pid: uid_of(process.pid)}
        finally:
            process.kill()
            process.wait()
    assert inside["uid"] == inside["euid"] == inside["gid"] == 65534
    assert 0 not in inside["groups"]
    assert inside["caps"] == 0
    assert len(pids) >= 2  # bwrap's init and Python
    assert set(outside.values()) == {outer_uid(slot)}, outside
    assert outer_uid(slot) != 0
    assert_nothing_left(inside["ns"], slot)


@pytest.mark.timeout(30)
def test_sees_no_course_root_no_grader_files_and_no_one_elses_files(tmp_path):
    require_sandbox()
    root = tmp_path / "course-root"
    shutil.copytree(REPO / "course", root / "course", ignore=shutil.ignore_patterns("__pycache__"))
    secrets = [
        root / "source" / "01-lesson" / "hidden_tests.txt",
        root / "gradebook.db",
        root / "classroom" / "grade.py",
        root / "release" / "01-lesson" / "lesson.ipynb",
        tmp_path / "another-student" / "answer.py",
    ]
    for path in secrets:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("SECRET")
    grader_paths = [REPO / name for name in ("source", "classroom", "grader_tests", "release")]
    grader_paths += [REPO / "gradebook.db", REPO / "course", Path(jupyter_runtime_dir())]
    grader_paths += [Path("/etc/shadow"), Path("/home"), Path("/root/.bash_history")]
    code = f"""
    import json, os, sys
    found = {{}}
    for path in {[str(p) for p in secrets + grader_paths]!r}:
        try:
            found[path] = open(path).read() if os.path.isfile(path) else os.listdir(path)
        except OSError as error:
            found[path] = error.errno
    import course
    print(json.dumps({{"found": found, "root": os.listdir({str(root)!r}),
                       "course": course.__file__, "top": os.listdir("/"),
                       "etc": os.listdir("/etc"), "home": os.path.expanduser("~")}}))
    """
    with Sandbox(slot=902, course=str(root / "course")) as box:
        report = last_json(box.run([sys.executable, "-c", textwrap.dedent(code)], timeout=30))
    assert report["found"] == {str(p): errno.ENOENT for p in secrets + grader_paths}
    assert report["root"] == ["course"]  # the course root holds only the package
    assert report["course"] == str(root / "course" / "__init__.py")
    assert "home" not in report["top"] and "mnt" not in report["top"]
    assert set(report["etc"]) <= {*sandbox.ETC_FILES, "passwd", "group"}
    assert report["home"] == sandbox.HOME


@pytest.mark.timeout(30)
def test_writes_only_in_its_writable_folders_home_and_tmp(tmp_path):
    require_sandbox()
    out, kept = tmp_path / "out", tmp_path / "kept"
    out.mkdir()
    kept.mkdir()
    (kept / "data.txt").write_text("original")
    before = snapshot(kept)
    targets = ["/out/new.txt", f"{kept}/data.txt", f"{kept}/new.txt", "/usr/new", "/new"]
    targets += ["/etc/new", "/dev/new", "/proc/new", f"{sys.prefix}/new"]
    targets += [f"{sandbox.course_dir()}/new", "/tmp/home/new", "/tmp/new", "/dev/shm/new"]
    code = f"""
    import json
    found = {{}}
    for path in {targets!r}:
        try:
            with open(path, "w") as f:
                f.write("written")
            found[path] = "written"
        except OSError as error:
            found[path] = error.errno
    print(json.dumps(found))
    """
    report = last_json(
        run_python(code, writable={str(out): "/out"}, readonly=[str(kept)], slot=903)
    )
    allowed = {"/out/new.txt", "/tmp/home/new", "/tmp/new", "/dev/shm/new"}
    assert {path for path, result in report.items() if result == "written"} == allowed, report
    assert snapshot(kept) == before
    assert (out / "new.txt").read_text() == "written"
    assert (out / "new.txt").stat().st_uid == outer_uid(903)


@pytest.mark.timeout(30)
def test_has_no_network_and_no_name_resolution():
    require_sandbox()
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    listener.setblocking(False)
    port = listener.getsockname()[1]
    code = f"""
    import json, socket
    found = {{"interfaces": [name for _, name in socket.if_nameindex()]}}
    try:
        socket.create_connection(("127.0.0.1", {port}), timeout=5).close()
        found["tcp"] = "connected"
    except OSError as error:
        found["tcp"] = error.errno
    try:
        found["dns"] = str(socket.getaddrinfo("pypi.org", 443))
    except OSError as error:
        found["dns"] = type(error).__name__
    print(json.dumps(found))
    """
    try:
        report = last_json(run_python(code, slot=904))
        with pytest.raises(BlockingIOError):
            listener.accept()  # nothing ever reached the listener
    finally:
        listener.close()
    assert report["tcp"] in (errno.ENETUNREACH, errno.ECONNREFUSED), report
    assert report["dns"] == "gaierror", report
    assert report["interfaces"] == ["lo"]


DETACHED = """
import os, sys, time
read_end, write_end = os.pipe()
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:  # the grandchild: a daemon, no stdio, its own session
        null = os.open("/dev/null", os.O_RDWR)
        for descriptor in (0, 1, 2):
            os.dup2(null, descriptor)
        os.write(write_end, b"up")
        time.sleep(120)
    os._exit(0)
os.close(write_end)
os.read(read_end, 2)
print(os.readlink("/proc/self/ns/pid"), flush=True)
sys.stdin.readline()
"""


@pytest.mark.timeout(30)
def test_a_detached_double_forked_process_does_not_outlive_the_sandbox():
    require_sandbox()
    slot = 905
    with Sandbox(slot=slot) as box:
        process = box.popen(
            [sys.executable, "-c", DETACHED],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        namespace = process.stdout.readline().strip()
        during = pids_in_namespace(namespace)
        process.stdin.close()  # the sandbox's program ends
        assert process.wait(timeout=10) == 0
    assert len(during) >= 3, during  # bwrap's init, the program and its grandchild at least
    assert_nothing_left(namespace, slot)
    assert [state_of(pid) for pid in during if state_of(pid) not in (None, "Z")] == []


# --------------------------------------------------------------------------------------------
# Limits


@pytest.mark.timeout(60)
def test_memory_limit_stops_4_gib_but_not_ordinary_numpy_work():
    require_sandbox()
    assert Limits().memory < 4 * GiB
    code = """
    import numpy as np
    for allocate in (lambda: np.ones(4 * 2**30 // 8), lambda: bytearray(4 * 2**30)):
        try:
            allocate()
            print("allocated 4 GiB")
        except MemoryError:
            print("MemoryError")
    a = np.random.default_rng(0).random((1000, 1000))
    b = a @ a
    c = np.ones(2**29 // 8)
    c += 1
    print("ordinary work done", b.shape, float(c[-1]))
    """
    result = run_python(code, slot=906)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[:2] == ["MemoryError", "MemoryError"], result.stdout
    assert lines[2] == "ordinary work done (1000, 1000) 2.0"


@pytest.mark.timeout(60)
def test_process_limit_bounds_a_fork_loop():
    require_sandbox()
    slot, limits = 907, Limits()
    code = """
    import os, time
    children = 0
    try:
        while children < 5000:
            if os.fork() == 0:
                time.sleep(60)
                os._exit(0)
            children += 1
        print(children, "no limit")
    except OSError as error:
        print(children, error.errno)
    """
    started = time.monotonic()
    result = run_python(code, slot=slot, limits=limits)
    children, outcome = result.stdout.split()
    assert outcome == str(errno.EAGAIN), result.stdout + result.stderr
    margin = 0 if os.geteuid() == 0 else 64  # not root: the user's other tasks move
    assert 10 < int(children) < limits.processes + margin
    assert time.monotonic() - started < 30
    assert subprocess.run(["true"], timeout=10).returncode == 0  # this machine can still fork
    if os.geteuid() == 0:
        assert wait_until(lambda: not live_pids_of(outer_uid(slot)))


@pytest.mark.timeout(60)
def test_file_size_and_tmpfs_limits(tmp_path):
    require_sandbox()
    limits = replace(Limits(), tmp_size=48 * MiB, shm_size=24 * MiB)
    code = """
    import json, os
    def fill(path, chunk=2**20, files=1):
        written = 0
        try:
            for index in range(files):
                with open(f"{path}{index}", "wb") as f:
                    for _ in range(1024):
                        f.write(b"x" * chunk)
                        f.flush()
                        written += chunk
        except OSError as error:
            return written, error.errno
        return written, None
    print(json.dumps({"big": fill("/out/big"), "tmp": fill("/tmp/f", files=8),
                      "shm": fill("/dev/shm/f", files=8)}))
    """
    report = last_json(run_python(code, writable={str(tmp_path): "/out"}, limits=limits, slot=908))
    assert report["big"] == [Limits().file_size, errno.EFBIG]
    assert (tmp_path / "big0").stat().st_size == Limits().file_size
    assert report["tmp"][1] == errno.ENOSPC and report["tmp"][0] <= limits.tmp_size
    assert report["shm"][1] == errno.ENOSPC and report["shm"][0] <= limits.shm_size


@pytest.mark.timeout(30)
def test_cpu_time_limit_ends_a_busy_loop():
    require_sandbox()
    started = time.monotonic()
    result = run_python(
        "while True: pass\n", limits=replace(Limits(), cpu_seconds=1), timeout=20, slot=909
    )
    assert result.returncode != 0
    assert time.monotonic() - started < 10


# --------------------------------------------------------------------------------------------
# Kernels


def lesson_folder(folder: Path) -> Path:
    """folder, made with its parents, holding an empty lesson.ipynb: a kernel's work folder."""
    folder.mkdir(parents=True)
    (folder / "lesson.ipynb").write_text("{}")
    return folder


async def start_kernel(folder: Path, slot: int):
    km = SandboxedKernelManager(kernel_name="python3", slot=slot)
    await km.start_kernel(cwd=str(folder))
    kc = km.client()
    kc.start_channels()
    await kc.wait_for_ready(timeout=60)
    return km, kc


async def execute(kc, code: str, timeout: float = 60) -> tuple[dict, str]:
    printed = []

    def hook(message):
        if message["msg_type"] == "stream":
            printed.append(message["content"]["text"])

    reply = await kc.execute_interactive(code, output_hook=hook, timeout=timeout)
    return reply["content"], "".join(printed)


async def stop_kernel(km, kc) -> None:
    kc.stop_channels()
    await km.shutdown_kernel()


STACK = """
import json, os, matplotlib, mujoco, numpy
print(json.dumps({"versions": [numpy.__version__, mujoco.__version__, matplotlib.__version__],
                  "backend": matplotlib.get_backend(), "cwd": os.getcwd(),
                  "files": sorted(os.listdir()), "uid": os.getuid(),
                  "ns": os.readlink("/proc/self/ns/pid")}))
with open("data.txt", "w") as f:
    f.write("changed by the learner")
with open("new.txt", "w") as f:
    f.write("new")
"""


async def interrupt_busy_loop(km, kc) -> tuple[dict, float]:
    """Run `while True: pass`, interrupt it once it runs; the reply and the seconds it took."""
    msg_id = kc.execute("while True: pass")
    while True:  # wait until the loop is executing, so the interrupt meets it
        message = await kc.get_iopub_msg(timeout=20)
        if message["msg_type"] == "execute_input" and message["parent_header"]["msg_id"] == msg_id:
            break
    await asyncio.sleep(0.3)
    started = time.monotonic()
    await km.interrupt_kernel()
    while True:
        reply = await kc.get_shell_msg(timeout=20)
        if reply["parent_header"].get("msg_id") == msg_id:
            return reply["content"], time.monotonic() - started


@pytest.mark.timeout(90)
def test_kernel_runs_the_course_stack_is_interruptible_and_stops_cleanly(tmp_path):
    require_sandbox()
    folder = lesson_folder(tmp_path / "autograded" / "learner" / "01-lesson")
    (folder / "data.txt").write_text("given")
    before = snapshot(folder)
    slot = 910

    async def scenario():
        km, kc = await start_kernel(folder, slot)
        private = km.sandbox.directory
        try:
            assert km.kernel_spec.interrupt_mode == "message"
            content, printed = await execute(kc, STACK)
            assert content["status"] == "ok", content
            interrupted, seconds = await interrupt_busy_loop(km, kc)
            after, answer = await execute(kc, "print(6 * 7)")
            alive = await km.is_alive()
        finally:
            await stop_kernel(km, kc)
        return json.loads(printed), interrupted, seconds, after, answer, alive, private

    report, interrupted, seconds, after, answer, alive, private = asyncio.run(scenario())
    assert report["backend"].lower() == "agg"
    assert report["cwd"] == NOTEBOOK_DIR
    assert report["files"] == ["data.txt", "lesson.ipynb"]
    assert report["uid"] == 65534
    assert interrupted["status"] == "error" and interrupted["ename"] == "KeyboardInterrupt"
    assert seconds < 10
    assert after["status"] == "ok" and answer == "42\n" and alive
    assert snapshot(folder) == before  # the learner wrote only in the private copy
    assert not os.path.exists(private)
    assert_nothing_left(report["ns"], slot)


PEEK = """
import json, os, socket
found = {}
for path in %r:
    try:
        found[path] = open(path).read() if os.path.isfile(path) else os.listdir(path)
    except OSError as error:
        found[path] = error.errno
for path in %r:
    try:
        socket.socket(socket.AF_UNIX).connect(path)
        found[path] = "connected"
    except OSError as error:
        found[path] = error.errno
seen = ""
for pid in filter(str.isdigit, os.listdir("/proc")):
    for name in ("cmdline", "environ"):
        try:
            seen += open(f"/proc/{pid}/{name}", errors="replace").read()
        except OSError:
            pass
found["key seen"] = %r in seen
found["own connection file"] = "key" in json.load(open("/run/kernel/kernel.json"))
print(json.dumps(found))
"""


@pytest.mark.timeout(90)
def test_two_kernels_cannot_reach_each_others_connection_files(tmp_path):
    require_sandbox()
    folder = lesson_folder(tmp_path / "notebook")

    async def scenario():
        # The same slot, as a worker's kernel and the one it starts ahead: so the same uid
        # outside; only the sandboxes keep them apart.
        km_a, kc_a = await start_kernel(folder, 911)
        km_b, kc_b = await start_kernel(folder, 911)
        try:
            private_b = km_b.sandbox.directory
            files = [km_b.connection_file, private_b, os.path.join(private_b, "kernel")]
            files.append(os.path.join(private_b, "kernel", "kernel.json"))
            sockets = [f"{km_b.ip}-{km_b.shell_port}", f"{km_b.ip}-{km_b.control_port}"]
            key = km_b.session.key.decode()
            content, printed = await execute(kc_a, PEEK % (files, sockets, key))
            assert content["status"] == "ok", content
            return json.loads(printed), files + sockets
        finally:
            await stop_kernel(km_a, kc_a)
            await stop_kernel(km_b, kc_b)

    report, paths = asyncio.run(scenario())
    assert {path: report[path] for path in paths} == {path: errno.ENOENT for path in paths}
    assert report["key seen"] is False
    assert report["own connection file"] is True


PLANT = """
import os
os.remove("/run/kernel/kernel.json")
for link in ("/run/kernel/kernel.json", "/run/kernel/k-9", "/notebook/victim", "/notebook/dir"):
    os.symlink(%r if link != "/notebook/dir" else %r, link)
print("planted")
"""


@pytest.mark.timeout(90)
def test_a_restart_never_writes_or_chowns_through_links_the_learner_planted(tmp_path):
    require_sandbox()
    folder = lesson_folder(tmp_path / "notebook")
    victim = tmp_path / "victim.txt"  # a host file the grader (maybe root) could write
    victim.write_text("untouched")
    os.chmod(victim, 0o600)
    before = victim.stat()

    async def scenario():
        km, kc = await start_kernel(folder, 912)
        try:
            content, printed = await execute(kc, PLANT % (str(victim), str(tmp_path)))
            assert content["status"] == "ok" and printed == "planted\n", content
            await km.restart_kernel()
            await kc.wait_for_ready(timeout=20)  # it does not start if root wrote elsewhere
            return await execute(kc, "print(6 * 7)")
        finally:
            await stop_kernel(km, kc)

    content, printed = asyncio.run(scenario())
    assert content["status"] == "ok" and printed == "42\n"
    after = victim.stat()
    assert victim.read_text() == "untouched"
    assert (after.st_uid, after.st_gid, after.st_mode) == (
        before.st_uid,
        before.st_gid,
        before.st_mode,
    )
    assert tmp_path.stat().st_uid == os.getuid()


def test_probe_tries_again_and_never_caches_a_failure(monkeypatch):
    """A start that fails once (a busy machine) is tried again; a failure is not remembered,
    so a later call can still find the sandbox working; success is remembered."""
    answers = iter(["bwrap: busy", None, "bwrap: busy", "bwrap: busy", None])
    calls = []

    def once():
        calls.append(1)
        return next(answers)

    monkeypatch.setattr(sandbox, "_works", False)
    monkeypatch.setattr(sandbox, "_probe_once", once)
    monkeypatch.setattr(sandbox.time, "sleep", lambda seconds: None)
    assert sandbox.probe() is None and len(calls) == 2
    monkeypatch.setattr(sandbox, "_works", False)
    assert sandbox.probe() == "bwrap: busy" and len(calls) == 4
    assert sandbox.probe() is None and len(calls) == 5
    assert sandbox.probe() is None and len(calls) == 5


def _sandbox_folder(base: Path, name: str, owner: str | None, age: float = 0.0) -> Path:
    folder = base / f"{sandbox.FOLDER_PREFIX}{name}"
    (folder / "notebook").mkdir(parents=True)
    if owner is not None:
        (folder / sandbox.OWNER_FILE).write_text(owner, encoding="ascii")
    if age:
        then = time.time() - age
        os.utime(folder, (then, then))
    return folder


def test_sweep_removes_the_folders_of_dead_makers_only(tmp_path):
    """A killed run cannot remove its sandboxes' folders; the next run's sweep does, and
    leaves a live process's folder alone, even one that has just been made."""
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    started = sandbox._started(ended.pid)
    ended.wait()
    me = f"{os.getpid()} {sandbox._started(os.getpid())}"
    dead = _sandbox_folder(tmp_path, "dead", f"{ended.pid} {started}")
    reused = _sandbox_folder(tmp_path, "reused", f"{os.getpid()} 1")  # our pid, not our start
    old = _sandbox_folder(tmp_path, "old", None, age=2 * sandbox.UNOWNED_AGE)
    live = _sandbox_folder(tmp_path, "live", me)
    making = _sandbox_folder(tmp_path, "making", None)
    other = tmp_path / "not-a-sandbox"
    other.mkdir()
    elsewhere = _sandbox_folder(tmp_path / "elsewhere", "dead-too", f"{ended.pid} {started}")
    link = tmp_path / f"{sandbox.FOLDER_PREFIX}link"
    link.symlink_to(elsewhere)  # a link is not followed: what it points to is not ours to judge
    assert sandbox.sweep_left_over(str(tmp_path)) == (3, 0)
    assert not dead.exists() and not reused.exists() and not old.exists()
    assert live.exists() and making.exists() and other.exists()
    assert link.is_symlink() and elsewhere.exists()


def test_a_sandbox_records_its_maker():
    require_sandbox()
    with Sandbox(slot=940) as box:
        owner = Path(box.directory, sandbox.OWNER_FILE).read_text(encoding="ascii").split()
        assert owner == [str(os.getpid()), sandbox._started(os.getpid())]
        sandbox.sweep_left_over()  # in /tmp, where this live sandbox's folder is
        assert os.path.isdir(box.directory)


# --------------------------------------------------------------------------------------------
# Nothing of the host reaches a sandboxed process but its own pipes (issue 26, hole 2)

# What a descriptor of a sandboxed process may refer to: a pipe or socket it was given (or
# made), an anonymous inode (eventfd, epoll: ZeroMQ's), /dev/null, or a file of its own
# writable places inside.
OWN_FD_TARGETS = ("pipe:", "socket:", "anon_inode:", "/dev/null")
OWN_FD_PLACES = ("/tmp/", "/dev/shm/", f"{NOTEBOOK_DIR}/", f"{sandbox.KERNEL_DIR}/")


@pytest.fixture(scope="module")
def fd_listings(tmp_path_factory):
    """The descriptors of a cold and a warm kernel and answer process, started by a process
    whose stdout, stderr and one more descriptor are its log, as a grading worker's are."""
    require_sandbox()
    folder = tmp_path_factory.mktemp("fds") / ".grading" / "staging-x"
    (folder / "logs").mkdir(parents=True)
    log, result = folder / "logs" / "worker-0.log", folder / "fds.json"
    script = REPO / "grader_tests" / "support" / "fd_listing.py"
    done = subprocess.run(
        [sys.executable, str(script), str(log), str(result), "941"],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0 and result.exists(), log.read_text()[-3000:] + done.stderr
    return json.loads(result.read_text())


@pytest.mark.timeout(300)
@pytest.mark.parametrize(
    "kind", ["cold kernel", "warm kernel", "cold answer process", "warm answer process"]
)
def test_a_sandboxed_process_holds_no_descriptor_of_the_host(kind, fd_listings):
    """Kernels and answer processes, cold and warm, hold only pipes, sockets, /dev/null and
    their own files: never the worker's log, nor any path of the host."""
    found = fd_listings[kind]
    log = fd_listings["log"]
    assert {"0", "1", "2"} <= set(found), found
    problems = []
    for fd, (target, dev, ino) in sorted(found.items(), key=lambda item: int(item[0])):
        if [dev, ino] == log:
            problems.append(f"fd {fd} is the worker's log ({target})")
        elif ".grading" in target or "worker-0.log" in target:
            problems.append(f"fd {fd} names a host path: {target}")
        elif not (target.startswith(OWN_FD_TARGETS) or target.startswith(OWN_FD_PLACES)):
            problems.append(f"fd {fd} is {target}, not one of its own")
    assert not problems, f"{kind}: " + "; ".join(problems)


@pytest.mark.timeout(60)
def test_the_launcher_hands_on_only_pipes_and_sockets(tmp_path):
    """Started with a host file as stdout and one more inheritable descriptor of it, the
    sandboxed process holds neither: stdout is /dev/null, and nothing was written there."""
    require_sandbox()
    log = tmp_path / ".grading" / "worker-0.log"
    log.parent.mkdir()
    listing = "import os\nfor n in os.listdir('/proc/self/fd'):\n"
    listing += "    try: print(n, os.readlink(f'/proc/self/fd/{n}'), file=sys.stderr)\n"
    listing += "    except OSError: pass\nprint('written to stdout')\n"
    with open(log, "w") as handle, Sandbox(slot=942) as box:
        extra = os.dup(handle.fileno())
        try:
            process = box.popen(
                [sys.executable, "-c", "import sys\n" + listing],
                stdout=handle,
                stderr=subprocess.PIPE,
                pass_fds=(extra,),
                text=True,
            )
            _, err = process.communicate(timeout=30)
        finally:
            os.close(extra)
    held = dict(line.split(" ", 1) for line in err.strip().splitlines())
    assert process.returncode == 0, err
    assert held.get("1") == "/dev/null", held
    assert str(extra) not in held and not any(".grading" in t for t in held.values()), held
    assert log.read_text() == ""


# --------------------------------------------------------------------------------------------
# Slot uids leased machine-wide (issue 26, hole 3)

# Takes COUNT leases among the uids [FIRST, END), waiting at most WAIT seconds for each,
# prints them on one line and holds them until its stdin closes.
HOLDER = """
import sys
from classroom.isolation import sandbox
first, end, count, wait = map(float, sys.argv[1:])
uids = range(int(first), int(end))
leases = [sandbox.take_lease(uids, wait=wait) for _ in range(int(count))]
print(" ".join(str(lease.uid) for lease in leases), flush=True)
sys.stdin.read()
"""
LEASE_TEST_UIDS = range(sandbox.SLOT_UIDS[-8], sandbox.SLOT_UIDS[-4])  # no test slot's


def lease_holder(count: int, wait: float) -> tuple[subprocess.Popen, set[int]]:
    """A process holding `count` leases of LEASE_TEST_UIDS, and their uids (empty when it
    could not take them: it has ended then)."""
    first, end = LEASE_TEST_UIDS[0], LEASE_TEST_UIDS[-1] + 1
    process = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(first), str(end), str(count), str(wait)],
        cwd=REPO,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    line = process.stdout.readline()
    return process, {int(uid) for uid in line.split()}


@pytest.mark.timeout(60)
def test_two_processes_never_lease_one_uid_and_a_killed_ones_are_free_again():
    """Two processes lease disjoint uids; a third finds none, waits, and says so in one line;
    once a holder is killed (SIGKILL), its uids can be leased again."""
    if os.geteuid() != 0:
        pytest.skip("slot uids are leased only when the grader is root")
    first, first_uids = lease_holder(2, wait=5)
    second, second_uids = lease_holder(2, wait=5)
    try:
        assert len(first_uids) == len(second_uids) == 2, (first_uids, second_uids)
        assert not first_uids & second_uids
        assert first_uids | second_uids == set(LEASE_TEST_UIDS)
        third, third_uids = lease_holder(1, wait=1)
        _, err = third.communicate(timeout=30)
        assert not third_uids and third.returncode != 0
        said = err.strip().splitlines()
        assert "waiting" in said[0] and len(said) >= 2, err
        assert str(LEASE_TEST_UIDS[0]) in said[-1] and str(LEASE_TEST_UIDS[-1]) in said[-1]
        first.kill()
        first.wait(timeout=10)
        fourth, fourth_uids = lease_holder(2, wait=10)
        fourth.stdin.close()
        fourth.wait(timeout=10)
        assert fourth_uids == first_uids
    finally:
        for process in (first, second):
            process.kill()
            process.wait(timeout=10)


@pytest.mark.timeout(30)
def test_each_slot_of_a_process_has_a_uid_of_its_own():
    """Two slots of one process run as two uids, each slot always as the same one."""
    require_sandbox()
    with Sandbox(slot=943) as a, Sandbox(slot=944) as b, Sandbox(slot=943) as again:
        assert a.uid == again.uid
        assert a.uid != b.uid or os.geteuid() != 0
        if os.geteuid() == 0:
            assert {a.uid, b.uid} <= set(sandbox.SLOT_UIDS)
        else:
            assert a.uid == b.uid == os.getuid()
