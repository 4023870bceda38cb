"""The demo class `make grade` grades: per lesson its complete, blank, partial and typical-mistake
students, and no student handed a lesson they never took (so no cross-lesson empty rows)."""

import pytest

from classroom import demo
from classroom.grading import intake
from classroom.nbgrader_ext import notebooks


@pytest.fixture(scope="module")
def demo_folder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("demo")
    return demo.build_class(notebooks.ROOT, demo.demo_lessons(notebooks.ROOT), folder)


def test_every_lesson_has_its_demo_students(demo_folder, lesson):
    students = {p.name for p in demo_folder.iterdir() if (p / lesson).is_dir()}
    assert set(demo.EVERY_LESSON) <= students
    mistakes = {s for s in students if s.startswith(f"mistake-{lesson[:2]}-")}
    assert len(mistakes) >= 2, f"{lesson}: demo mistake students {sorted(mistakes)}"


def test_mistake_students_take_only_their_lesson(demo_folder):
    for student in demo_folder.iterdir():
        taken = [p.name for p in student.iterdir()]
        if student.name.startswith("mistake-"):
            assert len(taken) == 1, f"{student.name} took {taken}"
            assert taken[0].startswith(student.name[8:10]), taken


def test_the_demo_intake_has_no_row_for_a_lesson_not_taken(demo_folder, lessons):
    jobs = intake.from_submitted(demo_folder, lessons, skip_absent=True).submissions
    empty = [(j.student, j.lesson) for j in jobs if not j.files]
    assert {s for s, _ in empty} == set(), empty
    missing = [j for j in jobs if j.student == "no-notebook"]
    assert len(missing) == len(lessons), "the no-notebook student still has a row per lesson"


def test_a_mistake_student_loses_points_somewhere(demo_folder, lesson):
    """Each demo mistake student's notebook differs from the complete one in an answer cell."""
    complete = notebooks.read(demo_folder / "complete" / lesson / f"{lesson}.ipynb")
    for folder in demo_folder.glob(f"mistake-{lesson[:2]}-*/{lesson}"):
        nb = notebooks.read(folder / f"{lesson}.ipynb")
        differs = [
            gid
            for gid, cell in notebooks.answer_cells(nb).items()
            if cell.source != notebooks.answer_cells(complete)[gid].source
        ]
        assert differs, f"{folder.parent.name} hands in the complete notebook"
