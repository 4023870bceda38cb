"""HideHiddenTests: feedback shows each test's result, never a hidden test's source.

The fixtures are autograded notebooks as the feedback chain receives them: the test cells hold
their whole source (hidden region restored), the verdict DecideVerdicts decided (its outputs
and `metadata["classroom"]["verdict"]`) and the score nbgrader's GetGrades puts there. The
hidden line of double_works is
`assert double(-1.5) == -3.0, "double must also work for negative floats"`; its message is
the verdict of a failed hidden test, so the learner sees it, but never the line.
"""

import copy

import nbformat
import pytest

from classroom.nbgrader_ext.preprocessors import HideHiddenTests
from classroom.nbgrader_ext.preprocessors.hide_hidden_tests import HIDDEN_PLACEHOLDER

TEST, QUIZ_TEST = 4, 7
HIDDEN_TEXT = ("double(-1.5)", "-3.0", "BEGIN HIDDEN TESTS", "END HIDDEN TESTS")
VISIBLE = (
    '"""double returns twice its argument, also on cases the learner never saw."""',
    'assert np.isclose(expect.as_floats(double(2), "double(2)"), 4.0), "double(2) should be 4"',
    'print("OK: double(2) is 4")',
)
DECIDED = ("hidden_tests_passed", "hidden_test_failed", "visible_check_failed", "tests_not_run")


def hidden(read_nb, name):
    """(the fixture as read, the fixture after HideHiddenTests)."""
    before = read_nb(name)
    after, _ = HideHiddenTests().preprocess(copy.deepcopy(before), {})
    return before, after


def quoted_hidden(nb) -> list[str]:
    """The pieces of the hidden test that the notebook's file would show."""
    text = nbformat.writes(nb)
    return [piece for piece in HIDDEN_TEXT if piece in text]


def shown(cell) -> list:
    return [o for o in cell.outputs if o.output_type == "display_data"]


def result(cell) -> str:
    """The result HideHiddenTests adds to a test cell, as text (one line per sentence)."""
    (line,) = shown(cell)
    return line.data["text/plain"]


class TestHideHiddenTests:
    @pytest.mark.timeout(30)
    @pytest.mark.parametrize("name", DECIDED)
    def test_no_hidden_source_left(self, read_nb, name):
        """Whatever the verdict, the written notebook quotes nothing of the hidden test."""
        before, after = hidden(read_nb, name)

        assert quoted_hidden(before) == list(HIDDEN_TEXT)
        assert quoted_hidden(after) == []

    @pytest.mark.timeout(30)
    def test_hidden_region_becomes_a_placeholder(self, read_nb):
        """The test cell's source is its visible lines, the hidden region one comment line."""
        _, nb = hidden(read_nb, "hidden_test_failed")

        assert nb.cells[TEST].source.split("\n") == [*VISIBLE, HIDDEN_PLACEHOLDER]

    @pytest.mark.timeout(30)
    @pytest.mark.parametrize(
        ("name", "lines"),
        [
            (
                "hidden_tests_passed",
                ["double_works: 2 of 2 points", "Visible check: passed.", "Hidden tests: passed."],
            ),
            (
                "hidden_test_failed",
                [
                    "double_works: 0 of 2 points",
                    "Likely mistake: double must also work for negative floats",
                    "Visible check: passed.",
                    "Hidden tests: failed.",
                ],
            ),
            (
                "visible_check_failed",
                [
                    "double_works: 0 of 2 points",
                    "Likely mistake: double(2) should be 4",
                    "Visible check: failed.",
                    "Hidden tests: not run, since the visible check failed.",
                ],
            ),
        ],
    )
    def test_result_from_the_verdict(self, read_nb, name, lines):
        """The result: the points, the likely mistake, how the visible and hidden parts went."""
        _, nb = hidden(read_nb, name)

        assert result(nb.cells[TEST]).split("\n") == lines

    @pytest.mark.timeout(30)
    def test_result_of_tests_not_run(self, read_nb):
        """Tests left undecided (no time left) say so, with no points."""
        _, nb = hidden(read_nb, "tests_not_run")

        lines = result(nb.cells[TEST]).split("\n")
        assert lines[0] == "double_works: 0 of 2 points"
        assert lines[-2:] == ["Visible check: not run.", "Hidden tests: not run."]

    @pytest.mark.timeout(30)
    def test_result_in_html_one_line_each(self, read_nb):
        """The HTML form holds the same lines, the first in bold, each tag closed once."""
        _, nb = hidden(read_nb, "visible_check_failed")

        (output,) = shown(nb.cells[TEST])
        assert output.data["text/html"] == (
            "<div class='grader-result'><b>double_works: 0 of 2 points</b><br>"
            "Likely mistake: double(2) should be 4<br>"
            "Visible check: failed.<br>"
            "Hidden tests: not run, since the visible check failed.</div>"
        )

    @pytest.mark.timeout(30)
    @pytest.mark.parametrize("name", DECIDED)
    def test_verdict_outputs_kept_and_one_line_appended(self, read_nb, name):
        """The verdict's outputs stay as DecideVerdicts wrote them; one result is appended."""
        before, after = hidden(read_nb, name)

        for index in (TEST, QUIZ_TEST):
            assert after.cells[index].outputs[:-1] == before.cells[index].outputs
            assert after.cells[index].outputs[-1].output_type == "display_data"

    @pytest.mark.timeout(30)
    def test_failed_hidden_test_shows_its_message(self, read_nb):
        """A failed hidden test's error is its type and message, one line, no source."""
        _, nb = hidden(read_nb, "hidden_test_failed")

        (error,) = [o for o in nb.cells[TEST].outputs if o.output_type == "error"]
        assert error.ename == "AssertionError"
        assert error.traceback == ["AssertionError: double must also work for negative floats"]

    @pytest.mark.timeout(30)
    def test_test_without_hidden_region_keeps_its_source(self, read_nb):
        """A test cell without hidden tests keeps its source, and gets its result line."""
        before, after = hidden(read_nb, "hidden_test_failed")

        assert after.cells[QUIZ_TEST].source == before.cells[QUIZ_TEST].source
        assert result(after.cells[QUIZ_TEST]).split("\n") == [
            "quiz_double_answer: 1 of 1 points",
            "Visible check: passed.",
        ]

    @pytest.mark.timeout(30)
    def test_other_cells_untouched(self, read_nb):
        """Cells that are not test cells leave HideHiddenTests as they came."""
        before, after = hidden(read_nb, "hidden_test_failed")

        others = [i for i in range(len(before.cells)) if i not in (TEST, QUIZ_TEST)]
        assert [after.cells[i] for i in others] == [before.cells[i] for i in others]
