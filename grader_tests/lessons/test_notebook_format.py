"""The committed notebooks: source/ is clean and well formed, and release/ and solution/ are
what `python -m classroom.build` makes of it, with no solution or hidden test leaking."""

import ast
import re

import pytest
from learner_checks import quiz_cells

from classroom import build
from classroom.nbgrader_ext import notebooks
from course import quiz

SNAKE_CASE = re.compile(r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$")
LESSON_NAME = re.compile(r"^\d\d-[a-z0-9]+(?:-[a-z0-9]+)*$")
# nbgrader's delimiters, spelled as the course writes them; a near miss ("### BEGIN HIDDEN
# TEST") is not a delimiter to nbgrader, so its hidden test would ship in the release.
DELIMITERS = {
    "### BEGIN SOLUTION",
    "### END SOLUTION",
    "### BEGIN HIDDEN TESTS",
    "### END HIDDEN TESTS",
}
DELIMITER_LIKE = re.compile(r"\b(BEGIN|END)\b.*\b(SOLUTION|HIDDEN)", re.IGNORECASE)

BUILD_HINT = "rebuild with: python -m classroom.build"


def _source(lesson, repo_root):
    return notebooks.read(notebooks.lesson_notebook(lesson, "source", repo_root))


def _nbgrader_cells(nb):
    for index, cell in enumerate(nb.cells):
        meta = cell.metadata.get("nbgrader")
        if meta:
            yield index, cell, meta


def _first_statement_problem(source):
    """Why the cell does not open with a one-line docstring (None when it does)."""
    from IPython.core.inputtransformer2 import TransformerManager

    try:
        tree = ast.parse(TransformerManager().transform_cell(source))
    except SyntaxError as exc:
        return f"does not parse: {exc}"
    first = tree.body[0] if tree.body else None
    if not (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    ):
        return "does not open with a docstring saying what it checks"
    text = first.value.value.strip()
    if not text or "\n" in text or first.lineno != first.end_lineno:
        return "its docstring is not one line"
    return None


def test_every_source_folder_is_a_lesson(repo_root):
    source = repo_root / "source"
    folders = [
        f
        for f in source.iterdir()
        if f.is_dir() and not notebooks.is_ignored(f.relative_to(source))
    ]
    for folder in folders:
        assert (folder / f"{folder.name}.ipynb").is_file(), (
            f"source/{folder.name}/ has no {folder.name}.ipynb, so no test would see it"
        )
        assert LESSON_NAME.match(folder.name), f"source/{folder.name}: name lessons NN-short-name"


def test_no_release_or_solution_folder_without_a_lesson(repo_root):
    problems = build.orphan_problems(root=repo_root)
    assert not problems, "\n".join(problems)


@pytest.mark.timeout(300)
def test_release_and_solution_match_source(lesson, repo_root):
    problems = build.check([lesson], root=repo_root)
    assert not problems, "\n".join(problems + [BUILD_HINT])


def test_no_solution_or_hidden_test_leaks(lesson, repo_root):
    problems = build.leak_problems([lesson], root=repo_root)
    assert not problems, "\n".join(problems)


def test_source_notebook_is_clean(lesson, repo_root):
    problems = build.source_problems(notebooks.lesson_notebook(lesson, "source", repo_root))
    assert not problems, "\n".join(problems + [f"fix with: {build.NORMALISE_HINT}"])


def test_grade_ids_are_unique(lesson, repo_root):
    seen = {}
    for index, _, meta in _nbgrader_cells(_source(lesson, repo_root)):
        seen.setdefault(meta.get("grade_id"), []).append(index)
    duplicates = {grade_id: cells for grade_id, cells in seen.items() if len(cells) > 1}
    assert not duplicates, f"{lesson}: grade_ids used by more than one cell: {duplicates}"


def test_test_cells_are_well_formed(lesson, repo_root):
    problems = []
    tests = 0
    for index, cell, meta in _nbgrader_cells(_source(lesson, repo_root)):
        if not meta.get("grade") or meta.get("solution"):
            continue
        tests += 1
        grade_id = meta.get("grade_id", "")
        where = f"cell {index} ({grade_id or 'no grade_id'})"
        if not SNAKE_CASE.match(grade_id):
            problems.append(f"{where}: grade_id is not snake_case")
        if not float(meta.get("points") or 0) > 0:
            problems.append(f"{where}: points must be more than 0")
        if not meta.get("locked"):
            problems.append(f"{where}: test cells are locked")
        if cell.cell_type != "code":
            problems.append(f"{where}: a test cell is a code cell")
        else:
            problem = _first_statement_problem(cell.source)
            if problem:
                problems.append(f"{where}: {problem}")
    assert tests, f"{lesson}: no test cells (grade: true, solution: false)"
    assert not problems, "\n".join(problems)


def test_answer_cells_are_well_formed(lesson, repo_root):
    problems = []
    for index, _, meta in _nbgrader_cells(_source(lesson, repo_root)):
        if not meta.get("solution"):
            continue
        grade_id = meta.get("grade_id", "")
        where = f"cell {index} ({grade_id or 'no grade_id'})"
        if not SNAKE_CASE.match(grade_id):
            problems.append(f"{where}: name answer cells after their function or variable")
        if meta.get("grade"):
            problems.append(f"{where}: an answer cell is not graded itself (grade: false)")
    assert not problems, "\n".join(problems)


def test_delimiters_are_spelled_exactly(lesson, repo_root):
    problems = []
    for index, cell in enumerate(_source(lesson, repo_root).cells):
        comments = [line for line in cell.source.splitlines() if line.strip().startswith("#")]
        for line in comments if cell.cell_type == "code" else []:
            if DELIMITER_LIKE.search(line) and line.strip() not in DELIMITERS:
                problems.append(
                    f"cell {index}: {line.strip()!r} is not one of {sorted(DELIMITERS)}"
                )
    assert not problems, "\n".join(problems)


def test_prediction_answer_cells_say_what_counts(lesson, repo_root):
    """Each prediction's answer cell is quiz.prediction_cell: the buttons set the variable for
    this session only, and only the letter written in the cell counts (no cell claims the
    buttons fill the cell in)."""
    nb = _source(lesson, repo_root)
    problems = []
    for question in quiz_cells(nb):
        if question.answer is None:
            continue  # a graded question: its nbgrader answer cell says what is graded
        setting = [
            index
            for index, cell in enumerate(nb.cells)
            if cell.cell_type == "code" and f"{question.name} = None" in cell.source.splitlines()
        ]
        wanted = quiz.prediction_cell(question.name, question.choices)
        if len(setting) != 1 or nb.cells[setting[0]].source != wanted:
            problems.append(f"{question.name}: answer cells {setting}, want {wanted!r}")
    stale = [i for i, cell in enumerate(nb.cells) if "fill it in" in cell.source]
    assert not problems and not stale, "\n".join(
        problems + [f"cell {i}: 'fill it in'" for i in stale]
    )


def test_start_page_is_in_release_and_names_every_lesson(repo_root, lessons):
    """release/START.md, the lessons folder's first page, is the build's copy of
    source/START.md, names every lesson's folder and says where to begin."""
    assert build.start_page_problems(root=repo_root) == []
    page = (repo_root / "release" / build.START_PAGE).read_text(encoding="utf-8")
    missing = [lesson for lesson in lessons if f"`{lesson}`" not in page]
    assert missing == [], f"START.md does not name {missing}"
    assert f"Begin with `{lessons[0]}/{lessons[0]}.ipynb`" in " ".join(page.split())
