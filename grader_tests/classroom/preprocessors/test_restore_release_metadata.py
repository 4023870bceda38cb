"""RestoreReleaseMetadata: the notebook and cell metadata of a submission as the release has it.

The release itself, handed back untouched, is test_release_unchanged.py's case.
"""

import pytest
from nbgrader.nbgraderformat import SchemaTooOldError
from nbgrader.preprocessors import CheckCellMetadata

from classroom.nbgrader_ext.notes import notes_of
from classroom.nbgrader_ext.preprocessors import RestoreReleaseMetadata

COLAB_CELL_KEYS = {"colab", "id", "outputId"}
EDITOR_CELL_KEYS = {"vscode", "ExecuteTime", "scrolled", "collapsed"}
HOUSEKEEPING_KEYS = {"ExecuteTime", "scrolled", "collapsed"}  # removed without a word


@pytest.fixture
def preprocessor(course):
    return RestoreReleaseMetadata(config=course)


class TestRestoreReleaseMetadata:
    @pytest.mark.timeout(30)
    def test_colab_notebook_metadata_becomes_the_release(
        self, preprocessor, read_nb, release, resources
    ):
        """A notebook saved by Colab gets the release's notebook metadata, Colab's key gone."""
        nb = read_nb("colab_saved")
        assert "colab" in nb.metadata

        nb, _ = preprocessor.preprocess(nb, resources)

        assert nb.metadata.get("kernelspec") == release.metadata.kernelspec
        assert "colab" not in nb.metadata
        assert {k: v for k, v in nb.metadata.items() if k != "classroom"} == release.metadata

    @pytest.mark.timeout(30)
    def test_colab_cell_metadata_removed_nbgrader_metadata_kept(
        self, preprocessor, read_nb, release, resources
    ):
        """Colab's cell keys (colab, id, outputId) go; every cell keeps its nbgrader metadata."""
        nb = read_nb("colab_saved")
        assert any(COLAB_CELL_KEYS & set(cell.metadata) for cell in nb.cells)

        nb, _ = preprocessor.preprocess(nb, resources)

        for cell, released in zip(nb.cells, release.cells, strict=True):
            assert not COLAB_CELL_KEYS & set(cell.metadata), cell.metadata
            assert cell.metadata.get("nbgrader") == released.metadata.get("nbgrader")

    @pytest.mark.timeout(30)
    def test_colab_outputs_cleared(self, preprocessor, read_nb, resources):
        """The outputs and execution counts Colab saved are cleared."""
        nb = read_nb("colab_saved")
        assert nb.cells[1].outputs and nb.cells[1].execution_count is not None

        nb, _ = preprocessor.preprocess(nb, resources)

        code = [cell for cell in nb.cells if cell.cell_type == "code"]
        assert all(cell.outputs == [] and cell.execution_count is None for cell in code)

    @pytest.mark.timeout(30)
    def test_colab_noted_once(self, preprocessor, read_nb, resources):
        """A Colab notebook gets one format note naming Colab (not one per removed key)."""
        nb, _ = preprocessor.preprocess(read_nb("colab_saved"), resources)

        notes = notes_of(nb)
        assert [note.kind for note in notes] == ["format"]
        assert "Colab" in notes[0].text

    @pytest.mark.timeout(30)
    def test_switched_kernel_restored_and_noted(self, preprocessor, read_nb, release, resources):
        """A learner's conda kernel is replaced by the lesson's, with a note naming both."""
        nb, _ = preprocessor.preprocess(read_nb("kernel_switched"), resources)

        assert nb.metadata.kernelspec == release.metadata.kernelspec
        assert nb.metadata.language_info == release.metadata.language_info
        (note,) = notes_of(nb)
        assert note.kind == "format"
        assert "'conda-env-robots-py'" in note.text and "'python3'" in note.text

    @pytest.mark.timeout(30)
    def test_editor_cell_metadata_removed_and_noted(self, preprocessor, read_nb, resources):
        """Editors' cell keys are removed; the note lists those that are not housekeeping."""
        nb, _ = preprocessor.preprocess(read_nb("editor_metadata"), resources)

        for cell in nb.cells:
            assert not EDITOR_CELL_KEYS & set(cell.metadata), cell.metadata
        (note,) = notes_of(nb)
        assert note.kind == "format"
        assert note.text == "cell metadata removed: vscode"
        assert not any(key in note.text for key in HOUSEKEEPING_KEYS)

    @pytest.mark.timeout(30)
    def test_broken_nbgrader_metadata_dropped(self, preprocessor, read_nb, resources):
        """nbgrader metadata without a grade_id ({} or junk), which stops nbgrader, is dropped."""
        nb = read_nb("editor_metadata")
        with pytest.raises(SchemaTooOldError):
            CheckCellMetadata().preprocess(nb, {})  # what plain nbgrader does with it

        nb, _ = preprocessor.preprocess(nb, resources)

        assert "nbgrader" not in nb.cells[0].metadata  # the markdown cell's {}
        assert "nbgrader" not in nb.cells[4].metadata  # the learner's cell's {"grade": true}
        CheckCellMetadata().preprocess(nb, {})

    @pytest.mark.timeout(30)
    def test_lesson_without_release_left_alone(self, preprocessor, read_nb):
        """A lesson with no release notebook: the submission is passed on as it came."""
        resources = {"nbgrader": {"assignment": "not-released", "notebook": "not-released"}}

        nb, _ = preprocessor.preprocess(read_nb("colab_saved"), resources)

        assert nb == read_nb("colab_saved")
