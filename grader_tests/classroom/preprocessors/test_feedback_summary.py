"""FeedbackSummary: the feedback opens with a table of every test, and each test cell shows
the grader's result before what the test printed.

It runs after HideHiddenTests in the feedback chain, so the fixtures (autograded notebooks
with their verdicts and scores, as in test_hide_hidden_tests) go through that first.
"""

import copy

from classroom.nbgrader_ext.notebooks import is_test
from classroom.nbgrader_ext.preprocessors import HideHiddenTests
from classroom.nbgrader_ext.preprocessors.feedback_summary import RESULT_CLASS, FeedbackSummary


def summarised(read_nb, name):
    """(the fixture after HideHiddenTests, then after FeedbackSummary)."""
    hidden, _ = HideHiddenTests().preprocess(read_nb(name), {})
    summary, _ = FeedbackSummary().preprocess(copy.deepcopy(hidden), {})
    return hidden, summary


def table_rows(nb) -> list[str]:
    first = nb.cells[0]
    assert first.cell_type == "markdown" and "grader-summary" in first.source
    return first.source.split("<tr>")[2:]  # after the heading row


def is_box(output) -> bool:
    return RESULT_CLASS in str(output.get("data", {}).get("text/html", ""))


def test_one_row_per_test_with_its_points_and_the_likely_mistake(read_nb):
    hidden, summary = summarised(read_nb, "hidden_test_failed")
    rows = table_rows(summary)
    tests = [c for c in hidden.cells if is_test(c)]
    assert len(rows) == len(tests) == 2
    assert rows[0].startswith("<td>double_works</td><td>0 / 2</td>")
    assert rows[1].startswith("<td>quiz_double_answer</td><td>1 / 1</td><td>passed</td>")
    assert len(summary.cells) == len(hidden.cells) + 1
    assert "#toc { display: none; }" in summary.cells[0].source  # nbgrader's "Test cell" list


def test_the_result_box_comes_first_in_each_test_cell(read_nb):
    hidden, summary = summarised(read_nb, "hidden_test_failed")
    for before, after in zip(hidden.cells, summary.cells[1:], strict=True):
        if is_test(before) and any(is_box(o) for o in before.outputs):
            assert is_box(after.outputs[0])
            assert sorted(map(str, after.outputs)) == sorted(map(str, before.outputs))


def test_a_notebook_without_tests_gets_no_table(read_nb):
    nb = read_nb("hidden_test_failed")
    nb.cells = [c for c in nb.cells if not is_test(c)]
    after, _ = FeedbackSummary().preprocess(copy.deepcopy(nb), {})
    assert after.cells == nb.cells
