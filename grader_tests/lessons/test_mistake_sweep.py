"""The mistakes sweep (grader_tests/support/sweep_hidden_cases.py --mistakes) on a few seeds:
it finds a wrong answer that passes a test it should lose, and finds none in a lesson's
fixtures. The full sweep (100 seeds, every lesson) is run by hand; see the script.

Nothing here names a lesson but the one the sweep itself is tried on: a lesson's own test
module declares `ESCAPED_SEEDS`, {salt: seeds} on which a mistake once passed a test's hidden
part, and each is swept again here, hidden part only."""

import importlib

import lesson_code
import pytest
import sweep_hidden_cases

from course import lessons

LESSON = "02-time-integration"
SEEDS = range(3)
SALT = 20261206

# A "mistake" that is the solution itself: the test it names passes on every seed.
DISGUISED_SOLUTION = '''"""rk4 as the solution writes it, a comment added."""

LOSES = {"rk4_matches_mj_step"}

EDITS = {"rk4": [("    return x_new, v_new", "    return x_new, v_new  # unchanged")]}
'''


@pytest.fixture
def autograde_env(monkeypatch):
    """The sweep sets NBGRADER_EXECUTION as the grader does; put it back after."""
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")


@pytest.mark.timeout(60)
def test_a_wrong_answer_that_passes_is_reported_on_every_seed(tmp_path, autograde_env):
    """A fixture whose answer is right passes the test it claims to lose on each seed; the
    sweep says so, one escape per seed."""
    (tmp_path / "disguised_solution.py").write_text(DISGUISED_SOLUTION)
    escapes, ran = sweep_hidden_cases.sweep_mistakes(LESSON, SEEDS, SALT, folder=tmp_path)
    assert ran == len(SEEDS)
    assert [(e.mistake, e.grade_id, e.seed) for e in escapes] == [
        ("disguised_solution", "rk4_matches_mj_step", seed) for seed in SEEDS
    ]


@pytest.mark.timeout(60)
def test_the_lessons_mistakes_lose_their_tests_on_a_few_seeds(capsys, autograde_env):
    """Every mistake fixture of the lesson fails each test it LOSES on each seed swept, and
    the command exits 0 saying so."""
    assert sweep_hidden_cases.main([LESSON, "--mistakes", "--seeds", "3", "--salt", "7"]) == 0
    assert f"{LESSON}: 0 mistake pass(es)" in capsys.readouterr().out


def escaped_seeds(lesson: str) -> dict[int, tuple[int, ...]]:
    """{salt: seeds} the lesson's own test module declares (none: {})."""
    return dict(
        getattr(importlib.import_module(lesson_code.own_tests(lesson)), "ESCAPED_SEEDS", {})
    )


ESCAPED = [
    (lesson, salt, seeds)
    for lesson in lessons.registry()
    for salt, seeds in escaped_seeds(lesson).items()
]


@pytest.mark.timeout(60)
@pytest.mark.parametrize(("lesson", "salt", "seeds"), ESCAPED)
def test_hidden_draws_catch_the_mistakes_that_once_escaped(lesson, salt, seeds, autograde_env):
    """On the seeds where a mistake once passed a test's hidden part (found by
    sweep_hidden_cases.py --mistakes --hidden-only), every mistake now fails the hidden part
    of each test it LOSES."""
    escapes, _ = sweep_hidden_cases.sweep_mistakes(lesson, seeds, salt, hidden_only=True)
    assert escapes == []


def test_the_escaped_seeds_are_found():
    """The registry reads the lessons' declarations (five lessons declared some)."""
    assert len({lesson for lesson, _, _ in ESCAPED}) >= 5
