"""NotesAsComments: the grader's notes, where an instructor sees them in the formgrader.

In the autograde chain after SaveAutoGrades. nbgrader keeps one comment per answer cell in
its gradebook, and the formgrader shows it under that cell; each note the preprocessors left
in the notebook's metadata (a renamed file, restored cells, a timeout, a cell stopped in the
grader) is appended to the automatic comment of the answer cell it concerns, or of the
notebook's first answer cell when it concerns the notebook or a test cell.
"""

from __future__ import annotations

from nbgrader.api import Gradebook, MissingEntry
from nbgrader.preprocessors import NbGraderPreprocessor

from classroom.nbgrader_ext.notebooks import answer_cells
from classroom.nbgrader_ext.notes import notes_of

PREFIX = "Grader: "


def add_comments(db_url, assignment, notebook, student, by_cell: dict[str, list[str]]) -> None:
    """Append sentences to the automatic comments of answer cells in the gradebook."""
    with Gradebook(db_url) as gb:
        for grade_id, sentences in by_cell.items():
            try:
                comment = gb.find_comment(grade_id, notebook, assignment, student)
            except MissingEntry:
                continue
            lines = comment.auto_comment.splitlines() if comment.auto_comment else []
            for sentence in sentences:  # once each, also when the notebook is graded again
                if PREFIX + sentence not in lines:
                    lines.append(PREFIX + sentence)
            comment.auto_comment = "\n".join(lines)
        gb.db.commit()


def by_answer_cell(nb, sentences_with_cells) -> dict[str, list[str]]:
    """{answer grade_id: [sentences]} for (sentence, grade_id or None) pairs."""
    answers = list(answer_cells(nb))
    if not answers:
        return {}
    found: dict[str, list[str]] = {}
    for sentence, grade_id in sentences_with_cells:
        target = grade_id if grade_id in answers else answers[0]
        found.setdefault(target, []).append(sentence)
    return found


class NotesAsComments(NbGraderPreprocessor):
    """Copy the notes of the notebook's metadata into the gradebook's comments."""

    def preprocess(self, nb, resources):
        info = resources["nbgrader"]
        pairs = [(n.text, n.grade_id) for n in notes_of(nb) if n.kind != "replayed"]
        if pairs:
            add_comments(
                info["db_url"],
                info["assignment"],
                info["notebook"],
                info["student"],
                by_answer_cell(nb, pairs),
            )
        return nb, resources
