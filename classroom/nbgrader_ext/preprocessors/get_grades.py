"""GetGrades: nbgrader's first step of the feedback chain, with the submission's grades and
comments read in one go.

nbgrader's GetGrades asks the gradebook twice for each graded cell (`find_grade`,
`find_comment`: about 50 queries a lesson notebook). Here the submitted notebook is found
once and its grades and comments are read from it; each cell gets the same score, points and
comment as from nbgrader's, the notebook the same totals and late penalty, and a cell the
gradebook has no grade or comment for fails with nbgrader's MissingEntry.
"""

from __future__ import annotations

from nbgrader.api import Gradebook, MissingEntry
from nbgrader.preprocessors import GetGrades as NbgraderGetGrades


class GetGrades(NbgraderGetGrades):
    """nbgrader's GetGrades, reading the submitted notebook's grades and comments once."""

    def preprocess(self, nb, resources):
        info = resources["nbgrader"]
        self.notebook_id, self.assignment_id = info["notebook"], info["assignment"]
        self.student_id, self.db_url = info["student"], info["db_url"]
        with Gradebook(self.db_url) as gb:  # no course id, as nbgrader's opens it
            notebook = gb.find_submission_notebook(
                self.notebook_id, self.assignment_id, self.student_id
            )
            self._grades = {g.name: (g.score, g.max_score) for g in notebook.grades}
            self._comments = {c.name: c.comment for c in notebook.comments}
            nb, resources = super(NbgraderGetGrades, self).preprocess(nb, resources)
            late_penalty = notebook.late_submission_penalty
            if late_penalty is None:
                late_penalty = 0
            else:
                self.log.warning(f"Late submission penalty: {late_penalty}")
            info["score"] = notebook.score - late_penalty
            info["max_score"] = notebook.max_score
            info["late_penalty"] = late_penalty
        return nb, resources

    def _found(self, table: dict, what: str, cell):
        name = cell.metadata["nbgrader"]["grade_id"]
        if name not in table:
            raise MissingEntry(f"no {what} for cell {name!r}")
        return table[name]

    def _get_comment(self, cell, resources) -> None:
        cell.metadata.nbgrader["comment"] = self._found(self._comments, "comment", cell)

    def _get_score(self, cell, resources) -> None:
        score, points = self._found(self._grades, "grade", cell)
        cell.metadata.nbgrader["score"] = score
        cell.metadata.nbgrader["points"] = points
