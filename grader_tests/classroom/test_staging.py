"""A lesson nbgrader cannot generate is named with the reason in one line."""

from __future__ import annotations

from classroom.grading import staging

LOG_WITH_SUBMISSIONS = """Converting notebook source/03/03.ipynb
Traceback (most recent call last):
  File "savecells.py", line 36, in _create_notebook
RuntimeError: Cannot add or remove cells for notebook '03' because there are submissions
There was an error processing assignment '03' for student '.'
"""


def test_changed_lesson_with_submissions_says_what_to_do():
    line = staging._reason("03", LOG_WITH_SUBMISSIONS)
    assert "\n" not in line
    assert "changed after submissions" in line and "new gradebook" in line


def test_other_failures_quote_nbgrader_s_error():
    log = "Traceback (most recent call last):\nValueError: duplicate grade id 'setup'\n"
    assert (
        staging._reason("01", log) == "nbgrader could not generate 01: duplicate grade id 'setup'"
    )


def test_the_cause_is_named_not_the_exception_that_wrapped_it():
    """nbgrader logs an exception again as it wraps it: the first error line is the cause."""
    log = (
        "[GenerateAssignment | ERROR] ValueError: duplicate grade id 'setup'\n"
        "    ValueError: duplicate grade id 'setup'\n"
        "nbgrader.converters.base.NbGraderException: Please see the error log above\n"
    )
    assert staging._reason("01", log).endswith(": duplicate grade id 'setup'")
    wrapped_last = "ValueError: bad cell\nRuntimeError: nbgrader failed on 01\n"
    assert staging._reason("01", wrapped_last) == "nbgrader could not generate 01: bad cell"


def test_a_lesson_the_gradebook_holds_as_released_is_not_generated_again(tmp_path, monkeypatch):
    """The course's gradebook is generated into only when its cells differ from the source's:
    a lesson as released is left as it is, and an edited test cell is written."""
    import nbformat

    from classroom import build
    from classroom.nbgrader_ext import notebooks

    lesson = "03-mass-and-inertia"
    course = build.make_course_dir(lesson, tmp_path / "course")
    main_db = f"sqlite:///{course / 'gradebook.db'}"
    build.seed_gradebook(course)
    written = []
    real_register = staging.register

    def counting(where, name, db_url):
        written.append(db_url)
        real_register(where, name, db_url)

    monkeypatch.setattr(staging, "register", counting)
    for run in range(2):
        staging.prepare(course, tmp_path / f"staging{run}", [lesson], main_db)
    assert written.count(main_db) == 1, written  # the second run found the lesson as it is
    path = notebooks.lesson_notebook(lesson, root=course)
    nb = notebooks.read(path)
    test = next(c for c in nb.cells if notebooks.is_test(c))
    test.source += "\nassert True  # edited after the release"
    nbformat.write(nb, path)
    staging.prepare(course, tmp_path / "staging2", [lesson], main_db)
    assert written.count(main_db) == 2, written
    cells = staging.lesson_cells(main_db, lesson, "mujoco-physics")
    assert any("edited after the release" in c[3] for c in cells[0][1]), cells
