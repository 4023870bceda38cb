"""The results journal (.grading/journal.jsonl): what a killed run keeps, and what the next
run reads back. No grading here: results are made by hand."""

from __future__ import annotations

from classroom.grading import state
from classroom.grading.results import Grade, Result


def result(student: str, score: float = 1.0) -> Result:
    grade = Grade("lesson.ipynb", "check", score, 1.0)
    return Result(id=0, student=student, lesson="01-lesson", grades=[grade])


def journal(tmp_path) -> state.Journal:
    root = tmp_path / "course"
    root.mkdir(exist_ok=True)
    return state.Journal(root, state.course_key(root))


def test_each_result_is_read_back_with_its_content_digest(tmp_path):
    book = journal(tmp_path)
    book.append_many([(result("ada"), "digest-a"), (result("bo", 0.0), "digest-b")])
    found = book.graded()
    assert sorted(found) == [("01-lesson", "ada"), ("01-lesson", "bo")]
    assert found[("01-lesson", "ada")][0] == "digest-a"
    assert found[("01-lesson", "bo")][1].totals() == (0.0, 1.0)


def test_the_latest_entry_of_a_submission_wins(tmp_path):
    book = journal(tmp_path)
    book.append(result("ada", 0.0), "old")
    book.append(result("ada", 1.0), "new")
    content, latest = book.graded()[("01-lesson", "ada")]
    assert (content, latest.totals()[0]) == ("new", 1.0)


def test_an_entry_whose_signature_fails_is_not_read(tmp_path):
    book = journal(tmp_path)
    book.append(result("ada", 0.0), "digest")
    book.path.write_text(book.path.read_text().replace('"auto_score": 0.0', '"auto_score": 1.0'))
    assert book.graded() == {}


def test_a_line_cut_short_by_a_kill_costs_only_itself(tmp_path):
    """A run killed mid-write leaves a last line with no newline; the next run's first entry
    must not be glued onto it (it was: that entry was lost, and a reused result with it)."""
    book = journal(tmp_path)
    book.append_many([(result("ada"), "a"), (result("bo"), "b")])
    text = book.path.read_text()
    book.path.write_text(text[: len(text) - 40])  # bo's line cut short
    assert sorted(journal(tmp_path).graded()) == [("01-lesson", "ada")]
    again = journal(tmp_path)  # the next run
    again.append(result("cy"), "c")
    assert sorted(again.graded()) == [("01-lesson", "ada"), ("01-lesson", "cy")]
