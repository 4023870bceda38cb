"""The grading command run as root from a course inside a private folder (mode 0750, a home
folder on current Ubuntu; /root in a container): every student is graded, the sandbox on.

No clone and no virtual environment is made (minutes each). In a mount namespace of its own,
the command sees this repository, its .venv included, bound at <private>/course under a 0750
folder, and an empty tmpfs over the repository's own path: the slot's uid, which the sandbox
drops to, reaches nothing the grading needs (bwrap, the Python environment, the course
package, the answer server, the zygote's script) but through that private folder, as with
an instructor's clone in /root.
"""

from __future__ import annotations

import csv
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
import tampering
from sandbox_required import require_sandbox

from classroom import build
from classroom.nbgrader_ext import notebooks

REPO_ROOT = Path(__file__).resolve().parents[2]
L01 = tampering.L01
TIMEOUT = 600
# In the namespace: the repository bound in the private folder, its own path hidden, then the
# command run from the private copy ("$@").
IN_NAMESPACE = 'mount --bind "$1" "$2" && mount -t tmpfs -o size=1m none "$1" && shift 2 && "$@"'


def _private_course(tmp_path: Path) -> tuple[Path, Path]:
    """(the private folder, the course's path in it, where the namespace binds the repo)."""
    private = tmp_path / "private"
    private.mkdir()
    os.chmod(private, 0o750)  # as `mkdir` in a home folder: the group may pass, others not
    (private / "course").mkdir()
    return private, private / "course"


def _preconditions() -> Path:
    """The interpreter's path relative to the repository; skips where the case cannot arise."""
    if os.geteuid() != 0:
        pytest.skip("only a grader running as root drops the sandbox to a slot's uid")
    require_sandbox()
    if shutil.which("unshare") is None:
        pytest.skip("needs unshare(1) for a mount namespace")
    try:
        return Path(sys.executable).relative_to(REPO_ROOT)
    except ValueError:
        pytest.skip(f"the Python environment {sys.prefix} is not inside the repository")


@pytest.mark.timeout(TIMEOUT)
def test_grading_from_a_course_in_a_private_folder_grades_every_student(tmp_path):
    """`python -m classroom.grade`, run from the course in a 0750 folder as root: both
    students graded, the complete one with every point, the blank one with none."""
    python = _preconditions()
    private, course = _private_course(tmp_path)
    root = private / "graded"
    build.make_course_dir(L01, root)
    submitted = private / "class"
    for student in ("complete", "blank"):
        nb = tampering.base_notebook(L01, student)
        notebooks.write(nb, submitted / student / L01 / f"{L01}.ipynb")
    grade = [str(course / python), "-m", "classroom.grade", L01, "--submitted", str(submitted)]
    grade += ["--root", str(root), "--workers", "2", "--quiet"]
    command = ["unshare", "--mount", "--propagation", "private", "sh", "-c", IN_NAMESPACE, "sh"]
    command += [str(REPO_ROOT), str(course), "sh", "-c", 'cd "$0" && exec "$@"', str(course)]
    run = subprocess.run(command + grade, cwd="/", capture_output=True, text=True, timeout=TIMEOUT)
    assert run.returncode == 0, f"the command failed:\n{run.stdout}\n{run.stderr[-3000:]}"
    with open(root / "grades.csv", encoding="utf-8", newline="") as f:
        rows = {row["student_id"]: row for row in csv.DictReader(f)}
    every = sum(tampering.cell_points(L01).values())
    found = {s: (r["status"], float(r["score"])) for s, r in rows.items()}
    assert found == {"complete": ("graded", every), "blank": ("graded", 0.0)}, (
        f"{found}\n{run.stdout}\n{run.stderr[-4000:]}"
    )


@pytest.mark.timeout(30)
def test_a_sandbox_stopped_by_a_private_folder_names_it_and_the_fix(monkeypatch):
    """When the launcher cannot run what lies in a private folder, the reason names that
    folder and how to mend it, and `require` puts the fix before --unsandboxed."""
    from classroom.isolation import sandbox

    private = tempfile.mkdtemp(dir="/tmp")  # /tmp lets everyone pass; this folder does not
    try:
        os.chmod(private, 0o750)
        stderr = f"sandbox launcher: cannot run {private}/env/bin/bwrap: Permission denied\n"
        reason = sandbox._explain_failure(stderr)
        assert f"cannot pass {private} " in reason and f"chmod o+x {private}" in reason, reason
        monkeypatch.setattr(sandbox, "probe", lambda: reason)
        with pytest.raises(sandbox.SandboxUnavailable) as raised:
            sandbox.require()
        message = str(raised.value)
        assert message.index("chmod o+x") < message.index("--unsandboxed"), message
        assert "user namespaces" not in message, message  # not what stopped it
    finally:
        os.rmdir(private)
