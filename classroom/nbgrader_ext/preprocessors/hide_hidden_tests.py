"""HideHiddenTests: feedback that shows each test's result, never a hidden test's source.

In the feedback chain, after nbgrader's GetGrades. The autograded notebook's test cells hold
their whole source (nbgrader's OverwriteCells restores it from the gradebook) and, as their
outputs, the verdict DecideVerdicts decided outside the learner's kernel (which never sees a
hidden test, so no other output can quote one). Each test cell with a hidden region keeps its
visible lines and one comment where the hidden tests were, and gets one line saying how its
visible check and its hidden tests went, and its points.
"""

from __future__ import annotations

import html
import re

from nbformat.notebooknode import NotebookNode

from classroom.nbgrader_ext.notebooks import HIDDEN_DELIMITERS, is_test, split_hidden
from classroom.nbgrader_ext.preprocessors.settings import FeedbackPreprocessor

HIDDEN_PLACEHOLDER = "# Hidden tests run here (source not shown)."
VERDICT_KEY = "verdict"  # DecideVerdicts' record in cell.metadata["classroom"]


def likely_mistake(cell) -> str:
    """The last sentence of a failed test's message: the check's hint, said first."""
    errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
    if not errors:
        return ""
    message = str(errors[0].get("evalue", "")).strip()
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", message) if s.strip()]
    return sentences[-1] if len(sentences) > 1 else message


def result_lines(cell) -> list[str]:
    """The test's name and points, its likely mistake, "Visible check: passed.", "Hidden
    tests: failed." for a test cell."""
    verdict = cell.metadata.get("classroom", {}).get(VERDICT_KEY, {})
    meta = cell.metadata.get("nbgrader", {})
    name = meta.get("grade_id", "test")
    if meta.get("points") is not None and meta.get("score") is not None:
        name += f": {float(meta['score']):g} of {float(meta['points']):g} points"
    lines = [name]
    if likely_mistake(cell):
        lines.append(f"Likely mistake: {likely_mistake(cell)}")
    if verdict.get("visible", "none") != "none":
        lines.append(f"Visible check: {verdict['visible']}.")
    hidden = verdict.get("hidden", "none")
    if hidden == "not run" and verdict.get("visible") == "failed":
        hidden = "not run, since the visible check failed"
    if hidden != "none":
        lines.append(f"Hidden tests: {hidden}.")
    return lines


class HideHiddenTests(FeedbackPreprocessor):
    """Replace each test cell's hidden region by one comment line, and state its result."""

    def preprocess_cell(self, cell, resources, cell_index):
        if not is_test(cell):
            return cell, resources
        if HIDDEN_DELIMITERS[0] in cell.source:
            visible, _ = split_hidden(cell.source, HIDDEN_PLACEHOLDER)
            cell.source = "\n".join(visible)
        lines = result_lines(cell)
        escaped = [html.escape(line) for line in lines]
        if lines:
            cell.outputs.append(
                NotebookNode(
                    output_type="display_data",
                    metadata={},
                    data={
                        "text/plain": "\n".join(lines),
                        "text/html": "<div class='grader-result'>"
                        + "<br>".join([f"<b>{html.escape(lines[0])}</b>", *escaped[1:]])
                        + "</div>",
                    },
                )
            )
        return cell, resources
