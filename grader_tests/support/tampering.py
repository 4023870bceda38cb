"""The tampering corpus: what a hostile learner pastes into a notebook for free points.

Each `Tamper` is one student of a class: one trick of issue 11 (`TRICKS`), written as real
code a learner could paste into an answer cell or add as a new cell, on a base notebook:

- "blank": the release as handed out, with the trick: it must score 0 on every test cell;
- "complete": the release with every answer filled in from the source (honest work), with
  the trick, or with a helper-call answer in place of one function: it must score exactly
  what the honest work deserves, `total`, losing exactly the test cells in `loses`.

A fixture changes the base three ways: `added`, a new cell right after the set-up cell (a
learner may add cells anywhere; tricks there run before every test); `appended`, code at the
end of answer cells; `cells`, answer cells replaced whole. `says` is a sentence every lost
cell's verdict must contain (the helper-call answers: the function must compute its result
from its arguments). `hole`, when set, names a trick the grader does not stop yet: the test
expects it to fail (strictly), so fixing the hole turns the expectation around.

    for tamper in corpus("01-world-as-text"):
        tamper.notebook()                      # the notebook the student hands in
    write_class(course_dir / "submitted", "01-world-as-text")   # the whole class

The class also holds references (`REFERENCES`), graded in the same run: "complete" (full
marks), also the classmate whose work trick 9 would copy, and "blank" (0).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell

from classroom.nbgrader_ext import notebooks

REPO_ROOT = Path(__file__).resolve().parents[2]
L01, L02 = "01-world-as-text", "02-time-integration"
LESSONS = (L01, L02)
MUST_COMPUTE = "must compute its result from its arguments"
STUB = "    pass  # YOUR CODE HERE"
# The references graded beside the fixtures; lesson 02's honest work takes long to grade (its
# hidden tests search stability edges), and its every-lesson suite grades it anyway.
REFERENCES = {L01: ("complete", "blank"), L02: ("blank",)}

# Issue 11's list, in its order: the key every fixture names in `trick`.
TRICKS = {
    "code": "replace the __code__ or __defaults__ of the check functions",
    "builtins": "find the grader's objects in builtins or sys.modules and replace their methods",
    "transformer": "an IPython input or AST transformer that turns every test cell into pass",
    "events": "a pre_run_cell event rebinds the checks, a post_run_cell event restores them",
    "displayhook": "an answer emits an execute_result so a test cell's first output looks good",
    "frames": "returned objects whose __array__, __float__, __eq__ read the expected value",
    "letters": "multiple-choice letters that are a str subclass equal to anything",
    "source": "answer cells exec the instructor's solution from source/",
    "classmate": "answer cells exec another student's submission (submitted/, autograded/)",
    "helper": "a graded function answered by a helper of the lesson (MuJoCo, the course)",
    "nan": "not a number where a comparison never looks (beyond issue 11's list)",
    "descriptors": "write into every descriptor the kernel holds; the next submission of the "
    "worker reads every one it holds (the worker's log, issue 26)",
    "sabotage": "a sandbox left unresettable, then its process killed (issue 26, beyond 11)",
}


@dataclass(frozen=True)
class Tamper:
    """One hostile submission and the score honest work with it deserves."""

    name: str  # the student id
    lesson: str
    trick: str  # a key of TRICKS
    doc: str  # one line: what the code does
    base: str  # "blank" or "complete"
    total: float  # the whole notebook's expected score
    loses: frozenset[str] = frozenset()  # test cells scoring 0 (a blank base loses every one)
    added: str = ""  # a new cell right after the set-up cell
    appended: dict[str, str] = field(default_factory=dict)  # answer grade_id -> code at its end
    cells: dict[str, str] = field(default_factory=dict)  # answer grade_id -> whole new source
    says: str = ""  # a sentence every lost cell's verdict message contains
    hole: str = ""  # why the grader still gives this trick points (expected to fail)

    @property
    def id(self) -> str:
        return f"{self.lesson}:{self.name}"

    def lost(self, tests) -> set[str]:
        """The test cells (of `tests`, every grade_id) this submission must score 0 on."""
        return set(tests) if self.base == "blank" else set(self.loses)

    def notebook(self, root: Path | str = REPO_ROOT) -> nbformat.NotebookNode:
        """The notebook this student hands in."""
        nb = base_notebook(self.lesson, self.base, root)
        answers = notebooks.answer_cells(nb)
        unknown = sorted((set(self.cells) | set(self.appended)) - set(answers))
        if unknown:
            raise ValueError(f"{self.id}: {unknown} are not answer cells of {self.lesson}")
        for gid, text in self.cells.items():
            answers[gid].source = text
        for gid, text in self.appended.items():
            answers[gid].source = answers[gid].source.rstrip("\n") + "\n\n" + text.strip() + "\n"
        if self.added:
            setup = next(i for i, c in enumerate(nb.cells) if notebooks.is_locked(c))
            nb.cells.insert(setup + 1, new_code_cell(self.added.strip() + "\n"))
        return nb


# --------------------------------------------------------------------------------------------
# The lessons, as the tricks see them


def base_notebook(lesson: str, base: str, root: Path | str = REPO_ROOT) -> nbformat.NotebookNode:
    """The release as handed out ("blank") or with the source's answers in it ("complete")."""
    release = notebooks.read_lesson(lesson, "release", root)
    if base == "blank":
        return release
    if base == "complete":
        return notebooks.fill_release(release, notebooks.read_lesson(lesson, "source", root))
    raise ValueError(f"base {base!r}: use 'blank' or 'complete'")


@cache
def _source(lesson: str):
    return notebooks.read_lesson(lesson, "source", REPO_ROOT)


def cell_points(lesson: str) -> dict[str, float]:
    """{test grade_id: its points}."""
    return {
        gid: float(notebooks.nbgrader(cell)["points"])
        for gid, cell in notebooks.test_cells(_source(lesson)).items()
    }


def graded_functions(lesson: str) -> dict[str, list[str]]:
    """{answer grade_id: the functions it defines that a test calls}."""
    tests = "\n".join(cell.source for cell in notebooks.test_cells(_source(lesson)).values())
    found = {}
    for gid, text in notebooks.solutions(_source(lesson)).items():
        try:
            body = ast.parse(text).body
        except SyntaxError:
            continue
        names = [
            node.name
            for node in body
            if isinstance(node, ast.FunctionDef) and re.search(rf"\b{node.name}\b", tests)
        ]
        if names:
            found[gid] = names
    return found


def letter_answers(lesson: str) -> dict[str, str]:
    """{answer grade_id: the right letter} of the multiple-choice answers."""
    found = {}
    for gid, text in notebooks.solutions(_source(lesson)).items():
        letter = re.search(rf'^{re.escape(gid)} = "([A-Z])"\s*$', text, re.MULTILINE)
        if letter:
            found[gid] = letter.group(1)
    return found


def stub(lesson: str, gid: str) -> str:
    """An answer cell as released (its docstring, the given code, the stub line)."""
    return notebooks.answer_cells(notebooks.read_lesson(lesson, "release", REPO_ROOT))[gid].source


def answered_with(lesson: str, gid: str, body: str) -> str:
    """The released answer cell with its stub line replaced by `body` (indented lines)."""
    text = stub(lesson, gid)
    if text.count(STUB) != 1:
        raise ValueError(f"{lesson}/{gid}: the released cell has no single stub line")
    return text.replace(STUB, body.rstrip("\n"))


def _wrapping(lesson: str, wrapper: str) -> dict[str, str]:
    """Code at the end of each answer cell rebinding its graded functions to wrapper(f)."""
    return {
        gid: "\n".join(f"{name} = {wrapper}({name})" for name in names)
        for gid, names in graded_functions(lesson).items()
    }


def _calling(lesson: str, function: str) -> dict[str, str]:
    """Code at the end of each answer cell calling function("<its grade_id>")."""
    gids = [*graded_functions(lesson), *letter_answers(lesson)]
    return {gid: f'{function}("{gid}")' for gid in gids}


def _code(text: str, lesson: str) -> str:
    return text.replace("@LESSON@", lesson).strip() + "\n"


# --------------------------------------------------------------------------------------------
# The tricks, as a learner would paste them

# 1. Every function of the course's check modules gets the body of one that accepts anything;
# the function objects stay the same, so a guard comparing them sees nothing.
CODE_SWAP = '''
import sys
import types


def _accepting_code(function):
    """A code object with function's free variables that returns something equal to all."""
    free = function.__code__.co_freevars
    lines = ["def _outer():", *[f"    {name} = None" for name in free]]
    lines += ["    def _inner(*args, **kwargs):", f"        ({', '.join(free)},)" if free else ""]
    lines += [
        "        yes = {'__eq__': lambda s, o: True, '__ne__': lambda s, o: False}",
        "        return type('Yes', (), {**yes, '__hash__': lambda s: 0})()",
        "    return _inner",
    ]
    scope = {}
    exec("\\n".join(lines), scope)
    return scope["_outer"]().__code__


for _name, _module in list(sys.modules.items()):
    if _name == "course.expect" or _name.startswith("course.lessons."):
        for _value in list(vars(_module).values()):
            if isinstance(_value, types.FunctionType) and _value.__module__ == _name:
                _value.__code__ = _accepting_code(_value)
'''

# 1b. Every tolerance the course's comparisons default to becomes enormous.
DEFAULTS_SWAP = """
import sys
import types

for _name, _module in list(sys.modules.items()):
    if _name.split(".")[0] != "course":
        continue
    for _function in list(vars(_module).values()):
        if not isinstance(_function, types.FunctionType):
            continue
        if _function.__defaults__:
            _function.__defaults__ = tuple(
                1e300 if type(d) is float else d for d in _function.__defaults__
            )
        if _function.__kwdefaults__:
            _function.__kwdefaults__ = {
                k: 1e300 if type(d) is float else d for k, d in _function.__kwdefaults__.items()
            }
"""

# 2. Whatever of the grader's can be found (an object in builtins, a loaded module of course/
# or classroom/, by name or by file) has every callable replaced by one that accepts anything.
WALK_AND_REPLACE = """
import builtins
import sys


class _Yes:
    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    def __call__(self, *args, **kwargs):
        return self

    __hash__ = object.__hash__


_YES = _Yes()


def _is_graders(thing):
    name = str(getattr(thing, "__name__", "") or getattr(type(thing), "__module__", ""))
    path = str(getattr(thing, "__file__", "") or "")
    return name.split(".")[0] in ("course", "classroom") or "/classroom/" in path


def _disarm(holder):
    for key, value in list(vars(holder).items()):
        if callable(value) and not key.startswith("__"):
            try:
                setattr(holder, key, _YES)
            except (AttributeError, TypeError):
                pass


for _value in list(vars(builtins).values()):
    if _is_graders(_value) and hasattr(_value, "__dict__"):
        _disarm(_value)
        _disarm(type(_value))
for _module in list(sys.modules.values()):
    if _module is not None and _is_graders(_module):
        _disarm(_module)
"""

_SKIPS_TESTS = "(chr(34) * 3, chr(39) * 3)"  # a test cell opens with its docstring

# 3a. Every cell that opens with a docstring (every test cell does) runs as `pass`.
INPUT_TRANSFORMER = f"""
def _skip_tests(lines):
    if "".join(lines).lstrip().startswith({_SKIPS_TESTS}):
        return ["pass\\n"]
    return lines


try:
    get_ipython().input_transformers_post.append(_skip_tests)
except NameError:
    pass
"""

# 3b. The same with an AST transformer.
AST_TRANSFORMER = """
import ast


class _SkipTests(ast.NodeTransformer):
    def visit_Module(self, node):
        first = node.body[0] if node.body else None
        value = getattr(first, "value", None)
        if isinstance(first, ast.Expr) and isinstance(getattr(value, "value", None), str):
            node.body = [ast.Pass()]
        return ast.fix_missing_locations(node)


try:
    get_ipython().ast_transformers.append(_SkipTests())
except NameError:
    pass
"""

# 4. Before a test cell every function of the course's modules accepts anything; after it
# they are restored, so nothing looks rebound between cells.
RUN_CELL_EVENTS = f"""
import sys


class _Yes:
    def __eq__(self, other):
        return True

    def __call__(self, *args, **kwargs):
        return self

    __hash__ = object.__hash__


_saved = {{}}


def _disarm_checks(info):
    if not info.raw_cell.lstrip().startswith({_SKIPS_TESTS}):
        return
    for name, module in list(sys.modules.items()):
        if module is None or name.split(".")[0] != "course":
            continue
        for key, value in list(vars(module).items()):
            if callable(value) and not isinstance(value, type) and not key.startswith("__"):
                _saved[(name, key)] = (module, value)
                setattr(module, key, _Yes())


def _restore_checks(result):
    for (name, key), (module, value) in list(_saved.items()):
        setattr(module, key, value)
    _saved.clear()


try:
    get_ipython().events.register("pre_run_cell", _disarm_checks)
    get_ipython().events.register("post_run_cell", _restore_checks)
except NameError:
    pass
"""

# 5. Each graded function first shows a result, so that the test cell calling it has an
# execute_result (not a number) as its first output, which nbgrader scores as full marks.
DISPLAYHOOK = """
import sys


_calls = [0]  # calls in progress: only the outermost one (the test's) needs to show a result


def _announce(function):
    def announced(*args, **kwargs):
        if not _calls[0]:
            sys.displayhook("full marks")
            try:
                get_ipython().displayhook("full marks")
                display("full marks")
            except NameError:
                pass
        _calls[0] += 1
        try:
            return function(*args, **kwargs)
        finally:
            _calls[0] -= 1

    announced.__name__, announced.__doc__ = function.__name__, function.__doc__
    return announced
"""

_EXPECTED_VALUE = '''
import sys

import numpy as np


def _expected_value(default=0.0):
    """What the comparing code expects, read from the frames that called us."""
    frame = sys._getframe(1)
    while frame is not None:
        for key in ("want", "expected", "desired", "want_values"):
            value = frame.f_locals.get(key)
            if value is not None and not getattr(value, "_lies", False):
                return getattr(value, "principal", value)
        frame = frame.f_back
    return default
'''

# 6a. Graded functions return objects that become whatever the comparison expects.
FRAME_READERS = (
    _EXPECTED_VALUE
    + """

class _Lying:
    _lies = True

    def __array__(self, dtype=None, copy=None):
        return np.asarray(_expected_value(), dtype=dtype)

    def __float__(self):
        return float(np.ravel(_expected_value())[0])

    def __eq__(self, other):
        return _expected_value(other) is not None

    __hash__ = object.__hash__


def _lying(function):
    doc = function.__doc__ or ""
    count = doc.split("Returns (", 1)[1].split(")")[0].count(",") + 1 if "Returns (" in doc else 1

    def lying(*args, **kwargs):
        values = tuple(_Lying() for _ in range(count))
        return values if count > 1 else values[0]

    lying.__name__, lying.__doc__ = function.__name__, function.__doc__
    return lying
"""
)

# 6b. The honest results, dressed as float and array subclasses whose __array__, __float__
# and __eq__ read the expected value (the data they carry is the learner's own).
FRAME_READERS_ON_HONEST = (
    _EXPECTED_VALUE
    + """

class _LyingFloat(float):
    _lies = True

    def __float__(self):
        return float(np.ravel(_expected_value(float.__float__(self)))[0])

    def __eq__(self, other):
        return True

    __hash__ = float.__hash__


class _LyingArray(np.ndarray):
    _lies = True

    def __array__(self, dtype=None, copy=None):
        return np.asarray(_expected_value(self.view(np.ndarray)), dtype=dtype)

    def __eq__(self, other):
        return np.ones(self.shape, dtype=bool)

    __hash__ = None


def _dressed(value):
    if isinstance(value, tuple):
        return tuple(_dressed(item) for item in value)
    if isinstance(value, np.ndarray) and value.dtype.kind == "f":
        return value.view(_LyingArray)
    if type(value) is float:
        return _LyingFloat(value)
    return value


def _lying(function):
    def lying(*args, **kwargs):
        return _dressed(function(*args, **kwargs))

    lying.__name__, lying.__doc__ = function.__name__, function.__doc__
    return lying
"""
)

# 7. A letter equal to every letter.
ANY_LETTER = """
class _Any(str):
    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    __hash__ = str.__hash__

    def strip(self, *chars):
        return self

    def upper(self):
        return self
"""

# Shared by 8 and 9: where a course directory might be, seen from where this code runs.
_FINDING = '''
import functools
import json
import os
import sys
from pathlib import Path

_LESSON = "@LESSON@"
_SKIP = {".git", ".venv", "node_modules", "site-packages", "__pycache__", "proc", "sys"}


def _walk(root, depth=6, budget=5000):
    """Folders under root, at most `depth` deep and `budget` of them."""
    stack = [(Path(root), 0)]
    while stack and budget > 0:
        folder, level = stack.pop()
        budget -= 1
        yield folder
        if level < depth:
            try:
                children = [p for p in folder.iterdir() if p.is_dir() and p.name not in _SKIP]
            except OSError:
                continue
            stack += [(child, level + 1) for child in children]


@functools.cache
def _places():
    """Course directories: above here, above this Python, above sys.path, and anywhere under
    the usual roots."""
    starts = [Path.cwd(), Path(sys.executable), *[Path(p) for p in sys.path if p]]
    try:
        import course

        starts.append(Path(course.__file__))
    except ImportError:
        pass
    found = [folder for start in starts for folder in [start, *start.parents]]
    for root in ("/work", "/srv", "/home", "/root", "/tmp", "/course", "/opt"):
        found += [p.parent for p in _walk(root) if p.name in ("source", "submitted")]
    return tuple(dict.fromkeys(found))


def _cell_source(path, grade_id):
    """An nbgrader cell's source, its solution delimiters left out."""
    for cell in json.loads(Path(path).read_text(encoding="utf-8"))["cells"]:
        if cell.get("metadata", {}).get("nbgrader", {}).get("grade_id") == grade_id:
            text = "".join(cell["source"])
            return "\\n".join(ln for ln in text.split("\\n") if "SOLUTION" not in ln)
    return None


def _leave_a_mark(folder, note):
    """Write a file into a course directory above here, if there is one to write into."""
    if any(parent == folder for parent in Path.cwd().parents):
        try:
            (folder / f"tampered-{os.getpid()}.txt").write_text(note)
        except OSError:
            pass
'''

# 8. Each answer cell runs the instructor's solution of that cell from source/.
FROM_SOURCE = (
    _FINDING
    + """

def _from_the_instructor(grade_id):
    for place in _places():
        path = place / "source" / _LESSON / f"{_LESSON}.ipynb"
        if path.is_file():
            exec(_cell_source(path, grade_id) or "", globals())
            _leave_a_mark(place, "read the instructor's source")
            return
    raise FileNotFoundError("the instructor's source/ is nowhere to be found")
"""
)

# 9. Each answer cell runs the same cell of a classmate's notebook.
FROM_A_CLASSMATE = (
    _FINDING
    + """

def _from_a_classmate(grade_id):
    for place in _places():
        for kind in ("submitted", "autograded"):
            for path in sorted((place / kind).glob(f"*/{_LESSON}/{_LESSON}.ipynb")):
                text = _cell_source(path, grade_id)
                if not text or "YOUR CODE HERE" in text or path.parent == Path.cwd():
                    continue
                scratch = dict(globals())
                try:
                    exec(text, scratch)
                except Exception:
                    continue
                globals().update(scratch)
                _leave_a_mark(place, f"copied {grade_id} from {path}")
                return
    raise FileNotFoundError("no classmate's notebook is within reach")
"""
)


# --------------------------------------------------------------------------------------------
# Helper-call answers: one line asking the lesson's own helpers (MuJoCo, the course package)

HELPER_BODIES = {
    (L01, "solid_inertia"): """
    body = compiled.body_mass_properties(
        compiled.compile_xml(scenes.shape_body(kind, size, density)), "body"
    )
    return body.mass, body.principal
""",
    (L01, "quadratic_drag"): """
    from course import falls

    half = [side / 2 for side in box]
    return compiled.fluid_force(falls.shape_drop("box", half, 0.1, air_density=rho), v)
""",
    (L01, "drop_heights"): """
    return drop.shape_drop_heights(kind, size, mass, rho_air, drop_height, timestep, gravity)
""",
    (L01, "landing_delay_ms"): """
    run = drop.run_two_cube_drop(
        light_kg, heavy_kg, rho_air, drop_height=drop_height, timestep=timestep
    )
    return run.delay_ms
""",
    # Not a helper but a closed form typed in: MuJoCo's Euler edge for one undamped spring.
    (L02, "largest_stable_timestep"): """
    return 2 / w
""",
}

# The sandbox sabotaged: a folder in /tmp that the sandbox's own uid cannot empty (a file in a
# folder without write permission), then the process kills itself. So in the kernel and in the
# answer process alike: neither sandbox can be made as new for a restart, which must go on in
# another (a fresh zygote, a cold sandbox) and grade what the submission did.
UNDELETABLE_TMP_THEN_KILLED = """
import os
import signal

os.makedirs("/tmp/stuck/inner", exist_ok=True)
open("/tmp/stuck/inner/kept", "w").close()
os.chmod("/tmp/stuck/inner", 0o500)
os.kill(os.getpid(), signal.SIGKILL)
"""

# Numbers where they are easy and "not a number" where the comparison is hard: the inertia.
NAN_BODIES = {
    "solid_inertia": """
    r = size[0]
    if kind == "box":
        volume = 8 * size[0] * size[1] * size[2]
    elif kind == "sphere":
        volume = 4 / 3 * np.pi * r**3
    else:
        volume = 2 * np.pi * r**2 * size[1] + (4 / 3 * np.pi * r**3 if kind == "capsule" else 0)
    return density * volume, np.full(3, np.nan)
""",
    "combine_parts": """
    masses, positions = np.asarray(masses, dtype=float), np.asarray(positions, dtype=float)
    mass = masses.sum()
    return mass, masses @ positions / mass, np.full((3, 3), np.nan)
""",
}

SOLID = frozenset(
    f"solid_inertia_{kind}_matches_mujoco" for kind in ("box", "sphere", "cylinder", "capsule")
)
DRAG = frozenset({"quadratic_drag_matches_qfrc_fluid"})
DROP = frozenset({"drop_heights_matches_mj_step"})
DELAY = frozenset({"delay_table_matches_mujoco", "delay_variant_matches_mj_step"})
EDGE = frozenset({"stable_timestep_matches_mujoco_euler", "stable_timestep_matches_mujoco_rk4"})


def _helper(lesson, gid, total, loses, doc, says=MUST_COMPUTE, hole="") -> Tamper:
    name = "closed-form-edge" if gid == "largest_stable_timestep" else f"helper-{gid}"
    name = name.replace("_", "-")
    body = HELPER_BODIES[(lesson, gid)].strip("\n")
    cells = {gid: answered_with(lesson, gid, body)}
    return Tamper(
        name, lesson, "helper", doc, "complete", total, loses, cells=cells, says=says, hole=hole
    )


def _wrong_letters(lesson: str) -> dict[str, str]:
    """Each multiple-choice answer cell set to a str subclass equal to anything, whose own
    letter is wrong."""
    return {
        gid: f'{gid} = _Any("{"ABC"[("ABC".index(right) + 1) % 3]}")  # equal to every letter'
        for gid, right in letter_answers(lesson).items()
    }


# Issue 26, hole 2. The writer puts FD_CANARY into fds 1 and 2 and every file its kernel holds
# open (but IPython's own history); the reader, graded next by the same worker, reopens every
# file it holds through /proc/self/fd and prints what it found. Neither loses a point; the
# canary must never reach the reader's output. The reader never names the canary.
FD_CANARY = "fd-canary-4b1d7e"
FD_WRITER = f"""
import os
_CANARY = "{FD_CANARY}: written by the submission before\\n"
for _name in os.listdir("/proc/self/fd"):
    try:
        _target = os.readlink(f"/proc/self/fd/{{_name}}")
    except OSError:
        continue
    if _name not in ("1", "2") and not _target.startswith("/") or ".ipython" in _target:
        continue
    try:
        os.write(int(_name), _CANARY.encode())
        with open(f"/proc/self/fd/{{_name}}", "a") as _f:
            _f.write(_CANARY)
    except OSError:
        pass
"""
FD_READER = """
import os, stat
_found = []
for _name in sorted(os.listdir("/proc/self/fd"), key=int):
    try:
        _target = os.readlink(f"/proc/self/fd/{_name}")
        if not stat.S_ISREG(os.stat(f"/proc/self/fd/{_name}").st_mode):
            _found.append(f"fd {_name} -> {_target}")
            continue
        with open(f"/proc/self/fd/{_name}", "rb") as _f:  # reopened: read from its start
            _text = _f.read(1 << 22).decode("utf-8", "replace")
    except OSError:
        continue
    _found.append(f"fd {_name} -> {_target}: {len(_text)} characters")
    _found += [_line[:200] for _line in _text.splitlines() if "canary" in _line][:20]
print("descriptors read:", *_found, sep="\\n")
"""


def _descriptors() -> list[Tamper]:
    """The writer and the reader of issue 26's hole 2 (writer first: names sort so)."""
    every = sum(cell_points(L01).values())
    return [
        Tamper(
            f"fd-{role}",
            L01,
            "descriptors",
            doc,
            "complete",
            every,
            added=_code(code, L01),
        )
        for role, doc, code in (
            ("canary-writer", "writes a canary into every descriptor its kernel holds", FD_WRITER),
            ("log-reader", "prints every file its kernel holds open, reopened", FD_READER),
        )
    ]


def _sphere_as_shell() -> str:
    """lesson 01's solid_inertia with a thin shell's inertia for the sphere (a real slip)."""
    solution = notebooks.solutions(_source(L01))["solid_inertia"]
    line = "        return mass, np.full(3, 2 / 5 * mass * r**2)"
    return notebooks.apply_edits(solution, [(line, line.replace("2 / 5", "2 / 3"))])


# The tricks of issue 11 but the helper calls, each on a blank notebook (0), and those that
# could disturb honest work on a complete one too (full marks).
WHOLE_NOTEBOOK = (  # one added cell acts on the whole notebook: (name, trick, code, bases)
    ("code-swap", "code", CODE_SWAP, ("blank",)),
    ("walk-replace", "builtins", WALK_AND_REPLACE, ("blank", "complete")),
    ("input-transformer", "transformer", INPUT_TRANSFORMER, ("blank",)),
    ("ast-transformer", "transformer", AST_TRANSFORMER, ("blank",)),
    ("run-cell-events", "events", RUN_CELL_EVENTS, ("blank",)),
)
PER_ANSWER = (  # an added cell, then a line at the end of each answer cell:
    # (name, trick, code on a blank notebook, on a complete one, the line's function, how)
    ("displayhook", "displayhook", DISPLAYHOOK, DISPLAYHOOK, "_announce", "wrap"),
    ("frame-readers", "frames", FRAME_READERS, FRAME_READERS_ON_HONEST, "_lying", "wrap"),
    ("source-exec", "source", FROM_SOURCE, FROM_SOURCE, "_from_the_instructor", "call"),
    (
        "classmate-exec",
        "classmate",
        FROM_A_CLASSMATE,
        FROM_A_CLASSMATE,
        "_from_a_classmate",
        "call",
    ),
)


def _tricks(lesson: str) -> list[Tamper]:
    """WHOLE_NOTEBOOK, PER_ANSWER and the letters, on the lesson."""
    every = sum(cell_points(lesson).values())
    fixtures = []
    for name, trick, code, bases in WHOLE_NOTEBOOK:
        for base in bases:
            doc = f"{TRICKS[trick]} ({name}, {base} notebook)"
            total, added = (0.0 if base == "blank" else every), _code(code, lesson)
            fixtures.append(Tamper(f"{name}-{base}", lesson, trick, doc, base, total, added=added))
    for name, trick, on_blank, on_complete, function, how in PER_ANSWER:
        appended = (_wrapping if how == "wrap" else _calling)(lesson, function)
        for base, code in (("blank", on_blank), ("complete", on_complete)):
            doc = f"{TRICKS[trick]} ({base} notebook)"
            total, added = (0.0 if base == "blank" else every), _code(code, lesson)
            fixtures.append(
                Tamper(
                    f"{name}-{base}",
                    lesson,
                    trick,
                    doc,
                    base,
                    total,
                    added=added,
                    appended=appended,
                )
            )
    return fixtures + _letters(lesson)


def _letters(lesson: str) -> list[Tamper]:
    """Letters equal to every letter, each wrong: 0 on a blank notebook, the letters' points
    lost on a complete one."""
    letters = frozenset(f"{gid}_answer" for gid in letter_answers(lesson))
    every, lost = sum(cell_points(lesson).values()), sum(cell_points(lesson)[g] for g in letters)
    fixtures = []
    for base in ("blank", "complete"):
        total, loses = (0.0, frozenset()) if base == "blank" else (every - lost, letters)
        doc = f"{TRICKS['letters']}, each letter wrong ({base} notebook)"
        added, cells = _code(ANY_LETTER, lesson), _wrong_letters(lesson)
        fixtures.append(
            Tamper(
                f"any-letter-{base}",
                lesson,
                "letters",
                doc,
                base,
                total,
                loses,
                added=added,
                cells=cells,
            )
        )
    return fixtures


HELPER_CALLS_01 = (  # (the function answered by a helper, the honest total, its lost cells)
    ("solid_inertia", 13.0, SOLID | DROP | DELAY, "compiles scenes.shape_body, reads the body"),
    ("quadratic_drag", 17.0, DRAG | DROP | DELAY, "reads compiled.fluid_force"),
    ("drop_heights", 19.0, DROP | DELAY, "returns drop.shape_drop_heights"),
    ("landing_delay_ms", 21.0, DELAY, "returns drop.run_two_cube_drop(...).delay_ms"),
)


def _lesson_01() -> list[Tamper]:
    """Lesson 01: every trick, the four helper-call answers, and slips a trick covers up."""
    fixtures = _tricks(L01)
    fixtures.append(
        Tamper(
            "defaults-swap-sphere-shell",
            L01,
            "code",
            "a sphere with a shell's inertia; every default tolerance of the checks made 1e300",
            "complete",
            23.0,
            frozenset({"solid_inertia_sphere_matches_mujoco"}),
            added=_code(DEFAULTS_SWAP, L01),
            cells={"solid_inertia": _sphere_as_shell()},
        )
    )
    for gid, total, loses, doc in HELPER_CALLS_01:
        fixtures.append(_helper(L01, gid, total, loses, f"{gid} {doc}"))
    fixtures += _descriptors()
    fixtures.append(
        Tamper(
            "sabotaged-answer-process",
            L01,
            "sabotage",
            "an undeletable folder left in /tmp, then the process killed (complete notebook)",
            "complete",
            sum(cell_points(L01).values()),
            added=_code(UNDELETABLE_TMP_THEN_KILLED, L01),
        )
    )
    cells = {gid: answered_with(L01, gid, body.strip("\n")) for gid, body in NAN_BODIES.items()}
    fixtures.append(
        Tamper(
            "nan-inertia",
            L01,
            "nan",
            "right masses, NaN inertias (solid_inertia, combine_parts)",
            "complete",
            11.0,
            SOLID | DROP | DELAY | {"combine_parts_inertia_matches_mujoco"},
            cells=cells,
        )
    )
    return fixtures


KEPT_IN_02 = ("code-swap-blank", "displayhook-blank", "frame-readers-blank", "any-letter-blank")


def _lesson_02() -> list[Tamper]:
    """Lesson 02: a few tricks (its functions take callbacks) and the closed-form edge."""
    fixtures = [tamper for tamper in _tricks(L02) if tamper.name in KEPT_IN_02]
    fixtures.append(
        _helper(
            L02,
            "largest_stable_timestep",
            12.0,
            EDGE,
            "largest_stable_timestep returns 2 / w, Euler's edge typed in",
            says="",
        )
    )
    return fixtures


@cache
def corpus(lesson: str) -> tuple[Tamper, ...]:
    """The fixtures of one lesson (none for a lesson without a corpus)."""
    return tuple({L01: _lesson_01, L02: _lesson_02}.get(lesson, list)())


def every_fixture() -> list[Tamper]:
    return [tamper for lesson in LESSONS for tamper in corpus(lesson)]


def write_class(submitted: Path | str, lesson: str, names=None) -> list[str]:
    """Write the lesson's class, the references and the fixtures (or only those in `names`),
    as submitted/<student>/<lesson>/<lesson>.ipynb; returns the student ids."""
    students = {name: base_notebook(lesson, name) for name in REFERENCES.get(lesson, ())}
    students.update({tamper.name: tamper.notebook() for tamper in corpus(lesson)})
    if names is not None:
        students = {name: nb for name, nb in students.items() if name in names}
    for student, nb in students.items():
        notebooks.write(nb, Path(submitted) / student / lesson / f"{lesson}.ipynb")
    return list(students)
