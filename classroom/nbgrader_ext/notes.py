"""Notes: what the grader noticed about a submission and what it did about it.

A `Note` is one such thing ("notebook handed in as 'Copy of ...'; graded as
01-world-as-text"). Preprocessors record notes in the notebook's metadata (`record_note`), so
they reach the report and the feedback on every route (the grading command, `nbgrader
autograde`, `nbgrader generate_feedback`).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

NOTES_KEY = "classroom"  # notebook metadata key under which preprocessors leave their notes


@dataclass
class Note:
    """Something unusual about a submission: its kind ("renamed", "cell-timeout", ...), one
    sentence, and the cell it concerns (index and grade_id) when there is one."""

    kind: str
    text: str
    cell: int | None = None
    grade_id: str | None = None

    def as_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> Note:
        return cls(**{f.name: data.get(f.name) for f in fields(cls)})


def record_note(nb, kind: str, text: str, cell: int | None = None, grade_id=None, *,
                first: bool = False) -> Note:  # fmt: skip
    """Add a note to the notebook's metadata (where the report and feedback read it, in this
    order); `first` puts it before the notes already there (the one line that matters most)."""
    note = Note(kind, text, cell, grade_id)
    notes = nb.metadata.setdefault(NOTES_KEY, {}).setdefault("notes", [])
    notes.insert(0 if first else len(notes), note.as_dict())
    return note


def notes_of(nb) -> list[Note]:
    """The notes preprocessors left in a notebook's metadata."""
    stored = nb.metadata.get(NOTES_KEY, {}).get("notes", [])
    return [Note.from_dict(n) for n in stored if isinstance(n, dict)]
