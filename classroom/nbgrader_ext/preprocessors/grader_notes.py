"""GraderNotes: what the grader did about a submission, at the top of its feedback.

Reads the notes the other preprocessors left in the notebook's metadata (a renamed file,
restored cells, a timeout), plus any the grading command passes in, and puts them in one
markdown cell at the top of the page. In the feedback chain, after HideHiddenTests.
"""

from __future__ import annotations

import html

from nbformat.v4 import new_markdown_cell
from traitlets import List

from classroom.nbgrader_ext.notes import notes_of
from classroom.nbgrader_ext.preprocessors.settings import FeedbackPreprocessor

SILENT_KINDS = frozenset({"replayed"})  # bookkeeping the learner has no use for


class GraderNotes(FeedbackPreprocessor):
    """Put the grader's notes about this submission in a cell at the top of the feedback."""

    notes = List([], help="Sentences about what the grader did with this submission.").tag(
        config=True
    )

    def preprocess(self, nb, resources):
        found = [n.text for n in notes_of(nb) if n.kind not in SILENT_KINDS]
        sentences = list(dict.fromkeys([*self.notes, *found]))
        if sentences:
            text = "**Notes from the grader**\n\n" + "\n".join(
                f"- {html.escape(str(n))}" for n in sentences
            )
            nb.cells.insert(0, new_markdown_cell(text))
        return nb, resources
