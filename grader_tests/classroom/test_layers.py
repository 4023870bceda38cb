"""The instructor's side in one-way layers, read from the code's own imports.

classroom/ is built in layers, each importing only from the layers below it:

    isolation      sandbox, zygotes, kernel launch: nothing of nbgrader, lessons or grades
    nbgrader_ext   the preprocessors, the verdicts, the notebook vocabulary (nbgrader_config.py
                   wires it into nbgrader's chains)
    build          the course build: release/, solution/, the set-up cell, the course wheel
    grading        the class command: intake, LMS, pool, workers, records, exports, reports
    command        `python -m classroom.grade` and the demo class

Every import is read (those inside functions too), so a layer that reached up, or two modules
that import each other, fail here with the import named. From the learner's package
classroom/ takes only its public API.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "classroom"
LAYERS = ("isolation", "nbgrader_ext", "build", "grading", "command")
LAYER_OF_TOP_MODULE = {  # modules directly in classroom/, not in a layer's folder
    "build": "build",
    "setup_cell": "build",
    "lesson_tables": "build",
    "wheel": "build",
    "grade": "command",
    "demo": "command",
}
LEARNERS_API = {"course", "course.expect", "course.lessons", "course.lessons.registry"}
NOT_IN_ISOLATION = ("nbgrader", "nbformat", "nbconvert", "course", "mujoco")
MAX_FUNCTION_LINES = 60


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer(module: str) -> str | None:
    """The layer of a classroom module (None for the package itself, which all may import)."""
    parts = module.split(".")
    if len(parts) == 1:
        return None
    if parts[1] in LAYER_OF_TOP_MODULE:
        return LAYER_OF_TOP_MODULE[parts[1]]
    return parts[1]


def exists(module: str) -> bool:
    path = ROOT.joinpath(*module.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def imports_of(path: Path) -> set[str]:
    """Every module `path` imports (at the top or inside a function), as dotted names; a
    `from package import name` counts as the submodule when `name` is one."""
    module = module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([node.module] if node.module else []))
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.add(sub if exists(sub) else base)
    return found


def graph() -> dict[str, set[str]]:
    return {module_name(p): imports_of(p) for p in sorted(PACKAGE.rglob("*.py"))}


GRAPH = graph()


def test_every_module_is_in_a_layer():
    unplaced = [m for m in GRAPH if m != "classroom" and layer(m) not in LAYERS]
    assert not unplaced, f"modules in no layer (add them to a layer's folder): {unplaced}"


@pytest.mark.parametrize("module", sorted(GRAPH))
def test_imports_run_down(module):
    """A module imports from its own layer or the layers below, never above."""
    if layer(module) is None:
        return
    own = LAYERS.index(layer(module))
    upward = [
        target
        for target in sorted(GRAPH[module])
        if target.startswith("classroom.") and LAYERS.index(layer(target)) > own
    ]
    assert not upward, f"{module} ({layer(module)}) imports a layer above it: {upward}"


def test_no_import_circle():
    """No module reaches itself through its imports (within classroom/)."""
    edges = {m: {t for t in targets if t in GRAPH and t != m} for m, targets in GRAPH.items()}
    done, on_path, circles = set(), [], []

    def visit(module):
        if module in on_path:
            circles.append(on_path[on_path.index(module) :] + [module])
            return
        if module in done:
            return
        on_path.append(module)
        for target in sorted(edges[module]):
            # A package's __init__ that gathers its own submodules is not a circle.
            if not target.startswith(module + "."):
                visit(target)
        on_path.pop()
        done.add(module)

    for module in sorted(edges):
        visit(module)
    assert not circles, "import circles: " + "; ".join(" -> ".join(c) for c in circles)


def test_isolation_knows_nothing_of_grading():
    """The sandbox and zygotes import neither nbgrader, notebooks, lessons nor MuJoCo, and
    nothing of classroom/ outside isolation/."""
    for module, targets in GRAPH.items():
        if layer(module) != "isolation":
            continue
        foreign = [
            t
            for t in targets
            if t.split(".")[0] in NOT_IN_ISOLATION
            or (t.startswith("classroom.") and layer(t) != "isolation")
        ]
        assert not foreign, f"{module} imports {foreign}"


def test_only_the_learners_api_is_taken_from_the_course_package():
    taken = {t for targets in GRAPH.values() for t in targets if t.split(".")[0] == "course"}
    assert taken <= LEARNERS_API, f"classroom/ imports course internals: {taken - LEARNERS_API}"


def long_functions(paths) -> list[str]:
    found = []
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = node.end_lineno - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
                    where = f"{shown}:{node.lineno} {node.name}"
                    found.append(f"{where} ({length} lines)")
    return found


def test_no_function_over_sixty_lines_outside_tests():
    paths = [*PACKAGE.rglob("*.py"), *(ROOT / "course").rglob("*.py"), ROOT / "nbgrader_config.py"]
    assert not long_functions(paths)


def test_the_checks_see_what_they_forbid(tmp_path):
    """The reading above is not blind: an import made only inside a function is found (the
    worker takes the zygotes that way), an import reaching up is caught, and a 61-line
    function is flagged."""
    assert "classroom.isolation.zygote" in imports_of(PACKAGE / "grading" / "worker.py")
    assert LAYERS.index(layer("classroom.grading.run")) > LAYERS.index(
        layer("classroom.isolation.sandbox")
    )
    assert layer("classroom.grade") == "command" and layer("classroom.setup_cell") == "build"
    source = tmp_path / "probe.py"
    body = "\n".join(f"    x{i} = {i}" for i in range(60))
    source.write_text(f"def f():\n{body}\n")
    assert len(long_functions([source])) == 1, "a 61-line function was not flagged"


def test_architecture_doc_names_every_module():
    """docs/architecture.md, the map of classroom/, names every module (by its name, its path
    in its layer, or, for a preprocessor, the class the chains list), so none is added unseen."""
    doc = (ROOT / "docs" / "architecture.md").read_text()
    missing = []
    for module in GRAPH:
        name = module.rsplit(".", 1)[-1]
        camel = "".join(part.capitalize() for part in name.split("_"))
        if module != "classroom" and not re.search(rf"[`/]{name}[`/]|`{camel}`", doc):
            missing.append(module)
    assert not missing, f"docs/architecture.md does not name: {missing}"
