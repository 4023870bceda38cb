"""Comparisons used by visible checks and hidden tests, with messages a learner can act on,
and how a visible check shows itself in the learner's notebook.

In the notebook a check is friendly (`visible_check`): a function not written yet gives one
line and the notebook goes on, so Run All reaches the end of a blank lesson; a mistake shows
one short block (what was wrong, the likely mistake), not a traceback through this package.
While a class is graded the same checks run in the grader (inside `graded(seed)`, one
submission at a time), where anything short of a pass is a failure, and hidden tests draw
their cases from `hidden_cases`, which only the grader can seed. A test cell that nbgrader
runs in the learner's kernel (a stock configuration, without the course's grader) fails in
one line (`GradedElsewhere`).

Three hooks here are for the grader, and live in this package only because the same checks
run in the learner's notebook and in the grader: `graded` (the mode above), and a
`Formula`'s `answer_formula` with `run_beside`, through which a check's NumPy formula
crosses to the learner's process as source (classroom/nbgrader_ext/verdicts/boundary.py)
instead of calling back at every value. Outside the grader a Formula is just a function.

The comparisons bind what they use when this module is imported and do plain arithmetic on
floats, so code in the learner's kernel that rebinds `numpy.allclose` or a builtin changes
nothing they say.
"""

import builtins
import contextlib
import dis
import functools
import math
import os
import sys
import textwrap
import traceback

import numpy

_abs, _len, _float, _isinstance = builtins.abs, builtins.len, builtins.float, builtins.isinstance
_range, _zip, _max, _sum = builtins.range, builtins.zip, builtins.max, builtins.sum
_isfinite = math.isfinite
_array = numpy.array
_ndarray = numpy.ndarray


WIDTH = 92  # characters per line of a check's message in the notebook


def _block(mark: str, message: str) -> list[str]:
    """A message as short lines, wrapped between words, under one mark."""
    lines = []
    for paragraph in str(message).split("\n"):
        lines += textwrap.wrap(paragraph, WIDTH - 2, break_long_words=False) or [""]
    return [f"{mark} {lines[0]}"] + [f"  {line}" for line in lines[1:]]


class CheckFailed(AssertionError):
    """What a visible check found wrong; IPython shows it as one short block, no traceback."""

    def _render_traceback_(self):
        return _block("✗", self.args[0] if self.args else "the check failed")


class NotAnswered(AssertionError):
    """The function under test returned None: its body has not been written yet."""

    def _render_traceback_(self):
        return _block("…", self.args[0] if self.args else "not answered yet")


_GRADING = False
_HIDDEN_SEED: tuple[int, ...] | None = None  # the submission's, set by the grader only


def grading(on: bool = True, hidden_seed: tuple[int, ...] | None = None) -> None:
    """Make checks strict, for the grader's trusted run: any failure, an unwritten function
    included, raises as it is (the grader scores it 0 and keeps its message). hidden_seed:
    the submission's seed words, which `hidden_cases` draws from (the grader derives them
    from a course secret and the submission; None when not grading)."""
    global _GRADING, _HIDDEN_SEED
    _GRADING = on
    _HIDDEN_SEED = tuple(int(word) for word in hidden_seed) if on and hidden_seed else None


@contextlib.contextmanager
def graded(hidden_seed: tuple[int, ...] | None = None):
    """`grading(True, hidden_seed)` for the length of a `with` block, then the mode that was
    there before: the grader grades one submission in it, so one submission's seed never
    outlives its notebook."""
    before = (_GRADING, _HIDDEN_SEED)
    grading(True, hidden_seed)
    try:
        yield
    finally:
        grading(before[0], before[1])


class GradedElsewhere(AssertionError):
    """A test cell run where the course's grader does not decide it (a stock nbgrader
    configuration, a hub's own formgrader, a plain kernel): it fails, in one line."""

    def _render_traceback_(self):
        return _block("✗", self.args[0])


GRADED_ELSEWHERE = (
    "This lesson's tests are decided only by the course's grader: grade it from the course "
    "directory with the course's nbgrader_config.py (`nbgrader autograde` there, or "
    "`python -m classroom.grade`)."
)


def _refuse_outside_grader() -> None:
    """Raise GradedElsewhere when nbgrader's autograde runs a test cell in the learner's
    kernel: the course's configuration never does (its verdicts are decided in the grader),
    so this is a configuration without them, where a check that does not raise would count
    as passed. `nbgrader validate` and a learner's Run All are not refused."""
    if not _GRADING and os.environ.get("NBGRADER_EXECUTION") == "autograde":
        raise GradedElsewhere(GRADED_ELSEWHERE)


def hidden_cases(label: int) -> numpy.random.Generator:
    """The random generator a hidden test draws its cases from:

        _rng = expect.hidden_cases(1101)   # the test's own label, so two tests draw apart

    Seeded by the grader from a course secret and the submission (student, lesson, the
    learner's cells): the same notebook regraded draws the same cases, a changed one new
    ones, and no one can know them in advance. Anywhere but the course's grader it raises
    GradedElsewhere: a hidden test never passes without its verdict."""
    if _HIDDEN_SEED is None:
        raise GradedElsewhere(GRADED_ELSEWHERE)
    return numpy.random.default_rng([*_HIDDEN_SEED, int(label)])


_PACKAGE = os.path.dirname(os.path.abspath(__file__))  # the course package


def _learners_frame(filename: str) -> bool:
    """Whether a traceback frame is the learner's code (a notebook cell), not this package,
    NumPy or the standard library."""
    return not filename.startswith(
        (_PACKAGE + os.sep, sys.base_prefix, sys.prefix, "<frozen", FORMULA_FILE)
    )


def where(error: BaseException) -> str:
    """' (line 3 of your cell: return x + h * vv, v)': the learner's line that raised error,
    or "" when no frame of the traceback is the learner's."""
    frames = [f for f in traceback.extract_tb(error.__traceback__) if _learners_frame(f.filename)]
    if not frames:
        return ""
    frame = frames[-1]
    code = f": {frame.line.strip()}" if frame.line else ""
    return f" (line {frame.lineno} of your cell{code})"


def learners_error(error: BaseException) -> str | None:
    """One sentence for an exception the learner's own code raised (a typo, a wrong shape):
    "explicit_euler raised NameError: name 'vv' is not defined (line 2 of your cell: ...)";
    None when it did not come from the learner's code (a fault of the course: raised as is)."""
    frames = [f for f in traceback.extract_tb(error.__traceback__) if _learners_frame(f.filename)]
    if not frames:
        return None
    return f"{frames[-1].name} raised {type(error).__name__}: {error}{where(error)}"


def visible_check(check):
    """Decorate a lesson's visible check: in the notebook, an unwritten function prints one
    line and the notebook goes on; a failure, or an exception raised in the learner's own code,
    is raised as CheckFailed, one short block. While grading (`grading(True)`) the check is
    unchanged; under nbgrader's autograde without the course's grader it raises
    GradedElsewhere (see `_refuse_outside_grader`)."""

    @functools.wraps(check)
    def friendly(*args, **kwargs):
        if _GRADING:
            return check(*args, **kwargs)
        _refuse_outside_grader()
        try:
            return check(*args, **kwargs)
        except NotAnswered as exc:
            print("\n".join(_block("…", f"Not checked yet: {exc}")))
            return None
        except AssertionError as exc:
            raise CheckFailed(str(exc)) from None
        except Exception as exc:  # the learner's function raised: one block, not a traceback
            told = learners_error(exc)
            if told is None:
                raise
            raise CheckFailed(told) from None

    return friendly


def _is_stub(function) -> bool:
    """Whether a function does nothing but return None (a docstring and `pass`)."""
    code = getattr(function, "__code__", None)
    if code is None:
        return False
    steps = [i for i in dis.get_instructions(code) if i.opname not in ("RESUME", "NOP", "CACHE")]
    names = [(i.opname, i.argval) for i in steps]
    return names in ([("LOAD_CONST", None), ("RETURN_VALUE", None)], [("RETURN_CONST", None)])


def unwritten(*functions) -> list[str]:
    """The names of the functions whose body is still the release's stub (a docstring and
    `pass`): the learner has not written them yet."""
    return [f.__name__ for f in functions if _is_stub(f)]


def ready(*functions) -> bool:
    """False, after one line naming what to write first, when any function is unwritten;
    for cells that use the learner's functions (`if expect.ready(solid_inertia): ...`)."""
    missing = unwritten(*functions)
    if missing:
        names = ", ".join(f"`{name}`" for name in missing)
        print(f"… Write {names} above to see this cell's result.")
    return not missing


FORMULA_FILE = "<check formula>"  # a formula's frames: the course's, never the learner's


class Formula:
    """A small NumPy function a check hands to the function it tests (an acceleration, say),
    written as one lambda over `np` and named values, or as code that defines `name`:

        accel = expect.Formula("lambda x, v: -9.81 - rate * v", rate=4.0)

    Called here, it is that function. In the grader, where the learner's function runs in a
    process of its own, a Formula crosses as its source and is evaluated there, instead of
    calling back into the grader at every evaluation. Values are numbers, lists or arrays, or
    functions, which stay here (the grader calls them back).
    """

    def __init__(self, source: str, name: str = "accel", **values):
        self.source, self.__name__, self.values = source, name, dict(values)
        namespace = {"np": numpy, **self.values}
        if source.lstrip().startswith("lambda"):
            self._function = eval(compile(source, FORMULA_FILE, "eval"), namespace)
        else:
            exec(compile(source, FORMULA_FILE, "exec"), namespace)
            self._function = namespace[name]

    def __call__(self, *args, **kwargs):
        return self._function(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<{self.__name__}: {self.source}>"

    def answer_formula(self) -> tuple[str, str, dict]:
        """(source, name, values): what the grader sends across in place of a callback."""
        return self.source, self.__name__, dict(self.values)


def run_beside(formula: Formula, function, *args):
    """formula(function, *args). In the grader, where the learner's `function` runs in a
    process of its own, the formula runs there beside it, in one request: a check's loop
    that calls the learner's function hundreds of times (a trajectory of a step function)
    does not cross between the processes at every call."""
    beside = getattr(function, "run_beside", None)
    if callable(beside):
        return beside(formula, *args)
    return formula(function, *args)


_STEPPING = Formula(
    """
import warnings


def stepping(step, accel, x, v, h, steps, extra):
    def copy(value):
        return value.copy() if isinstance(value, np.ndarray) else value

    xs, vs = [copy(x)], [copy(v)]
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        for _ in range(steps):
            result = step(x, v, accel, h, *extra)
            if not isinstance(result, (tuple, list)) or len(result) != 2:
                return xs, vs, [result]
            x, v = result
            xs.append(copy(x))
            vs.append(copy(v))
    return xs, vs, None
""",
    "stepping",
)  # built once: trajectory runs it for every check of a step function


def trajectory(step, accel, x, v, h: float, steps: int, *extra) -> tuple[list, list, list | None]:
    """(xs, vs, stopped): the states (x, v) after 0..`steps` calls of a learner's step
    function, step(x, v, accel, h, *extra) -> (x, v), each state a copy (a step that updates
    its arrays in place does not rewrite the recorded ones). The loop stops at a result that
    is not a pair: stopped is [that result], else None. Warnings and floating-point errors
    are silenced (a correct answer that warns keeps its points). The loop runs beside the
    step (`run_beside`); with an `accel` that is a Formula nothing crosses until it ends.

    In the grader the loop runs in the learner's own process, where their code could reach
    into it (its frame, its lists): what comes back is taken only in the loop's own shape, a
    state for each step or the result that stopped it, else AssertionError (no points)."""
    run = run_beside(_STEPPING, step, accel, x, v, h, steps, extra)
    return _as_the_loop_left_it(run, steps)


def _is_pair(value) -> bool:
    return _isinstance(value, (tuple, list)) and _len(value) == 2


def _as_the_loop_left_it(run, steps: int) -> tuple[list, list, list | None]:
    """The stepping loop's (xs, vs, stopped), if it has the shape the loop gives it."""
    try:
        xs, vs, stopped = run
        whole = _isinstance(xs, list) and _isinstance(vs, list) and _len(xs) == _len(vs)
        if stopped is None:
            whole = whole and _len(xs) == steps + 1
        else:
            stopped_early = _isinstance(stopped, list) and _len(stopped) == 1
            whole = whole and stopped_early and 1 <= _len(xs) <= steps
            whole = whole and not _is_pair(stopped[0])
    except (TypeError, ValueError):
        whole = False
    if not whole:
        raise AssertionError(
            "The check's loop over your step function came back altered (states missing or "
            "added): this check earns nothing. Let your step return (x, v) and touch nothing else."
        )
    return xs, vs, stopped


def ok(message: str) -> None:
    """Print a passed check's one line, "OK: <message>"."""
    print(f"OK: {message}")


def answered(result, what: str, write: str = "the body of the function"):
    """`result`, what the function under test returned; NotAnswered when it returned None,
    saying "<what> returned None: write <write>."."""
    if result is None:
        raise NotAnswered(f"{what} returned None: write {write}.")
    return result


def as_floats(value, what: str) -> list:
    """`value` as a nested list of Python floats; clear AssertionError if it is not numbers."""
    if value is None:
        raise NotAnswered(f"{what} is None: write the body of the function (it returns nothing).")
    try:
        array = _array(value, dtype=_float)
    except (TypeError, ValueError):
        raise AssertionError(f"{what} should be numbers, got {value!r}") from None
    if not _isinstance(array, _ndarray):
        raise AssertionError(f"{what} could not be read as numbers")
    return array.tolist()


def sequence_of(result, count: int, what: str):
    """Assert `result` is a tuple or list of `count` items (a function's several results)."""
    if not _isinstance(result, (tuple, list)) or _len(result) != count:
        raise AssertionError(f"{what} should return {count} values as a tuple, got {result!r}")
    return result


def _shape(values) -> tuple:
    shape = []
    while _isinstance(values, list):
        shape.append(_len(values))
        values = values[0] if values else None
    return tuple(shape)


def _flat(values) -> list:
    if not _isinstance(values, list):
        return [values]
    out = []
    for item in values:
        out.extend(_flat(item))
    return out


def close(got, want, what: str, rtol: float = 1e-6, atol: float = 1e-12, hint: str = "") -> None:
    """Assert that `got` equals `want` elementwise within atol + rtol * |want|.

    Shapes must match exactly (a 3-vector is not a 3x3 matrix). The message names `what`,
    shows both values and adds `hint`, the likely mistake.
    """
    got_values, want_values = as_floats(got, what), as_floats(want, f"expected {what}")
    if _shape(got_values) != _shape(want_values):
        raise AssertionError(
            f"{what} has shape {_shape(got_values)}, expected {_shape(want_values)}. {hint}"
        )
    for g, w in _zip(_flat(got_values), _flat(want_values), strict=True):
        if not _isfinite(g):
            raise AssertionError(f"{what} contains {g}, expected finite numbers. {hint}")
        if _abs(g - w) > atol + rtol * _abs(w):
            raise AssertionError(
                f"{what} = {_fmt(got_values)}, but MuJoCo gives {_fmt(want_values)}. {hint}".strip()
            )


def _fmt(values) -> str:
    if _isinstance(values, list):
        return "[" + ", ".join(_fmt(v) for v in values) + "]"
    return f"{values:.6g}"


def inertia_matches(got_3x3, principal, axes, what: str, rtol: float = 1e-6, hint: str = ""):
    """Assert a 3x3 inertia tensor (kg m^2, body frame) is the one MuJoCo stores as principal
    moments `principal` along the columns of `axes` (body_inertia and body_iquat).

    It checks symmetry and that each principal axis e_k satisfies I e_k = I_k e_k, which holds
    for any correct tensor whatever order or sign the axes come in.
    """
    tensor = as_floats(got_3x3, what)
    if _shape(tensor) != (3, 3):
        raise AssertionError(f"{what} should be a 3x3 matrix, got shape {_shape(tensor)}. {hint}")
    if not all(_isfinite(v) for v in _flat(tensor)):  # NaN fails no comparison below
        raise AssertionError(f"{what} = {_fmt(tensor)} is not all finite numbers. {hint}".strip())
    scale = _max(_abs(_float(p)) for p in as_floats(principal, "principal moments"))
    atol = 1e-9 * scale + 1e-15
    for i in _range(3):
        for j in _range(3):
            if _abs(tensor[i][j] - tensor[j][i]) > atol + rtol * scale:
                raise AssertionError(f"{what} is not symmetric: [{i}][{j}] != [{j}][{i}]. {hint}")
    axes_values = as_floats(axes, "principal axes")
    moments = as_floats(principal, "principal moments")
    for k in _range(3):
        e = [axes_values[r][k] for r in _range(3)]
        image = [_float(_sum(tensor[r][c] * e[c] for c in _range(3))) for r in _range(3)]
        for r in _range(3):
            if _abs(image[r] - moments[k] * e[r]) > atol + rtol * scale:
                raise AssertionError(
                    f"{what} = {_fmt(tensor)} does not have MuJoCo's principal moment "
                    f"{moments[k]:.6g} kg m^2 along axis {_fmt(e)} "
                    f"(MuJoCo's principal moments: {_fmt(moments)}). {hint}".strip()
                )


def choice(name: str, value, n_choices: int) -> str:
    """Assert a multiple-choice answer is one of the letters A, B, ...; return it."""
    _refuse_outside_grader()
    letters = "ABCDEFGH"[:n_choices]
    if value is None:
        raise NotAnswered(f"{name} is None: set it to one of {', '.join(letters)} (a string).")
    if not _isinstance(value, str) or value.strip().upper() not in letters:
        raise AssertionError(f"{name} should be one of {', '.join(letters)}, got {value!r}")
    return value.strip().upper()


@visible_check
def letter(name: str, value, n_choices: int = 3) -> None:
    """The visible check of a multiple-choice answer: it is one of the letters A, B, ... (not
    whether it is right: the grader holds the key), said in one line."""
    chosen = choice(name, value, n_choices)
    ok(f'{name} = "{chosen}" is recorded; it is scored when your notebook is graded.')
