"""MatchCellsToRelease: nbgrader's cell metadata put back on the cells a learner's tools mangled.

The release itself, handed back untouched, is test_release_unchanged.py's case.
"""

import pytest
from nbgrader.nbgraderformat import ValidationError
from nbgrader.preprocessors import CheckCellMetadata

from classroom.grading.results import notes_of
from classroom.notebooks import grade_id
from classroom.preprocessors import MatchCellsToRelease


@pytest.fixture
def preprocessor(course):
    return MatchCellsToRelease(config=course)


def grade_ids(nb):
    return [grade_id(cell) for cell in nb.cells if grade_id(cell)]


def notes_of_kind(nb, kind):
    return [note for note in notes_of(nb) if note.kind == kind]


class TestMatchCellsToRelease:
    @pytest.mark.timeout(30)
    def test_stripped_metadata_restored(self, preprocessor, read_nb, release, resources):
        """Cells stripped of all metadata get the release's nbgrader metadata back, in order."""
        nb = read_nb("metadata_stripped")
        assert grade_ids(nb) == []

        nb, _ = preprocessor.preprocess(nb, resources)

        assert grade_ids(nb) == grade_ids(release)
        for cell, released in zip(nb.cells, release.cells, strict=True):
            assert cell.metadata.get("nbgrader") == released.metadata.get("nbgrader")
        CheckCellMetadata().preprocess(nb, {})

    @pytest.mark.timeout(30)
    def test_stripped_metadata_noted_by_content_and_position(
        self, preprocessor, read_nb, resources
    ):
        """The note counts the cells matched by content and the rewritten answer by position."""
        nb, _ = preprocessor.preprocess(read_nb("metadata_stripped"), resources)

        (note,) = notes_of(nb)
        assert note.kind == "metadata-restored"
        assert "5 cells" in note.text
        assert "4 by content, 1 by position" in note.text

    @pytest.mark.timeout(30)
    def test_copied_answer_cell_loses_its_grade_id(self, preprocessor, read_nb, resources):
        """Of an answer cell and its copy, one keeps grade_id double; the copy has none."""
        nb = read_nb("answer_cell_copied")
        assert grade_ids(nb).count("double") == 2
        with pytest.raises(ValidationError):
            CheckCellMetadata().preprocess(nb, {})  # plain nbgrader stops on the duplicate

        nb, _ = preprocessor.preprocess(nb, resources)

        assert grade_ids(nb).count("double") == 1
        assert grade_id(nb.cells[3]) == "double"
        assert "nbgrader" not in nb.cells[4].metadata
        CheckCellMetadata().preprocess(nb, {})

    @pytest.mark.timeout(30)
    def test_copied_answer_cell_noted(self, preprocessor, read_nb, resources):
        """The copy's removed grade_id is noted as a copy of a cell kept elsewhere."""
        nb, _ = preprocessor.preprocess(read_nb("answer_cell_copied"), resources)

        (note,) = notes_of(nb)
        assert note.kind == "duplicate-id"
        assert "'double'" in note.text and "copy" in note.text

    @pytest.mark.timeout(30)
    def test_deleted_test_cell_put_back_in_place(self, preprocessor, read_nb, release, resources):
        """A deleted test cell is put back from the release between its neighbours."""
        nb = read_nb("test_cell_deleted")
        assert "double_works" not in grade_ids(nb)

        nb, _ = preprocessor.preprocess(nb, resources)

        assert grade_ids(nb) == grade_ids(release)
        restored, released = nb.cells[4], release.cells[4]
        assert restored.source == released.source
        assert restored.metadata.nbgrader == released.metadata.nbgrader
        assert restored.outputs == [] and restored.execution_count is None
        ids = [cell.id for cell in nb.cells]
        assert len(set(ids)) == len(ids)

    @pytest.mark.timeout(30)
    def test_deleted_test_cell_noted(self, preprocessor, read_nb, resources):
        """The put-back test cell is noted by its grade_id."""
        nb, _ = preprocessor.preprocess(read_nb("test_cell_deleted"), resources)

        (note,) = notes_of(nb)
        assert note.kind == "test-restored"
        assert "missing" in note.text and note.text.endswith("double_works")

    @pytest.mark.timeout(30)
    def test_edited_test_cell_keeps_its_metadata_and_is_noted(
        self, preprocessor, read_nb, release, resources
    ):
        """An edited test cell keeps its metadata (OverwriteCells restores it) and is noted."""
        nb, _ = preprocessor.preprocess(read_nb("test_cell_edited"), resources)

        assert len(nb.cells) == len(release.cells)
        assert nb.cells[4].metadata.nbgrader == release.cells[4].metadata.nbgrader
        (note,) = notes_of(nb)
        assert note.kind == "test-restored"
        assert "edited" in note.text and note.text.endswith("double_works")

    @pytest.mark.timeout(30)
    def test_other_lessons_notebook_noted(self, preprocessor, read_nb, resources):
        """Another lesson's notebook is noted as possibly not this lesson's, naming it."""
        nb, _ = preprocessor.preprocess(read_nb("not_this_lesson"), resources)

        (note,) = notes_of_kind(nb, "wrong-notebook")
        assert "toy" in note.text
        missing = notes_of_kind(nb, "answer-missing")
        assert sorted(note.text.split()[2] for note in missing) == ["double", "quiz_double"]

    @pytest.mark.timeout(30)
    def test_other_lessons_notebook_gets_this_lessons_tests(self, preprocessor, read_nb, resources):
        """Foreign grade_ids are removed and the lesson's locked cells put in, so tests run."""
        nb, _ = preprocessor.preprocess(read_nb("not_this_lesson"), resources)

        assert "halve" not in grade_ids(nb) and "halve_works" not in grade_ids(nb)
        assert grade_ids(nb) == ["setup", "double_works", "quiz_double_answer"]
        assert len(notes_of_kind(nb, "duplicate-id")) == 2
        CheckCellMetadata().preprocess(nb, {})
