"""A one-node Slurm on this machine, for the tests that grade through dask-jobqueue.

    from slurm import OneNodeSlurm, SlurmUnavailable
    with OneNodeSlurm(private_folder) as slurm:   # munged, slurmctld, slurmd started, node idle
        os.environ.update(slurm.environment)      # SLURM_CONF: sbatch, squeue, scancel find it

Debian's packages (`slurm-wlm`, `munge`; CI's .ci/run installs them), started by hand as root
(no systemd): munged with a key of its own, slurmctld and slurmd in the foreground as child
processes, every file of theirs (config, key, state, spool, logs, pid files) in the private
folder, ports picked free, so nothing in /etc is used and two test runs do not meet. The
munge socket alone lives in a short folder of its own under /tmp: munged refuses a socket
whose path is not searchable by every user, and a pytest folder is its owner's only.

Where Slurm cannot start here (not installed, not root, a daemon that dies or a node that
never becomes idle), starting raises SlurmUnavailable with one line saying why.
"""

from __future__ import annotations

import os
import secrets
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

DAEMONS = ("munged", "slurmctld", "slurmd")
CLIENTS = ("sinfo", "sbatch", "squeue", "scancel")
IDLE_WAIT = 60.0  # seconds for the node to register and show idle
STOP_WAIT = 15.0  # seconds a daemon gets to end on SIGTERM before SIGKILL
INSTALL = "apt-get install slurm-wlm munge (CI's .ci/run installs them)"


class SlurmUnavailable(Exception):
    """Slurm cannot run on this machine; the message is one line saying why."""


def free_port() -> int:
    """A TCP port nothing listens on now (the daemons bind it a moment later)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def node_line() -> str:
    """slurm.conf's NodeName line for this machine: CPUs, sockets, cores and RealMemory (MB)
    as slurmd itself measures them (`slurmd -C`), so the node is never drained for declaring
    more than it has; the name is this host's short name, the address loopback."""
    measured = subprocess.run(
        ["slurmd", "-C"], capture_output=True, text=True, timeout=30, check=False
    ).stdout.splitlines()
    line = next((text for text in measured if text.startswith("NodeName=")), None)
    if line is None:
        raise SlurmUnavailable("`slurmd -C` printed no NodeName line: slurmd cannot see this node")
    facts = line.split()[1:]
    return " ".join([f"NodeName={hostname()}", *facts, "NodeAddr=127.0.0.1", "State=UNKNOWN"])


def hostname() -> str:
    """The short host name slurmd registers under (it is the node's name)."""
    return socket.gethostname().split(".")[0]


def config_text(folder: Path, munge_socket: Path, ports: tuple[int, int]) -> str:
    """slurm.conf of a one-node cluster whose every file is in folder. Root runs everything;
    no cgroups (proctrack/linuxproc, task/none), no accounting, no mail; cons_tres counts
    cores and memory so a job gets what it asked for."""
    host = hostname()
    lines = [
        "ClusterName=grading",
        f"SlurmctldHost={host}(127.0.0.1)",
        f"SlurmctldPort={ports[0]}",
        f"SlurmdPort={ports[1]}",
        "SlurmUser=root",
        "SlurmdUser=root",
        "AuthType=auth/munge",
        "CredType=cred/munge",
        f"AuthInfo=socket={munge_socket}",
        f"StateSaveLocation={folder / 'state'}",
        f"SlurmdSpoolDir={folder / 'spool'}",
        f"SlurmctldPidFile={folder / 'slurmctld.pid'}",
        f"SlurmdPidFile={folder / 'slurmd.pid'}",
        f"SlurmctldLogFile={folder / 'log' / 'slurmctld.log'}",
        f"SlurmdLogFile={folder / 'log' / 'slurmd.log'}",
        "ProctrackType=proctrack/linuxproc",
        "TaskPlugin=task/none",
        "JobAcctGatherType=jobacct_gather/none",
        "AccountingStorageType=accounting_storage/none",
        "JobCompType=jobcomp/none",
        "MpiDefault=none",
        "MailProg=/bin/true",  # slurmctld says `Configured MailProg is invalid` without one
        "SchedulerType=sched/backfill",
        "SelectType=select/cons_tres",
        "SelectTypeParameters=CR_Core_Memory",
        "ReturnToService=2",  # a node that was down comes back when slurmd registers
        node_line(),
        "PartitionName=grading Nodes=ALL Default=YES MaxTime=INFINITE State=UP",
    ]
    return "\n".join(lines) + "\n"


def last_error(log: Path) -> str:
    """The last error or fatal line of a daemon's log, or its last line ('' when none)."""
    try:
        lines = [line.strip() for line in log.read_text(errors="replace").splitlines()]
    except OSError:
        return ""
    errors = [line for line in lines if "error" in line.lower() or "fatal" in line.lower()]
    chosen = errors or [line for line in lines if line]
    return chosen[-1] if chosen else ""


class OneNodeSlurm:
    """munged, slurmctld and slurmd of a one-node cluster, every file in `folder` (made if
    missing). A context manager: entering starts them and waits until `sinfo` shows the
    node idle; leaving cancels every job and stops them."""

    def __init__(self, folder: Path | str):
        self.folder = Path(folder)
        self.conf = self.folder / "slurm.conf"
        self.processes: dict[str, subprocess.Popen] = {}
        self.munge_folder: Path | None = None

    @property
    def environment(self) -> dict[str, str]:
        """What Slurm's commands (sbatch, squeue, scancel) need to find this cluster."""
        return {"SLURM_CONF": str(self.conf)}

    def __enter__(self) -> OneNodeSlurm:
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def start(self) -> None:
        """Start the three daemons and wait for an idle node; SlurmUnavailable (one line)
        where that cannot be."""
        missing = [name for name in DAEMONS + CLIENTS if shutil.which(name) is None]
        if missing:
            raise SlurmUnavailable(f"Slurm is not installed ({', '.join(missing)}): {INSTALL}")
        if os.geteuid() != 0:
            raise SlurmUnavailable("this one-node Slurm runs its daemons as root, and we are not")
        for name in ("state", "spool", "log"):
            (self.folder / name).mkdir(mode=0o700, parents=True, exist_ok=True)
        munge_socket = self.start_munged()
        ports = (free_port(), free_port())
        self.conf.write_text(config_text(self.folder, munge_socket, ports), encoding="utf-8")
        self.launch("slurmctld", ["slurmctld", "-D", "-f", str(self.conf)])
        self.launch("slurmd", ["slurmd", "-D", "-f", str(self.conf)])
        self.wait_idle()

    def start_munged(self) -> Path:
        """munged with a fresh key of this cluster's own; its socket's path."""
        key = self.folder / "munge.key"
        key.unlink(missing_ok=True)
        descriptor = os.open(key, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o400)
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(secrets.token_bytes(128))  # munge's own keys are 128 bytes
        self.munge_folder = Path(tempfile.mkdtemp(prefix="munge-", dir="/tmp"))
        self.munge_folder.chmod(0o755)  # munged: "execute permissions for all required"
        munge_socket = self.munge_folder / "munge.socket"
        files = {
            "socket": munge_socket,
            "key-file": key,
            "log-file": self.folder / "log" / "munged.log",
            "pid-file": self.folder / "munged.pid",
            "seed-file": self.folder / "munged.seed",
        }
        self.launch("munged", ["munged", "--foreground", *(f"--{k}={v}" for k, v in files.items())])
        deadline = time.monotonic() + 10.0
        while not munge_socket.exists():
            self.check_alive()
            if time.monotonic() > deadline:
                raise SlurmUnavailable(f"munged made no socket in 10 s: {self.why('munged')}")
            time.sleep(0.1)
        return munge_socket

    def launch(self, name: str, command: list[str]) -> None:
        """Start a daemon in the foreground as a child, its output in log/<name>.out."""
        with open(self.folder / "log" / f"{name}.out", "wb") as output:
            self.processes[name] = subprocess.Popen(
                command, stdin=subprocess.DEVNULL, stdout=output, stderr=subprocess.STDOUT,
                env={**os.environ, **self.environment}, start_new_session=True,
            )  # fmt: skip

    def why(self, name: str) -> str:
        """The last error a daemon logged (its log file, else its output), in one line."""
        for log in (self.folder / "log" / f"{name}.log", self.folder / "log" / f"{name}.out"):
            line = last_error(log)
            if line:
                return f"{name}: {line}"
        return f"{name}: nothing in {self.folder / 'log'}"

    def check_alive(self) -> None:
        """SlurmUnavailable naming the first daemon that has ended, and why."""
        for name, process in self.processes.items():
            if process.poll() is not None:
                raise SlurmUnavailable(
                    f"{name} ended (exit {process.returncode}) at start: {self.why(name)}"
                )

    def wait_idle(self) -> None:
        """Wait until sinfo shows the one node idle (IDLE_WAIT seconds at most)."""
        deadline, state = time.monotonic() + IDLE_WAIT, ""
        while time.monotonic() < deadline:
            self.check_alive()
            state = self.slurm("sinfo", "-h", "-N", "-o", "%T").strip()
            if state == "idle":
                return
            time.sleep(0.5)
        raise SlurmUnavailable(
            f"the node is not idle after {IDLE_WAIT:g} s (sinfo: {state or 'nothing'}); "
            f"{self.why('slurmd')}"
        )

    def slurm(self, *command: str) -> str:
        """A Slurm command's standard output ('' where it failed), against this cluster."""
        run = subprocess.run(
            command, capture_output=True, text=True, timeout=30, check=False,
            env={**os.environ, **self.environment},
        )  # fmt: skip
        return run.stdout if run.returncode == 0 else ""

    def stop(self) -> None:
        """Cancel every job, then stop slurmd, slurmctld and munged (SIGTERM, then SIGKILL
        after STOP_WAIT seconds); remove the munge socket's folder. Safe to call twice."""
        if "slurmctld" in self.processes and self.processes["slurmctld"].poll() is None:
            self.slurm("scancel", "--user", "root")
            deadline = time.monotonic() + STOP_WAIT
            while self.slurm("squeue", "-h").strip() and time.monotonic() < deadline:
                time.sleep(0.5)
        for name in reversed(list(self.processes)):
            process = self.processes.pop(name)
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(STOP_WAIT)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
        if self.munge_folder is not None:
            shutil.rmtree(self.munge_folder, ignore_errors=True)
            self.munge_folder = None
