"""Read a handed-in notebook and match its cells back to the lesson's release.

nbgrader grades a cell by its nbgrader metadata (`grade_id`, `locked`, points). Learners'
tools lose or mangle it: Colab saves its own metadata, nbformat 4.0 and no cell ids; a copied
cell duplicates a `grade_id` (plain nbgrader then stops grading the whole class); an editor can
strip the metadata of some or all cells (plain nbgrader then scores 0 without a word); a test
cell can be deleted or edited. `repair` rebuilds a notebook nbgrader can grade fairly:

1. cells are matched to the release in order: first by `grade_id` where it is intact, then by
   content (same text, or the same `def`/assigned name with most words shared);
2. cells between two matches are matched by position where that is unambiguous;
3. matched cells get the release's nbgrader metadata back; locked cells (tests, set-up) that
   were not found are put back from the release at their place; nbgrader's own OverwriteCells
   then restores every locked cell's source, hidden tests included, from the gradebook;
4. metadata left on unmatched cells (a copied answer cell) is removed, cell ids are made
   unique, notebook metadata (kernelspec, Colab's keys) is the release's.

Every change is returned as a note, so the report can say what was done.
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass
from pathlib import Path

import nbformat
from nbformat.v4.nbbase import random_cell_id

SOLUTION_MARKERS = ("BEGIN SOLUTION", "END SOLUTION")
CELL_ID = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\d+(?:\.\d+)?")
SIGNATURE = re.compile(r"^\s*(?:(def|class)\s+(\w+)|(\w+)\s*(?::[^=]*)?=(?!=))")
CONTENT_MATCH = 0.5  # similarity from which two cells are "the same cell" by content


class Unreadable(Exception):
    """The file cannot be graded as a notebook; str(exc) is the reason for the report."""


@dataclass
class Note:
    kind: str
    text: str

    def as_dict(self) -> dict:
        return {"kind": self.kind, "text": self.text, "cell": None, "grade_id": None}


# --------------------------------------------------------------------------------------------
# Reading


def read_submission(path: Path | str) -> tuple[nbformat.NotebookNode, list[Note]]:
    """The notebook in path as nbformat 4, or Unreadable with a reason a person can act on."""
    path = Path(path)
    try:
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
    if others:
        shown = ", ".join(f.name for f in others[:8]) + (" ..." if len(others) > 8 else "")
        notes.append(Note("extra-files", f"other files handed in (not graded): {shown}"))
    return chosen, notes, others


# --------------------------------------------------------------------------------------------
# Matching cells


def grade_id(cell) -> str | None:
    meta = cell.get("metadata", {}).get("nbgrader")
    if isinstance(meta, dict) and isinstance(meta.get("grade_id"), str) and meta["grade_id"]:
        return meta["grade_id"]
    return None


def _is_locked(cell) -> bool:
    meta = cell.get("metadata", {}).get("nbgrader") or {}
    return bool(meta.get("locked") or meta.get("grade")) and not meta.get("solution")


def _is_answer(cell) -> bool:
    return bool((cell.get("metadata", {}).get("nbgrader") or {}).get("solution"))


def _is_test(cell) -> bool:
    meta = cell.get("metadata", {}).get("nbgrader") or {}
    return bool(meta.get("grade")) and not meta.get("solution")


def _normalised(source: str) -> str:
    return "\n".join(line.rstrip() for line in source.strip().splitlines())


def _signature(cell) -> tuple | None:
    if cell.cell_type == "markdown":
        first = next((ln for ln in cell.source.splitlines() if ln.strip()), "")
        return ("md", first.strip()) if first.startswith("#") else None
    for line in cell.source.splitlines():
        if not line.strip() or line.lstrip().startswith(("#", "@", '"""', "'''")):
            continue
        match = SIGNATURE.match(line)
        if match:
            return (match.group(1) or "=", match.group(2) or match.group(3))
        return None
    return None


class _Features:
    def __init__(self, cell):
        self.type = cell.cell_type
        self.text = _normalised(cell.source)
        self.words = set(WORD.findall(cell.source))
        self.signature = _signature(cell)


def similarity(a: _Features, b: _Features) -> float:
    """How alike two cells are, 0 to 1: equal text 1; else shared words, raised to 0.8 when
    both open with the same `def name` or `name =`."""
    if a.type != b.type:
        return 0.0
    if a.text == b.text:
        return 1.0
    if not a.words or not b.words:
        return 0.0
    score = len(a.words & b.words) / len(a.words | b.words)
    if a.signature is not None and a.signature == b.signature:
        score = max(score, 0.8)
    return score


def _align(release_cells, cells, known_ids) -> list[tuple[int, int, str]]:
    """Order-preserving matches (release index, submission index, how) of highest weight.

    A cell carrying a known grade_id matches only the release cell with that id; other cells
    match by content (similarity >= CONTENT_MATCH)."""
    r_feat = [_Features(c) for c in release_cells]
    s_feat = [_Features(c) for c in cells]
    s_ids = [grade_id(c) if grade_id(c) in known_ids else None for c in cells]
    r_ids = [grade_id(c) for c in release_cells]
    n, m = len(release_cells), len(cells)

    def weight(i, j):
        if r_feat[i].type != s_feat[j].type:
            return 0.0, ""
        if s_ids[j] is not None:
            return (10.0, "id") if s_ids[j] == r_ids[i] else (0.0, "")
        score = similarity(r_feat[i], s_feat[j])
        return (1.0 + 4.0 * score, "content") if score >= CONTENT_MATCH else (0.0, "")

    weights = [[weight(i, j) for j in range(m)] for i in range(n)]
    best = [[0.0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        row, below = best[i], best[i + 1]
        for j in range(m - 1, -1, -1):
            w = weights[i][j][0]
            row[j] = max(below[j], row[j + 1], (w + below[j + 1]) if w > 0 else 0.0)
    matches, i, j = [], 0, 0
    while i < n and j < m:
        w, how = weights[i][j]
        if w > 0 and best[i][j] == w + best[i + 1][j + 1]:
            matches.append((i, j, how))
            i, j = i + 1, j + 1
        elif best[i][j] == best[i + 1][j]:
            i += 1
        else:
            j += 1
    return matches


def alignment_quality(release: nbformat.NotebookNode, nb: nbformat.NotebookNode) -> float:
    """Share of the release's nbgrader cells that nb has by id or content (0 to 1)."""
    graded = [i for i, c in enumerate(release.cells) if grade_id(c)]
    if not graded:
        return 0.0
    known = {grade_id(c) for c in release.cells if grade_id(c)}
    found = {i for i, _, _ in _align(release.cells, nb.cells, known)}
    return len(found & set(graded)) / len(graded)


# --------------------------------------------------------------------------------------------
# Repair


def _describe(cell) -> str:
    return grade_id(cell) or cell.get("id") or cell.cell_type


CELL_KEYS = {
    "code": {"cell_type", "id", "metadata", "source", "outputs", "execution_count"},
    "markdown": {"cell_type", "id", "metadata", "source", "attachments"},
    "raw": {"cell_type", "id", "metadata", "source", "attachments"},
}


def _clean_cell(cell, keys: set[str]) -> list[str]:
    """Keep the cell metadata keys the release uses (nbgrader, tags, locks, ...), drop the
    rest (Colab's and other editors'), clear outputs. Returns the dropped keys."""
    kept = {k: v for k, v in cell.metadata.items() if k in keys}
    dropped = sorted(set(cell.metadata) - set(kept))
    if "nbgrader" in kept and not grade_id(cell):
        del kept["nbgrader"]  # {} or junk: nbgrader itself would stop on it
    cell.metadata = nbformat.from_dict(kept)
    if cell.cell_type == "code":
        cell.outputs, cell.execution_count = [], None
    for key in set(cell) - CELL_KEYS.get(cell.cell_type, set(cell)):
        del cell[key]
    return dropped


def repair(
    nb: nbformat.NotebookNode,
    release: nbformat.NotebookNode,
    lesson: str = "",
    reading_notes: list[Note] = (),
) -> tuple[nbformat.NotebookNode, list[Note]]:
    """A copy of nb that nbgrader can grade against release, and what was changed
    (`reading_notes` are read_submission's, so an upgrade from nbformat 4.0 is not also
    reported as cells without ids)."""
    nb = copy.deepcopy(nb)
    notes: list[Note] = []

    # Notebook metadata: the release's (kernelspec, language_info); Colab's keys go.
    kernel = (nb.metadata.get("kernelspec") or {}).get("name")
    wanted = (release.metadata.get("kernelspec") or {}).get("name")
    colab = "colab" in nb.metadata or any("colab" in c.get("metadata", {}) for c in nb.cells)
    if colab:
        notes.append(Note("format", "saved by Google Colab: Colab's metadata removed"))
    if kernel != wanted:
        notes.append(Note("format", f"kernel {kernel!r} replaced by the lesson's {wanted!r}"))
    nb.metadata = copy.deepcopy(release.metadata)

    keys = {"nbgrader", "tags"}.union(*(c.metadata.keys() for c in release.cells))
    dropped = set()
    for cell in nb.cells:
        dropped.update(_clean_cell(cell, keys))

    known = {grade_id(c) for c in release.cells if grade_id(c)}
    cells = nb.cells
    matches = _align(release.cells, cells, known)
    graded = {i for i, c in enumerate(release.cells) if grade_id(c)}
    quality = len({i for i, _, _ in matches} & graded) / len(graded) if graded else 1.0
    pairs, inserts = _fill_gaps(release.cells, cells, matches, known)

    restored = {"content": [], "position": []}
    edited, missing = [], []
    for i, (j, how) in sorted(pairs.items()):
        r_cell, s_cell = release.cells[i], cells[j]
        r_meta = r_cell.metadata.get("nbgrader")
        if r_meta is None:
            s_cell.metadata.pop("nbgrader", None)
            continue
        if grade_id(s_cell) != grade_id(r_cell):
            restored[how].append(grade_id(r_cell))
        s_cell.metadata["nbgrader"] = copy.deepcopy(r_meta)
        if _is_locked(r_cell) and _normalised(s_cell.source) != _normalised(r_cell.source):
            edited.append(grade_id(r_cell))
    if restored["content"] or restored["position"]:
        names = restored["content"] + restored["position"]
        how = ", ".join(f"{len(v)} by {k}" for k, v in restored.items() if v)
        notes.append(
            Note(
                "metadata-restored",
                f"nbgrader metadata missing on {len(names)} cells, matched back to the source "
                f"({how}): {_names(names)}",
            )
        )
    if edited:
        notes.append(
            Note("test-restored", f"locked cells edited, restored from source: {_names(edited)}")
        )

    used = {j for j, _ in pairs.values()}
    for j, cell in enumerate(cells):
        if j not in used and "nbgrader" in cell.metadata:
            gid = grade_id(cell)
            why = "a copy of a cell kept elsewhere" if gid in known else "an id the lesson lacks"
            notes.append(
                Note("duplicate-id", f"cell {j} carried grade_id {gid!r} ({why}); id removed")
            )
            del cell.metadata["nbgrader"]

    new_cells = []
    for j in range(len(cells) + 1):
        for i in inserts.get(j, []):
            cell = copy.deepcopy(release.cells[i])
            cell["id"] = random_cell_id()
            if cell.cell_type == "code":
                cell.outputs, cell.execution_count = [], None
            new_cells.append(cell)
            missing.append(grade_id(cell))
        if j < len(cells):
            new_cells.append(cells[j])
    nb.cells = new_cells
    if missing:
        notes.append(
            Note(
                "test-restored",
                f"locked cells missing (deleted, or edited past recognition), put back from "
                f"source: {_names(missing)}",
            )
        )

    for i, cell in enumerate(release.cells):
        if _is_answer(cell) and i not in pairs:
            notes.append(
                Note(
                    "answer-missing",
                    f"answer cell {grade_id(cell)} not found; its tests ran on whatever the "
                    "notebook defines",
                )
            )
    if quality < 0.3 and graded:
        notes.append(
            Note(
                "wrong-notebook",
                f"only {quality:.0%} of the lesson's graded cells were recognised: "
                f"this may not be {lesson or 'the lesson'}'s notebook",
            )
        )

    upgraded = any(n.kind == "format" and "upgraded" in n.text for n in reading_notes)
    _fix_ids(nb, [] if upgraded else notes)
    if dropped and not colab:
        notes.append(Note("format", f"cell metadata removed: {', '.join(sorted(dropped))}"))
    return nb, notes


def _fill_gaps(release_cells, cells, matches, known):
    """Complete the matches between two matched cells.

    Returns ({release index: (submission index, how)}, {submission index: [release indices
    to insert before it]}). In a gap, answer cells are paired by position when the gap holds
    as many release cells as free submission cells of that type, or one of each; locked
    release cells (tests, set-up) left over are inserted at the end of the gap, after any
    cell the learner added there, and never take a learner's cell's place.
    """
    pairs = {i: (j, how) for i, j, how in matches}
    for i, (j, how) in list(pairs.items()):
        if how == "id":
            pairs[i] = (j, "content")  # an intact id is the strongest content match
    inserts: dict[int, list[int]] = {}
    bounds = [(-1, -1)] + [(i, j) for i, j, _ in matches] + [(len(release_cells), len(cells))]
    for (i0, j0), (i1, j1) in zip(bounds, bounds[1:], strict=False):
        r_gap, s_gap = range(i0 + 1, i1), range(j0 + 1, j1)
        for cell_type in ("code", "markdown", "raw"):
            r_typed = [i for i in r_gap if release_cells[i].cell_type == cell_type]
            r_answers = [i for i in r_typed if _is_answer(release_cells[i])]
            s_free = [
                j
                for j in s_gap
                if cells[j].cell_type == cell_type and grade_id(cells[j]) not in known
            ]
            if r_answers and len(r_typed) == len(s_free):
                for i, j in zip(r_typed, s_free, strict=True):
                    if _is_answer(release_cells[i]):
                        pairs[i] = (j, "position")
            elif len(r_answers) == 1 and len(s_free) == 1:
                pairs[r_answers[0]] = (s_free[0], "position")
        for i in r_gap:
            if i not in pairs and _is_locked(release_cells[i]):
                inserts.setdefault(j1, []).append(i)
    return pairs, inserts


def _names(names: list[str], shown: int = 8) -> str:
    more = f" and {len(names) - shown} more" if len(names) > shown else ""
    return ", ".join(names[:shown]) + more


def _fix_ids(nb, notes) -> None:
    seen, added, renamed = set(), 0, 0
    for cell in nb.cells:
        cid = cell.get("id")
        if not isinstance(cid, str) or not CELL_ID.match(cid):
            added += cid is None
            renamed += cid is not None
            cid = None
        elif cid in seen:
            renamed += 1
            cid = None
        while cid is None or cid in seen:
            cid = random_cell_id()
        cell["id"] = cid
        seen.add(cid)
    if added or renamed:
        notes.append(Note("format", f"cell ids: {added} added, {renamed} made valid and unique"))
