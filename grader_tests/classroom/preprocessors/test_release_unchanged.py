"""The preprocessors that repair a submission against the release (MatchCellsToRelease,
RestoreReleaseMetadata) leave the release itself alone: handed back untouched, it passes
with no change and no note."""

import pytest

from classroom.nbgrader_ext.notes import notes_of
from classroom.nbgrader_ext.preprocessors import MatchCellsToRelease, RestoreReleaseMetadata


@pytest.mark.timeout(30)
@pytest.mark.parametrize("repair", [MatchCellsToRelease, RestoreReleaseMetadata])
def test_release_itself_unchanged(repair, course, read_nb, release, resources):
    """The release handed back untouched passes with no change and no note."""
    nb, _ = repair(config=course).preprocess(read_nb("release"), resources)

    assert nb == release
    assert notes_of(nb) == []
