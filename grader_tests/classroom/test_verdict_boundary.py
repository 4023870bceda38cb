"""The verdict boundary: a learner's functions run in a NumPy-only answer process, and the
trusted side only ever holds plain data its own json.loads made.

Every test starts its own answer process (about 0.1 s), so a test that kills one leaves the
others alone.
"""

import json
import math
import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from classroom.nbgrader_ext.verdicts import answer_server as codec
from classroom.nbgrader_ext.verdicts.boundary import (
    AnswerProcess,
    AnswerProcessGone,
    BadAnswerValue,
    LooksUpAnswer,
    NotDefined,
    StudentError,
    StudentFunction,
    StudentTimeout,
    TooManyCallbacks,
    numpy_only_site,
    probe_site,
)

PLAIN = (type(None), bool, int, float, str)


def assert_plain(value):
    """value is built only from None, bool, int, float, str, list, dict and NumPy arrays of a
    numeric dtype (built by the trusted side from plain numbers): exact types."""
    if type(value) is np.ndarray:
        assert value.dtype.kind in "biufc", f"an array of {value.dtype} crossed the boundary"
    elif type(value) in (list,):
        for item in value:
            assert_plain(item)
    elif type(value) is dict:
        for key, item in value.items():
            assert type(key) in PLAIN + (tuple,), type(key)
            assert_plain(item)
    else:
        assert type(value) in PLAIN, f"{type(value)!r} crossed the boundary"


@pytest.fixture
def answers():
    with AnswerProcess(call_timeout=5.0) as process:
        yield process


def define(process, source):
    outcome = process.exec_cell(source)
    assert outcome.ok, outcome
    return outcome


# ----------------------------------------------------------------------------- the site


@pytest.mark.timeout(30)
def test_the_site_holds_numpy_and_nothing_else():
    site = numpy_only_site()
    assert stat.S_IMODE(site.stat().st_mode) == 0o755, "readable by a sandbox, writable by us"
    assert {p.name for p in site.iterdir()} <= {"numpy", "numpy.libs"}
    assert numpy_only_site() == site, "made once per process"
    found = probe_site(site)
    assert found.pop("numpy") is True
    assert found and not any(found.values()), found


@pytest.mark.timeout(30)
def test_the_answer_process_cannot_import_mujoco_or_the_course(answers):
    define(
        answers,
        "import sys, importlib\nfound = {}\n"
        "for name in ('mujoco', 'course', 'classroom', 'IPython', 'nbgrader', 'matplotlib'):\n"
        "    try:\n        importlib.import_module(name)\n        found[name] = True\n"
        "    except ImportError:\n        found[name] = False\n"
        "paths = list(sys.path)",
    )
    assert answers.value("found") == dict.fromkeys(
        ["mujoco", "course", "classroom", "IPython", "nbgrader", "matplotlib"], False
    )
    assert not [p for p in answers.value("paths") if "site-packages" in p]
    outcome = answers.exec_cell("import mujoco")
    assert not outcome.ok and outcome.missing_module == "mujoco"


# ----------------------------------------------------------------------------- round trips


@pytest.mark.timeout(30)
def test_exec_and_call_round_trip_with_arrays(answers):
    define(
        answers,
        "def scale(a, k, *, shift=0.0):\n"
        "    assert isinstance(a, np.ndarray) and a.shape == (2, 3), type(a)\n"
        "    return a * k + shift\n",
    )
    scale = answers.function("scale")
    result = scale(np.arange(6.0).reshape(2, 3), 2, shift=np.float64(1.0))
    assert type(result) is np.ndarray and result.dtype == np.float64
    assert result.tolist() == [[1.0, 3.0, 5.0], [7.0, 9.0, 11.0]]
    assert_plain(result)
    assert answers.names()["scale"] == "function"


@pytest.mark.timeout(30)
def test_a_tuple_result_comes_back_as_a_list_an_array_as_a_numeric_array(answers):
    define(
        answers,
        "def solid_inertia(kind, size, density):\n"
        "    assert isinstance(size, tuple)\n"
        "    mass = density * 8 * np.prod(size)\n"
        "    a, b, c = 2 * np.array(size)\n"
        "    return mass, mass / 12 * np.array([b*b + c*c, a*a + c*c, a*a + b*b])\n",
    )
    result = answers.function("solid_inertia")("box", (0.1, 0.2, 0.3), 1000.0)
    assert type(result) is list and len(result) == 2
    mass, inertia = result
    assert type(mass) is float and math.isclose(mass, 48.0)
    assert type(inertia) is np.ndarray and inertia.dtype == np.float64
    assert math.isclose(inertia[0], 48.0 / 12 * (0.16 + 0.36))


@pytest.mark.timeout(30)
def test_special_floats_dicts_and_scalars_cross_both_ways(answers):
    define(answers, "def echo(x):\n    return x\n")
    echo = answers.function("echo")
    sent = {"a": [math.inf, -math.inf], 1: (2, 3), (1, "x"): None, "b": np.int32(7)}
    back = echo(sent)
    assert back["a"] == [math.inf, -math.inf] and back[1] == [2, 3] and back[(1, "x")] is None
    assert back["b"] == 7 and type(back["b"]) is int
    assert math.isnan(echo(float("nan")))
    assert echo(np.array([1.0, np.nan]))[1] != echo(np.array([1.0, np.nan]))[1]
    assert echo(np.zeros((0, 3))).shape == (0, 3)
    assert echo(np.array([True, False])).tolist() == [True, False]
    assert echo(np.array(["a", "b"])) == ["a", "b"], "an array of strings stays plain lists"
    assert_plain(back)


# ----------------------------------------------------------------------------- callbacks


# A learner's loop that calls the acceleration it is given n times (semi-implicit Euler).
SIMULATE = (
    "def simulate(x, v, accel, h, n):\n"
    "    for _ in range(n):\n"
    "        v = v + h * accel(x, v)\n"
    "        x = x + h * v\n"
    "    return x, v\n"
    "def accel_kind(accel):\n"
    "    return type(accel).__name__\n"
)


@pytest.mark.timeout(30)
def test_a_trusted_callback_runs_500_times_in_a_learner_loop(answers):
    define(answers, SIMULATE)
    seen = []

    def accel(x, v):
        seen.append((type(x), type(v)))
        return -4.0 * x

    simulate = answers.function("simulate")
    simulate(1.0, 0.0, accel, 0.01, 10)  # warm up
    seen.clear()
    started = time.perf_counter()
    x, v = simulate(1.0, 0.0, accel, 0.01, 500)
    per_callback = (time.perf_counter() - started) / 500
    print(f"\ncallback round trip: {per_callback * 1e6:.0f} us")
    expected_x, expected_v = 1.0, 0.0
    for _ in range(500):
        expected_v += 0.01 * -4.0 * expected_x
        expected_x += 0.01 * expected_v
    assert math.isclose(x, expected_x) and math.isclose(v, expected_v)
    assert len(seen) == 500 and set(seen) == {(float, float)}
    assert per_callback < 2e-3, f"{per_callback * 1e6:.0f} us per callback"


@pytest.mark.timeout(30)
def test_a_formula_is_evaluated_beside_the_learner_code_without_callbacks(answers):
    """A check's expect.Formula crosses as its source: the learner's loop calls a function of
    its own process (not a trusted callback), with the check's numbers, and gets the values
    the formula gives here."""
    from course.expect import Formula

    define(answers, SIMULATE)
    accel = Formula("lambda x, v: -rate * x - 0.5 * v", rate=4.0)
    x, v = answers.function("simulate")(1.0, 0.0, accel, 0.01, 500)
    kind = answers.function("accel_kind")(accel)
    assert kind == "function", "a callback would be a TrustedFunction"
    assert not answers._callbacks, "no callback was registered for the formula"
    expected_x, expected_v = 1.0, 0.0
    for _ in range(500):
        expected_v += 0.01 * accel(expected_x, expected_v)
        expected_x += 0.01 * expected_v
    assert (x, v) == (expected_x, expected_v), "the same arithmetic on both sides"


@pytest.mark.timeout(30)
def test_a_formula_in_code_keeps_its_state_and_calls_back_only_when_asked(answers):
    """Code defining the function (here a counter with a memo): its state lives in the answer
    process, and a trusted function among its values is a callback, called only on a miss."""
    from course.expect import Formula

    define(answers, "def total(f, hs):\n    return sum(f(h) for h in hs)\n")
    asked = []

    def square(h):
        asked.append(h)
        return h * h

    code = (
        "memo = {}\n"
        "def cached(h):\n"
        "    if h not in memo:\n"
        "        memo[h] = scale * slow(h)\n"
        "    return memo[h]\n"
    )
    cached = Formula(code, "cached", slow=square, scale=2.0)
    assert answers.function("total")(cached, [1.0, 2.0, 1.0, 2.0, 3.0]) == 2.0 * (1 + 4 + 1 + 4 + 9)
    assert asked == [1.0, 2.0, 3.0], "called back once per new value, not once per use"


DRIVE = """
def drive(step, x, times):
    seen = []
    for _ in range(times):
        x = step(x)
        seen.append(x)
    return seen
"""


@pytest.mark.timeout(30)
def test_a_formula_run_beside_a_learner_function_is_one_request(answers, monkeypatch):
    """run_beside: a check's loop over the learner's function runs in the answer process, one
    request for 300 calls, and returns what the same loop gives here."""
    from course.expect import Formula, run_beside

    define(answers, "calls = []\ndef halve(x):\n    calls.append(x)\n    return x / 2\n")
    halve, requests = answers.function("halve"), []
    send = answers._channel.send
    monkeypatch.setattr(answers._channel, "send", lambda m, d: (requests.append(m), send(m, d)))
    drive = Formula(DRIVE, "drive")
    seen = run_beside(drive, halve, 1.0, 300)
    assert len(requests) == 1 and requests[0]["op"] == "call", [m["op"] for m in requests]
    assert seen == drive(lambda x: x / 2, 1.0, 300)
    monkeypatch.undo()
    assert len(answers.value("calls")) == 300


REACHES_INTO_THE_LOOP = """
import sys


class Odd(tuple):
    def __len__(self):
        return 3


def cuts(x, v, accel, h):
    for name in ("xs", "vs"):
        del sys._getframe(1).f_locals[name][1:]  # the loop's own lists: states dropped
    return x + h * v, v


def stops(x, v, accel, h):
    return Odd((x, v))  # a pair the loop takes for a stop, to end the run with one state
"""


@pytest.mark.timeout(30)
@pytest.mark.parametrize("name", ["cuts", "stops"])
def test_a_step_that_reaches_into_the_checks_loop_earns_nothing(answers, name):
    """expect.trajectory runs its loop in the learner's process; a step that shortens the
    loop's lists, or ends it early with what arrives as a pair, would leave the check fewer
    states to compare: the trusted side refuses any result not in the loop's own shape."""
    from course import expect

    define(answers, REACHES_INTO_THE_LOOP)
    with pytest.raises(AssertionError, match="came back altered"):
        expect.trajectory(answers.function(name), None, 1.0, 0.0, 0.01, 50)
    honest = "def honest(x, v, accel, h):\n    return x + h * v, v\n"
    define(answers, honest)
    xs, vs, stopped = expect.trajectory(answers.function("honest"), None, 1.0, 0.5, 0.1, 4)
    assert stopped is None and xs == pytest.approx([1.0, 1.05, 1.1, 1.15, 1.2]) and vs[-1] == 0.5


@pytest.mark.timeout(30)
def test_a_learner_error_inside_a_formula_run_is_the_learner_error(answers):
    from course.expect import Formula

    define(answers, "def broken(x):\n    return x / 0\n")
    with pytest.raises(StudentError) as raised:
        answers.function("broken").run_beside(Formula(DRIVE, "drive"), 1.0, 3)
    assert "ZeroDivisionError" in str(raised.value) and "broken" in str(raised.value)


@pytest.mark.timeout(30)
def test_a_formula_call_without_a_formula_is_refused(answers):
    define(answers, "def f(x):\n    return x\n")
    message = {"op": "call", "name": "f", "formula": 3, "args": [], "kwargs": {}}
    reply = answers._request(message, "f", None)
    assert reply["op"] == "error" and reply["error"]["boundary"] == "bad_request", reply


@pytest.mark.timeout(30)
@pytest.mark.parametrize(
    "source, name", [("lambda: (", "accel"), ("def other(): pass", "accel"), ("x = 1", "x")]
)
def test_the_answer_side_refuses_a_formula_that_defines_no_function(source, name):
    with pytest.raises(codec.CodecError):
        codec.formula(source, name, {})


@pytest.mark.timeout(30)
def test_a_callback_that_raises_raises_in_the_learner_code(answers):
    define(
        answers,
        "def careful(f):\n"
        "    try:\n        f(1.0)\n"
        "    except ValueError as e:\n        return 'caught: ' + str(e)\n"
        "def careless(f):\n    return f(1.0)\n",
    )

    def picky(x):
        raise ValueError("h must be positive")

    assert answers.function("careful")(picky) == "caught: h must be positive"
    with pytest.raises(StudentError, match=r"^careless raised ValueError: h must be positive"):
        answers.function("careless")(picky)
    assert answers.alive


@pytest.mark.timeout(30)
def test_a_stale_callback_kept_by_the_learner_is_refused(answers):
    define(
        answers,
        "kept = []\n"
        "def keep(f):\n    kept.append(f)\n    return f(2.0)\n"
        "def reuse():\n    return kept[0](2.0)\n",
    )
    assert answers.function("keep")(lambda x: x * 10) == 20.0
    with pytest.raises(StudentError, match="no longer available"):
        answers.function("reuse")()


@pytest.mark.timeout(30)
def test_too_many_callbacks_fail_the_call():
    with AnswerProcess(call_timeout=5.0, max_callbacks=50) as answers:
        define(
            answers,
            "def greedy(f):\n    n = 0\n    for _ in range(100):\n"
            "        try:\n            f()\n            n += 1\n"
            "        except RuntimeError:\n            pass\n    return n\n",
        )
        with pytest.raises(TooManyCallbacks, match="more than 50 times"):
            answers.function("greedy")(lambda: 1)


@pytest.mark.timeout(30)
def test_a_learner_function_passed_as_an_argument(answers):
    define(
        answers,
        "def semi_implicit_euler(x, v, accel, h):\n"
        "    v = v + h * accel(x, v)\n    return x + h * v, v\n"
        "def largest_stable_timestep(step, w, n_steps=200, bound=100.0):\n"
        "    assert callable(step) and step is semi_implicit_euler\n"
        "    def stable(h):\n"
        "        x, v = 1.0, 0.0\n"
        "        for _ in range(n_steps):\n"
        "            x, v = step(x, v, lambda x, v: -w**2 * x, h)\n"
        "            if abs(x) > bound:\n                return False\n"
        "        return True\n"
        "    low, high = 0.0, 10.0 / w\n"
        "    while high - low > 1e-6:\n"
        "        mid = (low + high) / 2\n"
        "        low, high = (mid, high) if stable(mid) else (low, mid)\n"
        "    return low\n",
    )
    step = answers.function("semi_implicit_euler")
    h = answers.function("largest_stable_timestep")(step, 10.0)
    assert abs(h - 0.2) < 1e-3, h  # 2 / w for semi-implicit Euler


@pytest.mark.timeout(30)
def test_nested_callbacks_and_learner_functions(answers):
    """The learner calls a trusted step with its own accel (called back from here) and with
    the trusted accel it was given (which stays a trusted function)."""
    define(
        answers,
        "def run(step, accel):\n"
        "    mine = step(1.0, 0.0, lambda x, v: -x, 0.1)\n"
        "    theirs = step(1.0, 0.0, accel, 0.1)\n"
        "    return mine, theirs\n",
    )
    kinds = []

    def trusted_step(x, v, accel, h):
        kinds.append(type(accel))
        v = v + h * accel(x, v)
        return x + h * v, v

    def trusted_accel(x, v):
        return -2.0 * x

    mine, theirs = answers.function("run")(trusted_step, trusted_accel)
    assert kinds == [StudentFunction, type(trusted_accel)]
    assert mine == pytest.approx([1.0 - 0.01, -0.1]) and theirs == pytest.approx([0.98, -0.2])


# ----------------------------------------------------------------------------- looking up


@pytest.mark.timeout(30)
@pytest.mark.parametrize(
    ("body", "used"),
    [
        ("    import mujoco\n    return mujoco.mj_version()", "mujoco"),
        ("    from course.lessons.world_as_text import scenes\n    return 1", "course"),
        ("    return scenes.box(kind)", "scenes"),
        ("    return compiled(kind).body_mass[1]", "compiled"),
        ("    import scipy.constants\n    return 1", "scipy"),
    ],
)
def test_needing_mujoco_the_course_or_a_set_up_name_looks_the_answer_up(answers, body, used):
    define(answers, f"def solid_inertia(kind, size, density):\n{body}\n")
    with pytest.raises(LooksUpAnswer) as caught:
        answers.function("solid_inertia")("box", [0.1, 0.1, 0.1], 1000.0)
    assert str(caught.value) == (
        f"solid_inertia uses {used}, which a graded function may not: it must compute its "
        "result from its arguments with NumPy and the standard library"
    )


@pytest.mark.timeout(30)
def test_a_lookup_inside_another_function_names_that_function(answers):
    """drop_heights calling a solid_inertia that asks MuJoCo: the sentence names both."""
    define(
        answers,
        "def solid_inertia():\n    import mujoco\n\ndef drop_heights():\n"
        "    return solid_inertia()\n",
    )
    with pytest.raises(LooksUpAnswer, match=r"^drop_heights uses mujoco \(in solid_inertia\),"):
        answers.function("drop_heights")()


@pytest.mark.timeout(30)
def test_an_answer_cell_importing_mujoco_looks_the_answer_up(answers):
    outcome = answers.exec_cell("import numpy as np\nimport mujoco\n\ndef f():\n    return 1\n")
    assert not outcome.ok and outcome.where == "cell 1, line 2"
    assert isinstance(outcome.problem("your answer cell"), LooksUpAnswer)
    assert "your answer cell uses mujoco" in str(outcome.problem("your answer cell"))


@pytest.mark.timeout(30)
def test_other_errors_are_the_learner_own(answers):
    define(answers, "def f(x):\n    return helper(x)\ndef g(x):\n    return 1 / x\n")
    with pytest.raises(StudentError, match=r"^f raised NameError: name 'helper' is not defined"):
        answers.function("f")(1)
    with pytest.raises(StudentError, match=r"^g raised ZeroDivisionError: division by zero") as e:
        answers.function("g")(0)
    assert e.value.where == "cell 1, line 4"
    with pytest.raises(NotDefined):
        answers.function("solid_inertia")
    outcome = answers.exec_cell("def broken(:\n")
    assert outcome.error_type == "SyntaxError"
    assert isinstance(outcome.problem("your cell"), StudentError)


@pytest.mark.timeout(30)
def test_magics_are_dropped_and_non_python_cells_skipped(answers):
    outcome = answers.exec_cell("%matplotlib inline\nif True:\n    !ls\n    x = 3\n")
    assert outcome.ok and answers.value("x") == 3
    assert answers.exec_cell("%%html\n<b>hi</b>\n").skipped
    assert answers.exec_cell("%%time\ny = 4\n").ok and answers.value("y") == 4


# ----------------------------------------------------------------------------- limits


@pytest.mark.timeout(30)
def test_an_endless_loop_is_stopped_within_its_timeout(answers):
    define(answers, "def spin(x):\n    while True:\n        x += 1\ndef ok():\n    return 1\n")
    pid = answers.pid
    started = time.monotonic()
    with pytest.raises(StudentTimeout, match=r"^spin did not finish within 1 s"):
        answers.function("spin", timeout=1.0)(0)
    assert time.monotonic() - started < 3.0
    assert not answers.alive and not Path(f"/proc/{pid}").exists()
    with pytest.raises(AnswerProcessGone, match="stopped earlier"):
        answers.function("ok")
    outcomes = answers.restart(replay=True)
    assert all(o.ok for o in outcomes) and answers.function("ok")() == 1


@pytest.mark.timeout(30)
def test_an_endless_loop_in_a_cell_is_interrupted_and_what_ran_before_stays():
    with AnswerProcess(call_timeout=1.0) as answers:
        outcome = answers.exec_cell("answer = 'B'\nwhile True:\n    pass\n")
        assert outcome.error_type == "CellTimeout" and answers.alive
        assert answers.value("answer") == "B", "the interrupt keeps what the cell did before"


@pytest.mark.timeout(30)
def test_a_loop_that_ignores_the_interrupt_is_killed_with_the_process():
    stubborn = (
        "import signal\nsignal.signal(signal.SIGALRM, signal.SIG_IGN)\nwhile True:\n    pass\n"
    )
    with AnswerProcess(call_timeout=1.0) as answers:
        with pytest.raises(StudentTimeout, match=r"^the cell did not finish within"):
            answers.exec_cell(stubborn)
        assert not answers.alive


@pytest.mark.timeout(30)
def test_the_timeout_does_not_count_trusted_callback_time(answers):
    define(answers, "def twice(f):\n    return f() + f()\n")

    def slow():
        time.sleep(0.6)
        return 1

    assert answers.function("twice", timeout=1.0)(slow) == 2


@pytest.mark.timeout(30)
def test_a_gigantic_result_is_refused():
    with AnswerProcess(call_timeout=10.0, max_message=1024 * 1024) as answers:
        define(
            answers,
            "def huge():\n    return [0.5] * 10_000_000\n"
            "def big_array():\n    return np.zeros((1000, 1000))\n"
            "def deep():\n    x = []\n    for _ in range(200):\n        x = [x]\n    return x\n",
        )
        with pytest.raises(BadAnswerValue, match="huge returned a value too large to check"):
            answers.function("huge")()
        with pytest.raises(BadAnswerValue, match="too large"):
            answers.function("big_array")()
        with pytest.raises(BadAnswerValue, match="too_deep"):
            answers.function("deep")()
        assert answers.alive, "the answer process refused them itself"


@pytest.mark.timeout(30)
def test_a_forged_oversized_message_is_refused_without_reading_it(answers):
    """The learner writes on the channel itself: a header announcing 1 GiB, then nothing."""
    define(
        answers,
        "import gc, os, struct\n"
        "def forge(header):\n"
        "    server = [o for o in gc.get_objects() if type(o).__name__ == 'AnswerServer'][0]\n"
        "    os.write(server.wfd, bytes(header))\n"
        "    while True:\n        pass\n",
    )
    with pytest.raises(BadAnswerValue, match="too large"):
        answers.function("forge")([0x40, 0, 0, 0])
    assert not answers.alive


@pytest.mark.timeout(30)
@pytest.mark.parametrize("junk", [b"\x00\x00\x00\x05hello", b"\x00\x00\x00\x04[[[["])
def test_garbage_on_the_channel_stops_the_process(answers, junk):
    define(
        answers,
        "import gc, os\n"
        "def forge(junk):\n"
        "    server = [o for o in gc.get_objects() if type(o).__name__ == 'AnswerServer'][0]\n"
        "    os.write(server.wfd, bytes(junk))\n"
        "    return 1\n",
    )
    with pytest.raises(AnswerProcessGone, match="unreadable"):
        answers.function("forge")(list(junk))
    assert not answers.alive


@pytest.mark.timeout(30)
def test_an_early_exit_and_a_flood_on_stderr(answers):
    define(
        answers,
        "import os\n"
        "def shout():\n    os.write(2, b'x' * 5_000_000 + b'last words')\n    return 1\n"
        "def leave():\n    os._exit(3)\n",
    )
    assert answers.function("shout")() == 1
    with pytest.raises(AnswerProcessGone, match=r"stopped during leave \(exit status 3\)") as e:
        answers.function("leave")()
    assert e.value.stderr.endswith("last words") and len(e.value.stderr) <= 8 * 1024


# ----------------------------------------------------------------------------- hostile values


@pytest.mark.timeout(30)
def test_a_str_subclass_equal_to_everything_arrives_as_an_honest_str(answers):
    define(
        answers,
        "class Liar(str):\n"
        "    def __eq__(self, other):\n        return True\n"
        "    __hash__ = str.__hash__\n"
        "class Big(float):\n    def __eq__(self, other):\n        return True\n"
        "def answer():\n"
        "    return Liar('box'), {Liar('k'): Big(1.5)}, [Big(2.0)]\n",
    )
    text, mapping, numbers = answers.function("answer")()
    assert type(text) is str and text == "box" and text != "sphere"
    assert mapping == {"k": 1.5} and type(next(iter(mapping))) is str
    assert type(numbers[0]) is float and numbers[0] != 3.0


@pytest.mark.timeout(30)
def test_a_learner_dict_cannot_pose_as_a_tag(answers):
    define(
        answers, "def fake():\n    return {'__callback__': 1}, {'__ndarray__': [1], 'dtype': 'x'}\n"
    )
    assert answers.function("fake")() == [{"__callback__": 1}, {"__ndarray__": [1], "dtype": "x"}]


@pytest.mark.timeout(30)
def test_malicious_dunders_never_run_on_the_trusted_side(answers, tmp_path):
    marker = tmp_path / "dunders.txt"
    define(
        answers,
        "import os\n"
        f"MARKER = {str(marker)!r}\n"
        "def _mark(name):\n"
        "    with open(MARKER, 'a') as f:\n        f.write(f'{os.getpid()} {name}\\n')\n"
        "class Evil:\n"
        "    def __array__(self, *a, **k):\n        _mark('__array__')\n        return np.ones(3)\n"
        "    def __float__(self):\n        _mark('__float__')\n        return 1.0\n"
        "    def __eq__(self, other):\n        _mark('__eq__')\n        return True\n"
        "    def __reduce__(self):\n"
        "        _mark('__reduce__')\n        return (print, ('pwned',))\n"
        "def evil():\n    return Evil()\n"
        "def evil_list():\n    return [1.0, Evil()]\n"
        "def hand_over(f):\n    return f(Evil())\n",
    )
    for name in ("evil", "evil_list"):
        with pytest.raises(BadAnswerValue, match=f"^{name} returned a Evil, which cannot be"):
            answers.function(name)()
    received = []
    with pytest.raises(StudentError, match="cannot take Evil"):
        answers.function("hand_over")(lambda x: received.append(x))
    assert received == []
    pids = (
        {line.split()[0] for line in marker.read_text().splitlines()} if marker.exists() else set()
    )
    assert str(os.getpid()) not in pids


@pytest.mark.timeout(30)
def test_learner_prints_do_not_corrupt_the_channel(answers):
    define(
        answers,
        "import os, sys\n"
        "def noisy(x):\n"
        "    print('hello' * 100_000)\n"
        "    print('to stderr', file=sys.stderr)\n"
        "    sys.__stdout__.write('\\x00\\x00\\x00\\x02{}')\n    sys.__stdout__.flush()\n"
        "    os.write(1, b'\\x00\\x00\\x00\\x02{}')\n"
        "    input_ok = False\n"
        "    try:\n        input()\n    except EOFError:\n        input_ok = True\n"
        "    return x + 1, input_ok\n",
    )
    assert answers.function("noisy")(41) == [42, True]
    assert answers.last_stdout.startswith("hellohello") and "output cut" in answers.last_stdout
    assert len(answers.last_stdout) < 70_000


@pytest.mark.timeout(30)
def test_the_answer_process_gets_none_of_the_grader_environment(monkeypatch):
    """Separate memory is a given (another process); the environment is what could leak.
    Reading the grader through /proc is the sandbox's to forbid (classroom/isolation/sandbox.py)."""
    monkeypatch.setenv("GRADER_SECRET", "answers-key")
    with AnswerProcess() as answers:
        define(answers, "import os\nenv = dict(os.environ)\nppid = os.getppid()\n")
        env = answers.value("env")
        assert "GRADER_SECRET" not in env and not any("answers-key" in v for v in env.values())
        assert answers.value("ppid") == os.getpid()
        assert "classroom" not in json.dumps(answers.names())


# ----------------------------------------------------------------------------- closing


@pytest.mark.timeout(30)
def test_closing_kills_the_process_and_its_children_and_leaves_no_zombie():
    answers = AnswerProcess().start()
    define(
        answers,
        "import os, time\nchild = os.fork()\nif child == 0:\n"
        "    while True:\n        time.sleep(1)\n",
    )
    pid, child = answers.pid, answers.value("child")
    answers.close()
    assert not answers.alive
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # reaped: no zombie of ours
    assert not Path(f"/proc/{pid}").exists()
    deadline = time.monotonic() + 5
    while Path(f"/proc/{child}").exists() and time.monotonic() < deadline:
        state = Path(f"/proc/{child}/stat").read_text().split(") ")[-1][0]
        if state in "ZX":  # killed; reaping a reparented grandchild is init's job
            break
        time.sleep(0.05)
    else:
        assert not Path(f"/proc/{child}").exists(), "the learner's fork survived close()"
    answers.close()  # idempotent


# ----------------------------------------------------------------------------- the codec


@pytest.mark.timeout(30)
@pytest.mark.parametrize(
    "data",
    [
        {"__float__": "1e400"},
        {"__ndarray__": [1], "dtype": 3, "shape": [1]},
        {"__pairs__": [[1]]},
        {"__pairs__": [[{"__dict__": {}}, 1]]},
        {"__unknown__": 1},
        {"plain": "dict"},
        {"__callback__": "1"},
        {"__formula__": "lambda: 0.0", "name": "f", "values": {"__dict__": {}}},  # far side only
    ],
)
def test_the_trusted_decoder_refuses_anything_not_codec(data):
    decoder = codec.Decoder(
        arrays=False,
        on_callback=lambda *a: pytest.fail("no callback here"),
        on_student=lambda name: pytest.fail("no student here"),
        on_unencodable=lambda name: pytest.fail("not unencodable"),
    )
    with pytest.raises(codec.CodecError):
        decoder.decode(data)


@pytest.mark.timeout(30)
def test_a_launcher_wraps_the_command_line(tmp_path):
    seen = []

    def launcher(command):
        seen.append(command)
        return ["/usr/bin/env", "--", *command]

    with AnswerProcess(launcher=launcher) as answers:
        define(answers, "x = 1")
        assert answers.value("x") == 1
        answers.restart(replay=True)
        assert answers.value("x") == 1
    assert len(seen) == 2 and "-I" in seen[0] and "--site" in seen[0]


def run_python(code: str) -> subprocess.CompletedProcess:
    """code in a Python process of its own, started in the repository."""
    root = Path(__file__).resolve().parents[2]
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=root
    )


def test_folders_left_by_a_process_that_skips_atexit_are_swept(tmp_path):
    """A grading worker ends with os._exit (multiprocessing), so its atexit never runs: its
    NumPy-only site and an answer process's home stay in /tmp, in folders that record their
    maker, until the next run's sweep removes them (while a live maker's stay)."""
    from classroom.isolation import sandbox

    code = (
        "import os\n"
        "from classroom.nbgrader_ext.verdicts.boundary import AnswerProcess, numpy_only_site\n"
        "answers = AnswerProcess().start()\nprint(numpy_only_site())\n"
        "print(answers._workdir, flush=True)\nos._exit(0)\n"
    )
    done = run_python(code)
    site, home = (Path(line) for line in done.stdout.split())
    assert site.is_dir() and home.is_dir(), done.stderr
    for folder in (site.parent, home.parent):
        assert folder.name.startswith(sandbox.FOLDER_PREFIX), folder
        assert (folder / sandbox.OWNER_FILE).is_file()
    mine = numpy_only_site().parent
    sandbox.sweep_left_over()
    assert not site.parent.exists() and not home.parent.exists()
    assert mine.is_dir(), "the sweep removed a live process's site"


def test_remove_numpy_only_site_removes_it_and_the_next_call_makes_another():
    """What a worker calls on its way out; in a process of its own, as a live answer
    process of this module may be using this process's site."""
    code = (
        "from classroom.nbgrader_ext.verdicts import boundary\nsite = boundary.numpy_only_site()\n"
        "boundary.remove_numpy_only_site()\nagain = boundary.numpy_only_site()\n"
        "print(site.parent.exists(), again != site, (again / 'numpy').is_dir())\n"
    )
    done = run_python(code)
    assert done.stdout.split() == ["False", "True", "True"], done.stderr
