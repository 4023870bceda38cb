"""NewestAttemptCollector: `nbgrader zip_collect` keeps a student's newest attempt.

Canvas names a resubmitted file with its attempt before the extension (`01-world-as-text-1.
ipynb`, `-2`, ...), and its download holds every attempt. nbgrader's FileNameCollectorPlugin
took each as a file of its own: the first attempt landed as the lesson's notebook, the newer
beside it under a name nbgrader does not grade, so the first attempt was graded.
nbgrader_config.py makes this subclass zip_collect's collector: a notebook named after a
released notebook plus `-N` is that notebook's attempt N, and of a student's attempts of one
notebook only the newest is collected, under the released name; an older one is skipped with
one line naming the newer (nbgrader's own "no match information" line for it is dropped).
`--FileNameCollectorPlugin.named_regexp` configures it as before.
"""

from __future__ import annotations

import logging
import os
import posixpath
import re

from nbgrader.plugins import FileNameCollectorPlugin

ATTEMPT = re.compile(r"^(?P<name>.+)-(?P<attempt>\d+)(?P<ext>\.ipynb)$")


class NewestAttemptCollector(FileNameCollectorPlugin):
    """nbgrader's FileNameCollectorPlugin, with resubmissions read as attempts."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._read_folders: dict[str, dict] = {}
        self._skipped: set[str] = set()
        self.log.addFilter(self._said_already)

    def collect(self, submitted_file: str) -> dict | None:
        info = super().collect(submitted_file)
        if not info:
            return info
        name, attempt = self._attempt(info["file_id"])
        newer = [
            (number, path)
            for path, (student, (other, number)) in self._siblings(submitted_file).items()
            if student == info["student_id"] and other == name and number > attempt
        ]
        if newer:
            self.log.warning(
                "Not collected: %s, an older attempt than %s (the newest is graded)",
                os.path.basename(submitted_file),
                os.path.basename(max(newer)[1]),
            )
            self._skipped.add(submitted_file)
            return None
        return {**info, "file_id": name}

    def _said_already(self, record: logging.LogRecord) -> bool:
        """Drop zip_collect's "Skipped submission with no match information provided" for an
        older attempt: the line above said why, and "no match information" would mislead."""
        message = record.getMessage()
        return not (
            message.startswith("Skipped submission with no match information")
            and message.rsplit(": ", 1)[-1] in self._skipped
        )

    def _attempt(self, file_id: str) -> tuple[str, int]:
        """(the released notebook's file id, the attempt: 0 for the first) of a file id."""
        folder, base = posixpath.split(file_id)
        match = ATTEMPT.match(base)
        if match is None or f"{match['name']}{match['ext']}" not in self._released():
            return file_id, 0
        return posixpath.join(folder, match["name"] + match["ext"]), int(match["attempt"])

    def _released(self) -> set[str]:
        """The file names of the lesson's released notebooks (none known: no attempts read)."""
        coursedir = getattr(self.parent, "coursedir", None)
        if coursedir is None:
            return set()
        folder = coursedir.format_path(coursedir.release_directory, ".", coursedir.assignment_id)
        return (
            {f for f in os.listdir(folder) if f.endswith(".ipynb")}
            if os.path.isdir(folder)
            else set()
        )

    def _siblings(self, path: str) -> dict[str, tuple[str, tuple[str, int]]]:
        """{path: (student, (file id, attempt))} of the files beside path that the regular
        expression reads (read once per folder)."""
        folder = os.path.dirname(path)
        cache = self._read_folders
        if folder not in cache:
            found = {}
            for entry in sorted(os.listdir(folder)):
                other = os.path.join(folder, entry)
                match = re.match(self.named_regexp, other) if self.named_regexp else None
                if os.path.isfile(other) and match and match.groupdict().get("student_id"):
                    groups = match.groupdict()
                    file_id = groups.get("file_id") or entry
                    found[other] = (groups["student_id"], self._attempt(file_id))
            cache[folder] = found
        return cache[folder]
