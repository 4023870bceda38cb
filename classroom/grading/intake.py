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

from dataclasses import dataclass, field
from pathlib import Path

from classroom.grading.results import Job
from classroom.grading.submissions import name_key

# Not the learner's work: editors' droppings (the exchange's own files, HOUSEKEEPING, are
# kept beside the notebook: release_feedback reads them back from the feedback folder).
IGNORED = {".ipynb_checkpoints", "__pycache__", "__MACOSX", ".DS_Store", "timestamp.txt"}


Submission = Job  # one per (student, lesson); numbered later by the run


@dataclass
class Intake:
    submissions: list[Submission]
    unassigned: list[str] = field(default_factory=list)  # files no student could be read from
    warnings: list[str] = field(default_factory=list)  # one line each, for the run's warnings


def files_below(folder: Path, skip: set[str]) -> tuple[list[Path], list[str]]:
    """(the regular files under folder, none of whose path parts is in skip; the rest that is
    not a folder, "relative/path (a symbolic link)", left out). A link is never followed: what
    it points at is not the student's to hand in (a link to the gradebook or to the course
    would carry it into the student's grading). folder itself may be a link (the instructor's)."""
    files, left = [], []
    for path in sorted(folder.rglob("*")):  # rglob does not go into a linked folder
        relative = path.relative_to(folder)
        if set(relative.parts) & skip:
            continue
        if path.is_symlink():
            left.append(f"{relative.as_posix()} (a symbolic link)")
        elif path.is_file():
            files.append(path)
        elif not path.is_dir():
            left.append(f"{relative.as_posix()} (not a regular file)")
    return files, left


def _note_left_out(submission: Submission, left: list[str]) -> None:
    if left:
        submission.note("left-out", f"left out, not graded: {', '.join(left)}")


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
        p
        for p in student_dir.iterdir()
        if p.is_file() and not p.is_symlink() and name_key(p.name) == name_key(lesson)
    ]


def from_submitted(folder: Path | str, lessons: list[str], skip_absent: bool = False) -> Intake:
    """Submissions in a submitted/ tree: <student>/<lesson>/<files>.

    A student with nothing for a lesson gets a submission without files (a row with a reason),
    unless skip_absent: then a lesson the student has no folder for is left out (the demo
    class, whose mistake students each take one lesson)."""
    folder = Path(folder)
    submissions = []
    folders = [p for p in folder.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))]
    students = sorted(p for p in folders if not p.is_symlink())
    linked = sorted(p.name for p in folders if p.is_symlink())
    for student_dir in students:
        for lesson in lessons:
            submission = Submission(student_dir.name, lesson)
            lesson_dir, renamed = _match_folder(student_dir, lesson)
            loose = _loose_notebooks(student_dir, lesson) if lesson_dir is None else []
            if lesson_dir is not None:
                if renamed:
                    submission.note("renamed", renamed)
                files, left = files_below(lesson_dir, IGNORED)
                if lesson_dir.is_symlink():
                    files, left = [], [f"{lesson_dir.name} (a symbolic link)"]
                submission.files = [str(p) for p in files]
                _note_left_out(submission, left)
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
    warnings = [f"student folders that are symbolic links, not graded: {', '.join(linked)}"]
    return Intake(submissions, warnings=warnings if linked else [])


def from_exchange(root: Path | str, lessons: list[str], config) -> tuple[Path, list[str]]:
    """Collect the latest submissions from nbgrader's exchange into root/submitted with
    nbgrader's collect, taking only regular files (CollectRegularFiles); returns the
    submitted folder and collect's problems, one line each."""
    from nbgrader.coursedir import CourseDirectory
    from nbgrader.exchange import ExchangeError

    from classroom.nbgrader_ext.preprocessors.exchange_collect import CollectRegularFiles

    problems = []
    for lesson in lessons:
        coursedir = CourseDirectory(config=config)
        coursedir.assignment_id = lesson
        collect = CollectRegularFiles(coursedir=coursedir, config=config)
        collect.update = True
        try:
            collect.start()
        except (ExchangeError, OSError) as exc:  # an empty or missing exchange, rights
            problems.append(f"{lesson}: nbgrader collect found nothing to collect ({exc})")
        problems += collect.problems
    folder = Path(coursedir.root) / coursedir.submitted_directory
    if not folder.is_dir() or not any(folder.iterdir()):
        where = getattr(config.Exchange, "root", None) or "the exchange"
        raise EmptyExchange(
            f"nothing was collected from {where} for {', '.join(lessons)}: has the lesson been "
            "released (nbgrader release_assignment) and submitted, and is NBGRADER_EXCHANGE the "
            "hub's exchange?"
        )
    return folder, problems


class EmptyExchange(ValueError):
    """Nothing to collect from nbgrader's exchange; the message says what to check."""
