"""GetGrades: the feedback chain's first step gives every cell the score, points and comment
nbgrader's GetGrades gives it, and the notebook the same totals and late penalty, from one
read of the submission; a grade the gradebook lacks fails as nbgrader's does.

The toy lesson's course (conftest's `toy_course`) gets one submission, with scores and
comments set by hand.
"""

import copy

import pytest
from nbgrader.api import Gradebook, MissingEntry
from nbgrader.coursedir import CourseDirectory
from nbgrader.preprocessors import GetGrades as NbgraderGetGrades

from classroom import build
from classroom.nbgrader_ext.preprocessors import GetGrades

LESSON, STUDENT = "toy", "ada"


# nbgrader's add_submission trips SQLAlchemy 2's autoflush warnings, as in the grader
pytestmark = pytest.mark.filterwarnings("ignore:.*not in session")


@pytest.fixture(scope="module")
def graded(toy_course, read_nb):
    """(resources, notebook) of a toy submission whose grades differ cell by cell."""
    db_url = CourseDirectory(config=build.load_nbgrader_config(toy_course)).db_url
    with Gradebook(db_url) as gb:
        gb.add_student(STUDENT)
        submission = gb.add_submission(LESSON, STUDENT)
        notebook = submission.notebooks[0]
        grades = sorted(notebook.grades, key=lambda g: g.name)
        for k, grade in enumerate(grades):  # each cell a score of its own
            grade.auto_score = min(grade.max_score, 0.1 + 0.13 * k)
        for k, comment in enumerate(notebook.comments):
            comment.auto_comment = f"comment {k} on {comment.name}"
        notebook.late_submission_penalty = 0.5
        gb.db.commit()
    info = {"db_url": db_url, "assignment": LESSON, "notebook": LESSON, "student": STUDENT}
    return {"nbgrader": info}, read_nb("correct_answers")


def fields(nb) -> list:
    keys = ("score", "points", "comment")
    return [{k: c.metadata.get("nbgrader", {}).get(k) for k in keys} for c in nb.cells]


def test_every_cell_and_the_totals_are_nbgrader_s(graded):
    resources, nb = graded
    theirs, their_resources = NbgraderGetGrades().preprocess(
        copy.deepcopy(nb), copy.deepcopy(resources)
    )
    ours, our_resources = GetGrades().preprocess(copy.deepcopy(nb), copy.deepcopy(resources))
    assert fields(ours) == fields(theirs)
    scores = [f["score"] for f in fields(ours) if f["score"] is not None]
    comments = [f["comment"] for f in fields(ours) if f["comment"]]
    assert len(set(scores)) == len(scores) >= 2 and comments, "the fixture must tell cells apart"
    assert our_resources == their_resources
    assert our_resources["nbgrader"]["late_penalty"] == 0.5


def test_a_grade_the_gradebook_lacks_fails_as_nbgrader_s(graded):
    resources, nb = graded
    nb = copy.deepcopy(nb)
    cell = next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade"))
    cell.metadata.nbgrader["grade_id"] = "not-in-the-gradebook"
    for preprocessor in (NbgraderGetGrades(), GetGrades()):
        with pytest.raises(MissingEntry):
            preprocessor.preprocess(copy.deepcopy(nb), copy.deepcopy(resources))
