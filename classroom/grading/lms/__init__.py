"""The LMSs the grading command knows, one module each, found here (dm_control's registry).

Each module of this package but `base` declares one LMS (`LMS = base.Lms(...)`): how its
download names files (read by `read` here, for `classroom.grading.download`), the grade files
it imports (written by `classroom.grading.exports`), and its own command-line options (added to
`python -m classroom.grade` by `add_options`). A new LMS is one new module here plus its test
in grader_tests/classroom/lms/; no other file names it.

Downloads: each file is read on its own by the first LMS whose naming it follows, the LMSs
tried in the order of their names; names are compared in Unicode's composed form (NFC), since
a zip unpacked on macOS may hold "e" and a combining diaeresis where the LMS wrote "ë". A file
that follows no LMS's naming is read with a pattern (`classroom.grading.download`).
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import unicodedata
from pathlib import Path

from classroom.grading.lms.base import Handed, Lms

__all__ = ["Handed", "Lms", "REGISTRY", "add_options", "asked", "names", "read", "titles"]


def _discover() -> dict[str, Lms]:
    """{name: Lms} of every module of this package that declares `LMS`, by module name."""
    found = {}
    for module in sorted(m.name for m in pkgutil.iter_modules(__path__)):
        declared = getattr(importlib.import_module(f"{__name__}.{module}"), "LMS", None)
        if isinstance(declared, Lms):
            found[declared.name] = declared
    return found


REGISTRY: dict[str, Lms] = _discover()


def names() -> tuple[str, ...]:
    """The LMSs' names, as `--export` takes them."""
    return tuple(REGISTRY)


def titles(joined: str = "and", suffix: str = "") -> str:
    """The LMSs' titles in one phrase: "Canvas and Moodle"; suffix="'s": "Canvas's and
    Moodle's"."""
    words = [f"{lms.title}{suffix}" for lms in REGISTRY.values()]
    return f" {joined} ".join(words)


def read(relative: str, path: Path, lessons: list[str]) -> Handed | None:
    """The first LMS's reading of one file of a download, or None when it follows none."""
    relative = unicodedata.normalize("NFC", relative)
    for lms in REGISTRY.values():
        handed = lms.read(relative, path, lessons)
        if handed is not None:
            return handed
    return None


def add_options(parser: argparse.ArgumentParser) -> None:
    """Every LMS's own command-line options."""
    for lms in REGISTRY.values():
        lms.options(parser)


def settings(args: argparse.Namespace) -> tuple[tuple[str, object], ...]:
    """(LMS name, what its own options say) for each LMS whose options say something: read
    once from the command line into the command's plan."""
    found = ((lms.name, lms.setting(args)) for lms in REGISTRY.values())
    return tuple((name, value) for name, value in found if value is not None)


def asked(settings: tuple[tuple[str, object], ...], lessons: list[str], root: Path) -> list[str]:
    """The LMSs whose settings (`settings`) ask for their export; what those settings give is
    kept in the course at `root` (a GradeError for a bad one)."""
    given = dict(settings)
    return [
        lms.name
        for lms in REGISTRY.values()
        if lms.name in given and lms.asked(given[lms.name], lessons, root)
    ]
