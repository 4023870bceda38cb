"""What file descriptors a sandboxed process holds, listed from inside it, in a process set up
as a grading worker is: its stdout and stderr are its log file, and one more copy of the log
stays open at a high descriptor (as any library of the worker might hold one).

    python fd_listing.py LOG RESULT SLOT

starts a cold and a warm kernel and a cold and a warm answer process in sandbox slot SLOT,
each of which lists /proc/self/fd; RESULT gets {kind: {fd: [target, st_dev, st_ino]}}, and
LOG's identity (st_dev, st_ino) under "log". Nothing here decides what is allowed: the test
does.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys

KINDS = ("cold kernel", "warm kernel", "cold answer process", "warm answer process")
EXTRA_LOG_FD = 44  # where the issue saw the log held open in every kernel

# Run inside: one JSON line, every descriptor this process holds with what it refers to.
LIST_FDS = r"""
import json, os
found = {}
for name in os.listdir("/proc/self/fd"):
    try:
        info = os.stat(int(name))
        found[name] = [os.readlink(f"/proc/self/fd/{name}"), info.st_dev, info.st_ino]
    except OSError:  # the listing's own descriptor, closed by now
        pass
print("FDS " + json.dumps(found))
"""


def _parse(printed: str) -> dict:
    line = next(ln for ln in printed.splitlines() if ln.startswith("FDS "))
    return json.loads(line[4:])


async def run_in_kernel(km, code: str, timeout: float = 60) -> tuple[dict, str]:
    """Run code in km's started kernel, then shut the kernel down: the execute reply's
    content and what the code printed."""
    from classroom.isolation import kernels

    kc = km.client()
    kc.start_channels()
    printed = []
    try:
        await kernels.wait_for_ready(kc, km, timeout)

        def hook(message):
            if message["msg_type"] == "stream":
                printed.append(message["content"]["text"])

        reply = await kc.execute_interactive(code, output_hook=hook, timeout=timeout)
    finally:
        kc.stop_channels()
        await km.shutdown_kernel(now=True)
    return reply["content"], "".join(printed)


async def _kernel_fds(manager_class, slot: int, folder: str) -> dict:
    km = manager_class(kernel_name="python3", slot=slot)
    await km.start_kernel(cwd=folder)
    _, printed = await run_in_kernel(km, LIST_FDS)
    return _parse(printed)


def _answer_fds(slot: int, warm: bool) -> dict:
    from classroom.nbgrader_ext.preprocessors import decide_verdicts

    answers, held = decide_verdicts.answer_process(slot, warm=warm)
    try:
        answers.start()
        outcome = answers.exec_cell(LIST_FDS, timeout=30)
        assert outcome.ok, outcome
        return _parse(outcome.stdout)
    finally:
        decide_verdicts.close_answer_process(answers, held)


def listings(slot: int, folder: str) -> dict:
    """{kind: the descriptors a process of that kind held}."""
    from classroom.isolation import sandbox, zygote

    found = {
        "cold kernel": asyncio.run(_kernel_fds(sandbox.SandboxedKernelManager, slot, folder)),
        "warm kernel": asyncio.run(_kernel_fds(zygote.WarmKernelManager, slot, folder)),
        "cold answer process": _answer_fds(slot, warm=False),
        "warm answer process": _answer_fds(slot, warm=True),
    }
    zygote.stop_all()
    return found


def main(log: str, result: str, slot: int) -> None:
    """Become a worker-like process (log on fds 1 and 2 and at EXTRA_LOG_FD), list, write."""
    handle = open(log, "a", buffering=1, encoding="utf-8")  # noqa: SIM115
    os.dup2(handle.fileno(), 1)
    os.dup2(handle.fileno(), 2)
    os.dup2(handle.fileno(), EXTRA_LOG_FD)  # inheritable, as dup2 makes it
    sys.stdout = sys.stderr = handle
    folder = os.path.join(os.path.dirname(result), "notebook")
    os.makedirs(folder, exist_ok=True)
    found = listings(slot, folder)
    info = os.stat(log)
    found["log"] = [info.st_dev, info.st_ino]
    with open(result, "w", encoding="utf-8") as f:
        json.dump(found, f)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
