"""Find the submissions to grade: a submitted/ tree, an LMS download, or nbgrader's exchange.

Every source ends as a list of `Submission`s, one per (student, lesson): the files the student
handed in for that lesson (the worker picks the notebook among them), a timestamp when one is
known, and notes about anything odd found on the way. A student known for some lesson but
with nothing for another gets a Submission with no files, so it ends as a row with a reason.

- submitted/<student>/<lesson>/... as nbgrader's collect writes it (timestamp.txt read);
  a lesson folder named with another case or copy marks ("01-World-As-Text (1)") is accepted
  and noted, and so are notebooks put straight into the student's folder;
- an LMS download, a zip or a folder of files named per a pattern, as nbgrader's zip_collect
  reads them: its FileNameCollectorPlugin with `named_regexp` (configurable in
  nbgrader_config.py or with --pattern) gives the student id, the file and a timestamp;
- the exchange: nbgrader's ExchangeCollect copies the latest submission of each student into
  submitted/, which is then read as above.
"""

from __future__ import annotations

import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from classroom.grading.results import Job
from classroom.grading.submissions import name_key

IGNORED = {".ipynb_checkpoints", "__pycache__", "__MACOSX", ".DS_Store", "timestamp.txt"}
# An LMS download when no pattern is configured: "<student>/<file>" (a folder per student)
# or "<student>_<file>" (Canvas and others prefix the file name with the student's login).
DEFAULT_PATTERNS = (
    r"^(?P<student_id>[^/]+)/(?P<file_id>.+)$",
    r"^(?P<student_id>[A-Za-z0-9.\-]+)_(?:(?P<timestamp>\d{4}-\d\d-\d\d[ T_-]\d\d[:-]\d\d"
    r"[:-]\d\d)_)?(?P<file_id>[^/]+)$",
)


Submission = Job  # one per (student, lesson); numbered later by the run


@dataclass
class Intake:
    submissions: list[Submission]
    unassigned: list[str] = field(default_factory=list)  # files no student could be read from


def _files_below(folder: Path) -> list[Path]:
    return sorted(
        path
        for path in folder.rglob("*")
        if path.is_file() and not (set(path.relative_to(folder).parts) & IGNORED)
    )


def _read_timestamp(folder: Path) -> str | None:
    stamp = folder / "timestamp.txt"
    if stamp.is_file():
        text = stamp.read_text(encoding="utf-8", errors="replace").strip()
        return text or None
    return None


def _match_folder(folder: Path, lesson: str) -> tuple[Path | None, str | None]:
    """The subfolder of folder that holds lesson, and a note when its name differs."""
    exact = folder / lesson
    if exact.is_dir():
        return exact, None
    similar = sorted(
        p for p in folder.iterdir() if p.is_dir() and name_key(p.name) == name_key(lesson)
    )
    if similar:
        return similar[-1], f'lesson folder named "{similar[-1].name}"; graded as {lesson}'
    return None, None


def lessons_in_tree(folder: Path, known: list[str]) -> list[str]:
    """The known lessons that at least one student folder holds (by folder or notebook name)."""
    keys = {name_key(lesson): lesson for lesson in known}
    found = set()
    for student in folder.iterdir() if folder.is_dir() else []:
        if student.is_dir() and not student.name.startswith("."):
            for entry in student.iterdir():
                if name_key(entry.name) in keys:
                    found.add(keys[name_key(entry.name)])
    return [lesson for lesson in known if lesson in found]


def _loose_notebooks(student_dir: Path, lesson: str) -> list[Path]:
    return [
        p for p in student_dir.iterdir() if p.is_file() and name_key(p.name) == name_key(lesson)
    ]


def from_submitted(folder: Path | str, lessons: list[str], skip_absent: bool = False) -> Intake:
    """Submissions in a submitted/ tree: <student>/<lesson>/<files>.

    A student with nothing for a lesson gets a submission without files (a row with a reason),
    unless skip_absent: then a lesson the student has no folder for is left out (the demo
    class, whose mistake students each take one lesson)."""
    folder = Path(folder)
    submissions = []
    students = sorted(
        p for p in folder.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))
    )
    for student_dir in students:
        for lesson in lessons:
            submission = Submission(student_dir.name, lesson)
            lesson_dir, renamed = _match_folder(student_dir, lesson)
            loose = _loose_notebooks(student_dir, lesson) if lesson_dir is None else []
            if lesson_dir is not None:
                if renamed:
                    submission.note("renamed", renamed)
                submission.files = [str(p) for p in _files_below(lesson_dir)]
                submission.base = str(lesson_dir)
                submission.timestamp = _read_timestamp(lesson_dir)
            elif loose:
                submission.files = [str(p) for p in loose]
                submission.base = str(student_dir)
                submission.note(
                    "renamed",
                    f"notebook found straight in {student_dir.name}/, not in a {lesson}/ folder",
                )
            elif skip_absent:
                continue
            submissions.append(submission)
    return Intake(submissions)


def _extract(archive: Path, target: Path) -> Path:
    """Unpack a zip safely (no paths outside target), archives inside it too."""
    target.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(archive) as zf:
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
        _extract(inner, inner.with_suffix(""))
        inner.unlink()
    return target


Entry = tuple[Path, str, str | None]  # (file, its file id, the LMS timestamp if any)


def _plugins(pattern: str | None, config, files: list[Path]) -> list:
    """nbgrader FileNameCollectorPlugins for the pattern given, configured, or the defaults."""
    from nbgrader.plugins.zipcollect import FileNameCollectorPlugin

    configured = ""
    if config is not None and "FileNameCollectorPlugin" in config:
        configured = config.FileNameCollectorPlugin.get("named_regexp", "")
    patterns = [pattern] if pattern else ([configured] if configured else list(DEFAULT_PATTERNS))
    extensions = sorted({p.suffix for p in files} | {".ipynb"})
    return [FileNameCollectorPlugin(named_regexp=p, valid_ext=extensions) for p in patterns]


def _by_student(files: list[Path], root: Path, plugins, unassigned: list) -> dict:
    """{student id: [Entry]} of the files a pattern reads a student from; others unassigned."""
    by_student: dict[str, list[Entry]] = {}
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
        by_student.setdefault(info["student_id"], []).append((file, file_id, info.get("timestamp")))
    return by_student


def _staged(student: str, lesson: str, entries: list[Entry], workdir: Path) -> Submission:
    """One student's files for one lesson, copied to workdir/from-download/<student>/<lesson>."""
    submission = Submission(student, lesson)
    if entries:
        staged = Path(workdir) / "from-download" / student / lesson
        staged.mkdir(parents=True, exist_ok=True)
        for file, file_id, _ in entries:
            target = staged / PurePosixPath(file_id).name
            target.write_bytes(file.read_bytes())
            submission.files.append(str(target))
        submission.base = str(staged)
        stamps = sorted(s for _, _, s in entries if s)
        submission.timestamp = _timestamp(stamps[-1]) if stamps else None
    return submission


def from_download(
    path: Path | str,
    lessons: list[str],
    workdir: Path | str,
    *,
    pattern: str | None = None,
    config=None,
) -> Intake:
    """Submissions in an LMS download (a .zip or a folder) whose file names follow a pattern.

    Uses nbgrader's FileNameCollectorPlugin: `pattern` (or FileNameCollectorPlugin.named_regexp
    from the configuration) must name the group student_id and may name file_id and timestamp;
    it is matched against each file's path relative to the download, with "/" separators.
    """
    path = Path(path)
    root = _extract(path, Path(workdir) / "download") if path.is_file() else path
    files = _files_below(root)
    unassigned: list[str] = []
    by_student = _by_student(files, root, _plugins(pattern, config, files), unassigned)
    submissions = []
    keys = {name_key(lesson): lesson for lesson in lessons}
    for student in sorted(by_student):
        per_lesson: dict[str, list[Entry]] = {}
        for file, file_id, stamp in by_student[student]:
            lesson = _lesson_of(file_id, keys, lessons)
            if lesson is None:
                unassigned.append(f"{file.relative_to(root).as_posix()} (student {student})")
                continue
            per_lesson.setdefault(lesson, []).append((file, file_id, stamp))
        submissions += [_staged(student, x, per_lesson.get(x, []), workdir) for x in lessons]
    return Intake(submissions, unassigned)


def _quiet_collect(plugin, relative: str):
    import logging

    level = plugin.log.level
    plugin.log.setLevel(logging.ERROR)
    try:
        return plugin.collect(relative)
    finally:
        plugin.log.setLevel(level)


def _lesson_of(file_id: str, keys: dict[str, str], lessons: list[str]) -> str | None:
    """The lesson a downloaded file belongs to: by a folder or file name, or the only one."""
    for part in PurePosixPath(file_id).parts:
        key = name_key(part)
        if key in keys:
            return keys[key]
        for lesson_key, lesson in keys.items():
            if key.startswith(lesson_key) or key.endswith(lesson_key):
                return lesson
    return lessons[0] if len(lessons) == 1 else None


def _timestamp(text: str) -> str | None:
    """An LMS timestamp in a form nbgrader's parse_utc reads, or None."""
    from nbgrader.utils import parse_utc

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


def from_exchange(root: Path | str, lessons: list[str], config) -> tuple[Path, list[str]]:
    """Collect the latest submissions from nbgrader's exchange into root/submitted with
    nbgrader's own ExchangeCollect; returns the submitted folder and collect's problems."""
    from nbgrader.coursedir import CourseDirectory
    from nbgrader.exchange import ExchangeError
    from nbgrader.exchange.default.collect import ExchangeCollect

    problems = []
    for lesson in lessons:
        coursedir = CourseDirectory(config=config)
        coursedir.assignment_id = lesson
        collect = ExchangeCollect(coursedir=coursedir, config=config)
        collect.update = True
        try:
            collect.start()
        except ExchangeError as exc:
            problems.append(f"{lesson}: nbgrader collect: {exc}")
    return Path(coursedir.root) / coursedir.submitted_directory, problems
