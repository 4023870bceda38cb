"""The answer server: runs a learner's answer code in its own, untrusted process.

Started by classroom/nbgrader_ext/verdicts/boundary.py as

    python -I -S -B answer_server.py --site DIR [--max-message BYTES] [--max-memory BYTES]

where DIR holds only NumPy, so the learner's code has the standard library and NumPy and nothing
else (no MuJoCo, no course package, no IPython). This file is self-contained on purpose: it
imports only the standard library, and NumPy when present, never classroom/ or course/.

Protocol. The channel is the process's original stdin (requests in) and stdout (replies out);
at start-up both are moved to private descriptors and fds 0 and 1 become /dev/null, while the
learner's `sys.stdout`/`sys.stderr` become bounded in-memory buffers, so a learner's print can
never corrupt the channel. Each message is a 4-byte big-endian length, then that many bytes of
UTF-8 JSON (an object with an "op"):

    server -> trusted  {"op": "ready", "pid", "numpy", "importable": [forbidden modules found]}
    trusted -> server  {"op": "exec", "source"}            run one cell in the namespace
                       {"op": "names"}                     {name: "function"|"value"|"other"}
                       {"op": "get", "name"}               one value, encoded
                       {"op": "call", "name", "args", "kwargs"}
                       {"op": "call", "name", "formula", "args", "kwargs"}  a check's formula,
                                                           called next to the learner's `name`
    server -> trusted  {"op": "ok", "value", "stdout"} or
                       {"op": "error", "error": {"type", "message", "where", "missing_module",
                        "undefined_name", "boundary"}, "stdout"}
    during a call      {"op": "callback", "id", "args", "kwargs"}  (server -> trusted), answered
                       by {"op": "return", "value"} or {"op": "raise", "error": {"type",
                       "message"}}; while waiting, the server serves nested requests.

"boundary" in an error is set when the failure is the boundary's, not the learner's exception:
"too_large", "not_defined", "not_callable", "bad_request".

Codec (the same on both sides; boundary.py imports this module for it). JSON values stand for
themselves, except that every JSON object is a tag:

    {"__float__": "nan"|"inf"|"-inf"}           floats JSON cannot spell
    {"__tuple__": [...]}                        a tuple (a tuple here, a list on the trusted side)
    {"__dict__": {str: value}}                  a dict whose keys are all str
    {"__pairs__": [[key, value], ...]}          any other dict (keys: numbers, str, tuples...)
    {"__ndarray__": nested lists, "dtype", "shape"}   a NumPy array (here: an ndarray again;
                                                on the trusted side: nested plain lists)
    {"__callback__": id, "name"}                a function of the trusted side
    {"__student__": name}                       a function in this namespace (or a temporary
                                                "&N" reference to a callable passed along)
    {"__unencodable__": "type name"}            anything else the learner produced
    {"__formula__": source, "name", "values": {"__dict__": ...}}   a check's small NumPy
                                                function (one lambda, or code defining `name`,
                                                over np and the values), rebuilt here:
                                                trusted -> server only; the trusted side
                                                refuses the tag

NumPy scalars become plain numbers. Decoding is strict: anything not built exactly from these
pieces is refused (CodecError), so the trusted side only ever holds what its own json.loads
made: None, bool, int, float, str, list, dict.
"""

from __future__ import annotations

import builtins
import contextlib
import functools
import io
import json
import math
import os
import re
import signal
import struct
import sys
import threading
import traceback

HEADER = struct.Struct(">I")
MAX_MESSAGE = 16 * 1024 * 1024  # bytes of JSON in one message
MAX_DEPTH = 64  # nesting of lists/dicts/tuples in one value
MAX_STDOUT = 64 * 1024  # characters of a learner's prints kept per request
MAX_TEXT = 2000  # characters of an exception message sent back
# Found by the server at start-up, they mean the site directory is wrong (never the learner).
FORBIDDEN = ("mujoco", "course", "classroom", "IPython", "nbgrader", "matplotlib")
# Cell magics whose body is plain Python: the body runs, the magic line is dropped.
PYTHON_CELL_MAGICS = {"time", "timeit", "capture", "prun"}
FLOAT_TAGS = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}
NUMBER_KINDS = "biuf"  # NumPy dtype kinds sent as numbers: bool, int, unsigned, float

np = None  # NumPy when importable; the server loads it again once --site is on sys.path


def load_numpy():
    """Import NumPy into this module's `np` if the current sys.path has it; else leave None."""
    global np
    try:
        import numpy
    except ImportError:
        return None
    np = numpy
    return numpy


load_numpy()


class CodecError(Exception):
    """A value that cannot cross the boundary.

    kind: "unencodable" (detail: the type's name), "too_large", "too_deep" or "malformed".
    """

    def __init__(self, kind: str, detail: str):
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail


class Encoder:
    """Turns a value into JSON-able data (the codec above), within a budget of nodes.

    on_callable(obj) -> tag dict, for functions; on_unknown(obj) -> tag dict, or raises.
    max_nodes bounds the work: every list item, dict entry and 8 characters of text count one,
    so a gigantic value is refused early instead of exhausting memory.
    """

    def __init__(self, on_callable, on_unknown, max_nodes: int = MAX_MESSAGE // 2):
        self.on_callable = on_callable
        self.on_unknown = on_unknown
        self.max_nodes = max_nodes
        self.nodes = 0

    def _count(self, n: int) -> None:
        self.nodes += n
        if self.nodes > self.max_nodes:
            raise CodecError("too_large", f"more than {self.max_nodes} items")

    def encode(self, value, depth: int = 0):
        """The encoded form of value (see the module docstring)."""
        self._count(1)
        if depth > MAX_DEPTH:
            raise CodecError("too_deep", f"nested more than {MAX_DEPTH} levels")
        if value is None or value is True or value is False:
            return value
        if isinstance(value, int):  # exact int even for subclasses: no learner __repr__ later
            return int.__int__(value)
        if isinstance(value, float):
            return encode_float(float.__float__(value))
        if isinstance(value, str):
            self._count(len(value) // 8)
            return str.__str__(value)
        if isinstance(value, (list, tuple)):
            items = [self.encode(item, depth + 1) for item in value]
            return {"__tuple__": items} if isinstance(value, tuple) else items
        if isinstance(value, dict):
            return self._encode_dict(value, depth)
        if np is not None and isinstance(value, (np.ndarray, np.generic)):
            return self._encode_numpy(value, depth)
        if callable(value):
            return self.on_callable(value)
        return self.on_unknown(value)

    def _encode_dict(self, value: dict, depth: int):
        pairs = list(dict.items(value))
        if all(isinstance(key, str) for key, _ in pairs):
            return {"__dict__": {str.__str__(k): self.encode(v, depth + 1) for k, v in pairs}}
        return {
            "__pairs__": [[self.encode(k, depth + 1), self.encode(v, depth + 1)] for k, v in pairs]
        }

    def _encode_numpy(self, value, depth: int):
        if isinstance(value, np.generic):
            if value.dtype.kind not in NUMBER_KINDS + "U":
                return self.on_unknown(value)
            return self.encode(value.item(), depth)
        array = np.asarray(value)
        self._count(int(array.size))
        if array.dtype.kind in NUMBER_KINDS and (
            array.dtype.kind != "f" or bool(np.isfinite(array).all())
        ):
            data = array.tolist()  # fast path: plain numbers all the way down
        elif array.dtype.kind in NUMBER_KINDS + "U":
            data = self.encode(array.tolist(), depth)
        else:  # complex, object, datetime...: not a checkable array
            return self.on_unknown(value)
        return {"__ndarray__": data, "dtype": array.dtype.str, "shape": list(array.shape)}


def encode_float(x: float):
    """x as JSON data: itself when finite, else its {"__float__": ...} tag."""
    if math.isfinite(x):
        return x
    return {"__float__": "nan" if math.isnan(x) else ("inf" if x > 0 else "-inf")}


def dumps(data) -> bytes:
    """Encoded data as compact UTF-8 JSON; NaN/Infinity literals are never written."""
    return json.dumps(data, allow_nan=False, separators=(",", ":"), ensure_ascii=False).encode()


class Decoder:
    """Turns encoded data (fresh from json.loads) back into values, refusing anything else.

    arrays: True makes {"__ndarray__"} an ndarray and {"__tuple__"} a tuple (the server);
    False makes both plain lists (the trusted side), except that numeric_arrays makes an array
    of numbers a NumPy array of a numeric dtype built from the decoded numbers (never an
    object array: only booleans, integers, floats and complex numbers).
    on_callback(id, name), on_student(name) and on_unencodable(type_name) give the values of
    those tags (or raise).
    """

    def __init__(
        self,
        *,
        arrays: bool,
        on_callback,
        on_student,
        on_unencodable,
        numeric_arrays=False,
        on_formula=None,
    ):
        self.arrays = arrays
        self.numeric_arrays = numeric_arrays
        self.on_callback = on_callback
        self.on_student = on_student
        self.on_unencodable = on_unencodable
        self.on_formula = on_formula  # None: a formula tag is refused (the trusted side)

    def decode(self, data, depth: int = 0):
        """The value data stands for; CodecError("malformed"/"too_deep") when it is not codec."""
        if depth > MAX_DEPTH + 2:
            raise CodecError("too_deep", f"nested more than {MAX_DEPTH} levels")
        kind = type(data)
        if data is None or kind in (bool, int, float, str):
            return data
        if kind is list:
            return [self.decode(item, depth + 1) for item in data]
        if kind is dict:
            return self._tagged(data, depth)
        raise CodecError("malformed", f"a {kind.__name__} is not codec data")

    def _tagged(self, data: dict, depth: int):
        keys = set(data)
        if keys == {"__float__"} and data["__float__"] in FLOAT_TAGS:
            return FLOAT_TAGS[data["__float__"]]
        if keys == {"__tuple__"} and type(data["__tuple__"]) is list:
            items = self.decode(data["__tuple__"], depth)
            return tuple(items) if self.arrays else items
        if keys == {"__dict__"} and type(data["__dict__"]) is dict:
            return {str(k): self.decode(v, depth + 1) for k, v in data["__dict__"].items()}
        if keys == {"__pairs__"} and type(data["__pairs__"]) is list:
            return self._pairs(data["__pairs__"], depth)
        if keys == {"__ndarray__", "dtype", "shape"}:
            return self._ndarray(data, depth)
        if keys in ({"__callback__"}, {"__callback__", "name"}):
            callback_id, name = data["__callback__"], data.get("name", "function")
            if type(callback_id) is int and type(name) is str:
                return self.on_callback(callback_id, name[:100])
        if keys == {"__student__"} and type(data["__student__"]) is str:
            return self.on_student(data["__student__"][:200])
        if keys == {"__unencodable__"} and type(data["__unencodable__"]) is str:
            return self.on_unencodable(data["__unencodable__"][:100])
        if keys == {"__formula__", "name", "values"} and self.on_formula is not None:
            source, name, values = data["__formula__"], data["name"], data["values"]
            if type(source) is str and type(name) is str:
                values = self.decode(values, depth + 1)
                if type(values) is dict:
                    return self.on_formula(source, name, values)
        raise CodecError("malformed", f"unknown tag {sorted(keys)[:3]}")

    def _pairs(self, pairs: list, depth: int) -> dict:
        out = {}
        for pair in pairs:
            if type(pair) is not list or len(pair) != 2:
                raise CodecError("malformed", "a dict entry is not a [key, value] pair")
            key = _hashable(self.decode(pair[0], depth + 2))
            out[key] = self.decode(pair[1], depth + 2)
        return out

    def _ndarray(self, data: dict, depth: int):
        dtype, shape = data["dtype"], data["shape"]
        if type(dtype) is not str or type(shape) is not list:
            raise CodecError("malformed", "an array without a dtype string and shape list")
        if not all(type(n) is int and n >= 0 for n in shape):
            raise CodecError("malformed", "an array shape that is not a list of sizes")
        values = self.decode(data["__ndarray__"], depth)
        if self.numeric_arrays and not self.arrays and np is not None:
            return _numeric_array(values, dtype, shape)
        if not self.arrays or np is None:
            return values
        try:
            return np.array(values, dtype=np.dtype(dtype)).reshape(shape)
        except (TypeError, ValueError) as exc:
            raise CodecError("malformed", f"a bad array: {exc}") from None


NUMERIC_KINDS = "biufc"  # the dtype kinds a trusted array may have: data, never objects


def _numeric_array(values, dtype: str, shape: list):
    """A NumPy array of plain numbers with a numeric dtype, or the plain lists when the
    encoded dtype is not numeric (the trusted side then compares lists)."""
    try:
        kind = np.dtype(dtype).kind
    except TypeError:
        return values
    if kind not in NUMERIC_KINDS:
        return values
    try:
        array = np.array(values, dtype=np.dtype(dtype)).reshape(shape)
    except (TypeError, ValueError, OverflowError):
        return values
    return array if array.dtype.kind in NUMERIC_KINDS else values


@functools.lru_cache(maxsize=64)
def _compiled(source: str, mode: str):
    """A formula's code, compiled once: a check sends the same formula with every call of
    the learner's function (a step function: hundreds of calls a notebook)."""
    return compile(source, "<check formula>", mode)


def formula(source: str, name: str, values: dict, numpy=None):
    """A check's formula as a function of this process, evaluated next to the learner's code
    instead of called back across: `source` is one lambda, or code that defines `name`, over
    `np` and the names of `values` (numbers, arrays, and trusted functions as callbacks)."""
    namespace = {"np": numpy if numpy is not None else np, **{str(k): v for k, v in values.items()}}
    try:
        if source.lstrip().startswith("lambda"):
            return eval(_compiled(source, "eval"), namespace)
        exec(_compiled(source, "exec"), namespace)
    except SyntaxError as exc:
        raise CodecError("malformed", f"a formula that does not compile: {exc.msg}") from None
    if not callable(namespace.get(name)):
        raise CodecError("malformed", f"a formula that defines no function {name[:100]}")
    return namespace[name]


def _hashable(key):
    """A decoded dict key made hashable: lists (from tuples) become tuples, recursively."""
    if type(key) is list:
        return tuple(_hashable(item) for item in key)
    if type(key) is dict:
        raise CodecError("malformed", "a dict key that is a dict")
    return key


class CellTimeout(KeyboardInterrupt):  # noqa: N818 - it is the kernel's interrupt
    """A cell ran past its time: interrupted as a kernel interrupts one (a KeyboardInterrupt,
    which `except Exception` does not catch; code that ignores it is stopped for good)."""


@contextlib.contextmanager
def interrupted_after(seconds):
    """Raise CellTimeout in the running code after `seconds` (none: no limit)."""
    if not isinstance(seconds, (int, float)) or seconds <= 0 or not hasattr(signal, "setitimer"):
        yield
        return

    def interrupt(signum, frame):
        raise CellTimeout(f"the cell was interrupted after {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, float(seconds))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# ----------------------------------------------------------------------------- the server


class BoundedText(io.TextIOBase):
    """A write-only text stream keeping the first `cap` characters written to it."""

    def __init__(self, cap: int = MAX_STDOUT):
        super().__init__()
        self._parts: list[str] = []
        self._size = 0
        self._cap = cap
        self.truncated = False

    def writable(self) -> bool:
        return True

    def write(self, text) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        room = self._cap - self._size
        if room > 0:
            self._parts.append(text[:room])
            self._size += min(len(text), room)
        self.truncated = self.truncated or len(text) > room
        return len(text)

    def take(self) -> str:
        """Everything kept since the last take, with a note when some was dropped."""
        text = "".join(self._parts) + ("\n[... output cut ...]\n" if self.truncated else "")
        self._parts, self._size, self.truncated = [], 0, False
        return text


class TrustedFunction:
    """Stands, in the learner's process, for a function of the trusted side (a callback).

    Calling it sends the encoded arguments across and returns the decoded reply; an exception
    on the trusted side is raised here as the same built-in exception type (else RuntimeError).
    """

    def __init__(self, server: AnswerServer, callback_id: int, name: str):
        self._server = server
        self._id = callback_id
        self.__name__ = name

    def __call__(self, *args, **kwargs):
        return self._server.callback(self._id, self.__name__, args, kwargs)

    def __repr__(self) -> str:
        return f"<trusted function {self.__name__}>"


class AnswerServer:
    """One persistent namespace, served over the channel (rfd in, wfd out)."""

    def __init__(self, rfd: int, wfd: int, max_message: int = MAX_MESSAGE):
        self.rfd, self.wfd, self.max_message = rfd, wfd, max_message
        self.namespace = {"__name__": "__main__", "__builtins__": builtins}
        if np is not None:
            self.namespace.update(np=np, numpy=np)
        self.refs: dict[str, object] = {}  # "&N" -> a callable passed to a callback
        self.next_ref = 0  # never reused, so a stale "&N" can never name another function
        self.depth = 0  # calls in progress (nested ones through callbacks)
        self.cells = 0
        self.output = BoundedText()
        self._buffer = bytearray()

    # -- channel

    def receive(self):
        """The next message, or None at end of input (the trusted side has gone)."""
        header = self._read(HEADER.size)
        if header is None:
            return None
        body = self._read(HEADER.unpack(header)[0])
        return None if body is None else json.loads(body)

    def _read(self, n: int):
        while len(self._buffer) < n:
            chunk = os.read(self.rfd, max(65536, n - len(self._buffer)))
            if not chunk:
                return None
            self._buffer += chunk
        data = bytes(self._buffer[:n])
        del self._buffer[:n]
        return data

    def send(self, message: dict) -> None:
        """Write one message; one too large for the trusted side becomes an error reply."""
        body = dumps(message)
        if len(body) > self.max_message:
            body = dumps(boundary_error("too_large", f"the value is {len(body)} bytes of JSON"))
        view = memoryview(HEADER.pack(len(body)) + body)
        while view:
            view = view[os.write(self.wfd, view) :]

    # -- the loop

    def serve(self) -> None:
        """Answer requests until the trusted side closes the channel."""
        importable = [name for name in FORBIDDEN if _importable(name)]
        numpy_version = getattr(np, "__version__", None)
        self.send(
            {"op": "ready", "pid": os.getpid(), "numpy": numpy_version, "importable": importable}
        )
        while True:
            message = self.receive()
            if message is None:
                return
            self.send(self.handle(message))

    def handle(self, message) -> dict:
        """The reply to one request (never raises for anything the learner's code does)."""
        op = message.get("op") if isinstance(message, dict) else None
        handler = {"exec": self.op_exec, "names": self.op_names, "get": self.op_get}.get(op)
        if op == "call":
            handler = self.op_call
        if self.depth == 0 and not (op == "call" and str(message.get("name")).startswith("&")):
            self.refs.clear()  # temporary references live until the next top-level request
        if handler is None:
            reply = boundary_error("bad_request", f"unexpected message {str(op)[:40]!r}")
        else:
            try:
                reply = handler(message)
            except Exception as exc:  # noqa: BLE001 - a bad request, never the learner's error
                reply = boundary_error("bad_request", f"{type(exc).__name__}: {_text(exc)}")
        if self.depth == 0:
            reply["stdout"] = self.output.take()
        return reply

    def op_exec(self, message: dict) -> dict:
        """Run one cell's source: plain Python, IPython magics dropped. With a "timeout" (s),
        a cell still running then is interrupted, as a kernel interrupts it: what it did
        before stays (the trusted side kills a cell that ignores the interrupt)."""
        self.cells += 1
        source = strip_magics(str(message.get("source", "")))
        if source is None:
            return {"op": "ok", "value": {"__dict__": {"skipped": "not a Python cell"}}}
        timeout = message.get("timeout")
        try:
            code = compile(source, f"<cell {self.cells}>", "exec")
            with interrupted_after(timeout):
                exec(code, self.namespace)
        except BaseException as exc:  # noqa: B036 - SystemExit etc. are the learner's too
            return {"op": "error", "error": describe(exc)}
        return {"op": "ok", "value": None}

    def op_names(self, message: dict) -> dict:
        """The namespace's top-level names and kinds ("function", "value" or "other")."""
        kinds = {}
        for name, value in list(self.namespace.items()):
            if not isinstance(name, str) or name.startswith("__"):
                continue
            kinds[name] = "function" if callable(value) else self._kind_of_value(value)
        return {"op": "ok", "value": {"__dict__": kinds}}

    def _kind_of_value(self, value) -> str:
        encoder = Encoder(_refuse, _refuse, max_nodes=self.max_message // 2)
        try:
            encoder.encode(value)
        except Exception:  # noqa: BLE001 - any failure means "not a value"
            return "other"
        return "value"

    def op_get(self, message: dict) -> dict:
        """One top-level value, encoded."""
        name = message.get("name")
        if name not in self.namespace:
            return boundary_error("not_defined", f"{name} is not defined")
        return self.encoded_reply(self.namespace[name])

    def op_call(self, message: dict) -> dict:
        """Call a function of the namespace with decoded arguments, or with a "formula" (a
        check's, e.g. a loop driving the learner's function), that formula; reply with its
        result."""
        if "formula" in message:
            function = self.decoder().decode(message["formula"])
            if not callable(function):
                return boundary_error("bad_request", "a formula call without a formula")
        else:
            function = self.resolve(message.get("name"))
            if isinstance(function, dict):
                return function
        args = self.decoder().decode(message.get("args", []))
        kwargs = {str(k): self.decoder().decode(v) for k, v in message.get("kwargs", {}).items()}
        self.depth += 1
        try:
            result = function(*args, **kwargs)
        except BaseException as exc:  # noqa: B036 - the learner's SystemExit is an answer too
            return {"op": "error", "error": describe(exc)}
        finally:
            self.depth -= 1
        return self.encoded_reply(result)

    def resolve(self, name):
        """The callable called name (a top-level name or an "&N" reference), or an error reply."""
        if not isinstance(name, str) or (name not in self.namespace and name not in self.refs):
            return boundary_error("not_defined", f"{str(name)[:100]} is not defined")
        function = self.refs[name] if name in self.refs else self.namespace[name]
        if not callable(function):
            return boundary_error("not_callable", f"{name} is a {type(function).__name__}")
        return function

    # -- codec in this process

    def encoder(self) -> Encoder:
        return Encoder(self._callable_tag, _unencodable_tag, max_nodes=self.max_message // 2)

    def decoder(self) -> Decoder:
        return Decoder(
            arrays=True,
            on_callback=lambda callback_id, name: TrustedFunction(self, callback_id, name),
            on_student=self._student,
            on_unencodable=lambda type_name: _raise(TypeError(f"an unencodable {type_name}")),
            on_formula=formula,
        )

    def encoded_reply(self, value) -> dict:
        try:
            return {"op": "ok", "value": self.encoder().encode(value)}
        except CodecError as exc:
            return boundary_error(exc.kind, exc.detail)
        except Exception as exc:  # noqa: BLE001 - a learner's object broke the encoding
            return {"op": "ok", "value": _unencodable_tag(exc)}

    def _callable_tag(self, function) -> dict:
        if isinstance(function, TrustedFunction):
            return {"__callback__": function._id, "name": function.__name__}
        for name, value in self.namespace.items():
            if value is function and isinstance(name, str) and not name.startswith("__"):
                return {"__student__": name}
        self.next_ref += 1
        ref = f"&{self.next_ref}"
        self.refs[ref] = function
        return {"__student__": ref}

    def _student(self, name: str):
        function = self.resolve(name)
        if isinstance(function, dict):
            raise CodecError("malformed", f"no function {name} here")
        return function

    # -- callbacks

    def callback(self, callback_id: int, name: str, args: tuple, kwargs: dict):
        """Call a trusted function: send the request, serve nested requests, return its value."""
        encoder = self.encoder()
        self.send(
            {
                "op": "callback",
                "id": callback_id,
                "args": [encoder.encode(a) for a in args],
                "kwargs": {str(k): encoder.encode(v) for k, v in kwargs.items()},
            }
        )
        while True:
            message = self.receive()
            if message is None:
                os._exit(0)  # the trusted side is gone: nothing left to answer
            op = message.get("op") if isinstance(message, dict) else None
            if op == "return":
                return self.decoder().decode(message.get("value"))
            if op == "raise":
                raise _rebuilt(message.get("error") or {})
            self.send(self.handle(message))


def boundary_error(kind: str, message: str) -> dict:
    """An error reply caused by the boundary (not an exception of the learner's)."""
    return {"op": "error", "error": {"type": "BoundaryError", "message": message, "boundary": kind}}


def describe(exc: BaseException) -> dict:
    """An exception as data: type, message, where (cell line), missing_module, undefined_name."""
    info = {"type": type(exc).__name__, "message": _text(exc)}
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename.startswith("<cell")]
    if isinstance(exc, SyntaxError) and str(exc.filename).startswith("<cell"):
        info["where"] = f"{exc.filename[1:-1]}, line {exc.lineno}"
    elif frames:
        info["where"] = f"{frames[-1].filename[1:-1]}, line {frames[-1].lineno}"
        if frames[-1].name != "<module>":  # the learner's function the error came from
            info["function"] = frames[-1].name[:100]
    if isinstance(exc, ImportError):
        module = exc.name or _first(r"No module named '([\w.]+)'", info["message"])
        if module:
            info["missing_module"] = str(module).split(".")[0][:100]
    if isinstance(exc, NameError):
        name = getattr(exc, "name", None) or _first(r"name '(\w+)' is not", info["message"])
        if name:
            info["undefined_name"] = str(name)[:100]
    return info


def _text(exc: BaseException) -> str:
    try:
        return str(exc)[:MAX_TEXT]
    except Exception:  # noqa: BLE001 - a learner's __str__ may raise
        return "(no message)"


def _first(pattern: str, text: str):
    found = re.search(pattern, text)
    return found.group(1) if found else None


def _rebuilt(error: dict) -> BaseException:
    """The exception a trusted function raised, as a built-in exception of the same type."""
    kind = getattr(builtins, str(error.get("type")), None)
    message = str(error.get("message", ""))[:MAX_TEXT]
    if isinstance(kind, type) and issubclass(kind, Exception):
        try:
            return kind(message)
        except Exception:  # noqa: BLE001 - e.g. UnicodeDecodeError needs five arguments
            pass
    return RuntimeError(message)


def _unencodable_tag(value) -> dict:
    return {"__unencodable__": type(value).__name__[:100]}


def _refuse(value):
    raise CodecError("unencodable", type(value).__name__)


def _raise(exc: BaseException):
    raise exc


def _importable(name: str) -> bool:
    import importlib.util

    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def strip_magics(source: str):
    """source with IPython magics made harmless (`pass`), or None for a non-Python cell magic.

    Line magics (`%time`, `%matplotlib`) and shell lines (`!pip`) become `pass` at the same
    indentation, so line numbers and blocks stay as they were.
    """
    lines = source.split("\n")
    first = lines[0].lstrip() if lines else ""
    if first.startswith("%%"):
        magic = first[2:].split()[0] if first[2:].split() else ""
        if magic not in PYTHON_CELL_MAGICS:
            return None
        lines[0] = ""
    for i, line in enumerate(lines):
        body = line.lstrip()
        if body.startswith(("%", "!")):
            lines[i] = line[: len(line) - len(body)] + "pass"
    return "\n".join(lines)


def _watch_parent(parent: int) -> None:
    """Exit when the parent process has gone (the learner's loop must not outlive grading)."""
    import time

    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(1)


def _set_memory_limit(max_bytes: int) -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (max_bytes, max_bytes))


def main(argv: list[str]) -> None:
    """Parse arguments, move the channel off fds 0/1, load NumPy from --site, serve."""
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--site", required=True, help="directory holding only numpy")
    parser.add_argument("--max-message", type=int, default=MAX_MESSAGE)
    parser.add_argument("--max-memory", type=int, default=0, help="address space, bytes")
    options = parser.parse_args(argv)
    rfd, wfd = os.dup(0), os.dup(1)  # non-inheritable copies: the channel
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(devnull, 1)
    sys.path.append(options.site)
    load_numpy()
    if options.max_memory:
        _set_memory_limit(options.max_memory)
    threading.Thread(target=_watch_parent, args=(os.getppid(),), daemon=True).start()
    server = AnswerServer(rfd, wfd, options.max_message)
    sys.stdin = io.StringIO("")
    sys.stdout = sys.stderr = server.output
    server.serve()


if __name__ == "__main__":
    main(sys.argv[1:])
