"""LMS downloads read the way the LMS names them: Canvas and Moodle, one file at a time.

- Canvas (ContentZipper in Canvas's source): one flat folder of files named `<name>[_LATE]_
  <user id>_<attachment id>_<file name>`. The name is the sortable name ("García, María")
  lower-cased with every character that is not a word character removed ("garcíamaría",
  "李雷"; Unicode letters stay); older downloads kept an underscore ("smith_alice"). `_LATE`
  (upper case, as Canvas writes it) marks a file handed in after the due date, and a
  resubmitted file's name has `-1`, `-2`... added before its extension. The student is the
  numeric user id (two Smiths stay two students); the newest file (the highest attachment id)
  of a student and lesson is the submission. An online text entry or web address is
  `<name>[_LATE]_<user id>_text.html` (`_link.html`). With anonymous grading a file is
  `[LATE_]anon_<5 characters>_<attachment id>_<file name>` and the student "anon_<5
  characters>", Canvas's anonymous id (not the user id its grade import matches on).
- Moodle (mod/assign's download_submissions): a folder per submission, `<Full Name>_
  <participant id>_assignsubmission_file_/`, holding the files (or, with "Download
  submissions in folders" unticked, and before Moodle 3.1, that prefix glued to each file's
  name); the full name keeps its Unicode letters, its underscores turned into spaces. The
  student is the participant id. Moodle keeps only a student's last attempt and names no
  lateness.

Names are compared in Unicode's composed form (NFC): a zip unpacked on macOS may hold "e" and
a combining diaeresis where Canvas wrote "ë". A file that follows neither naming is read with
a pattern (`classroom.grading.download`).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

CANVAS = re.compile(  # \w is Unicode-aware: "garcíamaría", "zoë", "李雷"
    r"^(?P<name>\w+?)(?P<late>_LATE)?_(?P<id>\d+)_(?P<order>\d+)_(?P<file>[^/]+)$"
)
CANVAS_ANONYMOUS = re.compile(  # anonymous grading: "anon_" and 5 base58 characters
    r"^(?P<late>LATE_)?(?P<id>anon_[1-9A-HJ-NP-Za-km-z]{5})_(?P<order>\d+)_(?P<file>[^/]+)$"
)
CANVAS_ONLINE = re.compile(  # a text entry or a web address: no attachment id
    r"^(?P<name>\w+?)(?P<late>_LATE)?_(?P<id>\d+)_(?P<file>text\.html|link\.html)$"
)
MOODLE = re.compile(
    r"^(?P<name>[^/_]+)_(?P<id>\d+)_assign(?:submission|feedback)_[a-z0-9]+_/?(?P<file>[^/].*)$"
)
RESUBMITTED = re.compile(r"^(?P<stem>.+?)-(?P<n>\d+)(?P<ext>\.[A-Za-z0-9]+)$")


@dataclass(frozen=True)
class Handed:
    """One file of an LMS download, as the LMS named it."""

    path: Path  # the file on disk
    relative: str  # its path in the download, "/" separated
    lms: str  # "canvas" or "moodle"
    student: str  # the LMS's numeric id for the student
    name: str  # the student's name as the LMS writes it ("Alice Smith")
    file: str  # the file's own name, the LMS's prefix and resubmission suffix removed
    late: bool = False
    order: int = 0  # newer files have larger numbers (Canvas attachment ids)


def canvas_name(sortable: str) -> str:
    """A Canvas sortable name ("smith_alice") as a person's name ("Alice Smith")."""
    parts = [p for p in re.split(r"[_\s]+", sortable) if p]
    if len(parts) >= 2:
        parts = parts[1:] + parts[:1]
    return " ".join(part.capitalize() for part in parts)


def _without_suffix(file: str) -> tuple[str, int]:
    """("01-x.ipynb", 2) for "01-x-2.ipynb"; a lesson's own "-NN" names are kept apart by
    the caller, which compares with the lesson names."""
    match = RESUBMITTED.match(file)
    if match is None:
        return file, 0
    return match["stem"] + match["ext"], int(match["n"])


def read(relative: str, path: Path, lessons: list[str]) -> Handed | None:
    """The LMS's reading of one file of a download, or None when it follows neither naming."""
    relative = unicodedata.normalize("NFC", relative)
    match = CANVAS_ANONYMOUS.match(relative) or CANVAS.match(relative)
    if match is not None:
        file, version = _without_suffix(match["file"])
        if Path(match["file"]).stem in lessons:  # the lesson's own name ended in -NN
            file, version = match["file"], 0
        order = int(match["order"]) * 1000 + version
        name = canvas_name(match["name"]) if "name" in match.groupdict() else ""
        late = bool(match["late"])
        return Handed(path, relative, "canvas", match["id"], name, file, late, order)
    match = CANVAS_ONLINE.match(relative)
    if match is not None:
        name, late = canvas_name(match["name"]), bool(match["late"])
        return Handed(path, relative, "canvas", match["id"], name, match["file"], late)
    match = MOODLE.match(relative)
    if match is not None:
        file = PurePosixPath(match["file"]).name
        return Handed(path, relative, "moodle", match["id"], match["name"].strip(), file)
    return None
