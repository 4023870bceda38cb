"""The grading command's plan (classroom/grading/plan.py, issue 31): built once from the
command line, frozen, the one thing the run reads; the demo class outside the run; the
facts a shard writes read back whole (function lengths and the layers: test_layers.py)."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

from classroom import grade
from classroom.grading.plan import GradingPlan, RunFacts

REPO_ROOT = Path(__file__).resolve().parents[2]
CLASSROOM = REPO_ROOT / "classroom"


def plan(*argv: str) -> GradingPlan:
    return grade.plan_of(grade.parse_args(list(argv)), REPO_ROOT)


def imported_names(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names |= {node.module} | {f"{node.module}.{a.name}" for a in node.names}
    return names


def test_the_command_line_becomes_one_frozen_plan():
    argv = ["--student", "a", "--student", "b", "--shard", "2/3", "--unsandboxed"]
    got = plan(*argv, "--export", "moodle", "--canvas-assignment", "01-x=12", "--cell-timeout", "7")
    assert (got.students, got.shard, got.sandboxed) == (("a", "b"), (2, 3), False)
    assert (got.exports, got.lms_settings) == (("moodle",), (("canvas", ("01-x=12",)),))
    assert (got.cell_timeout, got.notebook_timeout) == (7, 180)
    assert got.output == got.root == REPO_ROOT and got.journal and not got.demo
    assert got.submitted_tree == REPO_ROOT / "submitted"
    with pytest.raises(dataclasses.FrozenInstanceError):
        got.lessons = ("01-x",)  # type: ignore[misc]


def test_a_download_or_the_exchange_reads_no_submitted_tree():
    assert plan("--zip", "x.zip").submitted_tree is None
    assert plan("--exchange").submitted_tree is None
    assert plan("--merge").submitted_tree is None


def test_the_demo_is_a_submitted_tree_with_its_own_outputs_and_gradebook():
    """The run grades the demo as any submitted/ tree: only the plan's fields differ."""
    got = plan("--demo")
    demo_folder = REPO_ROOT / ".grading" / "demo"
    assert got.demo and got.output == demo_folder
    assert got.submitted_tree == demo_folder / "submitted"
    assert got.gradebook == f"sqlite:///{REPO_ROOT / '.grading' / 'demo-gradebook.db'}"
    assert not got.journal and got.skip_absent and got.lessons  # its lessons, named


def test_grading_imports_neither_the_demo_nor_argparse():
    # grading/lms/ is left out: each LMS declares its own options there, and the command
    # reads them once into the plan (lms.settings); nothing of the run holds a namespace.
    for path in sorted((CLASSROOM / "grading").glob("*.py")):
        names = imported_names(path)
        assert not {"classroom.demo", "argparse"} & names, f"{path.name} imports {names}"


def test_run_facts_come_back_whole_from_a_shard_file():
    facts = RunFacts(input="x", problems=["p"], unassigned=["u"], course="c", lessons=["l"],
                     workers=3, cell_timeout=30, notebook_timeout=180, sandbox="on",
                     failed_lessons=["f"], exports=["canvas"], seconds=1.5)  # fmt: skip
    assert RunFacts.from_dict({**facts.as_dict(), "from a later version": 1}) == facts
