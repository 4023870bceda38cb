"""The course wheel in release/: the learner's package, for Colab learners who upload a notebook.

A learner who opens a lesson in Colab from a file (downloaded from an LMS, say) has no course
package there; the set-up cell installs it from a wheel uploaded beside the notebook
(classroom/setup_cell.py). The build writes that wheel as release/<wheel_name>:

    python -m classroom.build     # also writes release/mujoco_physics_course-<version>-...whl

It holds course/ only (setuptools' package list in pyproject.toml), never a solution or a
grader. It is made reproducible so that a rebuild of unchanged code leaves git clean: the
README the package description would embed is replaced by one fixed line (the wheel changes
only when course/ or pyproject.toml do), and the zip is rewritten with sorted members, one
timestamp and one file mode. `wheel_problems` compares what a wheel carries (the files of
course/ and the requirements), not its bytes, which also depend on the setuptools version.
"""

from __future__ import annotations

import email.parser
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from classroom import setup_cell

REPO_ROOT = setup_cell.REPO_ROOT
# The README setuptools puts into the wheel's description: one fixed line, see above.
WHEEL_README = "The learner's package of the MuJoCo physics course (course/).\n"
# Zip's earliest date; any fixed one would do.
FIXED_DATE = (1980, 1, 1, 0, 0, 0)


class WheelError(RuntimeError):
    """pip could not build the course wheel; the message carries its output."""


def wheel_path(root: Path | str = REPO_ROOT) -> Path:
    """Where the build writes the course wheel: release/<wheel file name>."""
    return Path(root) / "release" / setup_cell.wheel_name(root)


def build_wheel(destination: Path | str, root: Path | str = REPO_ROOT) -> Path:
    """Build the course wheel from root's course/ and pyproject.toml into destination (a
    folder), offline and reproducibly; returns its path. Raises WheelError when pip fails."""
    root, destination = Path(root), Path(destination)
    with tempfile.TemporaryDirectory(prefix="course-wheel-") as tmp:
        source = Path(tmp) / "source"
        source.mkdir()
        shutil.copyfile(root / "pyproject.toml", source / "pyproject.toml")
        (source / "README.md").write_text(WHEEL_README, encoding="utf-8")
        shutil.copytree(
            root / "course", source / "course", ignore=shutil.ignore_patterns("__pycache__")
        )
        command = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps"]
        command += ["--no-build-isolation", "--wheel-dir", str(Path(tmp) / "wheels"), str(source)]
        env = dict(os.environ, PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
        run = subprocess.run(command, capture_output=True, text=True, env=env, cwd=tmp)
        built = Path(tmp) / "wheels" / setup_cell.wheel_name(root)
        if run.returncode != 0 or not built.is_file():
            raise WheelError(f"pip could not build the course wheel:\n{run.stderr[-3000:]}")
        destination.mkdir(parents=True, exist_ok=True)
        target = destination / built.name
        _repack(built, target)
    return target


def _repack(built: Path, target: Path) -> None:
    """Rewrite a wheel with sorted members (dist-info last, RECORD at the very end, its lines
    sorted), one date and mode 644, so the same files give the same bytes."""
    with zipfile.ZipFile(built) as zf:
        members = {name: zf.read(name) for name in zf.namelist()}
    record = next(name for name in members if name.endswith(".dist-info/RECORD"))
    lines = members[record].decode("utf-8").splitlines()
    members[record] = ("\n".join(sorted(lines)) + "\n").encode("utf-8")
    order = sorted(members, key=lambda name: (".dist-info/" in name, name == record, name))
    with zipfile.ZipFile(target, "w") as out:
        for name in order:
            info = zipfile.ZipInfo(name, date_time=FIXED_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            out.writestr(info, members[name])


def wheel_contents(path: Path | str) -> dict[str, bytes]:
    """What a course wheel carries: {member: bytes} for the package's files, and
    "Requires-Dist" for its requirements (one a line); dist-info bookkeeping left out."""
    with zipfile.ZipFile(path) as zf:
        files = {n: zf.read(n) for n in zf.namelist() if ".dist-info/" not in n}
        metadata = next(n for n in zf.namelist() if n.endswith(".dist-info/METADATA"))
        message = email.parser.Parser().parsestr(zf.read(metadata).decode("utf-8"))
    requires = "\n".join(message.get_all("Requires-Dist") or [])
    return {**files, "Requires-Dist": requires.encode("utf-8")}


def wheel_problems(root: Path | str = REPO_ROOT) -> list[str]:
    """Why the committed course wheel is not what the build makes now (empty when it is):
    missing, or carrying other files or requirements than course/ and pyproject.toml give;
    other course wheels left in release/ are reported too."""
    root = Path(root)
    committed = wheel_path(root)
    name = f"release/{committed.name}"
    problems = [
        f"stale: release/{other.name} is not the current course wheel ({committed.name})"
        for other in sorted((root / "release").glob(setup_cell.wheel_glob(root)))
        if other.name != committed.name
    ]
    if not committed.is_file():
        return [*problems, f"missing: {name} (the course wheel)"]
    with tempfile.TemporaryDirectory(prefix="wheel-check-") as tmp:
        try:
            fresh = wheel_contents(build_wheel(tmp, root))
        except WheelError as exc:
            return [*problems, f"{name}: the wheel could not be rebuilt: {exc}"]
    old = wheel_contents(committed)
    differing = sorted(k for k in fresh.keys() | old.keys() if fresh.get(k) != old.get(k))
    if differing:
        problems.append(f"differs: {name} ({', '.join(differing[:5])})")
    return problems
