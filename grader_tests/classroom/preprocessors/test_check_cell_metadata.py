"""CheckCellMetadata: nbgrader's check of the nbgrader metadata, its schema compiled once,
refuses exactly what nbgrader's own refuses, with the same error."""

import pytest
from nbgrader.nbgraderformat import MetadataValidator
from nbgrader.preprocessors import CheckCellMetadata as NbgraderCheckCellMetadata

from classroom.nbgrader_ext.preprocessors import CheckCellMetadata
from classroom.nbgrader_ext.preprocessors.check_cell_metadata import FastMetadataValidator


def first_graded(nb):
    return next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade"))


def points_not_a_number(nb):
    first_graded(nb).metadata.nbgrader["points"] = "two"


def no_points(nb):
    del first_graded(nb).metadata.nbgrader["points"]


def empty_grade_id(nb):
    first_graded(nb).metadata.nbgrader["grade_id"] = ""


def duplicate_grade_id(nb):
    graded = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id")]
    graded[1].metadata.nbgrader["grade_id"] = graded[0].metadata.nbgrader["grade_id"]


def unknown_key_type(nb):
    first_graded(nb).metadata.nbgrader["locked"] = "yes"


def schema_too_old(nb):
    first_graded(nb).metadata.nbgrader["schema_version"] = 2


def schema_too_new(nb):
    first_graded(nb).metadata.nbgrader["schema_version"] = 4


CORRUPTIONS = [
    points_not_a_number,
    no_points,
    empty_grade_id,
    duplicate_grade_id,
    unknown_key_type,
    schema_too_old,
    schema_too_new,
]


def refusal(validator, nb):
    """(exception class, first line of its message) the validator raises for nb."""
    with pytest.raises(Exception) as raised:
        validator.validate_nb(nb)
    return type(raised.value), str(raised.value).splitlines()[0]


class TestCheckCellMetadata:
    @pytest.mark.timeout(30)
    @pytest.mark.parametrize("name", ["release", "source", "correct_answers"])
    def test_accepts_what_nbgrader_accepts(self, read_nb, name):
        """Sound notebooks pass both checks, and the preprocessor hands them on."""
        MetadataValidator().validate_nb(read_nb(name))
        nb = read_nb(name)
        out, resources = CheckCellMetadata().preprocess(nb, {"x": 1})
        assert out is nb and resources == {"x": 1}

    @pytest.mark.timeout(30)
    @pytest.mark.parametrize("corrupt", CORRUPTIONS, ids=lambda f: f.__name__)
    def test_refuses_what_nbgrader_refuses_with_its_error(self, read_nb, corrupt):
        theirs, ours = read_nb("source"), read_nb("source")
        corrupt(theirs)
        corrupt(ours)
        assert refusal(FastMetadataValidator(), ours) == refusal(MetadataValidator(), theirs)

    @pytest.mark.timeout(30)
    def test_preprocessor_raises_nbgraders_validation_error(self, read_nb):
        """In a chain it stops the notebook as nbgrader's preprocessor does."""
        nb = read_nb("source")
        points_not_a_number(nb)
        with pytest.raises(Exception) as ours:
            CheckCellMetadata().preprocess(nb, {})
        with pytest.raises(Exception) as theirs:
            NbgraderCheckCellMetadata().preprocess(nb, {})
        assert type(ours.value) is type(theirs.value)
        assert str(ours.value) == str(theirs.value)

    @pytest.mark.timeout(60)
    def test_faster_than_nbgraders(self, read_nb):
        """The reason it exists: measured on the same notebook, in the same process, it takes
        under half of nbgrader's time (the schema is not checked again for every cell)."""
        import time

        nb = read_nb("source")
        FastMetadataValidator().validate_nb(nb)  # the one-time compile, not timed

        def best(validator_class):
            times = []
            for _ in range(5):
                start = time.perf_counter()
                validator_class().validate_nb(nb)
                times.append(time.perf_counter() - start)
            return min(times)

        assert best(FastMetadataValidator) < 0.5 * best(MetadataValidator)
