"""Warm sandboxed processes: each submission's kernel (and answer process) forked from a
pre-imported template, the zygote, that lives in the slot's sandbox.

A cold kernel costs a bwrap, an interpreter, ipykernel and the set-up's imports (NumPy,
MuJoCo, the course) for every notebook: about 2 s, more than most lessons' cells.
Here each worker slot has one zygote per kind (`kernel_zygote`, `answer_zygote`): a Python
(`zygote_server.py`) started once in a bubblewrap sandbox of its own (the same mounts, uid,
limits and namespaces as a cold kernel's, see classroom.isolation.sandbox), which imports all
that once and then forks one child per kernel. What one submission did never reaches the next:

- before each child is forked, and as soon as a kernel is stopped, the zygote is `reset`:
  every other process of the sandbox is killed (it is the PID namespace's init), the
  writable places (/tmp with HOME, /dev/shm, the work and kernel folders) are emptied and
  their mode, times and extended attributes restored, and the sandbox is checked against a
  fresh one (no process, file, attribute or SysV IPC object left); anything it cannot put
  back discards the whole sandbox, and the next kernel gets a new zygote;
- the zygote cannot be changed by a submission: it is non-dumpable (no ptrace, no
  /proc/1/mem, of a process of the same uid), init of its namespace (no signal reaches it
  from inside but SIGCHLD), its channel (a SOCK_SEQPACKET socket) is closed in every child,
  and it reads nothing a submission can write (see zygote_server.py). Kernel keyrings and
  POSIX message queues, which would outlive a submission in a shared namespace, are refused
  to every sandboxed process by the sandbox's seccomp filter.

`WarmKernelManager` is SandboxedKernelManager with the kernel forked by the slot's zygote
(`ZygoteProvisioner`: poll, wait, signals and kill go through the zygote); `Child` is the
Popen-like handle of a forked process. `stop_all` ends every zygote of this process (a
worker's end, atexit). A zygote is also replaced after `MAX_USES` children, which bounds what
its own CPU time and memory can drift to.
"""

from __future__ import annotations

import asyncio
import atexit
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

from jupyter_client.provisioning import LocalProvisioner

from classroom.isolation import sandbox

SERVER = Path(__file__).with_name("zygote_server.py").resolve()
MAX_PACKET = 1 << 20
START_TIMEOUT = 120.0  # seconds for a zygote to import its preload and say it is ready
REQUEST_TIMEOUT = 30.0  # seconds for any other answer (a reset kills and empties)
MAX_USES = 200  # children one zygote forks before it is replaced
MAX_STDERR = 4096  # bytes of the zygote's own stderr kept to say why it stopped
REPLIES = {"spawn": "spawned", "signal": "signalled", "reset": "reset"}
# What every lesson's kernel imports: ipykernel's app, shell and debugger (what its start
# imports: 0.3 s), NumPy, MuJoCo and the course package with every module in it
# ("course.**").
BASE_KERNEL_PRELOAD = (
    "ipykernel_launcher",
    "ipykernel.kernelapp",
    "ipykernel.ipkernel",
    "ipykernel.zmqshell",
    "ipykernel.debugger",
    "IPython.core.completer",
    "IPython.core.completerlib",
    "IPython.core.debugger",
    "IPython.core.oinspect",
    "IPython.extensions.storemagic",
    "numpy",
    "mujoco",
    "course.**",
)
# Without knowing the lessons (plain `nbgrader autograde`): the base. No lesson's set-up
# imports pyplot (their plots are drawn by helpers that import it, outside the grader), which
# was 0.5 to 0.7 s of a zygote's 1.8 s of CPU. A grading run preloads its lessons' set-up
# imports (`use_kernel_preload`, `preload_for`), so a lesson that still imports pyplot in its
# set-up has it preloaded there.
KERNEL_PRELOAD = BASE_KERNEL_PRELOAD
_kernel_preload = KERNEL_PRELOAD


def preload_for(import_statements: list[str]) -> tuple[str, ...]:
    """The kernel preload for lessons whose set-ups are these import statements (Python
    source, one or more statements each): BASE_KERNEL_PRELOAD, then each module they import
    (`from a.b import c` imports a.b), in their order."""
    import ast

    found = list(BASE_KERNEL_PRELOAD)
    for statement in import_statements:
        for node in ast.parse(statement).body:
            if isinstance(node, ast.Import):
                found += [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                found.append(node.module)
    return tuple(dict.fromkeys(found))


def use_kernel_preload(modules: tuple[str, ...]) -> None:
    """What this process's kernel zygotes import from now on (a zygote started with another
    preload is replaced when next asked for)."""
    global _kernel_preload
    _kernel_preload = tuple(modules)


class ZygoteGone(RuntimeError):
    """The zygote did not start, stopped, or did not answer; it has been discarded."""


# --------------------------------------------------------------------------------------------
# A forked process, as a Popen


class Child:
    """A process the zygote forked, with Popen's interface (pid is the sandbox's own pid,
    never to be signalled from outside; stdin, stdout, stderr: the pipes handed to it, or
    None)."""

    def __init__(self, zygote: Zygote, pid: int, stdin=None, stdout=None, stderr=None):
        self.zygote, self.pid = zygote, pid
        self.stdin, self.stdout, self.stderr = stdin, stdout, stderr
        self.returncode: int | None = None

    def poll(self) -> int | None:
        """The exit status (Popen's convention) once it ended, else None."""
        if self.returncode is None:
            self.returncode = self.zygote.status(self.pid)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        """Wait at most timeout seconds for its end; subprocess.TimeoutExpired past it."""
        status = self.zygote.wait_for(self.pid, timeout)
        if status is None:
            raise subprocess.TimeoutExpired(f"zygote child {self.pid}", timeout)
        self.returncode = status
        return status

    def send_signal(self, signum: int) -> None:
        """signum to its process group (its session), through the zygote."""
        if self.poll() is None:
            self.zygote.signal(self.pid, signum)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)


# --------------------------------------------------------------------------------------------
# The host side of one zygote


class Zygote:
    """One zygote: `box` (its Sandbox, as_pid_1), started by start(); spawn() forks a child,
    reset() makes the sandbox as new, close() kills the sandbox. Thread-safe."""

    def __init__(self, box: sandbox.Sandbox, spec: dict, flags: tuple[str, ...] = ()):
        self.box, self.spec, self.flags = box, spec, tuple(flags)
        self.process: subprocess.Popen | None = None
        self.ready: dict = {}
        self.uses = 0
        self.dirty = False  # a child was forked since the last clean reset
        self._sock: socket.socket | None = None
        self._cond = threading.Condition()
        self._lock = threading.Lock()  # one request at a time
        self._replies: list[dict] = []
        self._exits: dict[int, int] = {}
        self._gone: str | None = None
        self._stderr = b""  # the tail of what the launcher, bwrap and the zygote said

    @property
    def alive(self) -> bool:
        return self._gone is None and self.process is not None and self.process.poll() is None

    @property
    def host_pid(self) -> int | None:
        """The pid, outside, of the process whose group holds the sandbox (the launcher,
        then bwrap): killing that group kills everything in the sandbox."""
        return self.process.pid if self.process is not None else None

    def start(self, timeout: float = START_TIMEOUT) -> Zygote:
        """Start the sandbox and wait for the zygote's ready (see `wait_ready`)."""
        return self.launch().wait_ready(timeout)

    def launch(self) -> Zygote:
        """Start the sandbox, without waiting for the zygote's preload. Its stdin is the
        channel, its stdout /dev/null and its stderr a pipe read here (never this process's
        streams, which a worker's log is): its children get /dev/null or their own pipes."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        argv = [sys.executable, *self.flags, str(SERVER), json.dumps(self.spec)]
        try:
            self.process = self.box.popen(
                argv, stdin=theirs.fileno(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
            )
        finally:
            theirs.close()
        self._sock = ours
        threading.Thread(target=self._read, daemon=True, name="zygote-reader").start()
        threading.Thread(target=self._drain, daemon=True, name="zygote-stderr").start()
        return self

    def _drain(self) -> None:
        """The stderr thread: keep the last MAX_STDERR bytes, for ZygoteGone's message."""
        stream = self.process.stderr
        for chunk in iter(lambda: stream.read1(MAX_STDERR), b""):
            self._stderr = (self._stderr + chunk)[-MAX_STDERR:]
        stream.close()

    def said(self) -> str:
        """The last line the zygote's sandbox wrote on its stderr ("" when none)."""
        lines = self._stderr.decode("utf-8", "replace").strip().splitlines()
        return lines[-1][:300] if lines else ""

    def wait_ready(self, timeout: float = START_TIMEOUT) -> Zygote:
        """Wait for the zygote's ready (its preload imported), once; ZygoteGone when it does
        not come or the zygote cannot serve (threads after the preload, still dumpable)."""
        if not self.ready:
            self.ready = self._reply("ready", timeout)
            if self.ready.get("threads") != 1 or self.ready.get("dumpable") != 0:
                self.close()
                raise ZygoteGone(f"the zygote cannot fork safely: {self.ready}")
        return self

    def _read(self) -> None:
        """The reader thread: exit events into _exits, everything else into _replies."""
        while True:
            try:
                data = self._sock.recv(MAX_PACKET)
            except OSError:
                data = b""
            with self._cond:
                if not data:
                    self._gone = self._gone or "the zygote stopped"
                    self._cond.notify_all()
                    return
                message = json.loads(data)
                if message.get("op") == "exited":
                    self._exits[int(message["pid"])] = int(message["status"])
                else:
                    self._replies.append(message)
                self._cond.notify_all()

    def _reply(self, op: str, timeout: float) -> dict:
        deadline = time.monotonic() + timeout
        with self._cond:
            while not self._replies:
                left = deadline - time.monotonic()
                if self._gone is not None or left <= 0:
                    why = self._gone or f"no answer to {op!r} in {timeout:g} s"
                    why += f" ({self.said()})" if self.said() else ""
                    break
                self._cond.wait(min(left, 1.0))
            else:
                reply = self._replies.pop(0)
                if reply.get("op") == op:
                    return reply
                why = f"answered {reply.get('op')!r} to {op!r}"
        self.close()
        raise ZygoteGone(why)

    def request(self, message: dict, fds=(), timeout: float = REQUEST_TIMEOUT) -> dict:
        """Send one request (with descriptors), return its reply; ZygoteGone (and the zygote
        discarded) when it does not come."""
        with self._lock:
            if not self.alive:
                raise ZygoteGone(self._gone or "the zygote is not running")
            try:
                socket.send_fds(self._sock, [json.dumps(message).encode()], list(fds))
            except OSError as error:
                self.close()
                raise ZygoteGone(f"the zygote's channel broke: {error}") from None
            return self._reply(REPLIES[message["op"]], timeout)

    def spawn(self, argv, env: dict, cwd: str, limits: dict | None = None, fds=()) -> Child:
        """Fork a child running argv (a kernel's or the answer server's command) with env
        and cwd inside the sandbox; limits: {RLIMIT_...: (soft, hard)} it sets first; fds:
        its stdin, stdout and stderr (default /dev/null: a kernel's output goes through its
        protocol). The caller resets the sandbox first when a child ran before (`dirty`)."""
        request = {"op": "spawn", "argv": list(argv), "env": env, "cwd": cwd}
        request["limits"] = limits or {}
        self.dirty = True
        self.uses += 1
        reply = self.request(request, fds)
        return Child(self, int(reply["pid"]))

    def signal(self, pid: int, signum: int) -> bool:
        """Send signum to the child's group; whether it was still there."""
        try:
            return bool(self.request({"op": "signal", "pid": pid, "signum": int(signum)})["sent"])
        except ZygoteGone:
            return False

    def status(self, pid: int) -> int | None:
        """The child's exit status, or None while it runs (-9 once the zygote is gone)."""
        with self._cond:
            if pid in self._exits:
                return self._exits[pid]
            return -signal.SIGKILL if self._gone is not None else None

    def wait_for(self, pid: int, timeout: float | None) -> int | None:
        """Wait for the child's end; its status, or None after timeout seconds."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while pid not in self._exits and self._gone is None:
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return None
                self._cond.wait(1.0 if left is None else min(left, 1.0))
        return self.status(pid)

    def reset(self, wipe: bool = True) -> str | None:
        """Kill every process of the sandbox but the zygote and (wipe) empty its writable
        places; None when it is now as a fresh sandbox, else why not (and the zygote is
        discarded: the next kernel gets a new one)."""
        try:
            reply = self.request({"op": "reset", "wipe": wipe})
        except ZygoteGone as error:
            return str(error)
        if not reply.get("clean"):
            self.close()
            return str(reply.get("why"))
        self.dirty = not wipe
        return None

    def close(self) -> None:
        """Kill the sandbox (the launcher's group: bwrap, the zygote, every child) and remove
        its private folder; idempotent."""
        with self._cond:
            self._gone = self._gone or "the zygote was closed"
            self._cond.notify_all()
        process, self.process = self.process, None
        if process is not None:
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
            self.process = process  # keeps alive False and host_pid known
        if self._sock is not None:
            self._sock.close()
        self.box.close()
        _forget(self)


# --------------------------------------------------------------------------------------------
# The zygotes of this process

_ZYGOTES: dict[tuple, Zygote] = {}
_REGISTRY_LOCK = threading.Lock()


def _forget(zygote: Zygote) -> None:
    with _REGISTRY_LOCK:
        for key, value in list(_ZYGOTES.items()):
            if value is zygote:
                del _ZYGOTES[key]


def _get(key: tuple, make, wait: bool = True) -> Zygote:
    """The live zygote for key (replaced once used MAX_USES times), else a new one; ready
    unless wait is False (then only launched: the next _get for key waits for it)."""
    with _REGISTRY_LOCK:
        found = _ZYGOTES.get(key)
    if found is not None and found.alive and found.uses < MAX_USES:
        return found.wait_ready() if wait else found
    if found is not None:
        found.close()
    zygote = make()
    try:
        zygote.launch()
        with _REGISTRY_LOCK:
            _ZYGOTES[key] = zygote
        return zygote.wait_ready() if wait else zygote
    except BaseException:
        zygote.close()
        raise


def host_pids() -> list[int]:
    """The host pids of this process's live zygotes (see Zygote.host_pid)."""
    with _REGISTRY_LOCK:
        return [z.host_pid for z in _ZYGOTES.values() if z.alive and z.host_pid]


def stop_all() -> None:
    """Kill every zygote of this process and its sandbox."""
    with _REGISTRY_LOCK:
        zygotes = list(_ZYGOTES.values())
    for zygote in zygotes:
        zygote.close()


atexit.register(stop_all)


def kernel_zygote(
    slot: int, limits: sandbox.Limits, env: dict[str, str], wait: bool = True
) -> Zygote:
    """The slot's kernel zygote: a sandbox like a cold kernel's (kernel/ at KERNEL_DIR and
    notebook/ at NOTEBOOK_DIR writable, the course package read-only) with the preload
    imported (KERNEL_PRELOAD unless `use_kernel_preload` said otherwise). env: the
    variables a kernel gets besides default_env() (the same for every kernel of the slot; a
    child's own environment is given at spawn)."""
    preload = _kernel_preload
    key = ("kernel", slot, limits, tuple(sorted(env.items())), preload)

    def make() -> Zygote:
        # JPY_PARENT_PID as every kernel's: ipykernel reads it when its classes are defined.
        box = sandbox.Sandbox(
            slot=slot,
            limits=limits,
            cwd=sandbox.NOTEBOOK_DIR,
            env={**env, "JPY_PARENT_PID": "1"},
            as_pid_1=True,
        )
        for name, inside in (("kernel", sandbox.KERNEL_DIR), ("notebook", sandbox.NOTEBOOK_DIR)):
            host = os.path.join(box.directory, name)
            os.mkdir(host, 0o700)
            box.writable[host] = inside
        box.readonly.append(str(SERVER))
        spec = {
            "mode": "kernel",
            "preload": list(preload),
            "wipe": ["/tmp", "/dev/shm", sandbox.NOTEBOOK_DIR, sandbox.KERNEL_DIR],
            "home": sandbox.HOME,
        }
        return Zygote(box, spec)

    return _get(key, make, wait)


def answer_zygote(slot: int, make_box, script: str, site: str, wait: bool = True) -> Zygote:
    """The slot's answer zygote: make_box() gives the answer process's sandbox (NumPy and
    the standard library only); the zygote runs as `python -I -S -B`, with NumPy from site
    and the answer server (script) imported."""
    key = ("answer", slot, script, site)

    def make() -> Zygote:
        box = make_box()
        box.as_pid_1 = True
        box.readonly.append(str(SERVER))
        spec = {
            "mode": "answer",
            "path": [site],
            "preload": ["numpy"],
            "script": script,
            "wipe": ["/tmp", "/dev/shm"],
            "home": sandbox.HOME,
        }
        return Zygote(box, spec, flags=("-I", "-S", "-B"))

    return _get(key, make, wait)


def spawn_with_pipes(zygote: Zygote, argv, env: dict, cwd: str) -> Child:
    """A child whose stdin, stdout and stderr are pipes to this process, as
    Popen(stdin=PIPE, stdout=PIPE, stderr=PIPE, bufsize=0) gives."""
    pipes = [os.pipe() for _ in range(3)]
    theirs = [pipes[0][0], pipes[1][1], pipes[2][1]]
    try:
        child = zygote.spawn(argv, env, cwd, fds=theirs)
    except BaseException:
        for read, write in pipes:
            os.close(read)
            os.close(write)
        raise
    finally:
        for fd in theirs:
            try:
                os.close(fd)
            except OSError:
                pass
    child.stdin = open(pipes[0][1], "wb", buffering=0)  # noqa: SIM115
    child.stdout = open(pipes[1][0], "rb", buffering=0)  # noqa: SIM115
    child.stderr = open(pipes[2][0], "rb", buffering=0)  # noqa: SIM115
    return child


# --------------------------------------------------------------------------------------------
# A kernel forked by the zygote


class ZygoteProvisioner(LocalProvisioner):
    """jupyter_client's LocalProvisioner, the kernel forked by the zygote instead of Popen:
    poll, wait, signals, kill and terminate reach the child through the zygote (never a
    signal sent from here to its pid, which is the sandbox's own). `pid` is the zygote's
    host pid (killing its group ends the kernel with its whole sandbox)."""

    zygote: Zygote | None = None

    async def launch_kernel(self, cmd: list[str], **kwargs):
        """Fork the kernel: cmd (its argv inside), kwargs env (the whole environment inside)
        and cwd (inside)."""
        limits = kwargs.get("limits") or {}
        self.process = self.zygote.spawn(cmd, kwargs["env"], kwargs["cwd"], limits)
        self.pid, self.pgid = self.zygote.host_pid, None
        self.cwd = kwargs["cwd"]
        return self.connection_info

    async def send_signal(self, signum: int) -> None:
        if self.process:
            self.process.send_signal(signum)

    async def kill(self, restart: bool = False) -> None:
        """SIGKILL to the kernel's group, then a short wait for its end (the zygote reports
        it within milliseconds), so jupyter_client's 0.1 s polls find it gone at once."""
        if self.process:
            self.process.kill()
            for _ in range(200):
                if self.process.poll() is not None:
                    return
                await asyncio.sleep(0.005)


class WarmKernelManager(sandbox.SandboxedKernelManager):
    """SandboxedKernelManager whose kernel is forked by the slot's kernel zygote: the same
    sandbox, folders (a private copy of the notebook's folder at NOTEBOOK_DIR, the
    connection file and sockets at KERNEL_DIR), limits and environment as a cold kernel's,
    without the interpreter's start and the imports. When the zygote cannot start, the
    kernel starts cold, as SandboxedKernelManager's.

    One kernel per slot at a time: starting a kernel resets the slot's sandbox (every
    process of the kernel before it is killed, its files removed), and so does stopping it
    (cleanup_resources), so nothing of one submission runs on while the next is graded.
    """

    _zygote: Zygote | None = None

    @property
    def sandbox(self) -> sandbox.Sandbox:
        """The zygote's Sandbox when the kernel is forked, else a cold kernel's own."""
        if self._zygote is not None:
            return self._zygote.box
        return sandbox.SandboxedKernelManager.sandbox.fget(self)

    def _forkable(self) -> bool:
        """Whether the kernel spec runs this Python's ipykernel (what the zygote holds); any
        other kernel starts cold."""
        spec = self.kernel_spec
        argv = list(spec.argv) if spec is not None else []
        python = bool(argv) and argv[0] in ("python", "python3", sys.executable)
        return python and argv[1:3] == ["-m", "ipykernel_launcher"]

    def _choose_zygote(self, env: dict) -> None:
        """The slot's zygote, clean (reset now if a kernel ran since), or None (cold)."""
        if self._zygote is not None and self._zygote.alive:
            return
        if not self._forkable():
            self._zygote = None
            return
        passed = {key: env[key] for key in self.passed_env if key in env}
        try:
            self._zygote = kernel_zygote(self.slot, self.limits, passed)
        except (ZygoteGone, OSError) as error:
            self.log.warning("warm kernels unavailable, starting a cold one: %s", error)
            self._zygote = None

    async def _async_pre_start_kernel(self, **kw):
        if self._sandbox is None:  # decided once: the ip (socket path) follows from it
            self._choose_zygote(kw.get("env") or dict(os.environ))
        if self._zygote is not None and self._zygote.dirty:
            # A restart (jupyter_client's) keeps the folder; a new kernel starts afresh.
            why = self._zygote.reset(wipe=not self._folder_copied)
            if why is not None:  # discarded: this kernel starts cold
                self.log.warning("the warm sandbox was discarded: %s", why)
                self._zygote = None
        return await super()._async_pre_start_kernel(**kw)

    async def _async_launch_kernel(self, kernel_cmd, **kw):
        """Fork kernel_cmd in the zygote: the connection file written inside, jupyter_client's
        cwd copied to the working folder, the environment a cold kernel would get."""
        if self._zygote is None:
            return await super()._async_launch_kernel(kernel_cmd, **kw)
        if self.transport != "ipc":
            raise RuntimeError("a sandboxed kernel has no network: it needs transport 'ipc'")
        inside = self._write_inside_connection_file()
        outside = {self.connection_file, os.path.realpath(self.connection_file)}
        argv = [inside if arg in outside else arg for arg in kernel_cmd]
        folder = kw.get("cwd")
        if folder and not self._folder_copied:
            self.provide_folder(folder)
        given = kw.get("env") or {}
        env = {**self.sandbox.env, **{k: given[k] for k in self.passed_env if k in given}}
        env["JPY_PARENT_PID"] = "1"  # as a cold kernel's: see SandboxedKernelManager
        old = self.provisioner
        provisioner = ZygoteProvisioner(
            kernel_id=old.kernel_id, kernel_spec=old.kernel_spec, parent=self
        )
        provisioner.connection_info, provisioner.zygote = old.connection_info, self._zygote
        self.provisioner = provisioner
        limits = self.limits.rlimits()
        if not self.sandbox.drops:  # the zygote's count of this user's tasks stands
            limits.pop("RLIMIT_NPROC")
        info = await provisioner.launch_kernel(
            argv, env=env, cwd=sandbox.NOTEBOOK_DIR, limits=limits
        )
        self._reconcile_connection_info(info)

    async def _async_cleanup_resources(self, restart: bool = False) -> None:
        """jupyter_client's clean-up; then (unless restarting) the slot's sandbox is reset:
        the kernel's processes killed, its files removed (a zygote that cannot be made as
        new is discarded)."""
        await super()._async_cleanup_resources(restart=restart)
        zygote = self._zygote
        if zygote is not None and not restart:
            self._folder_copied = False
            why = zygote.reset()
            if why is not None:
                self.log.warning("the warm sandbox was discarded: %s", why)
            self._zygote = None

    cleanup_resources = _async_cleanup_resources
