"""KeepPointsOnStderr: a passing test cell keeps its points when something wrote to stderr.

The fixtures' outputs were written by a real kernel: `double` warns (FutureWarning) each time
a test calls it, so its test cell's output holds stderr text, which nbgrader scores 0.
"""

import pytest
from nbgrader.utils import determine_grade

from classroom.grading.results import notes_of
from classroom.preprocessors import KeepPointsOnStderr

TEST, ANSWER = 4, 6  # the double_works test cell; the quiz answer cell, which prints to stderr


@pytest.fixture
def preprocessor():
    return KeepPointsOnStderr()


def streams(cell):
    return [output for output in cell.outputs if output.output_type == "stream"]


class TestKeepPointsOnStderr:
    @pytest.mark.timeout(30)
    def test_passing_test_keeps_its_points(self, preprocessor, read_nb):
        """A passing test with a warning on stderr scores full points instead of 0."""
        nb = read_nb("stderr_in_passing_test")
        assert determine_grade(nb.cells[TEST]) == (0, 2.0)  # plain nbgrader

        nb, _ = preprocessor.preprocess(nb, {})

        assert determine_grade(nb.cells[TEST]) == (2.0, 2.0)

    @pytest.mark.timeout(30)
    def test_stderr_text_kept_as_marked_stdout(self, preprocessor, read_nb):
        """The stderr text stays, as stdout with every line marked [stderr]."""
        nb = read_nb("stderr_in_passing_test")
        (before,) = streams(nb.cells[TEST])
        assert before.name == "stderr"
        text = before.text

        nb, _ = preprocessor.preprocess(nb, {})

        (after,) = streams(nb.cells[TEST])
        assert after.name == "stdout"
        lines = after.text.splitlines(keepends=True)
        assert lines and all(line.startswith("[stderr] ") for line in lines)
        assert "".join(line.removeprefix("[stderr] ") for line in lines) == text

    @pytest.mark.timeout(30)
    def test_passing_test_noted(self, preprocessor, read_nb):
        """The test cell gets a stderr note, with its index and grade_id, saying no points lost."""
        nb, _ = preprocessor.preprocess(read_nb("stderr_in_passing_test"), {})

        (note,) = notes_of(nb)
        assert (note.kind, note.cell, note.grade_id) == ("stderr", TEST, "double_works")
        assert "did not cost points" in note.text and "failed" not in note.text

    @pytest.mark.timeout(30)
    def test_answer_cells_stderr_left_alone(self, preprocessor, read_nb):
        """stderr in a cell that is not a test (the learner's answer) stays stderr."""
        nb = read_nb("stderr_in_passing_test")
        before = [dict(output) for output in streams(nb.cells[ANSWER])]

        nb, _ = preprocessor.preprocess(nb, {})

        assert [dict(output) for output in streams(nb.cells[ANSWER])] == before
        assert before[0]["name"] == "stderr"

    @pytest.mark.timeout(30)
    def test_failing_test_still_scores_zero(self, preprocessor, read_nb):
        """A test that failed (an error besides the stderr text) keeps its error and scores 0."""
        nb, _ = preprocessor.preprocess(read_nb("stderr_in_failing_test"), {})

        cell = nb.cells[TEST]
        assert [o.ename for o in cell.outputs if o.output_type == "error"] == ["AssertionError"]
        assert determine_grade(cell) == (0, 2.0)
        (note,) = notes_of(nb)
        assert note.cell == TEST and "failed for another reason" in note.text

    @pytest.mark.timeout(30)
    def test_no_stderr_no_change(self, preprocessor, read_nb):
        """A notebook whose tests wrote nothing to stderr is unchanged and gets no note."""
        nb, _ = preprocessor.preprocess(read_nb("hidden_tests_passed"), {})

        assert nb == read_nb("hidden_tests_passed")
        assert notes_of(nb) == []
