"""Watching memory from outside a sandbox: what its uid's processes hold, sampled from /proc
while something runs, and the least memory the machine had available meanwhile. Root reads
every process's smaps_rollup; another user reads only its own."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterable


def private_bytes(uids: Iterable[int]) -> dict[int, int]:
    """{uid: bytes of anonymous and shared-memory pages its processes hold now}: each
    process's proportional share (Pss_Anon + Pss_Shmem of /proc/PID/smaps_rollup), so a page
    that forks share counts once in all, as the machine spends it."""
    wanted = set(uids)
    totals = dict.fromkeys(wanted, 0)
    for name in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{name}/status", encoding="ascii") as f:
                uid = next(int(line.split()[1]) for line in f if line.startswith("Uid:"))
            if uid not in wanted:
                continue
            with open(f"/proc/{name}/smaps_rollup", encoding="ascii") as f:
                fields = dict(line.split(":", 1) for line in f if line[:1].isupper())
        except (OSError, StopIteration):  # gone meanwhile, or a kernel thread
            continue
        for key in ("Pss_Anon", "Pss_Shmem"):
            totals[uid] += int(fields.get(key, "0 kB").split()[0]) * 1024
    return totals


def available_bytes() -> int:
    """MemAvailable of /proc/meminfo, in bytes."""
    with open("/proc/meminfo", encoding="ascii") as f:
        for line in f:
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no MemAvailable in /proc/meminfo")


class Sampler:
    """In a `with` block, every `every` seconds: the most `private_bytes` each uid held
    (`most`, {uid: bytes}) and the least memory available on the machine (`least_available`,
    bytes)."""

    def __init__(self, uids: Iterable[int], every: float = 0.01):
        self.uids, self.every = list(uids), every
        self.most = dict.fromkeys(self.uids, 0)
        self.least_available = available_bytes()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True, name="memory-sampler")

    def _run(self) -> None:
        while not self._stop.is_set():
            for uid, held in private_bytes(self.uids).items():
                self.most[uid] = max(self.most[uid], held)
            self.least_available = min(self.least_available, available_bytes())
            time.sleep(self.every)

    def __enter__(self) -> Sampler:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()
