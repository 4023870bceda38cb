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
