"""Every lesson's autograder, checked by grading a class with real nbgrader.

For each lesson in source/ one `nbgrader autograde` run grades: "solution" (the release with
the source's solutions filled in), "blank" (the release as handed out), "rebinds-numpy" (the
blank release plus an answer cell that makes np.allclose and numpy.testing.assert_allclose
accept anything) and one student per fixture in grader_tests/mistakes/<lesson>/.
"""

import pytest
from nbgrader_harness import (
    GradingResult,
    answer_cells,
    autograded_cells,
    blank_release,
    demo_class,
    full_marks_problems,
    grade,
    graded_problems,
    load_mistakes,
    mistake_problems,
    zero_problems,
)

# Grading a class of about 15 submissions whose notebook runs 5 to 10 s each takes a few
# minutes; the first test of a lesson pays for it.
GRADING_TIMEOUT = 900


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """graded(lesson) -> GradingResult, from a single nbgrader autograde run per lesson."""
    results = {}

    def get(lesson: str) -> GradingResult:
        if lesson not in results:
            try:
                _release(lesson)
                workdir = tmp_path_factory.mktemp(f"grade-{lesson}")
                results[lesson] = grade(lesson, demo_class(lesson), workdir)
            except Exception as exc:  # remembered, so the class is graded at most once
                results[lesson] = exc
        if isinstance(results[lesson], Exception):
            pytest.fail(f"{lesson}: could not grade the class: {results[lesson]}")
        return results[lesson]

    return get


def _release(lesson: str):
    """The committed release notebook; a test fails with the fix when it is missing."""
    try:
        return blank_release(lesson)
    except FileNotFoundError:
        pytest.fail(f"release/{lesson}/{lesson}.ipynb is missing: python -m classroom.build")


def _log_tail(result: GradingResult, lines: int = 40) -> str:
    return "\n".join(result.log.splitlines()[-lines:])


def _assert_none(result: GradingResult, student: str, found: list[str], why: str) -> None:
    """Fail with `why` and the student's graded cells when `found` lists problems."""
    assert not found, why + "\n" + result.describe(student, [ln.split(":")[0] for ln in found])


def _assert_graded(result: GradingResult, lesson: str, students) -> None:
    """Every test cell of the lesson has an automatic score for each of `students`."""
    expected = set(autograded_cells(_release(lesson)))
    problems = [p for student in students for p in graded_problems(result, student, expected)]
    assert not problems, "\n".join(problems)


@pytest.mark.timeout(GRADING_TIMEOUT)
def test_solution_scores_full_marks(lesson, graded):
    result = graded(lesson)
    _assert_graded(result, lesson, ["solution"])
    why = f"{lesson}: the solution loses points, so the lesson cannot ship:"
    _assert_none(result, "solution", full_marks_problems(result, "solution"), why)


@pytest.mark.timeout(GRADING_TIMEOUT)
def test_blank_scores_zero_without_crashing(lesson, graded):
    result = graded(lesson)
    log = _log_tail(result)
    assert result.returncode == 0, f"nbgrader autograde exited with {result.returncode}:\n{log}"
    _assert_graded(result, lesson, result.students)
    why = f"{lesson}: the untouched release earns points; a test passes without an answer:"
    _assert_none(result, "blank", zero_problems(result, "blank"), why)


@pytest.mark.timeout(GRADING_TIMEOUT)
def test_rebinding_numpy_comparisons_earns_nothing(lesson, graded):
    result = graded(lesson)
    why = (
        f"{lesson}: a blank release with `np.allclose = lambda *a, **k: True` earns points; "
        "compare with something the learner cannot rebind:"
    )
    _assert_none(result, "rebinds-numpy", zero_problems(result, "rebinds-numpy"), why)


@pytest.mark.timeout(GRADING_TIMEOUT)
def test_mistake_loses_exactly_its_cells(lesson, mistake, graded):
    result = graded(lesson)
    problems = mistake_problems(result, mistake)
    assert not problems, (
        f"{lesson}: mistake {mistake.name!r} ({mistake.doc}) should lose exactly "
        f"{sorted(mistake.loses)}:\n  "
        + "\n  ".join(problems)
        + "\n"
        + result.describe(mistake.student)
    )


@pytest.mark.timeout(60)
def test_mistake_fixture_names_real_cells(lesson, mistake):
    release = _release(lesson)
    answers, tests = set(answer_cells(release)), set(autograded_cells(release))
    assert set(mistake.cells) <= answers, (
        f"{mistake.path}: CELLS names {sorted(set(mistake.cells) - answers)}; "
        f"answer cells are {sorted(answers)}"
    )
    assert mistake.loses <= tests, (
        f"{mistake.path}: LOSES names {sorted(mistake.loses - tests)}; "
        f"test cells are {sorted(tests)}"
    )


@pytest.mark.timeout(60)
def test_lesson_has_mistake_fixtures(lesson):
    assert load_mistakes(lesson), (
        f"{lesson}: add at least one typical mistake as grader_tests/mistakes/{lesson}/<name>.py"
    )
