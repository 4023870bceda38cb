"""Where one grading run's CPU goes (not a pytest test): the grading command on a synthetic
class of one lesson, its process tree sampled from /proc every 20 ms, then

- when each feedback page appeared (the first one is the run's fixed cost);
- the CPU seconds each kind of process used per submission in the steady part of the run
  (from the 3rd page to the 3rd last): the workers, the kernels, the answer processes, the
  recording process, bubblewrap, the zygotes; and how busy the cores were.

    .venv/bin/python grader_tests/support/cpu_timeline.py --submissions 40 --workers 2

Linux only. The sampler itself takes a few per cent of a core, which no kind is charged.
"""

from __future__ import annotations

import argparse
import collections
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_grading as bench  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")
PERIOD = 0.02  # seconds between samples


def _table() -> dict[int, tuple[int, float]]:
    """{pid: (parent pid, CPU seconds so far)} of every process now."""
    found = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", encoding="utf-8") as handle:
                stat = handle.read()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2 :].split()
        found[int(name)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / TICK)
    return found


def _command_line(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", encoding="utf-8", errors="replace") as handle:
            return handle.read().replace("\0", " ")
    except OSError:
        return ""


def sample(command: list[str], cwd: str) -> tuple[dict, int, float]:
    """Run command; ({pid: {"parent", "command", "samples": [(s, cpu s)]}}, its pid, wall s).
    A process's command line is read every time until it stays, so that one bwrap execs
    into is seen as what it became."""
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL)
    seen: dict[int, dict] = {}
    while process.poll() is None:
        now = time.perf_counter() - start
        table = _table()
        tree, grown = {process.pid}, True
        while grown:
            new = {pid for pid, (parent, _) in table.items() if parent in tree} - tree
            tree |= new
            grown = bool(new)
        for pid in tree & table.keys():
            entry = seen.setdefault(pid, {"parent": table[pid][0], "samples": []})
            if len(entry["samples"]) < 5:
                entry["command"] = _command_line(pid) or entry.get("command", "")
            entry["samples"].append((now, table[pid][1]))
        time.sleep(PERIOD)
    return seen, process.pid, time.perf_counter() - start


def kind(pid: int, seen: dict, root: int) -> str:
    """What the process was: the parent, a worker, a kernel, an answer process, a zygote..."""
    command = seen[pid]["command"]
    parent = seen.get(seen[pid]["parent"], {}).get("command", "")
    if pid == root:
        return "recording process (the command)"
    if "zygote_server" in command:
        what = "kernel" if '"kernel"' in command else "answer process"
        return f"{what} (forked)" if "zygote_server" in parent else f"{what} zygote"
    if "forkserver" in command:
        return "workers" if "forkserver" in parent else "fork server"
    if "bwrap" in command.split(" ", 1)[0]:
        return "bubblewrap"
    return "other"


def cpu_between(entry: dict, start: float, end: float) -> float:
    """CPU seconds a process used between two times of the run (its last samples before)."""

    def at(moment: float) -> float:
        used = 0.0
        for when, cpu in entry["samples"]:
            if when <= moment:
                used = cpu
        return used

    return at(end) - at(start)


def report(seen: dict, root: int, pages: list[float], wall: float, cores: int) -> None:
    """Print the pages' times and the steady part's CPU per submission by kind."""
    print(f"run {wall:.1f} s; first feedback page at {pages[0]:.1f} s, last at {pages[-1]:.1f} s")
    start, end = pages[2], pages[-3]
    count = len(pages) - 5
    spent = collections.Counter()
    for pid, entry in seen.items():
        spent[kind(pid, seen, root)] += cpu_between(entry, start, end)
    print(f"steady part ({start:.1f} s to {end:.1f} s, {count} submissions), CPU s a submission:")
    for name, seconds in spent.most_common():
        if seconds > 0:
            print(f"  {seconds / count:6.3f}  {name}")
    total = sum(spent.values())
    print(
        f"  {total / count:6.3f}  in all; {(end - start) / count:.3f} s a submission; "
        f"the {cores} cores {total / (cores * (end - start)):.0%} busy"
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lesson", default="01-world-as-text")
    parser.add_argument("--submissions", type=int, default=40)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args(argv)
    if args.submissions < 8:
        parser.error("--submissions: at least 8, for a steady part between the ends")
    with tempfile.TemporaryDirectory(prefix="cpu-timeline-") as folder:
        students = bench.synthetic_class(args.lesson, args.submissions)
        course = bench.fresh_course(Path(folder), args.lesson, students)
        command = [sys.executable, "-m", "classroom.grade", args.lesson, "--root", str(course)]
        command += ["--workers", str(args.workers), "--quiet"]
        started = time.time()
        seen, root, wall = sample(command, str(bench.REPO_ROOT))
        pages = sorted(p.stat().st_mtime - started for p in (course / "feedback").rglob("*.html"))
        if len(pages) < args.submissions:
            print(f"only {len(pages)} feedback pages for {args.submissions} submissions")
            return 1
        report(seen, root, pages, wall, os.cpu_count() or 1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
