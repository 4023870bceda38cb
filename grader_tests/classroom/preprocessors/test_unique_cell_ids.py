"""UniqueCellIds: every cell has a valid id no other cell has, as nbformat 4.5 requires."""

import re

import nbformat
import pytest

from classroom.nbgrader_ext.notes import notes_of
from classroom.nbgrader_ext.preprocessors import UniqueCellIds

VALID_ID = re.compile(r"[a-zA-Z0-9_-]{1,64}")  # nbformat 4.5's cell id


@pytest.fixture
def preprocessor():
    return UniqueCellIds()


def ids(nb):
    return [cell.get("id") for cell in nb.cells]


def all_valid_and_unique(nb):
    found = ids(nb)
    return len(set(found)) == len(found) and all(
        isinstance(cid, str) and VALID_ID.fullmatch(cid) for cid in found
    )


class TestUniqueCellIds:
    @pytest.mark.timeout(30)
    def test_colab_notebook_gets_ids_and_nbformat_45(self, preprocessor, read_nb):
        """A Colab notebook (nbformat 4.0, no ids) gets an id on every cell and becomes 4.5."""
        nb = read_nb("colab_saved")
        assert nb.nbformat_minor == 0 and not any(ids(nb))

        nb, _ = preprocessor.preprocess(nb, {})

        assert (nb.nbformat, nb.nbformat_minor) == (4, 5)
        assert all_valid_and_unique(nb)
        nbformat.validate(nb)

    @pytest.mark.timeout(30)
    def test_added_ids_noted(self, preprocessor, read_nb):
        """The note counts the ids added to the Colab notebook's eight cells."""
        nb, _ = preprocessor.preprocess(read_nb("colab_saved"), {})

        (note,) = notes_of(nb)
        assert note.kind == "format"
        assert "8 added" in note.text

    @pytest.mark.timeout(30)
    def test_duplicate_ids_made_unique(self, preprocessor, read_nb):
        """Ids shared by two cells: the first cell keeps it, the second gets a new one."""
        nb = read_nb("duplicate_cell_ids")
        before = ids(nb)
        assert before.count("double") == 2 and before.count("setup") == 2
        with pytest.raises(nbformat.ValidationError):
            nbformat.validate(nb)

        nb, _ = preprocessor.preprocess(nb, {})

        after = ids(nb)
        assert all_valid_and_unique(nb)
        assert after[1] == "setup" and after[3] == "double"
        assert after[4] != "double" and after[6] != "setup"
        assert [a for a, b in zip(after, before, strict=True) if a != b] == [after[4], after[6]]
        nbformat.validate(nb)

    @pytest.mark.timeout(30)
    def test_duplicate_ids_noted(self, preprocessor, read_nb):
        """The note counts the two ids made unique."""
        nb, _ = preprocessor.preprocess(read_nb("duplicate_cell_ids"), {})

        (note,) = notes_of(nb)
        assert "0 added, 2 made valid and unique" in note.text

    @pytest.mark.timeout(30)
    def test_invalid_ids_replaced_valid_ones_kept(self, preprocessor, read_nb):
        """Ids nbformat rejects (a space, 65 characters, non-ASCII) are replaced; others kept."""
        nb = read_nb("invalid_cell_ids")
        before = ids(nb)
        with pytest.raises(nbformat.ValidationError):
            nbformat.validate(nb)

        nb, _ = preprocessor.preprocess(nb, {})

        after = ids(nb)
        assert all_valid_and_unique(nb)
        for index in (0, 2, 5):  # "my cell", "x" * 65, "prüfung"
            assert after[index] != before[index]
        kept = [i for i, cid in enumerate(before) if VALID_ID.fullmatch(cid or "")]
        assert [after[i] for i in kept] == [before[i] for i in kept]
        nbformat.validate(nb)

    @pytest.mark.timeout(30)
    def test_valid_ids_left_alone(self, preprocessor, release):
        """The release's valid, unique ids stay as they are, and nothing is noted."""
        before = ids(release)

        nb, _ = preprocessor.preprocess(release, {})

        assert ids(nb) == before
        assert notes_of(nb) == []
