"""Hidden cases fresh for every submission: the seed a hidden test draws its cases from.

A hidden test draws with `course.expect.hidden_cases(label)`; the grader (DecideVerdicts)
seeds it, per submission, with `submission_seed`: HMAC-SHA256 under the course's secret of
the student, the lesson and what the learner wrote (the sources of the cells a learner can
edit, outputs left out). So:

- the same notebook regraded draws the same cases, and gets the same score;
- a changed notebook (a table of cases leaked by its last feedback pasted in) draws new ones,
  and so does the same notebook handed in by another student;
- nobody can compute the cases without the secret, which lives in the course's `.grading/`
  (mode 0700, never bound into a sandbox) and is made on first use.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import tempfile
from pathlib import Path

STATE = ".grading"  # the course's folder of the grader's own state (mode 0700)
SECRET_FILE = "cases-secret"  # in it
SEED_WORDS = 8  # 32-bit words of the seed (256 bits, the HMAC's)


def secret_path(course_root: Path | str) -> Path:
    """Where a course keeps the secret its hidden cases are drawn from."""
    return Path(course_root) / STATE / SECRET_FILE


def secret(path: Path | str) -> bytes:
    """The 32-byte secret kept in `path` (mode 0600 in a folder of mode 0700, both made on
    first use). Made whole, then linked into place: processes making it at once all read
    the one that was linked first, never a half-written one."""
    path = Path(path)
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(path.parent, 0o700)
    if not path.exists():
        descriptor, draft = tempfile.mkstemp(dir=path.parent, prefix=".draft-")  # mode 0600
        try:
            with os.fdopen(descriptor, "wb") as handle:
                handle.write(secrets.token_bytes(32))
            os.link(draft, path)
        except FileExistsError:
            pass
        finally:
            os.unlink(draft)
    found = path.read_bytes()
    if len(found) < 16:  # emptied by hand: hidden cases must not be guessable
        raise RuntimeError(f"{path} holds {len(found)} bytes, not a secret: remove it")
    return found


def learner_digest(cells) -> str:
    """SHA-256 of what the learner wrote: the sources of the cells that are not locked (answer
    cells and cells the learner added), in order, with their kinds. Outputs and metadata are
    left out, so running the same notebook again changes nothing."""
    from classroom.nbgrader_ext.notebooks import is_locked

    digest = hashlib.sha256()
    for cell in cells:
        if not is_locked(cell):
            digest.update(f"{cell.cell_type}\0{len(cell.source)}\0{cell.source}\0".encode())
    return digest.hexdigest()


def submission_seed(key: bytes, student: str, lesson: str, notebook: str, digest: str):
    """The seed words (SEED_WORDS ints below 2**32) for one submission's hidden cases."""
    message = "\0".join((student, lesson, notebook, digest)).encode()
    mac = hmac.new(key, message, hashlib.sha256).digest()
    return tuple(int.from_bytes(mac[4 * i : 4 * i + 4], "big") for i in range(SEED_WORDS))
