"""The trusted side of the verdict boundary: call a learner's graded functions in another process.

A check must not run inside the learner's own kernel, where rebinding a function, an `__eq__`
that always says yes or a str subclass can fool it. Instead the learner's answer cells run in
an answer process (answer_server.py) that holds only their code, the standard library and
NumPy, and the grader calls their functions across a data boundary:

    with AnswerProcess() as answers:
        outcome = answers.exec_cell(answer_cell_source)
        if (problem := outcome.problem("your answer cell")) is not None:
            ...                                    # LooksUpAnswer or StudentError
        solid_inertia = answers.function("solid_inertia")
        mass, inertia = solid_inertia("box", [0.1, 0.2, 0.3], 1000.0)  # plain float, list

Arguments go across as data (numbers, str, lists, tuples, dicts, NumPy arrays); a trusted
callable among them (e.g. a MuJoCo-backed `accel(x, v)`) becomes a callback that the learner's
code calls and that runs here with plain decoded arguments; a StudentFunction among them is
passed as the learner's own function. Results come back decoded by this side's json.loads into
None, bool, int, float, str, list and dict only (arrays and tuples become lists), so nothing the
learner defined (no `__eq__`, `__array__`, `__float__`, no pickle) ever runs in this process.

Every failure is a VerdictError whose str() is one sentence for the learner's feedback.
Not thread-safe: one AnswerProcess is used by one thread at a time (a lock serialises calls).
"""

from __future__ import annotations

import atexit
import itertools
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from classroom.nbgrader_ext.verdicts import answer_server as codec

SERVER_SCRIPT = Path(codec.__file__).resolve()
MAX_STDERR = 8 * 1024  # bytes of the answer process's stderr kept for messages
GRACE = 2.0  # seconds a cell has, after its interrupt, before the process is killed
MAX_MEMORY = 2 * 1024**3  # address space of the answer process, bytes
# Names the lessons' set-up cells define: a graded function that needs one is looking its
# answer up (in MuJoCo or the course package) instead of computing it.
SETUP_NAMES = frozenset(
    {
        "mujoco", "course", "compiled", "falls", "menagerie", "quiz", "render", "drop",
        "explore", "scenes", "check", "checks", "dynamics", "lab", "plt", "matplotlib",
        "mediapy", "media",
    }
)  # fmt: skip
# The answer process's whole environment: nothing of the grader's leaks into it.
CHILD_ENV = {
    "PATH": "/usr/bin:/bin",
    "LANG": "C.UTF-8",
    "LC_ALL": "C.UTF-8",
    "OPENBLAS_NUM_THREADS": "1",  # one core per answer process; also keeps RLIMIT_AS modest
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
}
KINDS = ("function", "value", "other")
CHECKABLE = "return numbers, strings, lists, tuples, dicts or NumPy arrays"
MUST_COMPUTE = "it must compute its result from its arguments with NumPy and the standard library"


# ----------------------------------------------------------------------------- errors


class VerdictError(Exception):
    """A learner's function could not be checked; str(error) is one sentence for feedback."""


class StudentError(VerdictError):
    """The learner's code raised: "solid_inertia raised ValueError: ...".

    error_type, error_message: the exception's type name and message (text from the learner's
    process, truncated); where: "cell 2, line 7" or None.
    """

    def __init__(self, label: str, error_type: str, error_message: str, where: str | None):
        detail = error_message.strip().split("\n")[0][:200]
        super().__init__(f"{label} raised {error_type}" + (f": {detail}" if detail else ""))
        self.error_type, self.error_message, self.where = error_type, error_message, where


class LooksUpAnswer(VerdictError):
    """The learner's code needs a module or set-up name other than NumPy and the stdlib."""

    def __init__(self, label: str, used: str, function: str | None = None):
        through = f" (in {function})" if function and function != label else ""
        super().__init__(
            f"{label} uses {used}{through}, which a graded function may not: {MUST_COMPUTE}"
        )
        self.used, self.function = used, function


class StudentTimeout(VerdictError):
    """The learner's code ran past its time limit; the answer process was killed."""


class AnswerProcessGone(VerdictError):
    """The answer process died, broke the protocol, or was stopped by an earlier failure.

    stderr: the tail of what it wrote on stderr (for the instructor, not the sentence).
    """

    def __init__(self, message: str, stderr: str = ""):
        super().__init__(message)
        self.stderr = stderr


class BadAnswerValue(VerdictError):
    """The learner's value cannot cross the boundary: not plain data, too large or too deep."""


class NotDefined(VerdictError):
    """The notebook does not define the name asked for, or it is not a function."""


class TooManyCallbacks(VerdictError):
    """The learner's function called the trusted functions it was given too many times."""


# ----------------------------------------------------------------------------- the site


_site_lock = threading.Lock()
_site: tuple[int, Path] | None = None  # (pid that made it, directory)


def numpy_dirs() -> list[Path]:
    """The real directories a NumPy-only site links to: numpy/ and numpy.libs/ (if present).

    A sandbox can bind these read-only at the same paths so the site's symlinks resolve.
    """
    import numpy

    package = Path(numpy.__file__).resolve().parent
    libs = package.parent / "numpy.libs"  # the wheel's bundled OpenBLAS and libgfortran
    return [package] + ([libs] if libs.is_dir() else [])


def numpy_only_site() -> Path:
    """A directory (made once per process, writable by its owner only) holding only numpy's
    symlinks.

    The answer process puts it after the standard library on sys.path, so `import numpy`
    works there and `import mujoco`, `course`, `IPython`, `nbgrader`, `matplotlib` fail.
    """
    global _site
    with _site_lock:
        if _site is None or _site[0] != os.getpid() or not _site[1].is_dir():
            owned = Path(_owned_folder())  # swept by a later run if this process is killed
            # Readable by all: it holds only links to NumPy, and a sandbox's unprivileged
            # user must read it. Nobody else can write it (the owner's only).
            site = owned / "numpy-only-site"
            site.mkdir()
            os.chmod(site, 0o755)
            for source in numpy_dirs():
                (site / source.name).symlink_to(source, target_is_directory=True)
            atexit.register(shutil.rmtree, owned, True)
            _site = (os.getpid(), site)
        return _site[1]


def remove_numpy_only_site() -> None:
    """Remove this process's NumPy-only site now (a multiprocessing worker ends without
    running atexit)."""
    global _site
    with _site_lock:
        if _site is not None and _site[0] == os.getpid():
            shutil.rmtree(_site[1].parent, ignore_errors=True)
            _site = None


def _owned_folder() -> str:
    from classroom.isolation import (
        sandbox,  # here: sandbox brings jupyter_client, which this module need not
    )

    return sandbox.owned_folder()


def server_command(
    site: Path, *, python: str | None = None, max_message: int, max_memory: int
) -> list[str]:
    """The command line of an answer process: isolated (-I), no site-packages (-S), no .pyc."""
    return [
        python or sys.executable, "-I", "-S", "-B", str(SERVER_SCRIPT), "--site", str(site),
        "--max-message", str(max_message), "--max-memory", str(max_memory),
    ]  # fmt: skip


def probe_site(
    site: Path | None = None,
    modules: tuple[str, ...] = (*codec.FORBIDDEN, "numpy"),
    python: str | None = None,
) -> dict[str, bool]:
    """{module: importable?} as seen by an interpreter started like the answer process."""
    code = (
        "import sys, json, importlib\nsys.path.append(sys.argv[1])\nfound = {}\n"
        "for name in sys.argv[2:]:\n    try:\n        importlib.import_module(name)\n"
        "        found[name] = True\n    except ImportError:\n        found[name] = False\n"
        "print(json.dumps(found))"
    )
    site = site or numpy_only_site()
    command = [python or sys.executable, "-I", "-S", "-B", "-c", code, str(site), *modules]
    done = subprocess.run(command, capture_output=True, text=True, env=CHILD_ENV, timeout=60)
    return json.loads(done.stdout)


# ----------------------------------------------------------------------------- the channel


class _ChannelError(Exception):
    """Internal: the channel failed (subclasses say how)."""


class _Timeout(_ChannelError):
    pass


class _Gone(_ChannelError):
    pass


class _Oversize(_ChannelError):
    pass


class _Garbage(_ChannelError):
    pass


class _Channel:
    """Length-prefixed JSON messages over two pipe descriptors, every operation with a deadline.

    Robust to anything the other end does: a message longer than max_message raises _Oversize
    before any of it is read, unreadable JSON raises _Garbage, end of file _Gone, and a
    deadline passing (reading or writing) _Timeout. Deadlines are time.monotonic() values.
    """

    def __init__(self, rfd: int, wfd: int, max_message: int):
        self.rfd, self.wfd, self.max_message = rfd, wfd, max_message
        os.set_blocking(rfd, False)
        os.set_blocking(wfd, False)
        self._buffer = bytearray()
        self._readable = select.poll()  # poll, not select: works for descriptors >= 1024
        self._readable.register(rfd, select.POLLIN)
        self._writable = select.poll()
        self._writable.register(wfd, select.POLLOUT)

    def send(self, message: Any, deadline: float) -> None:
        body = codec.dumps(message)
        view = memoryview(codec.HEADER.pack(len(body)) + body)
        while view:
            self._wait(self._writable, deadline)
            try:
                view = view[os.write(self.wfd, view) :]
            except BlockingIOError:
                continue
            except OSError:  # EPIPE: it closed its input; EBADF: closed under us
                raise _Gone("the answer process closed its input") from None

    def receive(self, deadline: float) -> Any:
        (size,) = codec.HEADER.unpack(self._read(codec.HEADER.size, deadline))
        if size > self.max_message:
            raise _Oversize(size)
        body = self._read(size, deadline)
        try:
            return json.loads(body)
        except (ValueError, RecursionError) as exc:  # also UnicodeDecodeError, huge ints
            raise _Garbage(f"unreadable message: {type(exc).__name__}") from None

    def _read(self, n: int, deadline: float) -> bytes:
        while len(self._buffer) < n:
            self._wait(self._readable, deadline)
            try:
                chunk = os.read(self.rfd, min(max(65536, n - len(self._buffer)), 1 << 20))
            except BlockingIOError:
                continue
            except OSError:  # EBADF: close() from another thread
                raise _Gone("the answer process's output was closed") from None
            if not chunk:
                raise _Gone("the answer process closed its output")
            self._buffer += chunk
        data = bytes(self._buffer[:n])
        del self._buffer[:n]
        return data

    @staticmethod
    def _wait(poller: select.poll, deadline: float) -> None:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise _Timeout()
        poller.poll(max(1, int(remaining * 1000) + 1))  # ms; a hang-up also wakes it


class _StderrTail:
    """Drains a child's stderr in a thread (so it never blocks) and keeps the last bytes."""

    def __init__(self, stream, limit: int = MAX_STDERR):
        self._stream, self._limit = stream, limit
        self._tail = bytearray()
        self._lock = threading.Lock()
        self.thread = threading.Thread(target=self._drain, name="answer-stderr", daemon=True)
        self.thread.start()

    def _drain(self) -> None:
        try:
            while chunk := self._stream.read(65536):
                with self._lock:
                    self._tail += chunk
                    del self._tail[: max(0, len(self._tail) - self._limit)]
        except (OSError, ValueError):
            pass
        finally:
            self._stream.close()

    def text(self) -> str:
        with self._lock:
            return self._tail.decode("utf-8", errors="replace")


# ----------------------------------------------------------------------------- results


@dataclass(frozen=True)
class CellOutcome:
    """What running one cell in the answer process did.

    ok: it ran to the end. skipped: it was a non-Python cell magic (%%html ...), not run.
    error_type, message, where, missing_module, undefined_name: the exception, when not ok.
    stdout: what the cell printed (bounded).
    """

    ok: bool
    skipped: bool = False
    error_type: str | None = None
    message: str | None = None
    where: str | None = None
    missing_module: str | None = None
    undefined_name: str | None = None
    stdout: str = ""

    def problem(self, label: str, setup_names=SETUP_NAMES) -> VerdictError | None:
        """None when the cell ran, else the LooksUpAnswer or StudentError to report."""
        if self.ok:
            return None
        error = {
            "type": self.error_type,
            "message": self.message,
            "where": self.where,
            "missing_module": self.missing_module,
            "undefined_name": self.undefined_name,
        }
        return _learner_error(error, label, setup_names)


def _text(value: Any, limit: int = codec.MAX_TEXT) -> str | None:
    """value when it is a str (truncated), else None: replies are checked, never trusted."""
    return value[:limit] if type(value) is str else None


def _clean_error(error: Any) -> dict[str, str | None]:
    error = error if type(error) is dict else {}
    keys = ("type", "message", "where", "function", "missing_module", "undefined_name", "boundary")
    clean = {key: _text(error.get(key)) for key in keys}
    if not (clean["type"] or "").isidentifier():
        clean["type"] = "an exception"  # the learner picks type names: keep only plain ones
    return clean


def _learner_error(error: dict, label: str, setup_names) -> VerdictError:
    """The learner's exception as LooksUpAnswer (needs MuJoCo, course...) or StudentError."""
    module, name = error.get("missing_module"), error.get("undefined_name")
    function = error.get("function")
    if error["type"] in ("ModuleNotFoundError", "ImportError") and module and module != "numpy":
        return LooksUpAnswer(label, module, function)
    if error["type"] == "NameError" and name in setup_names:
        return LooksUpAnswer(label, name, function)
    return StudentError(label, error["type"], error.get("message") or "", error.get("where"))


def _label(name: str) -> str:
    return "a function your code passed along" if name.startswith("&") else name


def _refuse_trusted(value: Any):
    raise TypeError(f"cannot send a {type(value).__name__} to the answer process")


def _unencodable(type_name: str):
    raise codec.CodecError("unencodable", type_name)


# ----------------------------------------------------------------------------- the process


class StudentFunction:
    """A learner's function in an answer process, callable from the trusted side.

    Calling it sends the arguments across (see the module docstring) and returns the decoded
    result, or raises a VerdictError. timeout: seconds of the learner's own running time for
    one call (time spent in trusted callbacks is not counted); None: the process's default.
    """

    def __init__(self, process: AnswerProcess, name: str, timeout: float | None = None):
        self.process, self.name, self.timeout = process, name, timeout

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.process._call(self.name, args, kwargs, self.timeout)

    def run_beside(self, formula, *args: Any) -> Any:
        """formula(this function, *args), run in the answer process next to it (a check's
        expect.Formula: a loop that calls the learner's function many times costs one
        request, not one a call). Errors are this function's, as for a call."""
        return self.process._call(self.name, (self, *args), {}, self.timeout, formula)

    def __repr__(self) -> str:
        return f"<learner's function {self.name}>"


class AnswerProcess:
    """A fresh answer process holding one learner's answer code (a context manager).

    call_timeout: default seconds per request (exec, call...); past it the process is killed,
    StudentTimeout is raised and later requests raise AnswerProcessGone until restart().
    max_message: bytes of JSON in one message; max_callbacks: trusted-function calls allowed
    in one top-level call; max_memory: the process's address space, bytes (0: no limit);
    setup_names: names that, undefined, mean the code looks its answer up; launcher: wraps
    the command line (e.g. in a sandbox) and is kept for restart(); spawner: instead of
    Popen, starts the command and returns a Popen-like process whose stdin, stdout and
    stderr are pipes to this process and whose kill() ends its process group (a warm
    answer process forked by classroom.isolation.zygote), also kept for restart().
    """

    def __init__(
        self,
        *,
        call_timeout: float = 10.0,
        start_timeout: float = 30.0,
        max_message: int = codec.MAX_MESSAGE,
        max_callbacks: int = 200_000,
        max_memory: int = MAX_MEMORY,
        setup_names=SETUP_NAMES,
        python: str | None = None,
        launcher: Callable[[list[str]], list[str]] | None = None,
        spawner: Callable[[list[str]], Any] | None = None,
    ):
        self.call_timeout, self.start_timeout = call_timeout, start_timeout
        self.max_message, self.max_callbacks, self.max_memory = (
            max_message,
            max_callbacks,
            max_memory,
        )
        self.setup_names, self.python, self.launcher = frozenset(setup_names), python, launcher
        self.spawner = spawner
        self._proc: subprocess.Popen | None = None
        self._channel: _Channel | None = None
        self._stderr: _StderrTail | None = None
        self._workdir: Path | None = None
        self._dead: str | None = "it was not started"
        self._callbacks: dict[int, tuple[Callable, str]] = {}
        self._ids = itertools.count(1)  # callback ids are never reused
        self._depth = 0  # calls in progress (nested through callbacks)
        self._callback_count = 0
        self._lock = threading.RLock()
        self._cells: list[str] = []  # cells that ran, for restart(replay=True)
        self._exit_status: int | None = None
        self.last_stdout = ""
        self.start_seconds: float | None = None

    # -- life cycle

    def __enter__(self) -> AnswerProcess:
        if not self.alive:
            self.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001 - never raise from a finaliser
            pass

    @property
    def alive(self) -> bool:
        return self._dead is None and self._proc is not None and self._proc.poll() is None

    @property
    def pid(self) -> int | None:
        """The pid of the launched command (the sandbox's when a launcher wraps it)."""
        return self._proc.pid if self._proc is not None else None

    @property
    def stderr_tail(self) -> str:
        return self._stderr.text() if self._stderr is not None else ""

    def start(self, launcher: Callable[[list[str]], list[str]] | None = None) -> AnswerProcess:
        """Start the process and wait for its hello; raises AnswerProcessGone if it fails.

        RuntimeError (the instructor's problem, not the learner's) if the process can import
        MuJoCo, the course package, IPython, nbgrader or matplotlib.
        """
        with self._lock:
            if self.alive:
                return self
            self.close()
            self.launcher = launcher or self.launcher
            command = server_command(
                numpy_only_site(),
                python=self.python,
                max_message=self.max_message,
                max_memory=self.max_memory,
            )
            if self.launcher is not None:
                command = list(self.launcher(command))
            started = time.monotonic()
            self._spawn(command)
            hello = self._hello(started + self.start_timeout)
            self.start_seconds = time.monotonic() - started
            if hello.get("importable"):
                self._kill("its environment was wrong")
                raise RuntimeError(f"the answer process can import {hello['importable']}")
            return self

    def _spawn(self, command: list[str]) -> None:
        # its parent is swept by a later run if the grader is killed
        self._workdir = Path(_owned_folder()) / "home"
        self._workdir.mkdir(mode=0o700)
        env = dict(CHILD_ENV, HOME=str(self._workdir))
        if self.spawner is not None:
            self._proc = self.spawner(command)
        else:
            self._proc = self._popen(command, env)
        self._stderr = _StderrTail(self._proc.stderr)
        self._channel = _Channel(
            self._proc.stdout.fileno(), self._proc.stdin.fileno(), self.max_message
        )
        self._dead = None

    def _popen(self, command: list[str], env: dict) -> subprocess.Popen:
        return subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            bufsize=0,
            cwd=self._workdir,
            env=env,
            close_fds=True,
            start_new_session=True,  # its own process group: close() kills what it forks too
        )

    def _hello(self, deadline: float) -> dict:
        try:
            hello = self._channel.receive(deadline)
        except _ChannelError as exc:
            self._kill("it did not start")
            raise AnswerProcessGone(
                f"The process for your answers did not start ({type(exc).__name__[1:]})",
                self.stderr_tail,
            ) from None
        if type(hello) is not dict or hello.get("op") != "ready":
            self._kill("it did not start")
            raise AnswerProcessGone("The process for your answers did not start", self.stderr_tail)
        return hello

    def close(self) -> None:
        """Kill the process (and its process group) for sure and reap it; idempotent."""
        self._kill("it was closed")

    def restart(self, replay: bool = True) -> list[CellOutcome]:
        """A fresh process (same launcher); replay re-runs the cells that ran before."""
        cells = list(self._cells)
        self.close()
        self._cells = []
        self.start()
        return [self.exec_cell(cell) for cell in cells] if replay else []

    def _kill(self, reason: str) -> None:
        if self._dead is None:
            self._dead = reason
        proc, self._proc = self._proc, None
        if proc is not None:
            if not isinstance(proc, subprocess.Popen):  # a spawner's: kill() ends its group
                proc.kill()
            elif proc.returncode is None:  # not reaped yet, so its pid names its group still
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    proc.kill()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:  # unkillable (D state): leave it to init
                pass
            self._exit_status = proc.returncode
            for stream in (proc.stdin, proc.stdout):
                stream.close()
        if self._stderr is not None:
            self._stderr.thread.join(timeout=1.0)
        if self._workdir is not None:
            shutil.rmtree(self._workdir.parent, ignore_errors=True)
            self._workdir = None

    # -- requests

    def exec_cell(self, source: str, timeout: float | None = None) -> CellOutcome:
        """Run one cell (plain Python; IPython magics dropped) in the persistent namespace.

        Past `timeout` s (default: call_timeout) the cell is interrupted in the process
        (CellOutcome.error_type "CellTimeout", what ran before stays); a cell that ignores
        the interrupt is killed with the process (StudentTimeout) GRACE seconds later."""
        timeout = self.call_timeout if timeout is None else timeout
        message = {"op": "exec", "source": source, "timeout": timeout}
        reply = self._request(message, "the cell", timeout + GRACE)
        self.last_stdout = _text(reply.get("stdout"), codec.MAX_STDOUT + 100) or ""
        if reply.get("op") == "ok":
            self._cells.append(source)
            value = reply.get("value")
            return CellOutcome(ok=True, skipped=type(value) is dict, stdout=self.last_stdout)
        error = _clean_error(reply.get("error"))
        return CellOutcome(
            ok=False,
            error_type=error["type"],
            message=error["message"],
            where=error["where"],
            missing_module=error["missing_module"],
            undefined_name=error["undefined_name"],
            stdout=self.last_stdout,
        )

    def names(self, timeout: float | None = None) -> dict[str, str]:
        """{top-level name: "function" | "value" | "other"} of the namespace (dunders left out)."""
        reply = self._request({"op": "names"}, "listing your names", timeout)
        value = self._value_of(reply, "listing your names")
        if type(value) is not dict:
            return {}
        return {k: v for k, v in value.items() if type(k) is str and v in KINDS}

    def value(self, name: str, timeout: float | None = None) -> Any:
        """The value of a top-level name, decoded to plain data (lists, floats...)."""
        return self._value_of(self._request({"op": "get", "name": name}, name, timeout), name)

    def function(self, name: str, timeout: float | None = None) -> StudentFunction:
        """A proxy for the learner's function `name`; NotDefined if it is missing or no function."""
        kind = self.names(timeout).get(name)
        if kind is None:
            raise NotDefined(
                f"Your notebook does not define {name}: keep the name the exercise gives"
            )
        if kind != "function":
            raise NotDefined(f"{name} should be a function, but your notebook makes it a {kind}")
        return StudentFunction(self, name, timeout)

    def _call(
        self, name: str, args: tuple, kwargs: dict, timeout: float | None, formula=None
    ) -> Any:
        """Call the learner's `name` (or, given a check's `formula`, call that formula in the
        answer process, `name` being the learner's function it drives): the decoded result,
        or a VerdictError."""
        with self._lock:
            label, top = _label(name), self._depth == 0
            registered_before = set(self._callbacks)
            if top:
                self._callback_count = 0
            self._depth += 1
            try:
                message = {
                    "op": "call",
                    "name": name,
                    "args": [self._encode(arg) for arg in args],
                    "kwargs": {str(key): self._encode(value) for key, value in kwargs.items()},
                }
                if formula is not None:
                    message["formula"] = self._encode(formula)
                reply = self._request(message, label, timeout)
                if top and self._callback_count > self.max_callbacks:
                    raise TooManyCallbacks(
                        f"{label} called the functions it was given more than "
                        f"{self.max_callbacks} times in one check"
                    )
                return self._value_of(reply, label)
            finally:
                self._depth -= 1
                for callback_id in set(self._callbacks) - registered_before:
                    del self._callbacks[callback_id]  # a stale callback id fails, never reused

    def _request(self, message: dict, label: str, timeout: float | None) -> dict:
        """Send one request; serve callbacks until its reply; map channel failures to errors."""
        with self._lock:
            if self._dead is not None:
                raise AnswerProcessGone(
                    f"The process running your answers was stopped earlier ({self._dead}), "
                    f"so {label} could not be run",
                    self.stderr_tail,
                )
            timeout = self.call_timeout if timeout is None else timeout
            deadline = [time.monotonic() + timeout]  # a list: callbacks push it back
            try:
                self._channel.send(message, deadline[0])
                return self._await_reply(label, deadline)
            except _ChannelError as exc:
                raise self._failure(exc, label, timeout) from None
            except VerdictError:
                raise  # from a nested call through a callback: already reported
            except BaseException:
                self._kill("the grader was interrupted")  # the channel is out of step now
                raise

    def _failure(self, exc: _ChannelError, label: str, timeout: float) -> VerdictError:
        """Kill the process after a channel failure and say what happened, in one sentence."""
        self._kill(f"{label} failed")
        if isinstance(exc, _Timeout):
            return StudentTimeout(
                f"{label} did not finish within {timeout:g} s, so it was stopped "
                "(is there an endless loop?)"
            )
        if isinstance(exc, _Oversize):
            return BadAnswerValue(
                f"{label} returned a value too large to check (more than "
                f"{self.max_message // (1024 * 1024)} MiB of data): {CHECKABLE} of modest size"
            )
        if isinstance(exc, _Garbage):
            return AnswerProcessGone(
                f"The process running your answers sent unreadable data during {label}, "
                "so it was stopped",
                self.stderr_tail,
            )
        return AnswerProcessGone(
            f"The process running your answers stopped during {label} "
            f"(exit status {self._exit_status})",
            self.stderr_tail,
        )

    def _await_reply(self, label: str, deadline: list[float]) -> dict:
        while True:
            reply = self._channel.receive(deadline[0])
            op = reply.get("op") if type(reply) is dict else None
            if op in ("ok", "error"):
                return reply
            if op != "callback":
                raise _Garbage(f"unexpected message {str(op)[:40]!r}")
            paused = time.monotonic()
            answer = self._run_callback(reply)
            self._channel.send(answer, time.monotonic() + self.call_timeout)
            deadline[0] += time.monotonic() - paused  # trusted time is not the learner's

    def _run_callback(self, request: dict) -> dict:
        """Run the trusted function a callback asks for; its reply (return or raise) as data."""
        self._callback_count += 1
        callback_id = request.get("id")
        function, name = self._callbacks.get(callback_id, (None, "function"))
        try:
            if self._callback_count > self.max_callbacks:
                raise RuntimeError(f"{name} was called more than {self.max_callbacks} times")
            if function is None:
                raise RuntimeError("this function is no longer available")
            args, kwargs = request.get("args"), request.get("kwargs")
            if type(args) is not list or type(kwargs) is not dict:
                raise TypeError(f"{name} was called with malformed arguments")
            args = [self._decode(arg) for arg in args]
            kwargs = {key: self._decode(value) for key, value in kwargs.items()}
            return {"op": "return", "value": self._encode(function(*args, **kwargs))}
        except VerdictError as exc:
            if self._dead is not None:
                raise  # a nested call killed the process: nothing left to answer
            error_type = getattr(exc, "error_type", None) or "RuntimeError"
            return {"op": "raise", "error": {"type": error_type, "message": str(exc)}}
        except codec.CodecError as exc:
            message = f"{name} cannot take {exc.detail}: pass numbers, lists or NumPy arrays"
            return {"op": "raise", "error": {"type": "TypeError", "message": message}}
        except Exception as exc:  # noqa: BLE001 - reported to the learner's code, which called it
            return {"op": "raise", "error": {"type": type(exc).__name__, "message": str(exc)}}

    # -- codec on this side

    def _value_of(self, reply: dict, label: str) -> Any:
        """The decoded value of an ok reply, or the VerdictError an error reply stands for."""
        if "stdout" in reply:
            self.last_stdout = _text(reply.get("stdout"), codec.MAX_STDOUT + 100) or ""
        if reply.get("op") == "error":
            raise self._reply_error(_clean_error(reply.get("error")), label)
        try:
            return self._decode(reply.get("value"))
        except codec.CodecError as exc:
            if exc.kind == "unencodable":
                raise BadAnswerValue(
                    f"{label} returned a {exc.detail}, which cannot be checked: {CHECKABLE}"
                ) from None
            raise BadAnswerValue(
                f"{label} returned a value that cannot be checked ({exc.kind})"
            ) from None

    def _reply_error(self, error: dict, label: str) -> VerdictError:
        boundary = error.get("boundary")
        if boundary is None:
            return _learner_error(error, label, self.setup_names)
        if boundary in ("not_defined", "not_callable"):
            return NotDefined(f"{label} could not be called: {error.get('message') or boundary}")
        if boundary == "too_large":
            return BadAnswerValue(
                f"{label} returned a value too large to check: {CHECKABLE} of modest size"
            )
        return BadAnswerValue(f"{label} returned a value that cannot be checked ({boundary})")

    def _encode(self, value: Any) -> Any:
        encoder = codec.Encoder(self._callable_tag, _refuse_trusted, self.max_message // 2)
        return encoder.encode(value)

    def _decode(self, data: Any) -> Any:
        decoder = codec.Decoder(
            arrays=False,
            numeric_arrays=True,  # a learner's array of numbers is data: numpy-built, numeric
            on_callback=self._known_callback,
            on_student=lambda name: StudentFunction(self, name),
            on_unencodable=_unencodable,
        )
        return decoder.decode(data)

    def _callable_tag(self, function: Callable) -> dict:
        if isinstance(function, StudentFunction):
            if function.process is not self:
                raise TypeError("a learner's function can only be passed to its own process")
            return {"__student__": function.name}
        formula = getattr(function, "answer_formula", None)
        found = formula() if callable(formula) else None
        if found is not None:  # a check's NumPy formula: rebuilt there, no callback per value
            source, name, values = found
            encoder = codec.Encoder(self._callable_tag, _refuse_trusted, self.max_message // 2)
            return {"__formula__": source, "name": name, "values": encoder.encode(dict(values))}
        name = getattr(function, "__name__", None)
        name = name if type(name) is str else "function"
        callback_id = next(self._ids)
        self._callbacks[callback_id] = (function, name)
        return {"__callback__": callback_id, "name": name}

    def _known_callback(self, callback_id: int, name: str) -> Callable:
        if callback_id not in self._callbacks:
            raise codec.CodecError("malformed", "a function that is no longer available")
        return self._callbacks[callback_id][0]
