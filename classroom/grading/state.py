"""The grader's own state, out of the learners' reach and verifiable: `.grading/` in the course.

- `.grading/` (mode 0700: the instructor's only; no sandbox binds it) holds the run's staging
  folders, the results journal and the key that signs results;
- every result a worker sends is signed (HMAC-SHA256 with the course's key) and checked
  before it is applied, and so are the results a shard leaves for `--merge`;
- the journal (`journal.jsonl`) gets each result as it is recorded, flushed to disk, so a
  killed run keeps what it graded, and a re-run reuses the results of submissions that have
  not changed since (their files' digest) and grades the rest;
- staging folders are named after the grading process; one whose process is gone (a run
  that was killed) is removed by the next run.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import shutil
import tempfile
from pathlib import Path

from classroom.grading.results import Job, Result

STATE = ".grading"
KEY_FILE = "key"
JOURNAL = "journal.jsonl"


def state_dir(root: Path) -> Path:
    """The course's .grading/ folder, created readable by its owner only."""
    folder = Path(root) / STATE
    folder.mkdir(mode=0o700, exist_ok=True)
    os.chmod(folder, 0o700)
    return folder


def course_key(root: Path) -> bytes:
    """The course's signing key (made once, kept in .grading/key, mode 0600)."""
    path = state_dir(root) / KEY_FILE
    if not path.exists():
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(secrets.token_bytes(32))
    return path.read_bytes()


def _canonical(result: dict) -> bytes:
    body = {k: v for k, v in result.items() if k != "digest"}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), default=str).encode()


def sign(key: bytes, result: dict) -> dict:
    """The result dict with its digest (HMAC-SHA256 of everything else)."""
    return {**result, "digest": hmac.new(key, _canonical(result), hashlib.sha256).hexdigest()}


def verified(key: bytes, result: dict) -> bool:
    """Whether a result dict carries the digest its content and the key give."""
    digest = result.get("digest")
    expected = hmac.new(key, _canonical(result), hashlib.sha256).hexdigest()
    return isinstance(digest, str) and hmac.compare_digest(digest, expected)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def new_staging(root: Path) -> Path:
    """A staging folder for this run in .grading/, after removing those of dead runs."""
    folder = state_dir(root)
    for old in folder.glob("staging-*"):
        pid = old.name.split("-")[1]
        if pid.isdigit() and not _alive(int(pid)):
            shutil.rmtree(old, ignore_errors=True)
    return Path(tempfile.mkdtemp(prefix=f"staging-{os.getpid()}-", dir=folder))


def submission_digest(job: Job) -> str:
    """A digest of what a student handed in for a lesson: file names and bytes."""
    digest = hashlib.sha256(job.lesson.encode())
    base = Path(job.base) if job.base else None
    for name in sorted(job.files):
        path = Path(name)
        label = path.relative_to(base) if base and path.is_relative_to(base) else path.name
        digest.update(str(label).encode() + b"\0")
        try:
            digest.update(path.read_bytes())
        except OSError:
            digest.update(b"(unreadable)")
    return digest.hexdigest()


def _ends_cut_short(path: Path) -> bool:
    """Whether the file's last line has no newline (False for no file or an empty one)."""
    try:
        with open(path, "rb") as handle:
            handle.seek(0, os.SEEK_END)
            if handle.tell() == 0:
                return False
            handle.seek(-1, os.SEEK_END)
            return handle.read(1) != b"\n"
    except FileNotFoundError:
        return False


class Journal:
    """The results recorded so far, one signed JSON line each, flushed as they come."""

    def __init__(self, root: Path, key: bytes):
        self.path = state_dir(root) / JOURNAL
        self.key = key
        # A run killed mid-write leaves a last line without its newline (the kernel stops a
        # write of several pages at a fatal signal); the first append starts a new line.
        self.cut_short = _ends_cut_short(self.path)

    def append(self, result: Result, content: str | None) -> None:
        self.append_many([(result, content)])

    def append_many(self, entries: list[tuple[Result, str | None]]) -> None:
        """A signed line for each (result, content digest), synced to disk once for all (a
        sync a result cost the recorder up to 3 ms a result on a busy disk)."""
        lines = [
            json.dumps(
                sign(self.key, {"content": content, "result": result.as_dict()}), default=str
            )
            + "\n"
            for result, content in entries
        ]
        if self.cut_short:
            lines.insert(0, "\n")
            self.cut_short = False
        with open(self.path, "a", encoding="utf-8") as handle:
            handle.write("".join(lines))
            handle.flush()
            os.fsync(handle.fileno())

    def graded(self) -> dict[tuple[str, str], tuple[str, Result]]:
        """{(lesson, student): (content digest, result)}: the latest verified entry of each."""
        found: dict[tuple[str, str], tuple[str, Result]] = {}
        if not self.path.is_file():
            return found
        for line in self.path.read_text(encoding="utf-8").splitlines():
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                continue  # a line cut short by a kill
            if isinstance(entry, dict) and verified(self.key, entry):
                result = Result.from_dict(entry["result"])
                found[result.key] = (entry.get("content"), result)
        return found
