"""MatchCellsToRelease: nbgrader's cell metadata put back on the cells a learner's tools mangled.

The release itself, handed back untouched, is test_release_unchanged.py's case.
"""

from pathlib import Path

import pytest
from nbgrader.nbgraderformat import ValidationError
from nbgrader.preprocessors import CheckCellMetadata

from classroom.nbgrader_ext import notebooks
from classroom.nbgrader_ext.notebooks import grade_id
from classroom.nbgrader_ext.notes import notes_of, record_note
from classroom.nbgrader_ext.preprocessors import MatchCellsToRelease


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
        """Another lesson's notebook gets one note, first, naming the lesson it was graded
        as and counting the repairs that follow from it (issue 28: not 45 notes, 30 of them
        "duplicate-id" for ids that were no duplicates)."""
        nb = read_nb("not_this_lesson")
        record_note(nb, "format", "a note recorded before this preprocessor ran")
        nb, _ = preprocessor.preprocess(nb, resources)

        first, *rest = notes_of(nb)
        assert first.kind == "wrong-notebook", notes_of(nb)
        assert first.text.startswith("not toy's notebook: only "), first.text
        assert "graded as toy all the same" in first.text, first.text
        assert "2 grade_ids the lesson lacks removed" in first.text, first.text
        assert "2 answer cells not found" in first.text, first.text
        assert [n.kind for n in rest] == ["format"], rest

    @pytest.mark.timeout(30)
    def test_other_lessons_notebook_named(self, preprocessor, read_nb, resources, course):
        """When release/ holds the lesson whose grade_ids the notebook carries, the note
        names it."""
        nb = read_nb("not_this_lesson")
        other = Path(course.CourseDirectory.root) / "release" / "halving" / "halving.ipynb"
        other.parent.mkdir(parents=True)
        notebooks.write(nb, other)
        nb, _ = preprocessor.preprocess(nb, resources)

        (note,) = notes_of(nb)
        assert "(its cells are halving's)" in note.text, note.text

    @pytest.mark.timeout(30)
    def test_an_id_the_lesson_lacks_is_not_called_a_duplicate(
        self, preprocessor, read_nb, resources
    ):
        """In the lesson's own notebook, a cell carrying a grade_id the lesson does not have
        is said as such; "duplicate-id" stays for copies of the lesson's own cells."""
        nb = read_nb("correct_answers")
        nb.cells.append(read_nb("not_this_lesson").cells[-1])
        foreign = grade_id(nb.cells[-1])
        assert foreign and foreign not in grade_ids(read_nb("release")), foreign
        nb, _ = preprocessor.preprocess(nb, resources)

        assert notes_of_kind(nb, "duplicate-id") == [], notes_of(nb)
        (note,) = notes_of_kind(nb, "foreign-id")
        assert repr(foreign) in note.text and "does not have" in note.text, note.text

    @pytest.mark.timeout(30)
    def test_other_lessons_notebook_gets_this_lessons_tests(self, preprocessor, read_nb, resources):
        """Foreign grade_ids are removed and the lesson's locked cells put in, so tests run."""
        nb, _ = preprocessor.preprocess(read_nb("not_this_lesson"), resources)

        assert "halve" not in grade_ids(nb) and "halve_works" not in grade_ids(nb)
        assert grade_ids(nb) == ["setup", "double_works", "quiz_double_answer"]
        assert [n.kind for n in notes_of(nb)] == ["wrong-notebook"]
        CheckCellMetadata().preprocess(nb, {})
