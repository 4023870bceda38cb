"""KeepPointsOnStderr: a passing test cell keeps its points when something wrote to stderr.

nbgrader scores a test cell 0 when its output holds any stderr text, so a correct answer that
triggers a DeprecationWarning loses its points. The tests of this course fail by raising;
stderr text in a test cell is kept, as stdout marked "[stderr]", and noted. Before
SaveAutoGrades in the autograde chain.
"""

from __future__ import annotations

from nbgrader.preprocessors import NbGraderPreprocessor

from classroom.grading.results import record_note
from classroom.notebooks import grade_id, is_test


class KeepPointsOnStderr(NbGraderPreprocessor):
    """A test cell that passed keeps its points when something wrote to stderr.

    nbgrader scores a test cell 0 when its output holds any stderr text, so a correct answer
    that triggers a DeprecationWarning loses its points. The tests of this course fail by
    raising; stderr text in a test cell is kept, as stdout marked "[stderr]", and noted.
    """

    def preprocess(self, nb, resources):
        self._notes = []
        nb, resources = super().preprocess(nb, resources)
        for text, index, gid in self._notes:
            record_note(nb, "stderr", text, index, gid)
        return nb, resources

    def preprocess_cell(self, cell, resources, cell_index):
        if not is_test(cell):
            return cell, resources
        moved = False
        for output in cell.get("outputs", []):
            if output.get("output_type") == "stream" and output.get("name") == "stderr":
                output["name"] = "stdout"
                output["text"] = "".join(
                    "[stderr] " + line for line in output["text"].splitlines(keepends=True)
                )
                moved = True
        if moved:
            errored = any(o.get("output_type") == "error" for o in cell.outputs)
            text = "a warning went to stderr during this test; it did not cost points"
            if errored:
                text += " (the test failed for another reason)"
            self._notes.append((text, cell_index, grade_id(cell)))
        return cell, resources
