"""Hidden cases are fresh for every submission (classroom.nbgrader_ext.verdicts.cases,
expect.hidden_cases).

A hidden test draws its cases from a seed the grader derives from a course secret and the
submission (student, lesson, what the learner wrote). The end-to-end test plays issue 26's
leak: four students of one class each leak one hidden box of `solid_inertia` through an
error message, then a fifth hands in a table of every leaked and shown box. With one fixed
seed for the class, that table would score the cell; with fresh cases it must score 0 on it,
while the same notebook graded again draws the same cases.
"""

from __future__ import annotations

import ast
import multiprocessing
import re
import stat

import lesson_code
import nbgrader_harness as harness
import pytest
from nbformat.v4 import new_code_cell
from sandbox_required import require_sandbox
from tampering import L01, base_notebook

from classroom.nbgrader_ext import notebooks
from classroom.nbgrader_ext.verdicts import cases
from course import expect

BOX_CELL = "solid_inertia_box_matches_mujoco"
SHOWN_BOX_DENSITIES = (12.5, 700.0)  # the visible check's boxes, which every learner sees
LEAKERS = 4  # the hidden test's boxes: one leaker each


# --------------------------------------------------------------------------------------------
# The seed


def test_the_secret_is_made_once_and_kept_private(tmp_path):
    path = cases.secret_path(tmp_path)
    first = cases.secret(path)
    assert len(first) == 32 and cases.secret(path) == first
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert [p.name for p in path.parent.iterdir()] == [cases.SECRET_FILE]  # no draft left


def _make_secret(path: str) -> bytes:
    return cases.secret(path)


def test_processes_making_the_secret_at_once_read_the_same(tmp_path):
    path = str(cases.secret_path(tmp_path))
    with multiprocessing.get_context("fork").Pool(4) as pool:
        made = pool.map(_make_secret, [path] * 8)
    assert len(set(made)) == 1


def test_an_emptied_secret_is_refused(tmp_path):
    path = cases.secret_path(tmp_path)
    path.parent.mkdir(mode=0o700)
    path.write_bytes(b"")
    with pytest.raises(RuntimeError, match="not a secret"):
        cases.secret(path)


def _complete():
    return base_notebook(L01, "complete")


def test_the_digest_reads_what_the_learner_wrote_only():
    nb = _complete()
    before = cases.learner_digest(nb.cells)
    for cell in nb.cells:  # outputs, counts and locked cells are not the learner's writing
        if cell.cell_type == "code":
            cell.outputs = [{"output_type": "stream", "name": "stdout", "text": "ran"}]
            cell.execution_count = 7
    assert cases.learner_digest(nb.cells) == before
    answer = notebooks.answer_cells(nb)["solid_inertia"]
    answer.source += "\n# a comment is a change"
    assert cases.learner_digest(nb.cells) != before
    added = _complete()
    added.cells.insert(3, new_code_cell("x = 1"))
    assert cases.learner_digest(added.cells) != before


def test_the_seed_follows_the_secret_the_student_and_the_work():
    seed = cases.submission_seed(b"k" * 32, "alice", L01, L01, "d1")
    assert seed == cases.submission_seed(b"k" * 32, "alice", L01, L01, "d1")
    assert len(seed) == cases.SEED_WORDS and all(0 <= w < 2**32 for w in seed)
    others = [
        cases.submission_seed(b"j" * 32, "alice", L01, L01, "d1"),
        cases.submission_seed(b"k" * 32, "bob", L01, L01, "d1"),
        cases.submission_seed(b"k" * 32, "alice", "02-time-integration", L01, "d1"),
        cases.submission_seed(b"k" * 32, "alice", L01, L01, "d2"),
    ]
    assert len({seed, *others}) == 5


def test_hidden_cases_come_only_from_the_grader(monkeypatch):
    """Without the grader's seed a hidden test fails in one line; with it, each label draws
    its own stream, the same for the same seed."""
    monkeypatch.setattr(expect, "_HIDDEN_SEED", None)
    with pytest.raises(expect.GradedElsewhere, match="decided only by the course's grader"):
        expect.hidden_cases(1101)
    draw = [lesson_code.hidden_generator(label, 5).uniform(size=3).tolist() for label in (1, 2)]
    assert draw[0] != draw[1]
    assert lesson_code.hidden_generator(1, 5).uniform(size=3).tolist() == draw[0]
    assert lesson_code.hidden_generator(1, 6).uniform(size=3).tolist() != draw[0]


def test_every_hidden_test_that_draws_draws_from_the_grader():
    """No hidden part seeds a generator of its own (a fixed seed serves a leak to the class)."""
    seeded = re.compile(r"default_rng\(|random\.seed\(|RandomState\(")
    found = []
    for lesson in notebooks.discover_lessons():
        for gid, cell in notebooks.test_cells(notebooks.read_lesson(lesson)).items():
            hidden = cell.source.split("### BEGIN HIDDEN TESTS")[-1]
            if seeded.search(hidden):
                found.append(f"{lesson}/{gid}")
    assert found == []


# --------------------------------------------------------------------------------------------
# A leak serves no one


LEAKING = '''
_honest_solid_inertia = solid_inertia
_hidden_boxes = []


def solid_inertia(kind, size, density):
    """The honest answer, except that hidden box number {k} is quoted in an error."""
    if kind == "box" and float(density) not in {shown}:
        _hidden_boxes.append(1)
        if len(_hidden_boxes) == {k}:
            raise ValueError(f"LEAK {{[float(s) for s in size]!r}} {{float(density)!r}}")
    return _honest_solid_inertia(kind, size, density)
'''

TABLE = '''
_TABLE = {table!r}


def solid_inertia(kind, size, density):
    """Looked up in the boxes a class leaked and the lesson showed."""
    mass, moments = _TABLE.get((kind, tuple(float(s) for s in size), float(density)), (0, [0] * 3))
    return mass, list(moments)
'''


def _with_solid_inertia(code: str):
    nb = _complete()
    cell = notebooks.answer_cells(nb)["solid_inertia"]
    cell.source = cell.source.rstrip("\n") + "\n" + code
    return nb


def _leaked(result, student: str) -> tuple[tuple[float, ...], float]:
    """The box a leaker's verdict quotes: (half-sizes, density)."""
    message = result.cell_messages(student).get(BOX_CELL, "")
    found = re.search(r"LEAK (\[[^\]]*\]) ([-+0-9.e]+)", message)
    assert found, f"{student}'s verdict quotes no box: {message!r}"
    return tuple(ast.literal_eval(found.group(1))), float(found.group(2))


def _verdict(result, student: str) -> dict:
    cell = notebooks.test_cells(notebooks.read(result.autograded_notebook(student)))[BOX_CELL]
    return cell.metadata.get("classroom", {}).get("verdict", {})


@pytest.mark.timeout(900)
def test_a_table_of_leaked_cases_scores_nothing_on_the_next_submission(tmp_path):
    require_sandbox()
    course = harness.prepare_course(L01, tmp_path / "course")
    leakers = [f"leaker-{k}" for k in range(1, LEAKERS + 1)]
    for k, student in enumerate(leakers, start=1):
        code = LEAKING.format(k=k, shown=SHOWN_BOX_DENSITIES)
        harness.write_submission(course, L01, student, _with_solid_inertia(code))
    first = harness.autograde(course, L01, students=leakers)
    assert first.returncode == 0, first.log[-3000:]
    leaked = {student: _leaked(first, student) for student in leakers}
    assert len(set(leaked.values())) == LEAKERS, f"the leaks should all differ: {leaked}"

    # What the class leaked and the lesson shows, answered at home with the honest function.
    (honest,) = lesson_code.answers(L01, "solid_inertia")
    shown = [(tuple(s), d) for kind, s, d in _shown_boxes()]
    table = {}
    for size, density in [*leaked.values(), *shown]:
        mass, moments = honest("box", list(size), density)
        table[("box", size, density)] = (float(mass), [float(m) for m in moments])
    harness.write_submission(course, L01, "table", _with_solid_inertia(TABLE.format(table=table)))
    second = harness.autograde(course, L01, students=[*leakers, "table"])
    assert second.returncode == 0, second.log[-3000:]

    assert _verdict(second, "table") == {"visible": "passed", "hidden": "failed"}, second.describe(
        "table", [BOX_CELL]
    )
    assert second.scores["table"][BOX_CELL][0] == 0
    for student in leakers:  # graded again unchanged: the same cases, the same quote
        assert _leaked(second, student) == leaked[student]


def _shown_boxes():
    from course.lessons.world_as_text import checks

    boxes = [case for case in checks.SHAPE_CASES if case[0] == "box"]
    assert tuple(d for _, _, d in boxes) == SHOWN_BOX_DENSITIES
    return boxes
