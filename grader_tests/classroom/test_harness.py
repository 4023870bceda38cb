"""The build and the grading harness, tested on a toy lesson made in a temporary course.

The toy lesson (00-toy) has two answer cells, `double` and `quiz_toy`, and three test cells:
one with a hidden part, one that compares with np.allclose (fragile on purpose, to show that
the rebinding submission really rebinds), and a quiz check. It never goes into source/.
"""

import shutil
import textwrap

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook
from nbgrader_harness import (
    REBINDING_LINES,
    Mistake,
    answer_cells,
    autograded_cells,
    blank_release,
    demo_class,
    export_grades,
    filled_release,
    full_marks_problems,
    generate_feedback,
    grade,
    graded_problems,
    load_mistakes,
    mistake_problems,
    zero_problems,
)

from classroom import build
from classroom.nbgrader_ext import notebooks

TOY = "00-toy"
TOY_TESTS = {"double_matches_twice", "double_close_with_numpy", "quiz_toy_is_b"}


def _nbgrader(**fields):
    meta = {"grade": False, "locked": False, "schema_version": 3, "solution": False, "task": False}
    meta.update(fields)
    return {"nbgrader": meta}


def _answer(grade_id, source):
    return new_code_cell(source, metadata=_nbgrader(solution=True, grade_id=grade_id))


def _test(grade_id, points, source):
    return new_code_cell(
        source, metadata=_nbgrader(grade=True, locked=True, points=points, grade_id=grade_id)
    )


def toy_notebook():
    double = '''\
        def double(x):
            """Return twice x (a number or a numpy array)."""
            ### BEGIN SOLUTION
            return 2 * x
            ### END SOLUTION'''
    double_test = """\
        \"\"\"double returns twice its argument, also on cases the learner never saw.\"\"\"
        assert double(2) == 4, "double(2) should be 4"
        ### BEGIN HIDDEN TESTS
        assert [double(v) for v in (0.5, 3, -1)] == [1.0, 6, -2], "multiply by two, do not add"
        ### END HIDDEN TESTS"""
    numpy_test = """\
        \"\"\"double works on arrays (checked with np.allclose, which a learner can rebind).\"\"\"
        assert np.allclose(double(np.arange(3.0)), [0, 2, 4]), "double should work on arrays\""""
    quiz = """\
        ### BEGIN SOLUTION
        quiz_toy = "b"
        ### END SOLUTION"""
    quiz_test = """\
        \"\"\"The quiz answer is b: doubling twice multiplies by four.\"\"\"
        assert quiz_toy == "b", "double(double(x)) is 4 * x\""""
    cells = [
        new_markdown_cell("# Toy lesson\n\nA lesson that exists only to test the grader."),
        new_code_cell("import numpy as np"),
        _answer("double", textwrap.dedent(double)),
        _test("double_matches_twice", 2, textwrap.dedent(double_test)),
        _test("double_close_with_numpy", 1, textwrap.dedent(numpy_test)),
        new_markdown_cell("What is `double(double(x))`? (a) `2 * x`, (b) `4 * x`, (c) `x ** 4`"),
        _answer("quiz_toy", textwrap.dedent(quiz)),
        _test("quiz_toy_is_b", 1, textwrap.dedent(quiz_test)),
    ]
    nb = new_notebook(cells=cells)
    nb.metadata = {"kernelspec": dict(notebooks.KERNELSPEC), "language_info": {"name": "python"}}
    return nb


TOY_MISTAKES = {
    "adds_two": '''\
        """Adds two instead of multiplying by two (right at x = 2 only)."""
        CELLS = {"double": "def double(x):\\n    return x + 2\\n"}
        LOSES = {"double_matches_twice", "double_close_with_numpy"}
        ''',
    "quiz_picks_a": '''\
        """Answers the quiz with (a)."""
        CELLS = {"quiz_toy": 'quiz_toy = "a"'}
        LOSES = {"quiz_toy_is_b"}
        ''',
}


def make_toy_course(root):
    """A course directory holding the toy lesson, its mistakes and its committed build."""
    (root / "source" / TOY).mkdir(parents=True)
    shutil.copyfile(build.REPO_ROOT / build.CONFIG_FILE, root / build.CONFIG_FILE)
    notebooks.write(toy_notebook(), notebooks.lesson_notebook(TOY, "source", root))
    (root / "source" / TOY / "data.txt").write_text("a file beside the notebook\n")
    (root / "source" / build.START_PAGE).write_text("# Toy course\n\nStart with 00-toy.\n")
    mistakes = root / "mistakes" / TOY
    mistakes.mkdir(parents=True)
    for name, text in TOY_MISTAKES.items():
        (mistakes / f"{name}.py").write_text(textwrap.dedent(text))
    build.build(root=root)
    return root


@pytest.fixture(scope="module")
def toy_root(tmp_path_factory):
    return make_toy_course(tmp_path_factory.mktemp("toy-course"))


@pytest.fixture
def toy_copy(toy_root, tmp_path):
    """A copy of the toy course that a test may damage."""
    return shutil.copytree(toy_root, tmp_path / "course")


@pytest.fixture(scope="module")
def toy_graded(toy_root, tmp_path_factory):
    class_ = demo_class(TOY, root=toy_root, mistakes_root=toy_root / "mistakes")
    return grade(TOY, class_, tmp_path_factory.mktemp("toy-grading"), root=toy_root)


# --------------------------------------------------------------------------------------------
# Build


def test_build_writes_release_and_solution(toy_root):
    names = {
        p.relative_to(toy_root).as_posix()
        for p in toy_root.rglob("*")
        if p.is_file() and p.parts[len(toy_root.parts)] in ("release", "solution")
    }
    assert names == {
        f"{step}/{TOY}/{name}" for step in build.STEPS for name in (f"{TOY}.ipynb", "data.txt")
    } | {f"release/{build.START_PAGE}"}
    release = notebooks.lesson_notebook(TOY, "release", toy_root).read_text()
    solution = notebooks.lesson_notebook(TOY, "solution", toy_root).read_text()
    assert "pass  # YOUR CODE HERE" in release and "return 2 * x" not in release
    assert "0.5, 3, -1" not in release and "0.5, 3, -1" not in solution
    assert "return 2 * x" in solution and "BEGIN SOLUTION" in solution
    for text in (release, solution):
        assert text.endswith("}\n") and '\n "cells": [' in text
    meta = answer_cells(blank_release(TOY, root=toy_root))["double"].metadata
    assert meta["nbgrader"]["checksum"] and meta["deletable"] is False
    assert build.check(root=toy_root) == []


def test_build_is_byte_stable(toy_root, tmp_path):
    written = build.build(root=toy_root, out_root=tmp_path)
    assert written
    for name, path in written.items():
        assert path.read_bytes() == (toy_root / name).read_bytes(), name


def test_check_reports_stale_missing_extra_and_orphan_files(toy_copy):
    release = notebooks.lesson_notebook(TOY, "release", toy_copy)
    release.write_text(release.read_text().replace("Toy lesson", "Toy lesson, edited by hand"))
    (toy_copy / "solution" / TOY / "data.txt").unlink()
    (toy_copy / "release" / TOY / "notes.txt").write_text("stray")
    (toy_copy / "release" / TOY / ".ipynb_checkpoints").mkdir()
    (toy_copy / "release" / TOY / ".ipynb_checkpoints" / "x.ipynb").write_text("{}")
    (toy_copy / "release" / "99-gone").mkdir()
    (toy_copy / "release" / build.START_PAGE).write_text("# An old start page\n")
    problems = build.check(root=toy_copy)
    assert problems == [
        f"differs: release/{TOY}/{TOY}.ipynb",
        f"not produced by the build: release/{TOY}/notes.txt",
        f"missing: solution/{TOY}/data.txt",
        "orphan: release/99-gone/ has no lesson in source/",
        f"differs: release/{build.START_PAGE} is not a copy of source/{build.START_PAGE}",
    ]
    assert build.main(["--check", "--root", str(toy_copy)]) == 1
    assert build.main(["--root", str(toy_copy)]) == 0
    assert build.check([TOY], root=toy_copy) == []
    assert (toy_copy / "release" / TOY / ".ipynb_checkpoints" / "x.ipynb").exists()


def test_check_reports_leaks(toy_copy):
    release = notebooks.lesson_notebook(TOY, "release", toy_copy)
    release.write_text(release.read_text().replace("YOUR CODE HERE", "### BEGIN SOLUTION"))
    solution = notebooks.lesson_notebook(TOY, "solution", toy_copy)
    solution.write_text(solution.read_text().replace("Toy lesson", "### BEGIN HIDDEN TESTS"))
    problems = build.check(root=toy_copy)
    assert f"leak: release/{TOY}/{TOY}.ipynb contains 'BEGIN SOLUTION'" in problems
    assert f"leak: solution/{TOY}/{TOY}.ipynb contains 'HIDDEN TESTS'" in problems


def test_cli_check_passes_on_a_fresh_build(toy_root, capsys):
    assert build.main(["--check", "--root", str(toy_root), TOY]) == 0
    assert "ok:" in capsys.readouterr().out
    assert build.main(["--check", "--root", str(toy_root), "no-such-lesson"]) == 2


def test_source_problems_and_normalisation(toy_copy):
    path = notebooks.lesson_notebook(TOY, "source", toy_copy)
    assert build.source_problems(path) == []
    nb = notebooks.read(path)
    nb.cells[1].outputs = [nbformat.v4.new_output("stream", name="stdout", text="hi\n")]
    nb.cells[1].execution_count = 3
    nb.cells[2].metadata["collapsed"] = True
    nb.cells[1].metadata["jupyter"] = {"source_hidden": True, "outputs_hidden": True}
    nb.cells[1].metadata["cellView"] = "form"
    nb.metadata["widgets"] = {}
    nb.metadata["language_info"]["version"] = "3.11.7"
    path.write_text(nbformat.writes(nb))  # no final newline, as some editors save
    problems = "\n".join(build.source_problems(path))
    for expected in (
        "cell 1 has outputs",
        "cell 1 has an execution count",
        "cell 2 (double) has cell metadata keys ['collapsed']",
        "cell 1 has cell metadata keys ['jupyter.outputs_hidden']",
        "notebook metadata keys ['widgets']",
        "language_info keys ['version']",
    ):
        assert expected in problems
    assert build.normalise_source(path) is True
    assert build.source_problems(path) == []
    assert build.normalise_source(path) is False
    kept = notebooks.read(path).cells[1].metadata
    assert kept == {"cellView": "form", "jupyter": {"source_hidden": True}}
    path.write_text(path.read_text().rstrip("\n"))
    assert build.source_problems(path) == [
        f"{path}: not in nbformat's layout (indent 1, sorted keys, final newline)"
    ]


def test_lessons_are_discovered_by_folder_and_notebook_name(toy_copy):
    (toy_copy / "source" / "01-misnamed").mkdir()
    (toy_copy / "source" / "01-misnamed" / "lesson.ipynb").write_text("{}")
    assert notebooks.discover_lessons(toy_copy) == [TOY]


# --------------------------------------------------------------------------------------------
# Submissions and mistake fixtures


def test_filled_release_puts_the_solutions_back(toy_root):
    answers = answer_cells(filled_release(TOY, root=toy_root))
    assert answers["double"].source == (
        'def double(x):\n    """Return twice x (a number or a numpy array)."""\n    return 2 * x'
    )
    assert answers["quiz_toy"].source == 'quiz_toy = "b"'
    replaced = answer_cells(filled_release(TOY, {"quiz_toy": "quiz_toy = 'c'"}, root=toy_root))
    assert replaced["quiz_toy"].source == "quiz_toy = 'c'"
    assert replaced["double"].source == answers["double"].source
    with pytest.raises(ValueError, match="not answer cells"):
        filled_release(TOY, {"dobule": "pass"}, root=toy_root)
    blank = blank_release(TOY, root=toy_root)
    assert answer_cells(blank)["quiz_toy"].source == "pass  # YOUR CODE HERE"
    assert set(autograded_cells(blank)) == TOY_TESTS


def test_demo_class_holds_every_kind_of_submission(toy_root):
    class_ = demo_class(TOY, root=toy_root, mistakes_root=toy_root / "mistakes")
    assert list(class_) == [
        "solution",
        "blank",
        "rebinds-numpy",
        "mistake-adds_two",
        "mistake-quiz_picks_a",
    ]
    assert REBINDING_LINES.strip() in answer_cells(class_["rebinds-numpy"])["double"].source


def test_load_mistakes_reads_and_validates_fixtures(toy_root, tmp_path):
    mistakes = load_mistakes(TOY, mistakes_root=toy_root / "mistakes")
    assert [(m.name, m.student, m.loses) for m in mistakes] == [
        ("adds_two", "mistake-adds_two", {"double_matches_twice", "double_close_with_numpy"}),
        ("quiz_picks_a", "mistake-quiz_picks_a", {"quiz_toy_is_b"}),
    ]
    assert mistakes[1].doc == "Answers the quiz with (a)."
    assert load_mistakes("no-such-lesson", mistakes_root=tmp_path) == []
    (tmp_path / TOY).mkdir()
    (tmp_path / TOY / "_helpers.py").write_text("skipped = True\n")
    (tmp_path / TOY / "no_doc.py").write_text('CELLS = {"quiz_toy": "x"}\nLOSES = {"a"}\n')
    with pytest.raises(ValueError, match="one-line docstring"):
        load_mistakes(TOY, mistakes_root=tmp_path)
    (tmp_path / TOY / "no_doc.py").write_text(
        '"""Doc."""\nCELLS = {"quiz_toy": "x"}\nLOSES = "a"\n'
    )
    with pytest.raises(ValueError, match="LOSES"):
        load_mistakes(TOY, mistakes_root=tmp_path)


# --------------------------------------------------------------------------------------------
# Grading with nbgrader


@pytest.mark.timeout(300)
def test_toy_class_is_graded_in_one_run(toy_graded):
    assert toy_graded.returncode == 0, toy_graded.log
    assert toy_graded.missing == []
    for student in toy_graded.students:
        assert graded_problems(toy_graded, student, TOY_TESTS) == []
        assert (toy_graded.autograded_notebook(student).parent / "data.txt").is_file()
    assert toy_graded.log.count("Autograding ") == len(toy_graded.students)


@pytest.mark.timeout(300)
def test_toy_solution_full_and_blank_zero(toy_graded):
    assert full_marks_problems(toy_graded, "solution") == []
    assert toy_graded.totals["solution"] == (4.0, 4.0)
    assert zero_problems(toy_graded, "blank") == []
    assert toy_graded.totals["blank"] == (0.0, 4.0)
    assert "AssertionError: double(2) should be 4" in toy_graded.cell_messages("blank").values()


@pytest.mark.timeout(300)
def test_toy_rebinding_fools_only_the_numpy_comparison(toy_graded):
    assert toy_graded.scores["rebinds-numpy"] == {
        "double_matches_twice": (0.0, 2.0),
        "double_close_with_numpy": (1.0, 1.0),
        "quiz_toy_is_b": (0.0, 1.0),
    }
    assert zero_problems(toy_graded, "rebinds-numpy") == ["double_close_with_numpy: 1/1"]


@pytest.mark.timeout(300)
def test_toy_mistakes_lose_exactly_their_cells(toy_graded, toy_root):
    mistakes = load_mistakes(TOY, mistakes_root=toy_root / "mistakes")
    for mistake in mistakes:
        assert mistake_problems(toy_graded, mistake) == [], toy_graded.describe(mistake.student)
    hidden_only = toy_graded.cell_messages("mistake-adds_two")["double_matches_twice"]
    assert hidden_only == "AssertionError: multiply by two, do not add"
    wrong = Mistake("adds_two", "doc", {}, frozenset({"quiz_toy_is_b"}), mistakes[0].path)
    assert mistake_problems(toy_graded, wrong) == [
        "double_close_with_numpy: 0/1, but it is not in LOSES",
        "double_matches_twice: 0/2, but it is not in LOSES",
        "quiz_toy_is_b: 1/1, but LOSES says it scores 0",
    ]


@pytest.mark.timeout(300)
def test_toy_feedback_and_grades_csv(toy_graded):
    generate_feedback(toy_graded.course_dir, TOY)
    for student in toy_graded.students:
        assert (toy_graded.course_dir / "feedback" / student / TOY / f"{TOY}.html").is_file()
    rows = export_grades(toy_graded.course_dir).read_text().splitlines()
    assert len(rows) == 1 + len(toy_graded.students)
    assert any(row.startswith(f"{TOY},") and ",solution," in row for row in rows)
