"""The LMS registry (classroom/grading/lms/): every LMS module is found, each has its own test
module, and no other module of classroom/ names an LMS, so that a new LMS is one new module
plus its test (docs/contributing.md, "Adding an LMS")."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from classroom.grading import lms
from classroom.grading.lms.base import Lms

REPO = Path(__file__).resolve().parents[3]
PACKAGE = REPO / "classroom" / "grading" / "lms"
NOT_AN_LMS = {"__init__", "base"}  # the registry and what every LMS module shares


def lms_modules() -> list[str]:
    """The LMS modules by their files: every .py of the package but the shared ones."""
    return sorted(p.stem for p in PACKAGE.glob("*.py") if p.stem not in NOT_AN_LMS)


def test_the_registry_finds_every_lms_module_under_its_own_name():
    assert lms_modules(), "no LMS module found: the test would check nothing"
    assert list(lms.REGISTRY) == lms_modules()
    for name, declared in lms.REGISTRY.items():
        assert isinstance(declared, Lms) and declared.name == name
        assert declared.title and declared.title.lower() == name


@pytest.mark.parametrize("name", lms_modules())
def test_each_lms_module_has_its_own_test_module(name):
    assert (Path(__file__).parent / f"test_{name}.py").is_file(), (
        f"classroom/grading/lms/{name}.py has no grader_tests/classroom/lms/test_{name}.py"
    )


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the docstring nodes of a module, its classes and functions."""
    holders = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, holders) and node.body and isinstance(node.body[0], ast.Expr):
            if isinstance(node.body[0].value, ast.Constant):
                found.add(id(node.body[0].value))
    return found


def words_of_code(path: Path) -> list[str]:
    """A module's string literals (docstrings aside: prose may name an LMS) and names."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    prose = _docstrings(tree)
    words = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            words += [] if id(node) in prose else [node.value]
        elif isinstance(node, ast.Name):
            words.append(node.id)
        elif isinstance(node, ast.Attribute):
            words.append(node.attr)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            words.append(node.name)
        elif isinstance(node, (ast.arg, ast.keyword)):
            words.append(node.arg or "")
        elif isinstance(node, ast.alias):
            words += [node.name, node.asname or ""]
        elif isinstance(node, (ast.ImportFrom)):
            words.append(node.module or "")
    return words


def naming(path: Path, name: str) -> list[str]:
    """The literals and names of a module that name the LMS `name`."""
    pattern = re.compile(re.escape(name), re.IGNORECASE)
    return [word for word in words_of_code(path) if pattern.search(word)]


def test_the_scan_sees_an_lms_named_in_its_own_module():
    """The check below can fail: it finds the names in the modules that must have them."""
    for name in lms.REGISTRY:
        assert naming(PACKAGE / f"{name}.py", name), name


def test_no_module_but_its_own_names_an_lms():
    sources = sorted((REPO / "classroom").rglob("*.py"))
    assert len(sources) > 20, "classroom/ not found"
    found = {
        f"{path.relative_to(REPO)}: {name}: {sorted(set(words))}"
        for path in sources
        for name in lms.REGISTRY
        if path != PACKAGE / f"{name}.py" and (words := naming(path, name))
    }
    assert not found, "LMS names outside their own module (use the registry):\n" + "\n".join(
        sorted(found)
    )
