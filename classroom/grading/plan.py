"""What one grading run is asked to do, and what it says of itself afterwards.

`GradingPlan` is built once by the command (`classroom/grade.py`) from its command line and
passed down: nothing in `grading/` reads argparse, and nothing in it knows of the demo class
(the command writes the demo's submissions and points the plan at them, its gradebook and
its output folder). `RunFacts` is what the run learns on the way (the input in words, the
problems, the limits in force) and what the report's header and problem list print.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from pathlib import Path


@dataclass(frozen=True)
class GradingPlan:
    """One run of the grading command, every choice the command line made, resolved."""

    root: Path  # the course directory (absolute): source/, release/, gradebook, .grading/
    output: Path  # where grades.csv, the reports, exports/, autograded/, feedback/ go
    lessons: tuple[str, ...] = ()  # lessons to grade; () every lesson the input has
    # The input: exactly one of a submitted/ tree, an LMS download, the exchange, the shards.
    submitted: Path | None = None  # a submitted/ tree; None with no other input: root/submitted
    zip: Path | None = None  # an LMS download, a .zip or a folder
    exchange: bool = False  # collect from nbgrader's exchange first
    merge: bool = False  # merge the results of earlier --shard runs; grade nothing
    input_label: str | None = None  # the input in the report's words (None: its path)
    skip_absent: bool = False  # a student without a lesson's folder gets no row for it
    # How an LMS download is read and what is written for the LMS.
    pattern: str | None = None  # a regular expression naming student, file and time
    copies: str = "stop"  # two notebooks of one lesson from one student: "stop" or "all"
    dry_run: bool = False  # print file -> student -> lesson, grade nothing
    exports: tuple[str, ...] = ()  # LMS grade files to write into exports/ ("canvas", ...)
    # What each LMS's own options said (classroom.grading.lms.settings): (name, its setting),
    # e.g. ("canvas", ("01-world-as-text=12",)) for --canvas-assignment.
    lms_settings: tuple[tuple[str, object], ...] = ()
    # Who is graded, by whom, within which limits.
    students: tuple[str, ...] = ()  # only these students; () everyone
    workers: int | None = None  # grading processes; None: one per core
    cell_timeout: int | None = None  # seconds per cell; None: nbgrader_config's Execute.timeout
    notebook_timeout: int = 180  # seconds one notebook may run
    shard: tuple[int, int] | None = None  # (K, N): the K-th of N ranges of students
    cluster: str | None = None  # a Dask scheduler address or file, or local:N; None: local pool
    sandboxed: bool = True  # learners' code in bubblewrap (False: with the grader's rights)
    regrade: bool = False  # grade again submissions unchanged since an earlier run
    # The records the run keeps.
    gradebook: str | None = None  # a database URL in place of nbgrader_config's
    journal: bool = True  # read and extend .grading/'s journal (reuse, earlier rows)
    workdir: Path | None = None  # keep the staging files here (None: a temporary folder)
    quiet: bool = False  # no progress bar
    demo: bool = False  # the command prepared the bundled demo class (the command's alone)

    @property
    def submitted_tree(self) -> Path | None:
        """The submitted/ tree the run reads (None: a download, the exchange or shards)."""
        if self.zip or self.exchange or self.merge:
            return None
        return (self.submitted or self.root / "submitted").resolve()


@dataclass(frozen=True)
class GraderSetup:
    """What every grading process starts with, from the local pool or a Dask worker's pool:
    the run's folders, its limits and the key that signs results. Built once by the command
    from its `GradingPlan`; a Dask worker replaces the folders with its own copy."""

    staging: Path  # the run's staging course: the lessons generated, the gradebook template
    root: Path  # the course directory (its .grading/ holds the hidden cases' secret)
    key: str  # the course key, in hex: each grading process signs its results with it
    notebook_timeout: int  # seconds a whole notebook may run
    max_output_chars: int  # what a notebook may print before it is cut short
    sandboxed: bool = True  # learners' code in the sandbox (False only for --unsandboxed)
    lessons: tuple[str, ...] = ()  # what the kernel zygotes preload: these set-ups' imports
    environ: dict[str, str] | None = None  # the parent's environment (`pool.with_environment`)


@dataclass(frozen=True)
class RunFacts:
    """What a run says of itself in grading_report.txt and on its way out. The lists are
    appended to as results come (a gradebook that refuses a row adds a problem)."""

    input: str = ""  # what was graded, in words
    problems: list[str] = field(default_factory=list)  # one line each, in the report
    unassigned: list[str] = field(default_factory=list)  # download files read as no one's
    course: str = ""
    lessons: list[str] = field(default_factory=list)
    workers: int | None = None
    graded_on: str = "this machine"  # or "the Dask cluster <where>"
    cell_timeout: int | None = None  # seconds
    notebook_timeout: int | None = None  # seconds
    sandbox: str = "unknown"  # "on: ..." or "OFF (--unsandboxed): ..."
    failed_lessons: list[str] = field(default_factory=list)  # nbgrader could not generate
    exports: list[str] = field(default_factory=list)  # the LMS files asked for
    seconds: float = 0.0  # grading time

    def as_dict(self) -> dict:
        """Plain JSON-ready values (a shard's results file carries them)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> RunFacts:
        """The facts a shard wrote (keys this version does not know are left out)."""
        known = {f.name for f in fields(cls)}
        return cls(**{key: value for key, value in data.items() if key in known})
