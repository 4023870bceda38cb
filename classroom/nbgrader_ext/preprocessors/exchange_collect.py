"""CollectRegularFiles: `nbgrader collect` takes only the files a student handed in.

A student can write into the exchange's inbound folder directly, not only through `nbgrader
submit`. nbgrader's collect copies each submission with shutil.copytree, which follows
symbolic links: a file `data.csv` linking to the instructor's gradebook.db, or a folder
linking to the course (solutions, hidden tests, the hidden cases' secret), was copied with
the instructor's rights into submitted/, and from there into that student's grading; a
submission folder that was itself a link was copied whole. A named pipe stopped the copy of
the whole lesson, everyone's submissions with it.

nbgrader_config.py makes this subclass the exchange's collect, and the grading command's
`--exchange` collects with it. Each submission is first copied into a private folder, walked
without following any link (os.fwalk, file descriptors all the way down, so a link swapped in
while it is copied is not followed either), taking only regular files and folders. What was
left out (links, pipes and devices, unreadable files) is named in one line for the
submission, in the log and in `problems`; nbgrader's own copy (its size limits, its ignore
patterns, group-shared modes) then runs on the private copy.

A learner can also put a folder in the exchange under another learner's name. nbgrader's
`check_owner` compares the folder owner's name with the student's, which differ on many hubs
(The Littlest JupyterHub's `jupyter-erin` submits as `erin`), and only logs it; an account
that submitted one lesson under two students' names is told apart everywhere the learners'
accounts differ, and said in `problems` too (collected as nbgrader collects it: which one is
not theirs is for the instructor to find out).
"""

from __future__ import annotations

import glob
import os
import pwd
import stat
import tempfile
from pathlib import Path

from nbgrader.exchange.default import ExchangeCollect

_READ = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK  # no link followed, no pipe waited on


class CollectRegularFiles(ExchangeCollect):
    """nbgrader's collect, copying only the regular files and folders of each submission."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.problems: list[str] = []  # one line each: files left out, an account's two names

    def init_src(self):
        super().init_src()
        for line in self._one_account_two_names():
            self._say(line)

    def _say(self, line: str) -> None:
        """One line in `problems` and the log, printable (names in it are the students')."""
        line = "".join(c if c.isprintable() else repr(c)[1:-1] for c in line)
        self.problems.append(line)
        self.log.warning(line)

    def _one_account_two_names(self) -> list[str]:
        """A line for each exchange account that submitted this lesson under more than one
        student's name (nbgrader's check_owner compares the owner's name with the student's,
        which a hub's user names often differ from, and only logs it). Where every folder has
        one owner (a hub whose users all run as one account), nothing can be told apart."""
        lesson = self.coursedir.assignment_id
        names: dict[int, set[str]] = {}
        for path in glob.glob(os.path.join(self.inbound_path, f"*+{glob.escape(lesson)}+*")):
            student = os.path.basename(path).rsplit("+", 3)[0]
            names.setdefault(os.lstat(path).st_uid, set()).add(student)
        if len(names) < 2:
            return []
        return [
            f"{lesson}: the exchange account {_account(uid)} submitted as "
            f"{' and '.join(sorted(students))}: one of them is not theirs; check before "
            "releasing these grades"
            for uid, students in sorted(names.items())
            if len(students) > 1
        ]

    def do_copy(self, src, dest, log=None):
        with tempfile.TemporaryDirectory(prefix="collect-") as private:
            handed_in = Path(private) / "submission"
            skipped = copy_regular_files(Path(src), handed_in)
            if skipped:
                line = (
                    f"{Path(dest).parent.name}'s {Path(dest).name}: left out at collect, "
                    f"not graded: {', '.join(skipped)}"
                )
                self._say(line)
            super().do_copy(str(handed_in), dest, log)


def copy_regular_files(src: Path, target: Path) -> list[str]:
    """Copy the regular files and folders under src into target (made here), following no
    link; returns what was left out, each as "relative/path (why)"."""
    target.mkdir()
    if src.is_symlink() or not src.is_dir():
        return [f"{src.name} (the submission folder itself is {_kind(os.lstat(src).st_mode)})"]
    skipped: list[str] = []
    for folder, dirs, files, folder_fd in os.fwalk(src, follow_symlinks=False):
        here = target / Path(folder).relative_to(src)
        for name in list(dirs):
            mode = os.stat(name, dir_fd=folder_fd, follow_symlinks=False).st_mode
            if stat.S_ISDIR(mode):
                (here / name).mkdir()
            else:  # a link to a folder: fwalk lists it here, and would not go in
                dirs.remove(name)
                skipped.append(f"{_relative(here / name, target)} ({_kind(mode)})")
        for name in files:
            why = _copy_file(name, folder_fd, here / name)
            if why:
                skipped.append(f"{_relative(here / name, target)} ({why})")
    return skipped


def _copy_file(name: str, folder_fd: int, target: Path) -> str | None:
    """Copy one regular file, opened relative to its folder; why not, or None once copied."""
    try:
        source = os.open(name, _READ, dir_fd=folder_fd)
    except OSError as exc:  # ELOOP: a link; ENXIO: a socket; EACCES: not readable
        try:
            mode = os.stat(name, dir_fd=folder_fd, follow_symlinks=False).st_mode
        except OSError:
            mode = stat.S_IFREG  # gone since it was listed
        return _kind(mode) if not stat.S_ISREG(mode) else f"unreadable: {exc.strerror}"
    with os.fdopen(source, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            return _kind(info.st_mode)
        with open(target, "xb") as copy:
            while chunk := handle.read(1 << 20):
                copy.write(chunk)
    os.utime(target, ns=(info.st_atime_ns, info.st_mtime_ns))
    return None


def _account(uid: int) -> str:
    try:
        return f"{pwd.getpwuid(uid).pw_name} (uid {uid})"
    except KeyError:
        return f"uid {uid}"


def _kind(mode: int) -> str:
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISDIR(mode):
        return "a folder"
    return "not a regular file" if not stat.S_ISREG(mode) else "a file"


def _relative(path: Path, root: Path) -> str:
    return path.relative_to(root).as_posix()
