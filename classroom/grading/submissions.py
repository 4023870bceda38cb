"""A handed-in file, read with care: is it a notebook, and which file is the lesson's.

Learners hand in what their tools save: "Copy of 01-world-as-text (1).ipynb", a notebook
inside a folder with other files, a file that is not JSON, nbformat 4.0 from an old editor.
`choose_notebook` picks the lesson's notebook among the files of one submission and
`read_submission` reads it as nbformat 4 or says, in one sentence, why it cannot be graded.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import nbformat
from nbformat.v4.nbbase import random_cell_id

from classroom.nbgrader_ext.matching import WRONG_NOTEBOOK, alignment_quality
from classroom.nbgrader_ext.notes import Note

# Files nbgrader's exchange puts beside a submission (kept, never worth a note).
HOUSEKEEPING = {"timestamp.txt", "submission_secret.txt"}


MiB = 1024 * 1024
MAX_NOTEBOOK_BYTES = 100 * MiB  # nbgrader's own collect skips files over 100,000 kB too
MAX_EXTRA_FILE = 50 * MiB  # a larger file handed in beside the notebook is listed, not copied


class Unreadable(Exception):
    """The file cannot be graded as a notebook; str(exc) is the reason for the report."""


# --------------------------------------------------------------------------------------------
# Reading


def read_submission(path: Path | str) -> tuple[nbformat.NotebookNode, list[Note]]:
    """The notebook in path as nbformat 4, or Unreadable with a reason a person can act on
    (a notebook over MAX_NOTEBOOK_BYTES is not read at all: parsing takes many times a
    notebook's size in memory; measured, a 13 MB notebook of 20,000 cells with outputs raised
    the process's peak by 178 MB)."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_NOTEBOOK_BYTES:
            raise Unreadable(
                f"{path.name} is {size / MiB:.0f} MB, over the {MAX_NOTEBOOK_BYTES // MiB} MB "
                "a notebook may be (nbgrader's max_file_size too): cleared of its outputs "
                "(Edit > Clear Outputs of All Cells) it can be handed in again"
            )
        data = path.read_bytes()
    except OSError as exc:
        raise Unreadable(f"cannot read {path.name}: {exc.strerror or exc}") from None
    if not data.strip():
        raise Unreadable(f"{path.name} is empty ({len(data)} bytes)")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise Unreadable(f"{path.name} is not UTF-8 text (byte {exc.start})") from None
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise Unreadable(
            f"{path.name} is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}"
        ) from None
    except RecursionError:  # "[[[[..." thousands deep: no notebook is
        raise Unreadable(f"{path.name} is JSON nested too deeply to be a notebook") from None
    if not isinstance(raw, dict) or not isinstance(raw.get("cells", raw.get("worksheets")), list):
        raise Unreadable(f"{path.name} is JSON but not a Jupyter notebook (no list of cells)")
    notes = []
    major, minor = raw.get("nbformat"), raw.get("nbformat_minor")
    ids = [c.get("id") for c in raw.get("cells", []) if isinstance(c, dict)]
    duplicated = len(ids) - len(set(ids)) if None not in ids else 0
    modern = isinstance(major, int) and isinstance(minor, int) and (major, minor) >= (4, 5)
    missing = ids.count(None) if modern else 0
    if duplicated or missing:
        notes.append(
            Note("format", f"cell ids: {missing} missing and {duplicated} duplicated; made unique")
        )
    try:
        nb = nbformat.reads(text, as_version=4, capture_validation_error={})
    except Exception as exc:  # nbformat's reader raises many kinds
        raise Unreadable(f"{path.name} is not a notebook nbformat can read: {exc}") from None
    if major != 4 or minor != nbformat.v4.nbformat_minor:
        notes.append(Note("format", f"nbformat {major}.{minor} upgraded to 4.5"))
        nb.nbformat, nb.nbformat_minor = 4, nbformat.v4.nbformat_minor
        for cell in nb.cells:  # cells of an older notebook have no id: give each one
            cell.setdefault("id", random_cell_id())
    for cell in nb.cells:
        if isinstance(cell.get("source"), list):
            cell.source = "".join(cell.source)
    return nb, notes


# --------------------------------------------------------------------------------------------
# Which file is the notebook


def name_key(name: str) -> str:
    """A file or folder name without what copying adds: "Copy of x (1).ipynb" -> "x"."""
    stem = re.sub(r"\.ipynb$", "", name.strip(), flags=re.IGNORECASE).lower()
    previous = None
    while stem != previous:
        previous = stem
        stem = re.sub(r"^copy\s+of\s+", "", stem)
        stem = re.sub(r"\s*\(\d+\)$", "", stem)
        stem = re.sub(r"\s*\(copy\)$", "", stem)
        stem = re.sub(r"[\s_-]*copy\d*$", "", stem)
        stem = stem.strip(" _-")
    return re.sub(r"[\s_]+", "-", stem)


def _content_score(path: Path, release: nbformat.NotebookNode) -> float:
    try:
        nb, _ = read_submission(path)
    except Unreadable:
        return -1.0
    return alignment_quality(release, nb)


def lesson_by_cells(path: Path, lessons: list[str], releases) -> tuple[str | None, float]:
    """The lesson a notebook named after none belongs to, by its cells, and the share (0 to 1)
    of that lesson's graded cells it has: the lesson whose release (`releases(lesson)`) it
    matches best, when that share is at least WRONG_NOTEBOOK; (None, share) otherwise, and
    for a file that is not a readable notebook."""
    found = {lesson: releases(lesson) for lesson in lessons}
    shares = {lesson: _content_score(path, nb) for lesson, nb in found.items() if nb is not None}
    best = max(shares, key=shares.get, default=None)
    if best is None or shares[best] < WRONG_NOTEBOOK:
        return None, max(shares.values(), default=0.0)
    return best, shares[best]


def choose_notebook(
    files: list[Path], lesson: str, release: nbformat.NotebookNode
) -> tuple[Path | None, list[Note], list[Path]]:
    """Pick the learner's notebook for `lesson` among the files handed in.

    Returns (notebook or None, notes, the other files). Preference: the exact name; a name
    that is the lesson's once copy marks and case are ignored ("Copy of ...", "... (1)");
    the only notebook; the notebook whose cells match the release best.
    """
    notebooks = [f for f in files if f.name.lower().endswith(".ipynb")]
    notes: list[Note] = []
    exact = [f for f in notebooks if f.name == f"{lesson}.ipynb"]
    similar = [f for f in notebooks if name_key(f.name) == name_key(lesson)]
    chosen = None
    if exact:
        chosen = exact[0]
    elif similar:
        chosen = max(similar, key=lambda f: (f.stat().st_mtime, f.name))
        notes.append(Note("renamed", f'notebook handed in as "{chosen.name}"; graded as {lesson}'))
        if len(similar) > 1:
            others = ", ".join(f'"{f.name}"' for f in similar if f != chosen)
            notes.append(Note("renamed", f"also found {others}; the newest one was graded"))
    elif len(notebooks) == 1:
        chosen = notebooks[0]
        notes.append(Note("renamed", f'the only notebook, "{chosen.name}", was graded as {lesson}'))
    elif notebooks:
        scored = sorted(notebooks, key=lambda f: (_content_score(f, release), f.name))
        chosen = scored[-1]
        notes.append(
            Note(
                "renamed",
                f'no notebook named {lesson}; "{chosen.name}" matches the lesson best of '
                f"{len(notebooks)} notebooks and was graded",
            )
        )
    others = [f for f in files if f != chosen]
    theirs = [f for f in others if f.name not in HOUSEKEEPING]  # the exchange's own files
    if theirs:
        shown = ", ".join(f.name for f in theirs[:8]) + (" ..." if len(theirs) > 8 else "")
        notes.append(Note("extra-files", f"other files handed in (not graded): {shown}"))
    return chosen, notes, others
