"""FeedbackSummary: a table of every test at the top of the feedback, and pages that wrap.

In the feedback chain after HideHiddenTests. The learner reads first what each test found:
one row per test cell (its name, points and, when it lost them, the likely mistake), then the
notebook (nbgrader's own contents list, which calls every test "Test cell", is hidden). In
each test cell the box HideHiddenTests wrote (name, points, likely mistake) comes first,
before what the test printed. Long lines wrap between words (not inside one, as the page's
Bootstrap style would have it), in outputs too, so no message is cut off.
"""

from __future__ import annotations

import html

from nbformat.v4 import new_markdown_cell

from classroom.nbgrader_ext.notebooks import grade_id, is_test
from classroom.nbgrader_ext.preprocessors.hide_hidden_tests import likely_mistake
from classroom.nbgrader_ext.preprocessors.settings import FeedbackPreprocessor

RESULT_CLASS = "grader-result"  # the class of HideHiddenTests' result box
# nbgrader's own contents list names every test "Test cell": this table replaces it.
STYLE = """<style>
#toc { display: none; }
.output_area pre, .output_text pre, pre { white-space: pre-wrap; word-break: normal;
  overflow-wrap: anywhere; }
.grader-result { border: 1px solid #ccc; border-left: 4px solid #4c78a8; padding: .4em .8em;
  margin: .3em 0; background: #f8f9fb; }
table.grader-summary td, table.grader-summary th { padding: .2em .6em; text-align: left; }
</style>"""


def summary_rows(nb) -> list[str]:
    rows = []
    for cell in nb.cells:
        if not is_test(cell):
            continue
        meta = cell.metadata.get("nbgrader", {})
        score, points = meta.get("score"), meta.get("points")
        got = f"{float(score):g} / {float(points):g}" if score is not None else f"? / {points}"
        why = html.escape(likely_mistake(cell)) or ("passed" if score == points else "")
        rows.append(
            f"<tr><td>{html.escape(grade_id(cell) or '')}</td><td>{got}</td><td>{why}</td></tr>"
        )
    return rows


def result_box_first(cell) -> None:
    """Move a test cell's result box (HideHiddenTests' output) before its other outputs."""
    outputs = list(cell.get("outputs", []))
    is_box = [RESULT_CLASS in str(o.get("data", {}).get("text/html", "")) for o in outputs]
    if any(is_box):
        boxes = [o for o, box in zip(outputs, is_box, strict=True) if box]
        cell.outputs = boxes + [o for o, box in zip(outputs, is_box, strict=True) if not box]


class FeedbackSummary(FeedbackPreprocessor):
    """Put a table of the tests' results, and the page's wrapping style, at the top, and
    each test's result box first in its cell."""

    def preprocess(self, nb, resources):
        for cell in nb.cells:
            if is_test(cell):
                result_box_first(cell)
        rows = summary_rows(nb)
        if rows:
            table = (
                "<table class='grader-summary'><tr><th>test</th><th>points</th>"
                f"<th>what it found</th></tr>{''.join(rows)}</table>"
            )
            nb.cells.insert(0, new_markdown_cell(f"{STYLE}\n\n**Your tests**\n\n{table}"))
        return nb, resources
