"""The course's nbgrader preprocessors, one per module, and the chains they go into.

nbgrader is extended the way it is built: each preprocessor is inserted into one of nbgrader's
own chains (`Autograde.sanitize_preprocessors`, `Autograde.autograde_preprocessors`,
`GenerateFeedback.preprocessors`), by nbgrader_config.py, so `nbgrader autograde` and
`nbgrader generate_feedback` run them as the course's grading command does.

- sanitize: RestoreReleaseMetadata, MatchCellsToRelease, UniqueCellIds, then nbgrader's own;
  CheckCellMetadata (nbgrader's check, its schema compiled once) in place of nbgrader's, at
  the end of both the sanitize and the autograde chain;
- autograde: GuardedExecute in place of Execute (a sandboxed kernel that never runs a test
  cell), then DecideVerdicts (each test's points decided in this process, against the
  learner's answers in a sandboxed NumPy-only process), before SaveAutoGrades, and
  NotesAsComments after it (the grader's notes as gradebook comments, for the formgrader);
- feedback: GetGrades (nbgrader's, each submission's grades read in one go) in place of
  nbgrader's, then HideHiddenTests, FeedbackSummary and GraderNotes.

Each chain is written here once, as the dotted names nbgrader's configuration takes; the
grading command's workers build their feedback chain from FEEDBACK too (`feedback_chain`).
"""

from collections.abc import Sequence

from classroom.nbgrader_ext.preprocessors.check_cell_metadata import CheckCellMetadata
from classroom.nbgrader_ext.preprocessors.decide_verdicts import DecideVerdicts
from classroom.nbgrader_ext.preprocessors.feedback_summary import FeedbackSummary
from classroom.nbgrader_ext.preprocessors.get_grades import GetGrades
from classroom.nbgrader_ext.preprocessors.grader_notes import GraderNotes
from classroom.nbgrader_ext.preprocessors.guarded_execute import GuardedExecute
from classroom.nbgrader_ext.preprocessors.hide_hidden_tests import HideHiddenTests
from classroom.nbgrader_ext.preprocessors.match_cells_to_release import MatchCellsToRelease
from classroom.nbgrader_ext.preprocessors.notes_as_comments import NotesAsComments
from classroom.nbgrader_ext.preprocessors.restore_release_metadata import RestoreReleaseMetadata
from classroom.nbgrader_ext.preprocessors.unique_cell_ids import UniqueCellIds

__all__ = [
    "CheckCellMetadata",
    "DecideVerdicts",
    "FeedbackSummary",
    "GetGrades",
    "GraderNotes",
    "GuardedExecute",
    "HideHiddenTests",
    "MatchCellsToRelease",
    "NotesAsComments",
    "RestoreReleaseMetadata",
    "UniqueCellIds",
    "SANITIZE",
    "AUTOGRADE",
    "FEEDBACK",
    "configure",
    "feedback_chain",
]

_OURS = "classroom.nbgrader_ext.preprocessors."
_NBGRADER = "nbgrader.preprocessors."

SANITIZE = (
    _OURS + "RestoreReleaseMetadata",
    _OURS + "MatchCellsToRelease",
    _OURS + "UniqueCellIds",
    _NBGRADER + "ClearOutput",
    _NBGRADER + "DeduplicateIds",
    _NBGRADER + "OverwriteKernelspec",
    _NBGRADER + "OverwriteCells",
    _OURS + "CheckCellMetadata",
)
AUTOGRADE = (
    _OURS + "GuardedExecute",
    _OURS + "DecideVerdicts",
    _NBGRADER + "IgnorePattern",
    "nbconvert.preprocessors.ClearMetadataPreprocessor",
    _NBGRADER + "LimitOutput",
    _NBGRADER + "SaveAutoGrades",
    _OURS + "NotesAsComments",
    _NBGRADER + "AssignLatePenalties",
    _OURS + "CheckCellMetadata",
)
FEEDBACK = (
    _OURS + "GetGrades",
    _OURS + "HideHiddenTests",
    _OURS + "FeedbackSummary",
    _OURS + "GraderNotes",
    "nbconvert.preprocessors.CSSHTMLHeaderPreprocessor",
)


def configure(c, sandboxed: bool = True) -> None:
    """Put the course's preprocessors into nbgrader's chains of the configuration `c`; with
    sandboxed False, learners' code runs unsandboxed (with the grader's rights)."""
    c.Autograde.sanitize_preprocessors = list(SANITIZE)
    c.Autograde.autograde_preprocessors = list(AUTOGRADE)
    c.GenerateFeedback.preprocessors = list(FEEDBACK)
    c.GuardedExecute.sandboxed = sandboxed
    c.DecideVerdicts.sandboxed = sandboxed


def feedback_chain(config, notes: Sequence[str]) -> list:
    """FEEDBACK for one submission of the grading command, in its order: each step by its
    dotted name (the exporter builds it, as for `nbgrader generate_feedback`), except
    GraderNotes, built here with `notes`, the sentences the command adds to the notebook's own
    notes."""
    return [
        GraderNotes(config=config, notes=list(notes)) if name == _OURS + "GraderNotes" else name
        for name in FEEDBACK
    ]
