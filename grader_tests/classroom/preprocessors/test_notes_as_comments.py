"""NotesAsComments: the grader's notes reach the formgrader as comments of answer cells.

The fixture notes_in_metadata holds five notes (its docstring in make_fixtures.py): a Colab
repair twice, a cell timeout, a replay and a stderr line. The toy lesson's course (conftest's
`toy_course`) gets one submission whose answer cells already carry nbgrader's own comment.
"""

import copy

import pytest
from nbgrader.api import Gradebook
from nbgrader.coursedir import CourseDirectory

from classroom import build
from classroom.nbgrader_ext.preprocessors.notes_as_comments import PREFIX, NotesAsComments

LESSON, STUDENT = "toy", "grace"
OWN = "No response."  # what nbgrader's autograde may already have written


pytestmark = pytest.mark.filterwarnings("ignore:.*not in session")


@pytest.fixture(scope="module")
def submitted(toy_course):
    """The nbgrader resources of a toy submission whose answers have a comment of their own."""
    db_url = CourseDirectory(config=build.load_nbgrader_config(toy_course)).db_url
    with Gradebook(db_url) as gb:
        gb.add_student(STUDENT)
        for comment in gb.add_submission(LESSON, STUDENT).notebooks[0].comments:
            comment.auto_comment = OWN
        gb.db.commit()
    info = {"db_url": db_url, "assignment": LESSON, "notebook": LESSON, "student": STUDENT}
    return {"nbgrader": info}


def comments(resources) -> dict[str, str]:
    info = resources["nbgrader"]
    with Gradebook(info["db_url"]) as gb:
        found = gb.find_submission_notebook(LESSON, LESSON, STUDENT).comments
        return {c.name: c.auto_comment for c in found}


def test_each_note_once_under_its_answer_cell_after_nbgrader_s_own(submitted, read_nb):
    nb = read_nb("notes_in_metadata")
    quiz_note = nb.metadata["classroom"]["notes"][4]
    quiz_note["grade_id"] = "quiz_double"  # a note about the quiz's answer cell
    NotesAsComments().preprocess(copy.deepcopy(nb), copy.deepcopy(submitted))
    NotesAsComments().preprocess(copy.deepcopy(nb), copy.deepcopy(submitted))  # run again
    found = comments(submitted)
    assert found["double"].splitlines() == [
        OWN,
        PREFIX + "saved by Google Colab: Colab's metadata removed",
        PREFIX + "interrupted after 60 s",
    ]
    assert found["quiz_double"].splitlines() == [OWN, PREFIX + quiz_note["text"]]
    assert not any("ran 2 cells" in text for text in found.values()), "replays are not notes"


def test_a_notebook_without_notes_leaves_the_comments_alone(submitted, read_nb):
    before = comments(submitted)
    NotesAsComments().preprocess(read_nb("correct_answers"), copy.deepcopy(submitted))
    assert comments(submitted) == before
