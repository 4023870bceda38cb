"""The zygote: a pre-imported Python that forks each submission's kernel inside one sandbox.

Run by `classroom.isolation.zygote` as the first and only process of a bubblewrap sandbox (bwrap
--as-pid-1: it is the PID namespace's init), with the sandbox's mounts, uid and limits:

    python [-I -S -B] zygote_server.py SPEC_JSON

SPEC: {"mode": "kernel" | "answer", "path": [folders appended to sys.path], "preload":
[modules imported once, here], "script": the answer server's file (mode "answer"), "wipe":
[folders emptied between submissions], "home": HOME (made again, empty, after a wipe)}.

Standard library only until the preload. It never creates a ZMQ context, a thread or an
event loop: a fork copies one thread only. What keeps it out of a learner's reach, who runs
with the same uid:

- non-dumpable (prctl PR_SET_DUMPABLE 0) before anything else: no ptrace, no /proc/1/mem,
  environ, maps or fd of it for a process without CAP_SYS_PTRACE, which no process of the
  sandbox has;
- the namespace's init: the kernel delivers no signal from inside the namespace for which it
  keeps the default action, so SIGKILL, SIGSTOP, SIGTERM do nothing to it; it ignores SIGINT
  and only wakes up on SIGCHLD;
- its control channel is fd 0, a SOCK_SEQPACKET socket to the grader; every child drops it
  (and every other descriptor but those handed over: an answer process's pipes, else
  /dev/null as stdin, stdout and stderr) before any learner code runs;
- it reads nothing a submission can write: its sys.path holds read-only folders only, and it
  imports nothing after the preload.

Requests, one packet of JSON each (descriptors attached for "spawn" in mode "answer"):

- {"op": "spawn", "argv", "env", "cwd", "limits": {RLIMIT_...: [soft, hard]}} ->
  {"op": "spawned", "pid"}: a child in a session of its own, limits applied, dumpable again,
  becomes the kernel (`python -m ipykernel_launcher ...`) or the answer server;
- {"op": "signal", "pid", "signum"} -> {"op": "signalled", "sent"}: to the child's group;
- {"op": "reset", "wipe"} -> {"op": "reset", "clean", "why"}: every other process of the
  sandbox killed (kill(-1) from init spares only itself) and reaped; then, with wipe, the
  writable folders emptied and their mode, times and extended attributes restored; clean is
  False (why says what) when anything could not be put back: the grader then discards the
  whole sandbox;
- {"op": "exit"}: everything killed, the zygote ends (so does the sandbox).

Events: {"op": "exited", "pid", "status"} when a child ends (status as Popen.returncode:
the exit code, or minus the signal). PIDs are the sandbox's own (the grader never signals
them itself). Replies to requests come in order; events may come between them.
"""

import ctypes
import json
import os
import resource
import select
import signal
import socket
import stat
import sys
import time

PR_SET_DUMPABLE = 4
MAX_PACKET = 1 << 20  # bytes of one request
KILL_WAIT = 5.0  # seconds the processes of a submission have to be gone after SIGKILL
SYSVIPC = ("/proc/sysvipc/shm", "/proc/sysvipc/sem", "/proc/sysvipc/msg")

_libc = ctypes.CDLL(None, use_errno=True)
_children: dict[int, int | None] = {}  # pid of each spawned child -> exit status once reaped
_channel: socket.socket | None = None


def _send(message: dict) -> None:
    """One packet to the grader."""
    _channel.send(json.dumps(message).encode())


def _status(raw: int) -> int:
    """waitpid's status as Popen.returncode: the exit code, or minus the signal."""
    return -os.WTERMSIG(raw) if os.WIFSIGNALED(raw) else os.WEXITSTATUS(raw)


def reap() -> None:
    """Reap every child that ended (the zygote is init: orphans come to it too) and report
    the spawned ones."""
    while True:
        try:
            pid, raw = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        if pid in _children and _children[pid] is None:
            _children[pid] = _status(raw)
            _send({"op": "exited", "pid": pid, "status": _children[pid]})


# ---------------------------------------------------------------------------- the child


def _become(request: dict, fds: list[int], spec: dict, kernel_path: list[str]) -> None:
    """In the forked child: drop everything of the zygote, then run the kernel or the answer
    server; never returns."""
    code = 1
    try:
        os.setsid()
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        null = os.open("/dev/null", os.O_RDWR)
        streams = fds if len(fds) == 3 else [null, null, null]  # never the zygote's stderr
        for target, source in enumerate(streams):
            os.dup2(source, target)
        os.closerange(3, resource.getrlimit(resource.RLIMIT_NOFILE)[0])
        for name, (soft, hard) in request.get("limits", {}).items():
            resource.setrlimit(getattr(resource, name), (soft, hard))
        _libc.prctl(PR_SET_DUMPABLE, 1, 0, 0, 0)  # its own process, like a cold kernel
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        if "numpy" in sys.modules:  # a fresh seed, as a fresh interpreter would draw
            sys.modules["numpy"].random.seed()
        _run(request["argv"], spec, kernel_path)
        code = 0
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    except BaseException:  # noqa: BLE001 - the child must never return into the zygote
        import traceback

        traceback.print_exc()
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


def _run(argv: list[str], spec: dict, kernel_path: list[str]) -> None:
    """What `argv` would have run: `python -m ipykernel_launcher ARGS` (mode kernel) or
    `python -I -S -B answer_server.py ARGS` (mode answer)."""
    if spec["mode"] == "kernel":
        if argv[1:3] != ["-m", "ipykernel_launcher"]:
            raise SystemExit(f"zygote: not an ipykernel command: {argv[:3]}")
        import ipykernel_launcher

        sys.argv = [ipykernel_launcher.__file__, *argv[3:]]
        sys.path[:] = kernel_path  # as ipykernel_launcher leaves it (no current folder)
        from ipykernel import kernelapp

        kernelapp.launch_new_instance()
        return
    script = spec["script"]
    if script not in argv:
        raise SystemExit("zygote: not the answer server's command")
    sys.argv = argv[argv.index(script) :]
    sys.modules["__answer_server__"].main(sys.argv[1:])


def spawn(request: dict, fds: list[int], spec: dict, kernel_path: list[str]) -> None:
    """Fork a child for the request and say its pid."""
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        _become(request, fds, spec, kernel_path)
    for fd in fds:
        os.close(fd)
    _children[pid] = None
    _send({"op": "spawned", "pid": pid})


def send_signal(request: dict) -> None:
    """A signal to a spawned child's process group (its session), if it still runs."""
    pid, sent = int(request["pid"]), False
    if _children.get(pid, 0) is None:
        try:
            os.killpg(pid, int(request["signum"]))
            sent = True
        except ProcessLookupError:
            try:
                os.kill(pid, int(request["signum"]))
                sent = True
            except ProcessLookupError:
                pass
    _send({"op": "signalled", "pid": pid, "sent": sent})


# ---------------------------------------------------------------------------- the reset


def others() -> list[int]:
    """The processes of the sandbox other than the zygote (pid 1)."""
    return [int(name) for name in os.listdir("/proc") if name.isdigit() and name != "1"]


def kill_all() -> str | None:
    """SIGKILL to every process of the sandbox but this one, reaped; why not, or None."""
    deadline = time.monotonic() + KILL_WAIT
    while True:
        try:
            os.kill(-1, signal.SIGKILL)
        except ProcessLookupError:  # nothing left to signal
            pass
        reap()
        left = others()
        if not left:
            return None
        if time.monotonic() > deadline:
            return f"{len(left)} processes outlived SIGKILL"
        time.sleep(0.002)


def mount_points() -> set[str]:
    """The mount points of the sandbox and every folder above each (the read-only binds
    bwrap placed inside /tmp, say: a wipe keeps them)."""
    found = set()
    with open("/proc/self/mountinfo", encoding="utf-8", errors="replace") as f:
        for line in f:
            point = line.split()[4].encode().decode("unicode_escape")
            while point not in found and point != "/":
                found.add(point)
                point = os.path.dirname(point)
    return found


def _empty(folder: str, keep: set[str]) -> None:
    """Remove everything in folder (never following a link), keeping the folder and the
    mount points in it (with the folders above them, emptied of anything else)."""
    import shutil

    with os.scandir(folder) as entries:
        for entry in list(entries):
            if entry.path in keep:
                if not os.path.ismount(entry.path):
                    _empty(entry.path, keep)
                continue
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path)
            else:
                os.unlink(entry.path)


def _user_xattrs(path: str) -> list[str]:
    """The extended attributes of path a process without privileges can set (user.*)."""
    return [n for n in os.listxattr(path, follow_symlinks=False) if n.startswith("user.")]


def _restore(folder: str, mode: int) -> None:
    """The folder's mode, extended attributes and times as a fresh one's."""
    os.chmod(folder, mode)
    for name in _user_xattrs(folder):
        os.removexattr(folder, name, follow_symlinks=False)
    os.utime(folder)


def wipe(folders: dict[str, int], home: str, keep: set[str]) -> None:
    """Empty each writable folder and restore it (mode recorded at start); HOME again."""
    for folder, mode in folders.items():
        _empty(folder, keep)
        _restore(folder, mode)
    os.makedirs(home, exist_ok=True)


def problems(folders: dict[str, int], home: str, keep: set[str]) -> str | None:
    """Why the sandbox is not as a fresh one, or None: a process, a file, a SysV IPC object,
    an extended attribute or a mode left."""
    if others():
        return "a process is still there"
    for folder, mode in folders.items():
        names = sorted(os.listdir(folder))
        expected = {os.path.basename(p) for p in keep if os.path.dirname(p) == folder}
        if os.path.dirname(home) == folder:
            expected.add(os.path.basename(home))
        if names != sorted(expected) or stat.S_IMODE(os.stat(folder).st_mode) != mode:
            return f"{folder} is not empty"
        if _user_xattrs(folder):
            return f"{folder} has extended attributes"
    if os.path.isdir(home) and (os.listdir(home) or _user_xattrs(home)):
        return f"{home} is not empty"
    for table in SYSVIPC:
        try:
            with open(table, encoding="ascii") as f:
                if len(f.read().strip().splitlines()) > 1:
                    return f"{table} lists objects"
        except FileNotFoundError:
            pass
    return None


def reset(request: dict, folders: dict[str, int], home: str, keep: set[str]) -> None:
    """Kill every other process; with wipe, empty the writable folders; say whether the
    sandbox is now as a fresh one."""
    why = kill_all()
    if why is None and request.get("wipe", True):
        try:
            wipe(folders, home, keep)
            why = problems(folders, home, keep)
        except (OSError, RecursionError) as error:
            why = f"could not empty the sandbox: {error}"
    _send({"op": "reset", "clean": why is None, "why": why})


# ---------------------------------------------------------------------------- the zygote


def preload(spec: dict) -> dict:
    """Import what every child needs, once. Returns {module: error} for those that failed."""
    import importlib

    failed = {}
    for name in spec.get("preload", []):
        try:
            if name.endswith(".**"):  # a package and every module in it
                import pkgutil

                package = importlib.import_module(name[:-3])
                for found in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
                    importlib.import_module(found.name)
            else:
                importlib.import_module(name)
        except Exception as error:  # noqa: BLE001 - said in the ready message
            failed[name] = f"{type(error).__name__}: {error}"
    if spec["mode"] == "answer":
        import importlib.util

        found = importlib.util.spec_from_file_location("__answer_server__", spec["script"])
        module = importlib.util.module_from_spec(found)
        sys.modules["__answer_server__"] = module
        found.loader.exec_module(module)
    return failed


def serve(spec: dict, folders: dict[str, int], kernel_path: list[str]) -> None:
    """Answer requests until "exit" or the grader's end of the channel closes."""
    keep = mount_points()
    wake_r, wake_w = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    while True:
        ready, _, _ = select.select([_channel, wake_r], [], [], 1.0)
        if wake_r in ready:
            try:
                os.read(wake_r, 4096)
            except BlockingIOError:
                pass
        reap()
        if _channel not in ready:
            continue
        data, fds, _flags, _addr = socket.recv_fds(_channel, MAX_PACKET, 3)
        if not data:
            return
        request = json.loads(data)
        if request["op"] == "spawn":
            spawn(request, fds, spec, kernel_path)
        elif request["op"] == "signal":
            send_signal(request)
        elif request["op"] == "reset":
            reset(request, folders, spec["home"], keep)
        elif request["op"] == "exit":
            return


def main() -> None:
    """Become non-dumpable, preload, report ready, serve; kill everything at the end."""
    global _channel
    _libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    spec = json.loads(sys.argv[1])
    here = os.path.dirname(os.path.abspath(__file__))
    kernel_path = [p for p in sys.path if p and os.path.abspath(p) != here]
    sys.path[:] = kernel_path + list(spec.get("path", []))
    _channel = socket.socket(fileno=os.dup(0))
    null = os.open("/dev/null", os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(2, 1)  # nothing of the zygote's prints goes down the channel
    os.chdir("/")
    started = time.monotonic()
    failed = preload(spec)
    threads = len(os.listdir("/proc/self/task"))
    folders = {f: stat.S_IMODE(os.stat(f).st_mode) for f in spec.get("wipe", [])}
    wipe(folders, spec["home"], mount_points())  # what the preload wrote (font caches)
    ready = {"op": "ready", "seconds": round(time.monotonic() - started, 3)}
    ready.update(failed=failed, threads=threads, dumpable=_libc.prctl(3, 0, 0, 0, 0))
    _send(ready)
    if threads != 1:  # a fork would copy one thread of several: refuse to serve
        return
    try:
        serve(spec, folders, kernel_path)
    finally:
        kill_all()


if __name__ == "__main__":
    main()
