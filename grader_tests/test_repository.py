"""The repository's own promises: one set of dependencies, the README's commands, clean code."""

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def pyproject_requirements() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    return set(project["dependencies"]) | {req for group in extras.values() for req in group}


def environment_requirements() -> set[str]:
    """The pip requirements listed in environment.yml (a flat list; no YAML parser needed)."""
    lines = (ROOT / "environment.yml").read_text().splitlines()
    start = lines.index("  - pip:")
    reqs = [line.strip()[2:] for line in lines[start + 1 :] if line.strip().startswith("- ")]
    return {req for req in reqs if not req.startswith("-e ")}


def test_environment_yml_agrees_with_pyproject():
    """Conda users get exactly the dependencies pyproject.toml pins, and the course itself."""
    assert environment_requirements() == pyproject_requirements()
    assert "      - -e ." in (ROOT / "environment.yml").read_text().splitlines()


def test_every_dependency_has_a_tested_range():
    """Each dependency names a lower bound, and all but Menagerie's dated releases an upper one."""
    for requirement in pyproject_requirements():
        assert ">=" in requirement, requirement
        if not requirement.startswith("mujoco-menagerie"):  # dated releases, no upper bound
            assert "<" in requirement, f"{requirement} has no upper bound"


def test_readme_commands_exist_in_the_makefile():
    """The README's quick-start commands are Makefile targets, and CI runs the test one."""
    readme = (ROOT / "README.md").read_text()
    makefile = (ROOT / "Makefile").read_text()
    for target in re.findall(r"^make (\w+)", readme, flags=re.M):
        assert re.search(rf"^{target}:", makefile, flags=re.M), f"make {target} is not a target"
    assert "make test" in (ROOT / ".ci" / "run").read_text()


def test_top_level_layout():
    """The top-level folders DESIGN.md promises are there."""
    for name in ("course", "classroom", "source", "release", "autograded", "grader_tests"):
        assert (ROOT / name).is_dir(), name
    for name in (
        "environment.yml",
        "README.md",
        "pyproject.toml",
        "nbgrader_config.py",
        "Makefile",
        ".ci/run",
    ):
        assert (ROOT / name).is_file(), name


@pytest.mark.skipif(
    shutil.which("ruff", path=str(Path(sys.executable).parent)) is None,
    reason="ruff is installed by `make test`",
)
def test_code_and_notebooks_are_formatted_and_lint_clean():
    """ruff finds nothing to fix in the package, the tests and the source notebooks."""
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent))
    paths = ["course", "classroom", "grader_tests", "source", "nbgrader_config.py"]
    lint = subprocess.run([ruff, "check", *paths], cwd=ROOT, capture_output=True, text=True)
    assert lint.returncode == 0, lint.stdout[-3000:]
    fmt = subprocess.run(
        [ruff, "format", "--check", *paths], cwd=ROOT, capture_output=True, text=True
    )
    assert fmt.returncode == 0, fmt.stdout[-3000:]
