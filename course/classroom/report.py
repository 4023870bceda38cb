"""What an instructor reads: the progress line, the table of scores and grading_report.txt."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from course.classroom.records import totals

STATUS_ORDER = ("graded", "graded with notes", "not graded", "no notebook")


def _clock(seconds: float) -> str:
    seconds = int(max(seconds, 0))
    return f"{seconds // 60}:{seconds % 60:02d}" if seconds < 3600 else f"{seconds // 3600}h"


class Progress:
    """A progress bar on stderr: counts and time left; redrawn in place on a terminal, one
    line at a time (at most every `every` seconds, and at the end) in a CI log."""

    def __init__(self, total: int, stream=None, every: float = 10.0, label: str = "grading"):
        self.total, self.done, self.problems = total, 0, 0
        self.stream = stream or sys.stderr
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.every, self.label = every, label
        self.start = time.monotonic()
        self.last = 0.0

    def line(self) -> str:
        elapsed = time.monotonic() - self.start
        width = 24
        filled = int(width * self.done / self.total) if self.total else width
        bar = "#" * filled + "-" * (width - filled)
        left = (
            f"~{_clock(elapsed / self.done * (self.total - self.done))} left"
            if self.done and self.done < self.total
            else ("done" if self.done >= self.total else "estimating")
        )
        return (
            f"{self.label} [{bar}] {self.done}/{self.total}"
            f" ({self.problems} not graded) {_clock(elapsed)} elapsed, {left}"
        )

    def update(self, done: int | None = None, problems: int | None = None) -> None:
        if done is not None:
            self.done = done
        if problems is not None:
            self.problems = problems
        now = time.monotonic()
        if self.tty:
            self.stream.write("\r" + self.line() + "\x1b[K")
            if self.done >= self.total:
                self.stream.write("\n")
        elif now - self.last >= self.every or self.done >= self.total:
            self.stream.write(self.line() + "\n")
        else:
            return
        self.last = now
        self.stream.flush()

    def tick(self) -> None:
        """Called while waiting: refresh the clock (terminal) or print a heartbeat (log)."""
        if self.tty or time.monotonic() - self.last >= 3 * self.every:
            self.update()


def score_text(result: dict) -> str:
    score, maximum = totals(result)
    return f"{score:g}/{maximum:g}" if result.get("grades") else f"0/{result.get('max', 0):g}"


def table(results: list[dict]) -> str:
    """One line per submission: lesson, student, score, status and the reason if any."""
    if not results:
        return "(no submissions)"
    width = max(12, *(len(r["student"]) for r in results))
    lesson_width = max(10, *(len(r["lesson"]) for r in results))
    head = f"{'lesson':<{lesson_width}}  {'student':<{width}}  {'score':>9}  status"
    lines = [head, "-" * len(head)]
    for r in sorted(results, key=lambda r: (r["lesson"], r["student"])):
        status = r["status"] + (f": {r['reason']}" if r.get("reason") else "")
        if len(status) > 90:
            status = status[:87] + "..."
        lines.append(
            f"{r['lesson']:<{lesson_width}}  {r['student']:<{width}}  {score_text(r):>9}  {status}"
        )
    return "\n".join(lines)


def _what_was_done(result: dict) -> str:
    status = result["status"]
    if status == "no notebook":
        return "recorded as 0 (nothing to grade)"
    if status == "not graded":
        return "recorded as 0 and flagged for a human (needs manual grade)"
    return f"graded {score_text(result)}"


def unusual(result: dict) -> bool:
    return result["status"] != "graded" or bool(result.get("notes"))


def write_report(path: Path | str, results: list[dict], summary: dict) -> Path:
    """grading_report.txt: the run, every submission, and for each unusual one what happened
    and what the grader did about it."""
    path = Path(path)
    counts = {status: 0 for status in STATUS_ORDER}
    for r in results:
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    out = [
        "Grading report",
        "==============",
        f"course: {summary.get('course', '')}   finished: {time.strftime('%Y-%m-%d %H:%M:%S')}",
        f"lessons: {', '.join(summary.get('lessons', [])) or '(none)'}",
        f"input: {summary.get('input', '')}",
        f"workers: {summary.get('workers', '')}   limits: {summary.get('cell_timeout')} s per "
        f"cell, {summary.get('notebook_timeout')} s per notebook",
        f"outcome: {len(results)} submissions: "
        + ", ".join(f"{n} {status}" for status, n in counts.items() if n)
        + f"; {summary.get('seconds', 0):.1f} s",
        "",
        "Every submission",
        "----------------",
        table(results),
        "",
        "Anything unusual, and what was done",
        "-----------------------------------",
    ]
    odd = [r for r in sorted(results, key=lambda r: (r["lesson"], r["student"])) if unusual(r)]
    if not odd:
        out.append("Nothing: every submission was graded as handed in.")
    for r in odd:
        head = f"{r['student']} ({r['lesson']}): {r['status'].upper()}"
        if r.get("reason"):
            head += f" - {r['reason']}"
        out.append(head + f". {_what_was_done(r)}.")
        seen = set()
        for n in r.get("notes", []):
            where = f" [{n['grade_id'] or 'cell ' + str(n['cell'])}]" if n.get("cell") else ""
            text = f"  - {n['kind']}{where}: {n['text']}"
            if text not in seen:
                seen.add(text)
                out.append(text)
    for problem in summary.get("problems", []):
        out.append(f"* {problem}")
    if summary.get("unassigned"):
        out += ["", "Files no student or lesson could be read from (not graded):"]
        out += [f"  - {name}" for name in summary["unassigned"]]
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return path
