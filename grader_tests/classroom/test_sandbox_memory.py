"""A sandbox's processes together stay under one memory bound (classroom/isolation/sandbox.py): its
cgroup where this machine lets the grader make one, else a bound per process that, times
the tasks a slot may have, stays under the machine's memory.

The attacks here are small (a few hundred MiB over the bound each test sets), so that a
failing bound cannot exhaust the shared test machine. Each test uses a slot of its own.
Never skipped quietly: require_sandbox() first, and the cgroup tests fail under CI (CI=true)
where no cgroup can be made, as the sandbox tests do where it cannot run.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from dataclasses import replace

import pytest
from memory_watch import Sampler
from sandbox_required import require_sandbox

from classroom.isolation import sandbox
from classroom.isolation.sandbox import GiB, Limits, MiB, Sandbox


def require_cgroup() -> None:
    """Return when sandboxes get cgroups here; else fail under CI, skip elsewhere."""
    require_sandbox()
    if sandbox.cgroup_place() is not None:
        return
    reason = sandbox.memory_mode()
    if os.environ.get("CI"):
        pytest.fail(f"CI machines give the grader a cgroup, but: {reason}")
    pytest.skip(reason)


def outer_uid(slot: int) -> int:
    return sandbox.slot_uid(slot) if os.geteuid() == 0 else os.getuid()


# Forks `children` processes that each allocate and touch `each` bytes, hold them 3 s and
# exit 0; prints how many ended how.
MANY = """
import json, os, sys, time
children, each = int(sys.argv[1]), int(sys.argv[2])
pids = []
for _ in range(children):
    pid = os.fork()
    if pid == 0:
        block = bytearray(each)
        for i in range(0, each, 4096):
            block[i] = 1
        time.sleep(3)
        os._exit(0)
    pids.append(pid)
ended = [os.waitpid(pid, 0)[1] for pid in pids]
print(json.dumps({"held": sum(s == 0 for s in ended),
                  "killed": sum(os.WIFSIGNALED(s) and os.WTERMSIG(s) == 9 for s in ended)}))
"""


@pytest.mark.timeout(120)
def test_many_processes_together_stop_at_the_sandbox_bound():
    """Eight processes of 300 MiB each (each far under the per-process limit) against a
    1 GiB bound: some are killed, what the sandbox holds never passes the bound (sampled
    from outside), and this machine forks and allocates as before."""
    require_cgroup()
    slot, bound, children, each = 921, 1 * GiB, 8, 300 * MiB
    assert children * each > bound + GiB and each < Limits().memory
    limits = replace(Limits(), total_memory=bound)
    argv = [sys.executable, "-c", MANY, str(children), str(each)]
    uid = outer_uid(slot)
    with Sandbox(slot=slot, limits=limits) as box, Sampler([uid]) as sampler:
        result = box.run(argv, timeout=90)
        peak = box.cgroup.peak()
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["killed"] >= 1, report
    assert report["held"] * each <= bound, report
    if os.geteuid() == 0:  # else the slot's uid is this user's, this process included
        # Slack: sampled and charged memory differ by page tables and kernel memory.
        assert sampler.most[uid] <= bound + 64 * MiB, sampler.most[uid] / MiB
        assert sampler.most[uid] >= bound // 2, (
            f"the attack never ran: {sampler.most[uid] / MiB:.0f} MiB"
        )
    assert peak is None or peak <= bound
    assert subprocess.run(["true"], timeout=10).returncode == 0
    assert len(bytearray(256 * MiB)) == 256 * MiB  # the grader still allocates


@pytest.mark.timeout(60)
def test_every_process_of_a_sandbox_is_in_its_cgroup_and_none_after_close():
    """The launcher joins the sandbox's cgroup before bwrap: bwrap, the program and a
    detached grandchild are all in it, seen from outside; close() leaves no process of the
    sandbox and no cgroup."""
    require_cgroup()
    slot = 922
    code = "import os, time\nif os.fork() == 0:\n    os.setsid()\ntime.sleep(60)\n"
    box = Sandbox(slot=slot)
    process = box.popen([sys.executable, "-c", code])
    try:
        uid = outer_uid(slot)
        deadline = time.monotonic() + 20
        while len(pids_of(uid)) < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        pids = pids_of(uid)
        assert len(pids) >= 3, pids  # bwrap, the program, its detached child
        folders = box.cgroup.folders
        for pid in pids:
            assert cgroup_of(pid) & {f.rsplit("/", 1)[1] for f in folders}, (pid, folders)
    finally:
        box.close()
        process.wait(timeout=10)
    assert not any(os.path.exists(folder) for folder in folders)
    assert wait_gone(uid), pids_of(uid)


def pids_of(uid: int) -> list[int]:
    found = []
    for name in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{name}/status", encoding="ascii") as f:
                status = f.read()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        if int(fields["Uid"].split()[0]) == uid and fields["State"].split()[0] != "Z":
            found.append(int(name))
    return found


def cgroup_of(pid: int) -> set[str]:
    """The last part of each cgroup path the process is in, as the host sees it."""
    with open(f"/proc/{pid}/cgroup", encoding="ascii") as f:
        return {line.rstrip("\n").rsplit("/", 1)[-1] for line in f}


def wait_gone(uid: int, seconds: float = 10) -> bool:
    deadline = time.monotonic() + seconds
    while pids_of(uid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not pids_of(uid)


# A process that makes a sandbox's cgroup, says where, and is killed before it can close it.
MAKER = """
import json, sys
from classroom.isolation import sandbox
group = sandbox.Cgroup(sandbox.Limits())
print(json.dumps(group.folders), flush=True)
sys.stdin.read()
"""


@pytest.mark.timeout(60)
def test_a_killed_makers_cgroup_is_swept_and_a_live_ones_kept():
    """A cgroup whose maker died with SIGKILL is removed by the sweep; one whose maker
    lives is not."""
    require_cgroup()
    killed = subprocess.Popen(
        [sys.executable, "-c", MAKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    left = json.loads(killed.stdout.readline())
    killed.send_signal(signal.SIGKILL)
    killed.wait(timeout=10)
    live = sandbox.Cgroup(Limits())
    try:
        assert all(os.path.isdir(folder) for folder in left)
        removed, failed = sandbox.sweep_left_over_cgroups()
        assert (removed, failed) >= (len(left), 0)
        assert not any(os.path.exists(folder) for folder in left)
        assert all(os.path.isdir(folder) for folder in live.folders)
    finally:
        assert live.close()


@pytest.mark.parametrize("machine_gib, slots", [(24, 2), (16, 8), (4, 4), (2, 1), (4096, 2)])
def test_the_fallback_keeps_a_machines_slots_under_its_memory(machine_gib, slots):
    """Without a cgroup: the per-process bytes times the tasks of every slot stay under the
    machine's memory, enough tasks remain for a kernel's threads, and a machine large
    enough keeps the limits as they are."""
    limits = Limits()
    machine = machine_gib * GiB
    memory, tasks = sandbox.fallback_bound(limits, machine, slots)
    assert memory * tasks * slots < machine
    assert 16 <= tasks <= limits.processes and 0 < memory <= limits.memory
    if machine >= 2 * slots * limits.memory * limits.processes:
        assert (memory, tasks) == (limits.memory, limits.processes)


def test_the_run_says_in_one_line_what_bounds_memory():
    """One line, naming the cgroup or the per-process fallback."""
    line = sandbox.memory_mode()
    assert "\n" not in line and line.startswith("memory: ")
    if sandbox.cgroup_place() is not None:
        assert "cgroup in /" in line and f"{Limits().total_memory / GiB:g} GiB" in line
    else:
        assert "no cgroup" in line and "MiB of data" in line


def test_a_bound_is_written_to_the_cgroup_the_launcher_joins():
    """What the kernel will enforce is the sandbox's total_memory, read back from the
    cgroup's own files."""
    require_cgroup()
    limits = replace(Limits(), total_memory=1536 * MiB)
    with Sandbox(slot=923, limits=limits) as box:
        box.command(["true"])
        folder = box.cgroup.folders[0]
        for name in ("memory.max", "memory.limit_in_bytes"):
            path = os.path.join(folder, name)
            if os.path.exists(path):
                with open(path, encoding="ascii") as f:
                    assert int(f.read()) == 1536 * MiB
                break
        else:
            pytest.fail(f"{folder} has no memory limit file")


if __name__ == "__main__":  # for a quick look: python test_sandbox_memory.py
    print(sandbox.memory_mode())
    print(textwrap.fill(repr(sandbox.cgroup_place())))
