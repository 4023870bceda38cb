"""A stock nbgrader configuration never scores a point the course's own would not.

A hub-wide formgrader set up without the course's preprocessors runs every test cell in the
learner's kernel, and stock nbgrader counts a cell that does not raise as passed: a blank
lesson, whose visible checks say "not checked yet" in one line so that Run All reaches the
end, scored 20 of 24 there. Now a test cell run by nbgrader's autograde in the kernel fails in
one line saying the lesson must be graded with the course's configuration (`expect`'s
GradedElsewhere), and a hidden test cannot draw its cases outside the course's grader.
"""

from __future__ import annotations

import nbgrader_harness as harness
import pytest
from sandbox_required import require_sandbox
from tampering import L01, base_notebook

from classroom.nbgrader_ext import notebooks
from course import expect

STOCK_CONFIG = '''"""A stock configuration: nbgrader's own chains, none of the course's."""

c = get_config()  # noqa: F821
c.CourseDirectory.course_id = "mujoco-physics"
'''


def _partial():
    """The first half of the answer cells filled in from the source, the rest as released."""
    release = notebooks.read_lesson(L01, "release")
    answers = list(notebooks.answer_cells(release))
    source = notebooks.read_lesson(L01, "source")
    return notebooks.fill_release(release, source, only=set(answers[: len(answers) // 2]))


@pytest.mark.timeout(900)
def test_a_stock_configuration_scores_nothing_the_course_would_not(tmp_path):
    require_sandbox()
    course = harness.prepare_course(L01, tmp_path / "course")
    handed_in = {
        "blank": base_notebook(L01, "blank"),
        "partial": _partial(),
        "complete": base_notebook(L01, "complete"),
    }
    for student, nb in handed_in.items():
        harness.write_submission(course, L01, student, nb)
    ours = harness.autograde(course, L01, students=list(handed_in))
    assert ours.returncode == 0 and not ours.missing, ours.log[-3000:]
    assert sum(s for s, _ in ours.scores["complete"].values()) > 0
    assert 0 < sum(s for s, _ in ours.scores["partial"].values())

    (course / "nbgrader_config.py").write_text(STOCK_CONFIG, encoding="utf-8")
    stock = harness.autograde(course, L01, students=list(handed_in))
    assert stock.returncode == 0 and not stock.missing, stock.log[-3000:]
    more = [
        f"{student}/{gid}: {score:g} under the stock configuration, "
        f"{ours.scores[student][gid][0]:g} under the course's"
        for student in handed_in
        for gid, (score, _) in stock.scores[student].items()
        if score > ours.scores[student][gid][0]
    ]
    assert more == [], "\n".join(more)
    assert sum(s for s, _ in stock.scores["blank"].values()) == 0
    messages = stock.cell_messages("complete")
    refused = [gid for gid, text in messages.items() if expect.GRADED_ELSEWHERE in text]
    assert sorted(refused) == sorted(stock.scores["complete"]), stock.describe("complete")
