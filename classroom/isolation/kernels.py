"""Kernels for grading: on Unix sockets, started ahead, and read without lost wake-ups.

- `IpcKernelManager`: each kernel on Unix sockets at a unique absolute path, so kernels
  started in parallel never collide on a TCP port (and talk without TCP's encryption warning);
- kernels started ahead (`WARM`): `GuardedExecute` starts the next notebook's kernel when one
  notebook is done, with the set-up's imports (`PRELOAD`), so start-up overlaps the saving of
  grades and the feedback;
- `slice_waits`: waits for kernel messages in short slices (see its docstring).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import uuid
from queue import Empty
from time import monotonic

from jupyter_client.manager import AsyncKernelManager
from nbclient.util import ensure_async, run_sync
from traitlets import CaselessStrEnum

# --------------------------------------------------------------------------------------------
# Kernels on Unix sockets

_SOCKET_DIR: str | None = None


def socket_dir() -> str:
    """A short private folder for this process's kernel sockets (a socket path may hold only
    about 100 characters, so /tmp is preferred to a long $TMPDIR)."""
    global _SOCKET_DIR
    if _SOCKET_DIR is None or not os.path.isdir(_SOCKET_DIR):
        base = "/tmp" if os.name == "posix" and os.path.isdir("/tmp") else None
        _SOCKET_DIR = tempfile.mkdtemp(prefix="cg-", dir=base)
    return _SOCKET_DIR


def remove_socket_dir() -> None:
    if _SOCKET_DIR:
        shutil.rmtree(_SOCKET_DIR, ignore_errors=True)


class IpcKernelManager(AsyncKernelManager):
    """A kernel reached through Unix sockets at a unique absolute path.

    jupyter_client's own ipc default is a relative path, which the kernel resolves in the
    notebook's folder and the client in its own, so they never meet; here each kernel gets
    /tmp/cg-XXXX/k<random>-<n>.
    """

    kernel_started = None  # optional callback(pid), set by the worker to track kernels

    transport = CaselessStrEnum(
        ["tcp", "ipc"], default_value="ipc" if os.name == "posix" else "tcp"
    ).tag(config=True)

    def _ip_default(self):
        if self.transport == "ipc":
            return os.path.join(socket_dir(), "k" + uuid.uuid4().hex[:10])
        return super()._ip_default()

    async def _async_post_start_kernel(self, **kw):
        await super()._async_post_start_kernel(**kw)
        callback = IpcKernelManager.kernel_started
        pid = getattr(self.provisioner, "pid", None)
        if callback is not None and pid:
            callback(pid)


# --------------------------------------------------------------------------------------------
# Waiting for kernel messages in short slices


def slice_waits(channel, step: float = 0.5) -> None:
    """Make channel.get_msg(timeout) wait in slices of `step` seconds.

    nbclient waits for a cell's reply with one poll of up to the cell timeout. When a widget's
    Output is on screen, nbclient (acting as the front end) sends comm messages on the same
    shell socket while that poll waits; now and then the socket's wake-up is lost and the reply,
    long arrived, is read only when the poll times out (60 s lost, seen in about 1 of 40
    notebooks, with plain nbgrader too). A fresh poll reads what is queued, so short slices
    bound the loss to `step`.
    """
    get = channel.get_msg

    async def get_msg(timeout=None):
        end = None if timeout is None else monotonic() + timeout
        while True:
            left = step if end is None else min(step, end - monotonic())
            try:
                return await ensure_async(get(timeout=max(left, 0)))
            except Empty:
                if end is not None and monotonic() >= end:
                    raise

    channel.get_msg = get_msg


RECONNECT_MS = 10  # a kernel client's ZMQ reconnect interval, milliseconds


async def wait_for_ready(kc, km, timeout: float) -> None:
    """Wait (at most timeout seconds) until the kernel answers kernel_info on shell and its
    iopub is connected: the idle status of that very request arrives there.

    jupyter_client's wait_for_ready ends with 0.2 s of iopub silence, a fixed cost for every
    notebook; waiting for the request's own idle status ends as soon as iopub is known to
    be connected. Raises RuntimeError ("Kernel didn't respond in N seconds", the message
    the worker retries on) or when the kernel dies."""
    deadline = monotonic() + timeout
    while True:
        msg_id = kc.kernel_info()
        reply = await _reply_to(kc.shell_channel, msg_id, min(1.0, timeout))
        if reply is not None and await _idle_after(kc.iopub_channel, msg_id, 0.1):
            kc._handle_kernel_info_reply(reply)
            return
        if not await ensure_async(km.is_alive()):
            raise RuntimeError("Kernel died before replying to kernel_info")
        if monotonic() > deadline:
            raise RuntimeError(f"Kernel didn't respond in {timeout:g} seconds")


async def _first(channel, timeout: float, wanted):
    """The first message on channel within timeout seconds for which wanted(msg) is true
    (the others are dropped, as jupyter_client's flush drops them), or None."""
    end = monotonic() + timeout
    while (left := end - monotonic()) > 0:
        try:
            msg = await ensure_async(channel.get_msg(timeout=left))
        except Empty:
            return None
        if wanted(msg):
            return msg
    return None


async def _reply_to(channel, msg_id: str, timeout: float):
    """The message on channel answering msg_id within timeout seconds, or None."""
    return await _first(channel, timeout, lambda msg: _parent(msg) == msg_id)


async def _idle_after(channel, msg_id: str, timeout: float) -> bool:
    """Whether the idle status of request msg_id arrives on iopub within timeout seconds."""

    def idle(msg) -> bool:
        state = msg["content"].get("execution_state")
        return _parent(msg) == msg_id and msg["msg_type"] == "status" and state == "idle"

    return await _first(channel, timeout, idle) is not None


def _parent(msg) -> str | None:
    return msg["parent_header"].get("msg_id")


# --------------------------------------------------------------------------------------------
# A kernel started ahead of time

# Run by a kernel started ahead, in a namespace of its own: the set-up's imports, skipping any
# module that would come from the current folder (a lesson's own files are found later, from
# the notebook's folder).
PRELOAD = """
import importlib.util
import os

for statement, top in {imports!r}:
    try:
        spec = importlib.util.find_spec(top)
        if spec is not None and not (spec.origin or "").startswith(os.getcwd()):
            exec(statement, {{}})
    except Exception:
        pass
"""

WARM: list = []  # kernel managers whose kernel is booting for the next notebook


async def take_warm(kernel_name: str):
    """A kernel started ahead for kernel_name and still alive, or None."""
    while WARM:
        km = WARM.pop(0)
        if km.kernel_name == kernel_name and await ensure_async(km.is_alive()):
            return km
        await stop(km)
    return None


async def stop(km) -> None:
    try:
        if await ensure_async(km.is_alive()):
            await ensure_async(km.shutdown_kernel(now=True))
        await ensure_async(km.cleanup_resources())
    except Exception:  # already gone
        pass


def stop_warm_kernels() -> None:
    """Stop kernels started ahead that no notebook used (at the end of a worker)."""

    async def stop_all():
        while WARM:
            await stop(WARM.pop())

    run_sync(stop_all)()
