"""Issue 10's hostile corpus, graded: nothing leaks, nothing changes, nothing survives, no honest
score moves, and a SIGKILL of the grading command loses no finished result.

One run grades the corpus of support/hostile.py (read, write, persist, deny service) beside
honest students (complete, blank, a typical mistake) in a fresh course directory, with
`python -m classroom.grade --submitted DIR --root COURSE --workers 2`; the honest students are
also graded alone, in a course of their own; a third course, of honest students only, is
killed midway and graded again. This process is the child subreaper of every run, so
whatever a run leaves behind, however it detached, is its descendant and is found.

Every run is sandboxed: under CI a missing sandbox fails these tests, elsewhere it skips them.
"""

from __future__ import annotations

import base64
import contextlib
import csv
import ctypes
import hashlib
import html
import json
import os
import re
import signal
import sqlite3
import stat
import subprocess
import sys
import time
import warnings
from dataclasses import dataclass
from pathlib import Path

import hostile
import pytest
from course_copies import course_copy
from graded_outputs import gradebook_rows, hidden_lines, report_section
from memory_watch import Sampler
from sandbox_required import require_sandbox

from classroom.grading import state
from classroom.grading.results import NEEDS_HUMAN
from classroom.isolation import sandbox
from classroom.nbgrader_ext import notebooks

REPO_ROOT = Path(__file__).resolve().parents[2]
LESSON = hostile.LESSON
WORKERS = 2
CELL_TIMEOUT = 3  # seconds a kernel cell may run (the slow fixture sleeps just under it)
NOTEBOOK_TIMEOUT = 20
VERDICT_BUDGET = 180  # DecideVerdicts.budget: what the answer process may take
PERSIST_GRACE = 8  # seconds waited after a run for a surviving persister to act
SLOT_UIDS = sandbox.SLOT_UIDS  # a run's workers lease theirs among these
RUN_TIMEOUT = 900
REGULAR_OUTPUTS = ("grades.csv", "grading_report.txt", "gradebook.db", "class_report.html")
GRADER_STATE = (".grading", ".grading/journal.jsonl", ".grading/key", ".grading/cases-secret")


# --------------------------------------------------------------------------------------------
# Courses and runs


def new_course(folder: Path) -> Path:
    """A course directory: nbgrader_config.py, and the lesson's source/ and release/."""
    return course_copy(folder, LESSON)


def grade_command(root: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "classroom.grade",
        "--submitted",
        str(root / "submitted"),
        "--root",
        str(root),
        "--workers",
        str(WORKERS),
        "--cell-timeout",
        str(CELL_TIMEOUT),
        "--notebook-timeout",
        str(NOTEBOOK_TIMEOUT),
        "--quiet",
    ]


def run_grade(root: Path) -> subprocess.CompletedProcess:
    done = subprocess.run(
        grade_command(root), cwd=REPO_ROOT, capture_output=True, text=True, timeout=RUN_TIMEOUT
    )
    assert done.returncode == 0, f"the command failed:\n{done.stdout}\n{done.stderr[-3000:]}"
    return done


def csv_rows(root: Path) -> dict[str, dict]:
    with open(root / "grades.csv", newline="", encoding="utf-8") as handle:
        return {r["student_id"]: r for r in csv.DictReader(handle) if r["assignment"] == LESSON}


def cell_scores(root: Path) -> dict[str, dict[str, tuple[float, float]]]:
    """{student: {grade_id: (score, max)}}, read with nbgrader's Gradebook API."""
    from nbgrader.api import Gradebook

    scores = {}
    with Gradebook(f"sqlite:///{root / 'gradebook.db'}", "mujoco-physics") as gb:
        for submission in gb.find_assignment(LESSON).submissions:
            scores[submission.student.id] = {
                grade.name: (float(grade.score), float(grade.max_score))
                for notebook in submission.notebooks
                for grade in notebook.grades
            }
    return scores


def expected_scores(student: str, maxima: dict[str, float]) -> dict[str, tuple[float, float]]:
    """What an honest student scores: everything, nothing, or all but the mistake's cells."""
    kind = student.split("-")[0]
    lost = set(maxima) if kind == "blank" else hostile.mistake_loses() if kind == "mistake" else ()
    return {gid: (0.0 if gid in lost else top, top) for gid, top in maxima.items()}


def journal(root: Path) -> dict[str, object]:
    """{student: Result} of the verified journal entries."""
    entries = state.Journal(root, state.course_key(root)).graded()
    return {student: result for (_, student), (_, result) in entries.items()}


# --------------------------------------------------------------------------------------------
# The course tree, before and after


def snapshot(root: Path) -> dict[str, tuple]:
    """{relative path: (type, size, sha256, mode, uid, gid)} of everything under root."""
    found = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = Path(folder) / name
            info = os.lstat(path)
            digest = ""
            if stat.S_ISREG(info.st_mode):
                digest = hashlib.sha256(path.read_bytes()).hexdigest()
            elif stat.S_ISLNK(info.st_mode):
                digest = os.readlink(path)
            kind = stat.S_IFMT(info.st_mode)
            size = info.st_size if not stat.S_ISDIR(info.st_mode) else 0
            found[path.relative_to(root).as_posix()] = (
                kind,
                size,
                digest,
                info.st_mode,
                info.st_uid,
                info.st_gid,
            )
    return found


def changed(before: dict, after: dict) -> list[str]:
    return sorted(p for p in set(before) | set(after) if before.get(p) != after.get(p))


def regular_output(path: str, students) -> bool:
    """Whether a path is one the run writes: a student's autograded/ and feedback/ folders,
    grades.csv, the report, the gradebook, the exports, the journal and key."""
    parts = path.split("/")
    if parts[0] in ("autograded", "feedback"):
        return len(parts) == 1 or parts[1] in students
    return path in REGULAR_OUTPUTS or path in GRADER_STATE or parts[0] == "exports"


# --------------------------------------------------------------------------------------------
# Processes


PR_SET_CHILD_SUBREAPER = 36


def set_subreaper(on: bool) -> None:
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, int(on), 0, 0, 0)


def reap() -> None:
    """Reap the orphans of a finished run that came to this process: every child that ended,
    until none is left (ChildProcessError) or the rest still run (pid 0)."""
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, os.WNOHANG)[0] != 0:
            pass


@dataclass(frozen=True)
class Proc:
    pid: int
    ppid: int
    uid: int
    state: str
    start: float  # seconds since boot
    cmdline: str


def process_table() -> dict[int, Proc]:
    ticks, table = os.sysconf("SC_CLK_TCK"), {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", encoding="ascii", errors="replace") as f:
                fields = f.read().rpartition(")")[2].split()
            with open(f"/proc/{name}/status", encoding="ascii", errors="replace") as f:
                uid = next(int(ln.split()[1]) for ln in f if ln.startswith("Uid:"))
            with open(f"/proc/{name}/cmdline", "rb") as f:
                cmdline = f.read().replace(b"\0", b" ").decode(errors="replace").strip()
        except (OSError, StopIteration):
            continue
        start = int(fields[19]) / ticks
        table[int(name)] = Proc(int(name), int(fields[1]), uid, fields[0], start, cmdline)
    return table


def boot_seconds() -> float:
    return time.clock_gettime(time.CLOCK_BOOTTIME)


def run_processes(root: Path, since: float, token: str = "") -> list[Proc]:
    """Live processes of a run, all started since it began: this process's descendants (it
    is their subreaper), those naming the course or the token, and those of the sandbox
    slots' uids that no other live process owns (another developer's grader owns its own)."""
    table, me = process_table(), os.getpid()

    def ancestors(pid: int) -> list[int]:
        chain = []
        while pid in table and table[pid].ppid not in chain and table[pid].ppid > 0:
            pid = table[pid].ppid
            chain.append(pid)
        return chain

    found = []
    for proc in table.values():
        if proc.pid == me or proc.state in "ZX":
            continue
        chain = ancestors(proc.pid)
        named = str(root) in proc.cmdline or (token and token in proc.cmdline)
        orphan = proc.uid in SLOT_UIDS and proc.start >= since - 2
        orphan = orphan and all(table[p].uid in SLOT_UIDS for p in chain if p in table and p != 1)
        mine = me in chain and proc.start >= since - 2  # not an earlier test's
        if mine or named or orphan:
            found.append(proc)
    return found


def settled_processes(root: Path, since: float, token: str = "", wait: float = 3) -> list:
    """The run's processes once they have had `wait` seconds to finish dying."""
    deadline = time.monotonic() + wait
    while True:
        left = run_processes(root, since, token)
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.2)


def kill(procs) -> None:
    for proc in procs:
        try:
            os.kill(proc.pid, signal.SIGKILL)
        except OSError:
            pass
    time.sleep(0.5)
    reap()


def describe(procs) -> str:
    return "\n".join(f"pid {p.pid} uid {p.uid} [{p.state}]: {p.cmdline[:160]}" for p in procs)


@pytest.fixture(scope="module", autouse=True)
def subreaper():
    """This process adopts every orphan of the runs of this module (and reaps them)."""
    set_subreaper(True)
    yield
    reap()
    set_subreaper(False)


# --------------------------------------------------------------------------------------------
# What may never show: hidden tests, other students' work, gradebooks, kernels' keys


def readable_text(path: Path) -> str:
    """What a reader of an output sees: a page's text, or a notebook without the sources of
    its test cells (nbgrader keeps the hidden tests there, in the instructor's autograded/)."""
    text = path.read_text(encoding="utf-8", errors="replace")
    if path.suffix == ".html":
        return text + "\n" + html.unescape(re.sub(r"<[^>]+>", "", text))
    if path.suffix == ".ipynb":
        nb = json.loads(text)
        for cell in nb.get("cells", []):
            if notebooks.is_test(cell):
                cell["source"] = ""
        return json.dumps(nb, ensure_ascii=False) + "\n" + _strings(nb)
    return text


def _strings(value) -> str:
    """Every string in a JSON value, joined (a notebook's outputs as plain text)."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return "".join(_strings(v) for v in value.values())
    if isinstance(value, list):
        return "".join(_strings(v) for v in value)
    return ""


BASE64_RUN = re.compile(r"[A-Za-z0-9+/]{24,}={0,2}")


def decodings(text: str) -> list[str]:
    """The text, reversed, and every base64 run in it decoded (at each alignment)."""
    found = [text, text[::-1]]
    for run in BASE64_RUN.findall(text):
        for shift in range(4):
            chunk = run[shift:]
            chunk = chunk[: len(chunk) - len(chunk) % 4]
            try:
                found.append(base64.b64decode(chunk).decode("utf-8", "replace"))
            except ValueError:
                continue
    return found


def outputs_of(root: Path) -> dict[Path, str | None]:
    """{output file: the student it belongs to, or None for the class's files}."""
    found: dict[Path, str | None] = {}
    for folder in ("autograded", "feedback"):
        for path in (root / folder).glob("*/**/*"):
            if path.is_file():
                found[path] = path.relative_to(root / folder).parts[0]
    for path in [root / name for name in REGULAR_OUTPUTS if name != "gradebook.db"]:
        if path.is_file():
            found[path] = None
    for path in (root / "exports").glob("**/*"):
        if path.is_file():
            found[path] = None
    return found


def leaks(root: Path, secrets: dict[str, list[str]], markers: dict[str, str], token: str):
    """[(file, what leaked)]: a secret anywhere; a student's marker in another's files; the
    hostile token in a file that is not a hostile student's own."""
    found = []
    for path, owner in outputs_of(root).items():
        texts = decodings(readable_text(path))
        wanted = dict(secrets)
        wanted.update({f"{s}'s work": [m] for s, m in markers.items() if s != owner})
        if not (owner or "").startswith("hostile-"):
            wanted["the hostile token"] = [token]
        for what, needles in wanted.items():
            hit = next((n for n in needles if any(n in t for t in texts)), None)
            if hit is not None:
                found.append((path.relative_to(root).as_posix(), f"{what}: {hit[:80]!r}"))
    return found


def secrets_of(root: Path) -> dict[str, list[str]]:
    key = (root / ".grading" / "key").read_bytes()
    cases_secret = (root / ".grading" / "cases-secret").read_bytes()
    source = notebooks.read_lesson(LESSON, "source", REPO_ROOT)
    return {
        "hidden tests": sorted(hidden_lines(source, hostile.course_package())),
        "a gradebook": ["SQLite format 3", "CREATE TABLE"],
        "a connection file": ['"signature_scheme"', "hmac-sha256"],
        "the grader's key": [key.hex(), base64.b64encode(key).decode()],
        "the hidden cases' secret": [cases_secret.hex(), base64.b64encode(cases_secret).decode()],
    }


# --------------------------------------------------------------------------------------------
# The runs


def write_honest(root: Path, copies: int = 1) -> dict[str, str]:
    """The honest students (`copies` of each, "-<n>" appended when more than one) into
    submitted/; returns {student: private marker}."""
    markers = {}
    for number in range(copies):
        for student, (nb, marker) in hostile.honest_class().items():
            name = student if copies == 1 else f"{student}-{number}"
            hostile.write_student(root / "submitted", name, nb)
            markers[name] = marker
    return markers


@pytest.fixture(scope="module")
def alone(tmp_path_factory):
    """The honest students graded alone: {student: {grade_id: (score, max)}}."""
    require_sandbox()
    root = new_course(tmp_path_factory.mktemp("alone") / "course")
    write_honest(root)
    run_grade(root)
    reap()
    return cell_scores(root)


@pytest.fixture(scope="module")
def hostile_class(tmp_path_factory):
    """The corpus graded beside the honest students, and what was seen around the run."""
    require_sandbox()
    root = new_course(tmp_path_factory.mktemp("hostile") / "course")
    context = hostile.Context(root=str(root), cell_limit=CELL_TIMEOUT)
    markers = write_honest(root)
    for fixture in hostile.CORPUS:
        hostile.write_student(root / "submitted", fixture.name, fixture.build(context))
    before, since = snapshot(root), boot_seconds()
    tmp_before = set(tmp_folders())
    try:
        with Sampler(SLOT_UIDS, every=0.1) as memory:  # what the slots held, from outside
            done = run_grade(root)
        after_run = snapshot(root)
        tmp_after = sorted(set(tmp_folders()) - tmp_before)
        left_at_end = settled_processes(root, since, context.token)
        time.sleep(PERSIST_GRACE)
        left_later = run_processes(root, since, context.token)
        after_grace = snapshot(root)
    finally:
        kill(run_processes(root, since, context.token))
        traces = hostile.undo_shared_traces(context.token)
    return {
        "root": root,
        "context": context,
        "markers": markers,
        "students": sorted(markers) + [f.name for f in hostile.CORPUS],
        "run": done,
        "before": before,
        "after_run": after_run,
        "after_grace": after_grace,
        "left_at_end": left_at_end,
        "left_later": left_later,
        "traces": traces,
        "tmp_after": tmp_after,
        "rows": csv_rows(root),
        "scores": cell_scores(root),
        "journal": journal(root),
        "memory": memory,
    }


def hostile_outputs(root: Path, student: str) -> str:
    """Everything the kernel printed for a hostile student (its autograded notebook's
    outputs), as text."""
    nb = json.loads((root / "autograded" / student / LESSON / f"{LESSON}.ipynb").read_text())
    return "\n".join(_strings(cell.get("outputs", [])) for cell in nb["cells"])


# --------------------------------------------------------------------------------------------
# The hostile class


@pytest.mark.timeout(RUN_TIMEOUT)
def test_every_submission_ends_as_a_row_with_a_score_or_a_reason(hostile_class):
    """Every student of the hostile class has a row with a score or a reason."""
    rows = hostile_class["rows"]
    for student in hostile_class["students"]:
        row = rows.get(student)
        assert row is not None, f"{student} has no row in grades.csv"
        assert row["score"] != "", f"{student}: no score"
        if row["status"] not in ("graded", "graded with notes"):
            assert row["reason"], f"{student}: status {row['status']!r} without a reason"
        assert student in hostile_class["journal"], f"{student} is not in the journal"


@pytest.mark.timeout(RUN_TIMEOUT)
def test_honest_scores_are_those_graded_alone(hostile_class, alone):
    """Each honest student scores, cell by cell, what it scores alone, as the lesson says."""
    scores = hostile_class["scores"]
    maxima = {gid: top for gid, (_, top) in alone["complete"].items()}
    assert sum(maxima.values()) > 0 and len(maxima) > 5
    for student in hostile_class["markers"]:
        assert alone[student] == expected_scores(student, maxima), f"{student} graded alone"
        assert scores[student] == alone[student], f"{student} beside the hostile corpus"
        row = hostile_class["rows"][student]
        assert float(row["score"]) == sum(s for s, _ in alone[student].values()), row


@pytest.mark.timeout(RUN_TIMEOUT)
def test_nothing_secret_reaches_any_output(hostile_class):
    """No hidden test, other's work, gradebook or key shows in any page, notebook or report."""
    root = hostile_class["root"]
    secrets = secrets_of(root)
    assert len(secrets["hidden tests"]) > 10, "the lesson has too few hidden lines to look for"
    found = leaks(root, secrets, hostile_class["markers"], hostile_class["context"].token)
    assert not found, "leaked:\n" + "\n".join(f"{path}: {what}" for path, what in found)
    # The scan sees what it looks for: each honest student's page shows its own marker.
    for student, marker in hostile_class["markers"].items():
        page = root / "feedback" / student / LESSON / f"{LESSON}.html"
        assert marker in readable_text(page), f"{student}'s page lost its own work"


@pytest.mark.timeout(RUN_TIMEOUT)
def test_no_file_changes_outside_the_runs_own_outputs(hostile_class):
    """The course tree differs only in the run's outputs, and not at all after the run ended."""
    students = hostile_class["students"]
    before, after = hostile_class["before"], hostile_class["after_run"]
    outside = [p for p in changed(before, after) if not regular_output(p, students)]
    assert not outside, f"changed outside the run's outputs: {outside[:20]}"
    later = changed(after, hostile_class["after_grace"])
    assert not later, f"changed after the command returned: {later[:20]}"
    assert not [p for p in after if p.startswith(".grading/staging-")], "staging left behind"
    for student in hostile_class["markers"]:
        folder = f"autograded/{student}/{LESSON}"
        assert sorted(p for p in after if p.startswith(folder + "/")) == [
            f"{folder}/{LESSON}.ipynb"
        ], f"{student}'s autograded folder holds more than its notebook"


@pytest.mark.timeout(RUN_TIMEOUT)
def test_gradebook_holds_only_the_graders_rows(hostile_class):
    """The gradebook holds one submission per student, its grades, and the lesson's own tests."""
    root, students = hostile_class["root"], hostile_class["students"]
    integrity, subs, grades = gradebook_rows(root)
    assert integrity == "ok"
    with sqlite3.connect(root / "gradebook.db") as db:
        sources = dict(db.execute("SELECT name, source FROM source_cell"))
    assert subs == {s: 1 for s in students}
    assert grades == len(hostile_class["scores"]["complete"]) * len(students)
    source = notebooks.read_lesson(LESSON, "source", REPO_ROOT)
    for gid, cell in notebooks.test_cells(source).items():
        assert sources[gid].strip() == cell.source.strip(), f"the test {gid} was changed"
    for student, result in hostile_class["journal"].items():
        assert float(hostile_class["rows"][student]["score"]) == result.totals()[0], student


@pytest.mark.timeout(RUN_TIMEOUT)
def test_shared_places_keep_no_trace(hostile_class):
    """Nothing planted or appended in the venv, HOME, the repository or the course package."""
    traces = [str(p) for p in hostile_class["traces"]]
    assert not traces, f"the corpus left files in shared places (now removed): {traces}"


@pytest.mark.timeout(RUN_TIMEOUT)
def test_no_process_survives_the_run(hostile_class):
    """No worker, kernel, sandbox, answer process or persister is alive after the run."""
    at_end, later = hostile_class["left_at_end"], hostile_class["left_later"]
    assert not at_end, "alive when the command returned:\n" + describe(at_end)
    assert not later, f"alive {PERSIST_GRACE} s after the command returned:\n" + describe(later)


@pytest.mark.timeout(RUN_TIMEOUT)
def test_the_run_leaves_no_folder_in_tmp(hostile_class):
    """Every sandbox, answer process home and NumPy-only site the run made in /tmp is gone
    when the command returns (workers end without atexit: they remove theirs themselves)."""
    assert not hostile_class["tmp_after"], hostile_class["tmp_after"]


@pytest.mark.timeout(RUN_TIMEOUT)
@pytest.mark.parametrize("name", [fixture.name for fixture in hostile.CORPUS])
def test_every_attack_ran_and_none_reached(hostile_class, name):
    """The fixture's attacks ran in the kernel, and none of them says it worked."""
    printed = hostile_outputs(hostile_class["root"], name)
    if name == "hostile-slow":
        assert "notebook-limit" in report_section(hostile_class["root"], name, LESSON)
        return
    assert "ATTEMPTED" in printed, f"{name}'s attacks did not run:\n{printed[:2000]}"
    reached = sorted({line for line in printed.splitlines() if line.startswith("REACHED")})
    assert not reached, f"{name} reached:\n" + "\n".join(reached)


@pytest.mark.timeout(RUN_TIMEOUT)
def test_denial_of_service_is_bounded(hostile_class):
    """Memory, processes, file size and output are refused or capped; time is bounded."""
    root = hostile_class["root"]
    printed = hostile_outputs(root, "hostile-deny")
    assert "memory refused: MemoryError" in printed, printed[:3000]
    section = report_section(root, "hostile-deny", LESSON)
    forked = re.search(r"forked (\d+) children", printed)
    if forked:  # the process limit stopped the forks
        assert int(forked.group(1)) < 300, printed[:3000]
    else:  # on a loaded machine the notebook's time ran out while it forked: time stopped it
        assert "notebook-limit" in section, section
        assert re.search(r"(kernel-stuck|cell-timeout) \[cell \d+\]", section), section
    written = int(re.search(r"disk refused after (\d+) MB", printed).group(1))
    assert written <= 64
    for folder in ("autograded", "feedback"):
        size = sum(p.stat().st_size for p in (root / folder / "hostile-deny").rglob("*"))
        assert size < 5_000_000, f"{folder}/hostile-deny holds {size:,} bytes"
    assert section.count("output-capped") >= 3
    slow = hostile_class["journal"]["hostile-slow"].seconds
    assert slow <= NOTEBOOK_TIMEOUT + VERDICT_BUDGET + 60, f"hostile-slow held a worker {slow} s"


@pytest.mark.timeout(RUN_TIMEOUT)
def test_memory_in_many_processes_is_stopped_and_the_machine_unharmed(hostile_class):
    """hostile-memory's processes, each under a process's limit, are stopped before they hold
    their total at once: not every child holds its block (some killed by a cgroup's OOM
    killer, refused by the per-process fallback, or still held back by reclaim when the cell
    limit ends the collection), no slot ever holds that total (sampled from outside), and the
    machine keeps memory available."""
    printed = hostile_outputs(hostile_class["root"], "hostile-memory")
    counts = r"memory children: (\d+) held, (\d+) killed, (\d+) refused, (\d+) unknown"
    found = re.search(counts, printed)
    assert found, printed[-3000:]
    whole, killed, refused, unknown = map(int, found.groups())
    assert whole + killed + refused + unknown == hostile.MEMORY_CHILDREN, found.group(0)
    assert whole < hostile.MEMORY_CHILDREN, found.group(0)
    attempt = hostile.MEMORY_CHILDREN * hostile.MEMORY_EACH
    held = hostile_class["memory"].most
    assert max(held.values()) < attempt, {uid: f"{b / 2**30:.2f} GiB" for uid, b in held.items()}
    assert max(held.values()) > hostile.MEMORY_EACH, "the attack never ran"
    assert hostile_class["memory"].least_available > 2**30


# --------------------------------------------------------------------------------------------
# Killed midway


def wait_for_results(path: Path, proc: subprocess.Popen, count: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        if path.is_file() and path.read_bytes().count(b"\n") >= count:
            return  # at once: the adversarial moment, just after a result is journaled
        time.sleep(0.005)
    pytest.fail(f"the run ended or stalled before {count} results (exit {proc.poll()})")


def describe_results(results: dict, only: str | None = None) -> str:
    """Each student's status, reason and notes, for a failure message."""
    chosen = {only: results.get(only)} if only else results
    return "; ".join(
        f"{student} {r.status} ({r.reason}; {[n.kind for n in r.notes]})" if r else f"{student} -"
        for student, r in chosen.items()
    )


def check_outputs_hold(root: Path, graded: dict) -> None:
    """grades.csv and the report hold every result of the journal, with its score."""
    rows = csv_rows(root)
    report = (root / "grading_report.txt").read_text()
    for student, result in graded.items():
        assert student in rows, f"{student} is in the journal but not in grades.csv"
        assert float(rows[student]["score"]) == result.totals()[0], rows[student]
        line = re.search(rf"^{LESSON}\s+{re.escape(student)}\s+(\S+)\s", report, re.M)
        assert line, f"{student} is in the journal but not in the report"
        assert float(line.group(1).split("/")[0]) == result.totals()[0], line.group(0)


def outputs_digest(root: Path, student: str) -> dict:
    return {
        path: value
        for path, value in snapshot(root).items()
        if path.startswith((f"autograded/{student}/", f"feedback/{student}/"))
    }


def tmp_folders() -> list[str]:
    """The folders the grader makes in /tmp (sandboxes, answer homes, NumPy-only sites)."""
    from classroom.isolation import sandbox

    return [str(p) for p in Path("/tmp").glob(f"{sandbox.FOLDER_PREFIX}*")]


def orphaned_sandbox_folders() -> list[str]:
    """The sandbox folders in /tmp whose maker is dead (from a killed run)."""
    from classroom.isolation import sandbox

    folders = tmp_folders()
    return [f for f in folders if (Path(f) / sandbox.OWNER_FILE).exists() and sandbox._left_over(f)]


@pytest.mark.timeout(RUN_TIMEOUT)
def test_sigkill_midway_loses_no_finished_result(tmp_path):
    """A SIGKILL keeps each journaled result, leaves no process; a re-run reuses and finishes,
    and removes the sandbox folders the killed run left."""
    require_sandbox()
    root = new_course(tmp_path / "course")
    students = write_honest(root, copies=3)
    since = boot_seconds()
    with open(tmp_path / "killed.log", "w") as log:
        proc = subprocess.Popen(grade_command(root), cwd=REPO_ROOT, stdout=log, stderr=log)
        try:
            wait_for_results(root / ".grading" / "journal.jsonl", proc, 2, RUN_TIMEOUT / 2)
            proc.send_signal(signal.SIGKILL)
        finally:
            proc.wait()
    assert proc.returncode == -signal.SIGKILL
    graded = journal(root)
    assert 2 <= len(graded) < len(students), sorted(graded)
    check_outputs_hold(root, graded)
    left = settled_processes(root, since, wait=10)
    kill(left)
    assert not left, "alive after the kill:\n" + describe(left)
    # A result the killed run could not grade ("needs a human": the grading machine's failure,
    # not the learner's) is graded again by the re-run, by design; every other one is reused.
    reusable = {s for s, result in graded.items() if result.status != NEEDS_HUMAN}
    assert reusable, "the killed run graded none: " + describe_results(graded)
    if len(reusable) < len(graded):  # allowed, but said: an honest notebook is seldom refused
        warnings.warn("the killed run could not grade: " + describe_results(graded), stacklevel=1)
    kept = {student: outputs_digest(root, student) for student in reusable}
    orphaned = orphaned_sandbox_folders()
    assert orphaned, "the killed run's workers left no sandbox folder: is this test still real?"
    # The kill can land inside a write of several pages: the journal's last line cut short.
    cut_short = state.Journal(root, state.course_key(root)).cut_short
    run_grade(root)
    reap()
    said = "journal's last line was cut short" in (root / "grading_report.txt").read_text()
    assert said == cut_short, f"journal cut short {cut_short}, said in the report {said}"
    assert not [f for f in orphaned if os.path.exists(f)], "the re-run left them in /tmp"
    again = journal(root)
    assert sorted(again) == sorted(students)
    check_outputs_hold(root, again)
    scores = cell_scores(root)
    maxima = {gid: top for gid, (_, top) in scores["complete-0"].items()}
    for student in students:
        assert scores[student] == expected_scores(student, maxima), student
        reused = any(note.kind == "reused" for note in again[student].notes)
        assert reused == (student in reusable), (
            f"{student}: reused {reused}; the killed run: {describe_results(graded, student)}; "
            f"the re-run: {describe_results(again, student)}"
        )
    for student, digest in kept.items():
        assert outputs_digest(root, student) == digest, f"{student} was graded again"
    left = settled_processes(root, since)
    kill(left)
    assert not left, "alive after the re-run:\n" + describe(left)


# --------------------------------------------------------------------------------------------
# Two courses graded at once on this machine (issue 26, hole 3)

BOMB_HOLD = 20  # seconds a fork bomb holds its processes, with the process limit reached
BOMB = f"""
import os, time
children = 0
while True:
    try:
        pid = os.fork()
    except OSError as error:
        print("fork refused after", children, "children:", error)
        break
    if pid == 0:
        time.sleep(3600)
        os._exit(0)
    children += 1
time.sleep({BOMB_HOLD})
"""


def write_fork_bombs(root: Path, count: int) -> list[str]:
    """`count` students whose complete notebook first forks to the process limit and holds
    it for BOMB_HOLD seconds, graded first (their names sort first)."""
    from nbformat.v4 import new_code_cell

    names = [f"a-fork-bomb-{number}" for number in range(count)]
    for name in names:
        nb, _ = hostile.honest_class()["complete"]
        setup = next(i for i, c in enumerate(nb.cells) if notebooks.is_locked(c))
        nb.cells.insert(setup + 1, new_code_cell(BOMB))
        hostile.write_student(root / "submitted", name, nb)
    return names


@pytest.mark.timeout(RUN_TIMEOUT)
def test_two_courses_at_once_one_with_fork_bombs_grade_every_honest_student(tmp_path):
    """Two courses graded at the same time, one of them with fork bombs in both its workers:
    every honest student of both scores what honest work deserves (the runs' sandboxes run
    as uids of their own, so the bombs' process limit is not the other course's)."""
    require_sandbox()
    bombed, quiet = new_course(tmp_path / "bombed"), new_course(tmp_path / "quiet")
    markers = {bombed: write_honest(bombed), quiet: write_honest(quiet)}
    write_fork_bombs(bombed, WORKERS)
    runs = {}
    for root in (bombed, quiet):
        command = grade_command(root)  # the cells' limit lets a bomb hold its processes
        command[command.index("--cell-timeout") + 1] = str(BOMB_HOLD * 2)
        command[command.index("--notebook-timeout") + 1] = str(BOMB_HOLD * 6)
        log = open(root.parent / f"{root.name}.log", "w")  # noqa: SIM115
        process = subprocess.Popen(command, cwd=REPO_ROOT, stdout=log, stderr=log)
        runs[root] = (process, log)
    try:
        for process, log in runs.values():
            process.wait(timeout=RUN_TIMEOUT - 60)
            log.close()
    finally:
        for process, _ in runs.values():
            process.kill()
        reap()
    problems = []
    for root, (process, _) in runs.items():
        said = (root.parent / f"{root.name}.log").read_text()[-2000:]
        assert process.returncode == 0, f"{root.name}: the command failed:\n{said}"
        scores = cell_scores(root)
        maxima = {gid: top for gid, (_, top) in scores["complete"].items()}
        for student in markers[root]:
            if scores.get(student) != expected_scores(student, maxima):
                problems.append(f"{root.name}/{student}: {scores.get(student)}")
    assert not problems, "honest students lost points:\n" + "\n".join(problems)
