"""What the class command says about a submission, built in one place: grades, results, jobs.

A `Result` is one submission's outcome, and every submission ends as one: graded, or not,
with a reason, and the notes the preprocessors left (classroom.nbgrader_ext.notes). Results
cross process boundaries and files as plain dicts (`as_dict` / `from_dict`).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields

from classroom.nbgrader_ext.notes import Note

# A row's one status (grades.csv, the report, the table), in the order a report lists them.
NEEDS_HUMAN = "needs a human"  # corrupt, no notebook (a PDF), wrong lesson: someone must look
NOT_SUBMITTED = "not submitted"  # nothing handed in
LATE = "late"  # graded, handed in late
GRADED_WITH_NOTES = "graded with notes"  # graded; a note is worth the instructor's eye
GRADED = "graded"
STATUSES = (NEEDS_HUMAN, NOT_SUBMITTED, LATE, GRADED_WITH_NOTES, GRADED)
OLD_STATUSES = ("not graded", "no notebook")

QUIET_KINDS = frozenset({"extra-files", "reused"})  # noted, but not worth "graded with notes"
HUMAN_KINDS = frozenset({"wrong-notebook"})  # graded, but the grade may be meaningless


@dataclass
class Grade:
    """One test cell's score, as nbgrader's gradebook holds it."""

    notebook: str
    name: str
    auto_score: float | None
    max_score: float
    needs_manual_grade: bool = False


@dataclass
class Job:
    """One submission to grade: the files a student handed in for one lesson (numbered by
    the run that grades it)."""

    student: str
    lesson: str
    files: list[str] = field(default_factory=list)
    base: str | None = None  # folder the files' relative paths start from
    timestamp: str | None = None
    notes: list[Note] = field(default_factory=list)
    cell_timeout: int | None = None
    id: int = 0
    name: str | None = None  # the student's name, when the LMS gave it
    late: bool = False  # the LMS marked the submission late
    refused: str | None = None  # why intake will not grade it (a file nobody owns)

    def note(self, kind: str, text: str) -> None:
        self.notes.append(Note(kind, text))

    def as_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> Job:
        values = {f.name: data[f.name] for f in fields(cls) if f.name in data}
        values["notes"] = [Note.from_dict(n) for n in data.get("notes", [])]
        return cls(**values)


@dataclass
class Result:
    """One submission's outcome."""

    id: int
    student: str
    lesson: str
    status: str = GRADED
    reason: str | None = None
    notes: list[Note] = field(default_factory=list)
    grades: list[Grade] = field(default_factory=list)
    comments: list[dict] = field(default_factory=list)
    late_penalties: dict = field(default_factory=dict)
    timestamp: str | None = None
    autograded: str | None = None
    feedback: str | None = None
    seconds: float = 0.0
    max: float = 0.0
    worker: int | None = None
    timings: dict = field(default_factory=dict)
    name: str | None = None
    late: bool = False  # marked late by the LMS, or handed in after the due date
    late_seconds: float = 0.0  # how late, by nbgrader's clock (timestamp vs due date)
    failures: dict = field(default_factory=dict)  # test grade_id -> its verdict's message
    predictions: dict = field(default_factory=dict)  # predict-first name -> the learner's letter

    @classmethod
    def for_job(cls, job: Job, status: str = GRADED, reason: str | None = None) -> Result:
        """A result for `job`, carrying the notes intake made about it."""
        result = cls(job.id, job.student, job.lesson, status, reason, list(job.notes))
        result.name, result.late = job.name, job.late
        return result

    @property
    def lateness(self) -> str:
        """ "", or how late the submission was, for the table, the report and the feedback."""
        if self.late_seconds > 0:
            hours = self.late_seconds / 3600
            return f"late by {hours:.1f} h" if hours >= 1 else f"late by {self.late_seconds:.0f} s"
        return "late (marked by the LMS)" if self.late else ""

    @property
    def key(self) -> tuple[str, str]:
        return (self.lesson, self.student)

    def totals(self) -> tuple[float, float]:
        """(score, maximum), late penalties taken off, as nbgrader counts them."""
        score = sum(float(g.auto_score or 0) for g in self.grades)
        maximum = sum(float(g.max_score or 0) for g in self.grades) or self.max
        score -= sum(float(p or 0) for p in self.late_penalties.values())
        return max(score, 0.0), maximum

    def settle(self) -> None:
        """After grading, the row's one status: "needs a human" when a note says the grade may
        be meaningless (a wrong lesson's notebook), else "late" when late, else "graded with
        notes" when a note is worth the instructor's eye; the reason says which and why."""
        if self.status != GRADED:
            return
        human = [n.text for n in self.notes if n.kind in HUMAN_KINDS]
        worth = [n.kind for n in self.notes if n.kind not in QUIET_KINDS]
        if human:
            self.status, self.reason = NEEDS_HUMAN, human[0]
        elif self.lateness:
            penalty = sum(float(p or 0) for p in self.late_penalties.values())
            self.status, self.reason = LATE, f"handed in {self.lateness}; penalty {penalty:g}"
        elif worth:
            self.status, self.reason = GRADED_WITH_NOTES, ", ".join(dict.fromkeys(worth))

    def as_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> Result:
        values = {f.name: data.get(f.name) for f in fields(cls) if f.name in data}
        if values.get("status") in OLD_STATUSES:  # a journal written before the five statuses
            empty = str(values.get("reason") or "").startswith("nothing handed in")
            values["status"] = NOT_SUBMITTED if empty else NEEDS_HUMAN
        values["notes"] = [Note.from_dict(n) for n in data.get("notes", [])]
        values["grades"] = [Grade(**g) for g in data.get("grades", [])]
        return cls(**values)


def failure(job: Job, status: str, reason: str) -> Result:
    """The result of a submission that could not be graded: 0, with the reason."""
    return Result.for_job(job, status, reason)
