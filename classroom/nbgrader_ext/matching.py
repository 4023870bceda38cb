"""Matching a handed-in notebook's cells back to the lesson's release.

Learners' tools lose or mangle nbgrader's cell metadata, so cells are matched in order: first
by `grade_id` where it is intact, then by content (the same text, or the same `def`/assigned
name with most words shared); `fill_gaps` then pairs answer cells between two matches by
position where that is unambiguous and lists the locked cells (tests, set-up) that are
missing. The preprocessor `MatchCellsToRelease` acts on what this finds.
"""

from __future__ import annotations

import re

from classroom.nbgrader_ext.notebooks import grade_id, is_answer, is_locked

WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\d+(?:\.\d+)?")
SIGNATURE = re.compile(r"^\s*(?:(def|class)\s+(\w+)|(\w+)\s*(?::[^=]*)?=(?!=))")
CONTENT_MATCH = 0.5  # similarity from which two cells are "the same cell" by content
WRONG_NOTEBOOK = 0.3  # below this share of a release's graded cells, not that lesson's notebook


def normalised(source: str) -> str:
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
        self.text = normalised(cell.source)
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


def align(release_cells, cells, known_ids) -> list[tuple[int, int, str]]:
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


def alignment_quality(release, nb) -> float:
    """Share of the release's nbgrader cells that nb has by id or content (0 to 1)."""
    graded = [i for i, c in enumerate(release.cells) if grade_id(c)]
    if not graded:
        return 0.0
    known = {grade_id(c) for c in release.cells if grade_id(c)}
    found = {i for i, _, _ in align(release.cells, nb.cells, known)}
    return len(found & set(graded)) / len(graded)


def fill_gaps(release_cells, cells, matches, known):
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
            r_answers = [i for i in r_typed if is_answer(release_cells[i])]
            s_free = [
                j
                for j in s_gap
                if cells[j].cell_type == cell_type and grade_id(cells[j]) not in known
            ]
            if r_answers and len(r_typed) == len(s_free):
                for i, j in zip(r_typed, s_free, strict=True):
                    if is_answer(release_cells[i]):
                        pairs[i] = (j, "position")
            elif len(r_answers) == 1 and len(s_free) == 1:
                pairs[r_answers[0]] = (s_free[0], "position")
        for i in r_gap:
            if i not in pairs and is_locked(release_cells[i]):
                inserts.setdefault(j1, []).append(i)
    return pairs, inserts
