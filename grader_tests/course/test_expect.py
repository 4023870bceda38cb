"""course.expect as the learner meets it: one short block per failure, one line per unwritten
function, the learner's own exceptions named without a traceback; strict while grading."""

import numpy as np
import pytest

from course import expect, mjcf


@expect.visible_check
def check_double(function):
    """A visible check of a function that should double its argument."""
    expect.close(function(1.5), 3.0, "double(1.5)", hint="Multiply by two.")
    print("OK double")


def test_a_right_answer_prints_one_ok_line(capsys):
    check_double(lambda x: 2 * x)
    assert capsys.readouterr().out == "OK double\n"


def test_a_wrong_answer_is_one_short_block_with_the_hint():
    with pytest.raises(expect.CheckFailed) as failed:
        check_double(lambda x: x + 1)
    block = failed.value._render_traceback_()
    assert block[0].startswith("✗ double(1.5) = 2.5, but MuJoCo gives 3")
    assert "Multiply by two." in " ".join(block) and len(block) <= 8
    assert all(len(line) <= expect.WIDTH for line in block)


def test_an_unwritten_function_prints_one_line_and_goes_on(capsys):
    assert check_double(lambda x: None) is None
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1 and out[0].startswith("… Not checked yet:")


def test_the_learners_own_exception_names_the_line_not_a_traceback():
    def double(x):
        return x * undefined_factor  # noqa: F821 - the learner's typo

    with pytest.raises(expect.CheckFailed) as failed:
        check_double(double)
    text = " ".join(line.strip() for line in failed.value._render_traceback_())
    assert "double raised NameError" in text and "undefined_factor" in text
    assert "of your cell: return x * undefined_factor" in text


def test_a_fault_of_the_course_itself_is_raised_as_it_is():
    with pytest.raises(ValueError, match="is one of"):
        expect.visible_check(mjcf.one_of)("x", ("a",), "a keyword")


def test_while_grading_every_failure_raises_as_it_is():
    expect.grading(True)
    try:
        with pytest.raises(expect.NotAnswered):
            check_double(lambda x: None)
        with pytest.raises(AssertionError) as failed:
            check_double(lambda x: x + 1)
        assert type(failed.value) is AssertionError
    finally:
        expect.grading(False)


def test_non_finite_inertia_is_refused():
    with pytest.raises(AssertionError, match="not all finite"):
        expect.inertia_matches(np.full((3, 3), np.nan), [1, 1, 1], np.eye(3), "inertia")


# --------------------------------------------------------------------------------------------
# A step function's trajectory (expect.trajectory) and formulas' frames


def test_trajectory_records_a_copy_of_each_state_and_passes_the_extra_arguments():
    """A step that updates its arrays in place does not rewrite the recorded states."""
    calls = []

    def step(x, v, accel, h, rate):
        calls.append(rate)
        v += h * accel(x, v)  # in place, on the arrays it was given
        x += h * v
        return x, v

    gravity = expect.Formula("lambda x, v: np.array([0.0, -9.81])", "gravity")
    xs, vs, stopped = expect.trajectory(step, gravity, np.zeros(2), np.zeros(2), 0.1, 3, 0.5)
    assert stopped is None and calls == [0.5] * 3
    assert [v[1] for v in vs] == pytest.approx([0.0, -0.981, -1.962, -2.943])
    assert [x[1] for x in xs] == pytest.approx([0.0, -0.0981, -0.2943, -0.5886])


@pytest.mark.parametrize("returned", [None, 1.0, (1.0, 2.0, 3.0)])
def test_trajectory_stops_at_a_result_that_is_not_a_pair(returned):
    results = iter([(1.0, 1.0), returned, (9.0, 9.0)])
    xs, vs, stopped = expect.trajectory(lambda x, v, a, h: next(results), None, 0.0, 0.0, 0.1, 3)
    assert (xs, vs, stopped) == ([0.0, 1.0], [0.0, 1.0], [returned])


def test_trajectory_silences_the_steps_warnings():
    import warnings

    def step(x, v, accel, h):
        warnings.warn("a learner's warning", stacklevel=1)
        return x / 0.0 if isinstance(x, np.ndarray) else np.float64(x) / 0.0, v

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        xs, _, _ = expect.trajectory(step, None, np.ones(1), np.ones(1), 0.1, 2)
    assert np.isinf(xs[-1]).all()


def test_a_formulas_frames_are_never_the_learners():
    """A formula's frames are the course's: an error inside one names the line that called
    it (here this test's, standing for a learner's cell), not the formula's own source."""
    broken = expect.Formula("lambda x, v: x / v", "broken")
    with pytest.raises(ZeroDivisionError) as raised:
        broken(1.0, 0.0)
    told = expect.learners_error(raised.value)
    assert "broken(1.0, 0.0)" in told and "x / v" not in told, told


def test_graded_holds_one_submissions_seed_for_its_block_only():
    """The grader grades one notebook inside `expect.graded(seed)`: inside, hidden cases draw
    from that seed (the same seed the same cases) and checks are strict; after it, the mode
    that was there before is back, so no seed outlives its submission."""
    with pytest.raises(expect.GradedElsewhere):
        expect.hidden_cases(1)
    with expect.graded(hidden_seed=(7, 8)):
        first = expect.hidden_cases(1).random()
        assert expect._GRADING
    with expect.graded(hidden_seed=(7, 8)):
        assert expect.hidden_cases(1).random() == first
    with expect.graded(hidden_seed=(7, 9)):
        assert expect.hidden_cases(1).random() != first
    assert not expect._GRADING
    with pytest.raises(expect.GradedElsewhere):
        expect.hidden_cases(1)
    with pytest.raises(RuntimeError), expect.graded(hidden_seed=(1,)):
        raise RuntimeError("a failing notebook")
    assert not expect._GRADING
