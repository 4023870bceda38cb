"""What an instructor reads: the progress line, the table of scores and grading_report.txt."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from classroom.grading.plan import RunFacts
from classroom.grading.results import (
    GRADED,
    LATE,
    NEEDS_HUMAN,
    NOT_SUBMITTED,
    STATUSES,
    Result,
)


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


def score_text(result: Result) -> str:
    score, maximum = result.totals()
    return f"{score:g}/{maximum:g}" if result.grades else f"0/{result.max:g}"


def table(results: list[Result]) -> str:
    """One line per submission: lesson, student, score, status and the reason if any."""
    if not results:
        return "(no submissions)"
    width = max(12, *(len(r.student) for r in results))
    lesson_width = max(10, *(len(r.lesson) for r in results))
    head = f"{'lesson':<{lesson_width}}  {'student':<{width}}  {'score':>9}  status"
    lines = [head, "-" * len(head)]
    for r in sorted(results, key=lambda r: r.key):
        status = r.status + (f": {r.reason}" if r.reason else "")
        if r.lateness and r.status != LATE:  # a late row's reason says how late already
            status = f"{r.lateness}, {status}"
        if len(status) > 90:
            status = status[:87] + "..."
        lines.append(
            f"{r.lesson:<{lesson_width}}  {r.student:<{width}}  {score_text(r):>9}  {status}"
        )
    return "\n".join(lines)


def _what_was_done(result: Result) -> str:
    status = result.status
    if status == NOT_SUBMITTED:
        return "recorded as 0 (nothing to grade); empty in the LMS files"
    if status == NEEDS_HUMAN and not result.grades:
        return "recorded as 0 and flagged for a human (needs manual grade); empty in the LMS files"
    if status == NEEDS_HUMAN:
        return f"graded {score_text(result)}, flagged for a human; empty in the LMS files"
    penalty = sum(float(p or 0) for p in result.late_penalties.values())
    late = f"; {result.lateness}, late penalty {penalty:g}" if result.lateness else ""
    return f"graded {score_text(result)}{late}"


def unusual(result: Result) -> bool:
    return result.status != GRADED or bool(result.notes) or bool(result.lateness)


def _header(results: list[Result], facts: RunFacts) -> list[str]:
    counts = {status: 0 for status in STATUSES}
    for r in results:
        counts[r.status] = counts.get(r.status, 0) + 1
    unsafe = facts.sandbox.startswith("OFF")
    return [
        *([f"WARNING: sandbox {facts.sandbox}", ""] if unsafe else []),
        "Grading report",
        "==============",
        f"sandbox: {facts.sandbox}",
        f"course: {facts.course}   finished: {time.strftime('%Y-%m-%d %H:%M:%S')}",
        f"lessons: {', '.join(facts.lessons) or '(none)'}",
        f"input: {facts.input}",
        f"workers: {facts.workers} on {facts.graded_on}   limits: {facts.cell_timeout} s per "
        f"cell, {facts.notebook_timeout} s per notebook",
        f"outcome: {len(results)} submissions: "
        + ", ".join(f"{n} {status}" for status, n in counts.items() if n)
        + f"; {facts.seconds:.1f} s",
    ]


def _unusual_lines(results: list[Result]) -> list[str]:
    odd = [r for r in sorted(results, key=lambda r: r.key) if unusual(r)]
    if not odd:
        return ["Nothing: every submission was graded as handed in."]
    out = []
    for r in odd:
        head = f"{r.student} ({r.lesson}): {r.status.upper()}"
        if r.reason:
            head += f" - {r.reason}"
        out.append(head + f". {_what_was_done(r)}.")
        seen = set()
        for n in r.notes:
            where = f" [{n.grade_id or 'cell ' + str(n.cell)}]" if n.cell else ""
            text = f"  - {n.kind}{where}: {n.text}"
            if text not in seen:
                seen.add(text)
                out.append(text)
    return out


def needs_a_human(results: list[Result]) -> list[str]:
    """One line per row that needs a human (what the report opens with): who, which lesson,
    and why."""
    rows = sorted((r for r in results if r.status == NEEDS_HUMAN), key=lambda r: r.key)
    return [f"{r.student} ({r.lesson}): {r.reason or 'see below'}" for r in rows]


def write_report(path: Path | str, results: list[Result], facts: RunFacts) -> Path:
    """grading_report.txt: the run; first the rows that need a human; every submission; and
    for each unusual one what happened and what the grader did about it."""
    path = Path(path)
    out = _header(results, facts)
    human = needs_a_human(results)
    listed = [f"  {line}" for line in human] or ["  (none)"]  # indented: the details follow
    out += ["", f"Needs a human ({len(human)})", "-------------", *listed]
    out += ["", "Every submission", "----------------", table(results), ""]
    out += ["Anything unusual, and what was done", "-----------------------------------"]
    out += _unusual_lines(results)
    for problem in facts.problems:
        out.append(f"* {problem}")
    if facts.unassigned:
        out += ["", "Files no student or lesson could be read from (not graded):"]
        out += [f"  - {name}" for name in facts.unassigned]
    partial = path.with_name(path.name + ".partial")
    partial.write_text("\n".join(out) + "\n", encoding="utf-8")
    os.replace(partial, path)  # whole or not at all, even if the run is killed now
    return path
