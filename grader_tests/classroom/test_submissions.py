"""Reading a handed-in notebook: what cannot be graded is said in one sentence a person can act
on, before the grading process takes harm from it."""

from __future__ import annotations

import nbformat
import pytest

from classroom.grading import submissions


def test_a_notebook_over_the_size_limit_is_not_read(tmp_path):
    """A 101 MB file (sparse: no disk used) is refused by its size, before it is read."""
    huge = tmp_path / "01-world-as-text.ipynb"
    with open(huge, "wb") as handle:
        handle.truncate(submissions.MAX_NOTEBOOK_BYTES + submissions.MiB)
    with pytest.raises(submissions.Unreadable) as refused:
        submissions.read_submission(huge)
    said = str(refused.value)
    assert said.startswith("01-world-as-text.ipynb is 101 MB, over the 100 MB a notebook may be")
    assert "Clear Outputs" in said and "\n" not in said


def test_a_large_notebook_under_the_limit_is_read(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells.append(nbformat.v4.new_markdown_cell("x" * (5 * submissions.MiB)))
    path = tmp_path / "big.ipynb"
    path.write_text(nbformat.writes(nb), encoding="utf-8")
    read, _ = submissions.read_submission(path)
    assert len(read.cells[0].source) == 5 * submissions.MiB


def test_json_nested_too_deeply_is_said_not_raised(tmp_path):
    """Python's JSON reader raises RecursionError past a few thousand levels; the grading
    process then blamed nbgrader ("nbgrader could not grade it: RecursionError")."""
    deep = tmp_path / "01-world-as-text.ipynb"
    deep.write_text("[" * 100_000)
    with pytest.raises(submissions.Unreadable, match="nested too deeply to be a notebook"):
        submissions.read_submission(deep)
