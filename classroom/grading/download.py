"""Submissions from an LMS download: a .zip (or its unpacked folder) from an LMS the course
knows (one module each in `classroom.grading.lms`), or any LMS whose file names a pattern reads.

Each file is read on its own, by the first form it follows: a known LMS's naming
(`classroom.grading.lms`: the student is the LMS's numeric id, the name is kept for the grade
export, late marks are kept, and of a student's resubmissions of a lesson the newest is graded,
and the report says so), else nbgrader's FileNameCollectorPlugin: FileNameCollectorPlugin.
named_regexp in nbgrader_config.py, or by default "<student>/<file>" or "<student>_<file>", a
regular expression naming `student_id` and optionally `file_id` and `timestamp`, matched against
each file's path in the download ("/" separators). `--pattern` reads every file with its
pattern. A download that mixes forms is read file by file all the same (no file's student
changes because of other files) and one warning says how many files followed each form. A file
that follows none becomes a row of its own ("unknown-<file>"), not graded, with the reason.

Each file's lesson is read from its name; a notebook whose name names no lesson is matched to
a lesson by its cells (`submissions.lesson_by_cells`, the renamed-notebook repair); any other
file goes to its student's only lesson, or the download's only lesson, so that a student who
handed in only a PDF still gets a row ("no notebook (found: report.pdf)").

Two different notebooks of one lesson for one student are never merged silently: by default
the run stops before grading and names the files (`DuplicateNotebooks`); with `copies="all"`
each is graded, the second as "<student>-copy2", and noted.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from classroom.grading import archives, lms
from classroom.grading.intake import IGNORED, Intake, Submission, files_below
from classroom.grading.submissions import HOUSEKEEPING, lesson_by_cells, name_key

PATTERN = "pattern"  # the form of a file read by a pattern rather than by an LMS's naming

DEFAULT_PATTERNS = (
    r"^(?P<student_id>[^/]+)/(?P<file_id>.+)$",
    r"^(?P<student_id>[A-Za-z0-9.\-]+)_(?:(?P<timestamp>\d{4}-\d\d-\d\d[ T_-]\d\d[:-]\d\d"
    r"[:-]\d\d)_)?(?P<file_id>[^/]+)$",
)


class DownloadError(ValueError):
    """The download cannot be read as submissions; the message says why in one line."""


class DuplicateNotebooks(DownloadError):
    """Two different notebooks of one lesson map to one student."""


@dataclass
class Entry:
    """One file of the download, read: whose it is, for which lesson, and its LMS marks."""

    path: Path
    relative: str
    student: str
    file: str
    name: str | None = None
    late: bool = False
    order: int = 0
    timestamp: str | None = None
    lesson: str | None = None
    form: str = PATTERN  # an LMS's name (lms.names()) or PATTERN: how its name was read
    placed: str | None = None  # how the lesson was found when the name does not say


def _plugins(pattern: str | None, config, files: list[Path]) -> list:
    """nbgrader FileNameCollectorPlugins for the pattern given, configured, or the defaults."""
    from nbgrader.plugins.zipcollect import FileNameCollectorPlugin

    configured = ""
    if config is not None and "FileNameCollectorPlugin" in config:
        configured = config.FileNameCollectorPlugin.get("named_regexp", "")
    patterns = [pattern] if pattern else ([configured] if configured else list(DEFAULT_PATTERNS))
    extensions = sorted({p.suffix for p in files} | {".ipynb"})
    return [FileNameCollectorPlugin(named_regexp=p, valid_ext=extensions) for p in patterns]


def _quiet_collect(plugin, relative: str):
    level = plugin.log.level
    plugin.log.setLevel(logging.ERROR)
    try:
        return plugin.collect(relative)
    finally:
        plugin.log.setLevel(level)


def _read_file(file: Path, root: Path, lessons, plugins, forced: bool) -> Entry | None:
    """One file read by the first form its name follows (a known LMS's, the pattern; only
    the pattern when `forced`), or None when it follows none."""
    relative = file.relative_to(root).as_posix()
    handed = None if forced else lms.read(relative, file, lessons)
    if handed is not None:
        return Entry(
            file, relative, handed.student, handed.file, handed.name, handed.late,
            handed.order, form=handed.lms,
        )  # fmt: skip
    for plugin in plugins:
        info = _quiet_collect(plugin, unicodedata.normalize("NFC", relative))
        if info and info.get("student_id"):
            file_id = info.get("file_id") or file.name
            return Entry(
                file, relative, info["student_id"], file_id, timestamp=info.get("timestamp")
            )
    return None


def lesson_of(file_id: str, lessons: list[str]) -> str | None:
    """The lesson a downloaded file belongs to: by a folder or file name, or the only one."""
    keys = {name_key(lesson): lesson for lesson in lessons}
    for part in PurePosixPath(file_id).parts:
        key = name_key(part)
        if key in keys:
            return keys[key]
        for lesson_key, lesson in keys.items():
            if key.startswith(lesson_key) or key.endswith(lesson_key):
                return lesson
    return lessons[0] if len(lessons) == 1 else None


def _timestamp(text: str | None) -> str | None:
    """An LMS timestamp in a form nbgrader's parse_utc reads, or None."""
    from nbgrader.utils import parse_utc

    if not text:
        return None
    candidates = [
        text,
        re.sub(r"^(\d{4}-\d\d-\d\d)[ T_-](\d\d)[:-](\d\d)[:-](\d\d)$", r"\1 \2:\3:\4", text),
    ]
    for candidate in candidates:
        try:
            return str(parse_utc(candidate))
        except (ValueError, OverflowError):
            continue
    return None


@dataclass
class Download:
    """A download read: every (student, lesson)'s entries, the files with a student but no
    lesson, the files nobody owns, how many files followed each form, and what was said."""

    forms: dict[str, int] = field(default_factory=dict)  # an LMS's name or PATTERN: files
    groups: dict[tuple[str, str], list[Entry]] = field(default_factory=dict)
    unassigned: list[str] = field(default_factory=list)  # a student but no lesson
    unmatched: list[str] = field(default_factory=list)  # no form: nobody's
    warnings: list[str] = field(default_factory=list)
    students: set[str] = field(default_factory=set)  # everyone a file was read for

    @property
    def read_as(self) -> str:
        """The one form its files followed (an LMS's name, "pattern"), or each form with
        its number of files."""
        if len(self.forms) == 1:
            return next(iter(self.forms))
        return ", ".join(f"{form} ({_files(n)})" for form, n in self.forms.items()) or "nothing"


def _files(n: int) -> str:
    return f"{n} file" if n == 1 else f"{n} files"


def mixed_warning(forms: dict[str, int]) -> str | None:
    """One line when a download's files follow more than one form, or None."""
    if len(forms) < 2:
        return None
    counts = [
        f"{_files(n)} by the pattern"
        if form == PATTERN
        else f"{_files(n)} by {lms.REGISTRY[form].title}'s names"
        for form, n in forms.items()
    ]
    return (
        f"the download mixes namings: {', '.join(counts)}; each file was read by the naming "
        "it follows, no student moved by the others (--dry-run shows each file's student)"
    )


def _place(entries: list[Entry], lessons: list[str], releases) -> None:
    """Give each entry its lesson: by its name; a notebook's by its cells; any other file
    its student's only lesson, else the download's only lesson (else it keeps none)."""
    for entry in entries:
        entry.lesson = lesson_of(entry.file, lessons)
    for entry in entries:
        if entry.lesson is None and releases and entry.file.lower().endswith(".ipynb"):
            entry.lesson, share = lesson_by_cells(entry.path, lessons, releases)
            if entry.lesson:
                entry.placed = (
                    f'"{PurePosixPath(entry.file).name}" names no lesson; its cells are '
                    f"{entry.lesson}'s ({share:.0%} of the lesson's graded cells)"
                )
    theirs: dict[str, set[str]] = {}
    for entry in entries:
        if entry.lesson:
            theirs.setdefault(entry.student, set()).add(entry.lesson)
    found = set().union(*theirs.values())
    for entry in entries:
        if entry.lesson is None:
            own = theirs.get(entry.student, set())
            only = own if len(own) == 1 else found if len(found) == 1 else set()
            entry.lesson = next(iter(only), None)


def read_download(path: Path | str, lessons: list[str], workdir: Path | str, *, pattern=None,
                  config=None, releases: Callable | None = None) -> Download:  # fmt: skip
    """Read a download (a .zip or a folder) into each student's files per lesson; `releases`
    (lesson -> its release notebook) lets a notebook named after no lesson be placed by its
    cells."""
    path = Path(path)
    if not path.exists():
        raise DownloadError(f"no such download: {path}")
    unpacked, root = archives.Unpacked(), path
    if path.is_file():
        root = Path(workdir) / "download"
        try:
            unpacked = archives.unpack(path, root)
        except archives.NotAZip as exc:
            raise DownloadError(str(exc)) from None
    files, left = files_below(root, IGNORED | HOUSEKEEPING)
    if not files:
        raise DownloadError(f"{path} holds no files")
    plugins = _plugins(pattern, config, files)
    download, entries = Download(), []
    for file in files:
        entry = _read_file(file, root, lessons, plugins, forced=bool(pattern))
        if entry is None:
            download.unmatched.append(file.relative_to(root).as_posix())
        else:
            entries.append(entry)
    download.forms = dict(Counter(e.form for e in entries).most_common())
    if unpacked.repaired:
        download.warnings.append(
            f"{len(unpacked.repaired)} file names in the zip were UTF-8 without the zip's "
            f"UTF-8 flag; read as UTF-8 (for example {unpacked.repaired[0]})"
        )
    download.warnings += unpacked.refused
    download.warnings += filter(None, [mixed_warning(download.forms)])
    if left:
        download.warnings.append(f"left out, not graded: {', '.join(left)}")
    _place(entries, lessons, releases)
    download.students = {entry.student for entry in entries}
    for entry in entries:
        if entry.lesson is None:
            download.unassigned.append(f"{entry.relative} (student {entry.student})")
        else:
            download.groups.setdefault((entry.student, entry.lesson), []).append(entry)
    return download


def _keep_newest(entries: list[Entry]) -> tuple[list[Entry], list[str]]:
    """Of each file handed in several times, the newest; and a sentence per such file."""
    by_file: dict[str, list[Entry]] = {}
    for entry in entries:
        by_file.setdefault(entry.file.lower(), []).append(entry)
    kept, said = [], []
    for versions in by_file.values():
        versions.sort(key=lambda e: e.order)
        kept.append(versions[-1])
        if len(versions) > 1:
            older = ", ".join(v.path.name for v in versions[:-1])
            said.append(f"graded the newest version, {versions[-1].path.name} (not {older})")
    return kept, said


def _copies(kept: list[Entry]) -> list[list[Entry]]:
    """The entries split into one list per distinct notebook (with the other files in the
    first): more than one list when a student handed in two different notebooks."""
    notebooks = [e for e in kept if e.file.lower().endswith(".ipynb")]
    others = [e for e in kept if not e.file.lower().endswith(".ipynb")]
    if len(notebooks) <= 1:
        return [kept]
    return [[notebooks[0], *others]] + [[n] for n in notebooks[1:]]


def submissions(download: Download, lessons, workdir, copies: str = "stop") -> Intake:
    """The submissions of a read download: one per student and lesson (none handed in: no
    files), copied to workdir/from-download/<student>/<lesson>; and one per file nobody owns,
    refused with the reason (`unmatched_rows`)."""
    found = []
    for student in sorted(download.students):
        for lesson in lessons:
            entries = download.groups.get((student, lesson), [])
            kept, said = _keep_newest(entries)
            variants = _copies(kept)
            if len(variants) > 1 and copies != "all":
                raise DuplicateNotebooks(_duplicates(student, lesson, kept))
            for number, variant in enumerate(variants, start=1):
                sid = student if number == 1 else f"{student}-copy{number}"
                found.append(_staged(sid, lesson, variant, said, workdir))
    rows, footer = unmatched_rows(download, lessons)
    return Intake(found + rows, download.unassigned + footer, list(download.warnings))


def unknown_id(relative: str, taken: set[str]) -> str:
    """The student id of the row of a file nobody owns: "unknown-<its name>", made unique."""
    stem = re.sub(r"\W+", "-", PurePosixPath(relative).stem.lower()).strip("-")[:40] or "file"
    sid, number = f"unknown-{stem}", 1
    while sid in taken:
        number += 1
        sid = f"unknown-{stem}-{number}"
    return sid


def unmatched_rows(download: Download, lessons) -> tuple[list[Submission], list[str]]:
    """A refused submission for each file whose name follows no form, under the lesson its
    name says or the download's first lesson; and the files left for the report's footer
    (a download in which no lesson was found)."""
    handed = [lesson for lesson in lessons if any(k[1] == lesson for k in download.groups)]
    if not handed:
        return [], [f"{relative} (no student)" for relative in download.unmatched]
    rows, taken = [], set(download.students)
    namings = lms.titles("nor", "'s")  # "Canvas's nor Moodle's"
    for relative in download.unmatched:
        lesson = lesson_of(relative, handed) or handed[0]
        row = Submission(unknown_id(relative, taken), lesson)
        taken.add(row.student)
        row.refused = (
            f'"{relative}" follows neither {namings} naming nor the pattern: '
            "whose work it is cannot be told, so it was not graded (rename it as the LMS "
            "names files, or pass --pattern)"
        )
        rows.append(row)
    return rows, []


def _duplicates(student: str, lesson: str, kept: list[Entry]) -> str:
    """The one line that stops a run (and a dry run) on a student's two notebooks."""
    notebooks = [e.relative for e in kept if e.file.lower().endswith(".ipynb")]
    return (
        f"student {student} handed in {len(notebooks)} different notebooks for {lesson}: "
        f"{', '.join(notebooks)}. Remove all but one, or pass --copies all to grade each"
    )


def _staged(student, lesson, entries, said, workdir) -> Submission:
    submission = Submission(student, lesson)
    if entries:
        staged = Path(workdir) / "from-download" / student / lesson
        staged.mkdir(parents=True, exist_ok=True)
        for entry in entries:
            target = staged / PurePosixPath(entry.file).name
            target.write_bytes(entry.path.read_bytes())
            submission.files.append(str(target))
        submission.base = str(staged)
        stamps = sorted(e.timestamp for e in entries if e.timestamp)
        submission.timestamp = _timestamp(stamps[-1]) if stamps else None
        submission.name = next((e.name for e in entries if e.name), None)
        submission.late = any(e.late for e in entries)  # the LMS's mark, kept for the exports
        for sentence in said:
            submission.note("resubmitted", sentence)
        for entry in entries:
            if entry.placed:
                submission.note("renamed", entry.placed)
        if student.endswith(tuple(f"-copy{n}" for n in range(2, 10))):
            submission.note("copies", "a second notebook for this lesson, graded on its own")
    return submission


def from_download(path, lessons, workdir, *, pattern=None, config=None, copies="stop",
                  releases: Callable | None = None) -> Intake:  # fmt: skip
    """Submissions in an LMS download; see the module's docstring."""
    download = read_download(
        path, lessons, workdir, pattern=pattern, config=config, releases=releases
    )
    return submissions(download, lessons, workdir, copies)


def dry_run(
    path, lessons, workdir, *, pattern=None, config=None, releases=None, copies="stop"
) -> tuple[list[str], list[str]]:
    """What a download would become, one line per file: file -> student -> lesson; and the
    lines that would stop the real run (two notebooks of one lesson, unless copies="all"),
    worded as the real run words them."""
    download = read_download(
        path, lessons, workdir, pattern=pattern, config=config, releases=releases
    )
    lines, stops = [f"read as: {download.read_as}"], []
    lines += [f"warning: {warning}" for warning in download.warnings]
    for (student, lesson), entries in sorted(download.groups.items()):
        kept, _ = _keep_newest(entries)
        if len(_copies(kept)) > 1 and copies != "all":
            stops.append(_duplicates(student, lesson, kept))
        for entry in sorted(entries, key=lambda e: e.relative):
            mark = "" if entry in kept else "   (older version: not graded)"
            who = f"{student} ({entry.name})" if entry.name else student
            late = "  LATE" if entry.late else ""
            placed = "  (by its cells)" if entry.placed else ""
            lines.append(f"{entry.relative} -> {who} -> {lesson}{placed}{late}{mark}")
    lines += [f"{relative} -> (no lesson: not graded)" for relative in download.unassigned]
    rows, _ = unmatched_rows(download, lessons)
    lines += [
        f"{relative} -> (no student: a row {row.student}, not graded)"
        for relative, row in zip(download.unmatched, rows, strict=False)
    ]
    lines += [
        f"{relative} -> (no student: not graded)" for relative in download.unmatched[len(rows) :]
    ]
    return lines, stops
