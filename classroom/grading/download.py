"""Submissions from an LMS download: a .zip (or its unpacked folder) from Canvas, Moodle, or
any LMS whose file names a pattern can read.

Canvas and Moodle are recognised by their naming (`classroom.grading.lms`): the student is
the LMS's numeric id, the name is kept for the grade export, late marks are kept, and of a
student's resubmissions of a lesson the newest is graded (and the report says so). Other
downloads are read with nbgrader's FileNameCollectorPlugin: `--pattern` (or
FileNameCollectorPlugin.named_regexp in nbgrader_config.py), a regular expression naming
`student_id` and optionally `file_id` and `timestamp`, matched against each file's path in the
download ("/" separators); by default "<student>/<file>" or "<student>_<file>".

Two different notebooks of one lesson for one student are never merged silently: by default
the run stops before grading and names the files (`DuplicateNotebooks`); with `copies="all"`
each is graded, the second as "<student>-copy2", and noted.
"""

from __future__ import annotations

import logging
import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from classroom.grading import lms
from classroom.grading.intake import IGNORED, Intake, Submission
from classroom.grading.submissions import HOUSEKEEPING, name_key

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


def extract(archive: Path, target: Path) -> Path:
    """Unpack a zip safely (no paths outside target), archives inside it too."""
    target.mkdir(parents=True, exist_ok=True)
    try:
        zf = zipfile.ZipFile(archive)
    except zipfile.BadZipFile:
        raise DownloadError(f"{archive} is not a zip file (is it the LMS's download?)") from None
    with zf:
        for member in zf.infolist():
            name = PurePosixPath(member.filename)
            if member.is_dir() or name.is_absolute() or ".." in name.parts:
                continue
            destination = target.joinpath(*name.parts)
            destination.parent.mkdir(parents=True, exist_ok=True)
            with zf.open(member) as source, open(destination, "wb") as out:
                while chunk := source.read(1 << 20):
                    out.write(chunk)
    for inner in sorted(target.rglob("*.zip")):
        extract(inner, inner.with_suffix(""))
        inner.unlink()
    return target


def _files_below(folder: Path) -> list[Path]:
    skip = IGNORED | HOUSEKEEPING
    return sorted(
        p
        for p in folder.rglob("*")
        if p.is_file() and not (set(p.relative_to(folder).parts) & skip)
    )


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


def _by_pattern(files, root, plugins) -> tuple[list[Entry], list[str]]:
    entries, unassigned = [], []
    for file in files:
        relative = file.relative_to(root).as_posix()
        info = None
        for plugin in plugins:
            info = _quiet_collect(plugin, relative)
            if info and info.get("student_id"):
                break
        if not info or not info.get("student_id"):
            unassigned.append(relative)
            continue
        file_id = info.get("file_id") or file.name
        stamp = info.get("timestamp")
        entries.append(Entry(file, relative, info["student_id"], file_id, timestamp=stamp))
    return entries, unassigned


def _by_lms(files, root, lessons) -> tuple[list[Entry], list[str]]:
    entries, unassigned = [], []
    for file in files:
        relative = file.relative_to(root).as_posix()
        handed = lms.read(relative, file, lessons)
        if handed is None:
            unassigned.append(relative)
            continue
        entries.append(
            Entry(
                file, relative, handed.student, handed.file, handed.name, handed.late, handed.order
            )
        )
    return entries, unassigned


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
    """A download read: every (student, lesson)'s entries, and the files nobody owns."""

    lms: str | None
    groups: dict[tuple[str, str], list[Entry]] = field(default_factory=dict)
    unassigned: list[str] = field(default_factory=list)


def read_download(path: Path | str, lessons: list[str], workdir: Path | str, *, pattern=None,
                  config=None) -> Download:  # fmt: skip
    """Read a download (a .zip or a folder) into each student's files per lesson."""
    path = Path(path)
    if not path.exists():
        raise DownloadError(f"no such download: {path}")
    root = extract(path, Path(workdir) / "download") if path.is_file() else path
    files = _files_below(root)
    if not files:
        raise DownloadError(f"{path} holds no files")
    relatives = [f.relative_to(root).as_posix() for f in files]
    kind = None if pattern else lms.recognise(relatives, lessons)
    if kind:
        entries, unassigned = _by_lms(files, root, lessons)
    else:
        entries, unassigned = _by_pattern(files, root, _plugins(pattern, config, files))
    download = Download(kind, unassigned=unassigned)
    for entry in entries:
        entry.lesson = lesson_of(entry.file, lessons)
        if entry.lesson is None:
            download.unassigned.append(f"{entry.relative} (student {entry.student})")
            continue
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
    files), copied to workdir/from-download/<student>/<lesson>."""
    students = sorted({student for student, _ in download.groups})
    found = []
    for student in students:
        for lesson in lessons:
            entries = download.groups.get((student, lesson), [])
            kept, said = _keep_newest(entries)
            variants = _copies(kept)
            if len(variants) > 1 and copies != "all":
                raise DuplicateNotebooks(_duplicates(student, lesson, kept))
            for number, variant in enumerate(variants, start=1):
                sid = student if number == 1 else f"{student}-copy{number}"
                found.append(_staged(sid, lesson, variant, said, workdir))
    return Intake(found, download.unassigned)


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
        submission.late = any(e.late for e in entries)
        for sentence in said:
            submission.note("resubmitted", sentence)
        if student.endswith(tuple(f"-copy{n}" for n in range(2, 10))):
            submission.note("copies", "a second notebook for this lesson, graded on its own")
    return submission


def from_download(path, lessons, workdir, *, pattern=None, config=None, copies="stop") -> Intake:
    """Submissions in an LMS download; see the module's docstring."""
    download = read_download(path, lessons, workdir, pattern=pattern, config=config)
    return submissions(download, lessons, workdir, copies)


def dry_run(
    path, lessons, workdir, *, pattern=None, config=None, copies="stop"
) -> tuple[list[str], list[str]]:
    """What a download would become, one line per file: file -> student -> lesson; and the
    lines that would stop the real run (two notebooks of one lesson, unless copies="all"),
    worded as the real run words them."""
    download = read_download(path, lessons, workdir, pattern=pattern, config=config)
    lines, stops = [f"read as: {download.lms or 'pattern'}"], []
    for (student, lesson), entries in sorted(download.groups.items()):
        kept, _ = _keep_newest(entries)
        if len(_copies(kept)) > 1 and copies != "all":
            stops.append(_duplicates(student, lesson, kept))
        for entry in sorted(entries, key=lambda e: e.relative):
            mark = "" if entry in kept else "   (older version: not graded)"
            who = f"{student} ({entry.name})" if entry.name else student
            late = "  LATE" if entry.late else ""
            lines.append(f"{entry.relative} -> {who} -> {lesson}{late}{mark}")
    lines += [
        f"{relative} -> (no student or lesson: not graded)" for relative in download.unassigned
    ]
    return lines, stops
