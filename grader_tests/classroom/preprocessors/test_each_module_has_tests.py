"""Every module of classroom/nbgrader_ext/preprocessors/ has a test module of its own here,
test_<module>.py, with at least one test: the next preprocessor cannot land without one.
(The package's __init__, where the chains are defined, is tested by test_chains.py.)"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import classroom.nbgrader_ext.preprocessors

PACKAGE = Path(classroom.nbgrader_ext.preprocessors.__file__).resolve().parent
HERE = Path(__file__).resolve().parent
MODULES = sorted(p.stem for p in PACKAGE.glob("*.py") if p.stem != "__init__")


def _tests_in(path: Path) -> list[str]:
    """The names of the test functions and test methods pytest would collect in path."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.name.startswith("test_")
    ]


def test_the_package_has_modules():
    """The list below is not empty because the package moved (the check would pass vacuously)."""
    assert len(MODULES) >= 10, f"{PACKAGE} holds only {MODULES}"


@pytest.mark.parametrize("module", MODULES)
def test_each_module_has_a_test_module_of_its_own(module):
    path = HERE / f"test_{module}.py"
    assert path.is_file(), f"{PACKAGE.name}/{module}.py has no test module {path.name}"
    assert _tests_in(path), f"{path.name} holds no test"
