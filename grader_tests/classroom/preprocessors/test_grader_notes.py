"""GraderNotes: the grader's notes about a submission, in one cell at the top of its feedback.

notes_in_metadata holds five notes in its metadata: a Colab note twice, a timeout, a
"replayed" note (bookkeeping the learner has no use for) and one with HTML characters.
"""

import pytest

from classroom.nbgrader_ext.notes import record_note
from classroom.nbgrader_ext.preprocessors import GraderNotes

HEADING = "**Notes from the grader**"
EXPECTED = [
    "- saved by Google Colab: Colab&#x27;s metadata removed",
    "- interrupted after 60 s",
    "- a &lt;script&gt; &amp; a warning went to stderr",
]


def bullets(cell) -> list[str]:
    return [line for line in cell.source.split("\n") if line.startswith("- ")]


class TestGraderNotes:
    @pytest.mark.timeout(30)
    def test_notes_cell_put_first(self, read_nb):
        """A markdown cell with the heading goes first; the notebook's cells follow unchanged."""
        nb, _ = GraderNotes().preprocess(read_nb("notes_in_metadata"), {})

        first = nb.cells[0]
        assert first.cell_type == "markdown"
        assert first.source.startswith(HEADING)
        assert nb.cells[1:] == read_nb("notes_in_metadata").cells

    @pytest.mark.timeout(30)
    def test_each_note_once_without_bookkeeping(self, read_nb):
        """Each note is listed once, in order, the "replayed" one left out, HTML escaped."""
        nb, _ = GraderNotes().preprocess(read_nb("notes_in_metadata"), {})

        assert bullets(nb.cells[0]) == EXPECTED
        assert "<script>" not in nb.cells[0].source

    @pytest.mark.timeout(30)
    def test_notes_passed_in_come_first(self, read_nb):
        """Notes given in the `notes` trait come first; one also in the metadata is not repeated."""
        passed = [
            "notebook handed in as 'Copy of toy.ipynb'; graded as toy",
            "interrupted after 60 s",
        ]
        nb, _ = GraderNotes(notes=passed).preprocess(read_nb("notes_in_metadata"), {})

        assert bullets(nb.cells[0]) == [
            "- notebook handed in as &#x27;Copy of toy.ipynb&#x27;; graded as toy",
            "- interrupted after 60 s",
            EXPECTED[0],
            EXPECTED[2],
        ]

    @pytest.mark.timeout(30)
    def test_no_notes_no_cell(self, read_nb):
        """A notebook without notes gets no notes cell."""
        nb, _ = GraderNotes().preprocess(read_nb("hidden_tests_passed"), {})

        assert nb == read_nb("hidden_tests_passed")

    @pytest.mark.timeout(30)
    def test_only_bookkeeping_no_cell(self, read_nb):
        """A notebook whose only note is bookkeeping ("replayed") gets no notes cell."""
        nb = read_nb("hidden_tests_passed")
        record_note(nb, "replayed", "ran 2 cells above again in a new kernel", 5)
        count = len(nb.cells)

        nb, _ = GraderNotes().preprocess(nb, {})

        assert len(nb.cells) == count
        assert all(HEADING not in cell.source for cell in nb.cells)
