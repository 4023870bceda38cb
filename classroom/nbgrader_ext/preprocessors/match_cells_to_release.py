"""MatchCellsToRelease: nbgrader's metadata put back on the cells a learner's tools mangled.

nbgrader grades a cell by its metadata (`grade_id`, `locked`, points). An editor can strip it
from some or all cells (plain nbgrader then scores 0 without a word), a copied cell duplicates
a `grade_id` (plain nbgrader then stops grading the whole class), a test cell can be deleted.
After RestoreReleaseMetadata in the sanitize chain, before nbgrader's own OverwriteCells:

1. cells are matched to the release (`classroom.nbgrader_ext.matching`);
2. matched cells get the release's nbgrader metadata back, and a locked cell whose text was
   edited is noted (OverwriteCells then restores its source from the gradebook);
3. nbgrader metadata left on unmatched cells (a copied answer cell, another lesson's cell)
   is removed;
4. locked cells that were not found are put back from the release at their place, and test
   cells handed in as released get their whole text from the gradebook (the release's lacks
   the hidden tests), so OverwriteCells finds the checksums it expects;
5. answer cells not found are noted; a notebook that hardly matches (another lesson's) gets
   one note instead, first, naming the lesson it looks like and counting the repairs.
"""

from __future__ import annotations

import copy
from pathlib import Path

from nbformat.v4.nbbase import random_cell_id
from nbgrader.preprocessors import NbGraderPreprocessor

from classroom.nbgrader_ext import matching, notebooks
from classroom.nbgrader_ext.notebooks import grade_id, is_answer, is_locked, names
from classroom.nbgrader_ext.notes import record_note
from classroom.nbgrader_ext.preprocessors.release import release_of
from classroom.nbgrader_ext.verdicts import trusted

WRONG_NOTEBOOK = matching.WRONG_NOTEBOOK  # below this share of recognised graded cells, say so


def _tests_in_gradebook(resources) -> dict[str, str]:
    """{grade_id: whole source} of the lesson's test cells as the gradebook holds them
    (hidden tests included), or {} when the gradebook does not hold the lesson."""
    from nbgrader.api import MissingEntry

    info = resources.get("nbgrader", {})
    try:
        lesson = trusted.from_gradebook(info["db_url"], info["assignment"], info["notebook"])
    except (KeyError, MissingEntry):
        return {}
    return lesson.tests


class MatchCellsToRelease(NbGraderPreprocessor):
    """Match the notebook's cells to the release and restore their nbgrader metadata."""

    def preprocess(self, nb, resources):
        release = release_of(self, resources)
        if release is None:
            return nb, resources
        known = {grade_id(c) for c in release.cells if grade_id(c)}
        handed = {grade_id(c) for c in nb.cells} - {None}  # before any is removed
        matches = matching.align(release.cells, nb.cells, known)
        pairs, inserts = matching.fill_gaps(release.cells, nb.cells, matches, known)
        tests = _tests_in_gradebook(resources)
        notes = self._restore(nb, release, pairs, tests)
        notes += self._drop_foreign(nb, pairs, known)
        notes += self._insert_missing(nb, release, inserts, tests)
        notes += self._unfound_answers(release, pairs)
        wrong = _wrong_notebook(self, release, matches, handed, resources)
        if wrong is None:
            for kind, text in notes:
                record_note(nb, kind, text)
        else:
            # Another lesson's notebook: the per-cell repairs only follow from that, so they
            # are counted in its one line, which goes first, instead of listed after it.
            counted = _count(notes)
            record_note(nb, "wrong-notebook", wrong + (f"; {counted}" if counted else ""),
                        first=True)  # fmt: skip
        return nb, resources

    def _restore(self, nb, release, pairs, tests: dict[str, str]) -> list[tuple[str, str]]:
        restored = {"content": [], "position": []}
        edited = []
        for i, (j, how) in sorted(pairs.items()):
            r_cell, s_cell = release.cells[i], nb.cells[j]
            r_meta = r_cell.metadata.get("nbgrader")
            if r_meta is None:
                s_cell.metadata.pop("nbgrader", None)
                continue
            if grade_id(s_cell) != grade_id(r_cell):
                restored[how].append(grade_id(r_cell))
            s_cell.metadata["nbgrader"] = copy.deepcopy(r_meta)
            same = matching.normalised(s_cell.source) == matching.normalised(r_cell.source)
            if is_locked(r_cell) and not same:
                edited.append(grade_id(r_cell))
            elif same and grade_id(r_cell) in tests:
                # The release stamps a test cell without its hidden tests; the gradebook holds
                # it whole. Given the whole text here, nbgrader's OverwriteCells finds the
                # checksum it expects instead of warning once per test cell.
                s_cell.source = tests[grade_id(r_cell)]
        notes = []
        found = restored["content"] + restored["position"]
        if found:
            how = ", ".join(f"{len(v)} by {k}" for k, v in restored.items() if v)
            text = (
                f"nbgrader metadata missing on {len(found)} cells, matched back to the source "
                f"({how}): {names(found)}"
            )
            notes.append(("metadata-restored", text))
        if edited:
            text = f"locked cells edited, restored from source: {names(edited)}"
            notes.append(("test-restored", text))
        return notes

    def _drop_foreign(self, nb, pairs, known) -> list[tuple[str, str]]:
        """nbgrader metadata off the cells no release cell matched: a copy of a lesson's cell
        (a duplicate grade_id), or an id the lesson lacks (another lesson's, a made-up one)."""
        used = {j for j, _ in pairs.values()}
        notes = []
        for j, cell in enumerate(nb.cells):
            if j not in used and "nbgrader" in cell.metadata:
                gid = grade_id(cell)
                if gid in known:
                    text = f"cell {j} carried grade_id {gid!r} (a copy of a cell kept elsewhere)"
                    notes.append(("duplicate-id", text + "; id removed"))
                else:
                    text = f"cell {j} carried grade_id {gid!r}, which the lesson does not have"
                    notes.append(("foreign-id", text + "; id removed"))
                del cell.metadata["nbgrader"]
        return notes

    def _insert_missing(self, nb, release, inserts, tests) -> list[tuple[str, str]]:
        cells, new_cells, missing = nb.cells, [], []
        for j in range(len(cells) + 1):
            for i in inserts.get(j, []):
                cell = copy.deepcopy(release.cells[i])
                cell["id"] = random_cell_id()
                cell.source = tests.get(grade_id(cell), cell.source)  # whole, as in _restore
                if cell.cell_type == "code":
                    cell.outputs, cell.execution_count = [], None
                new_cells.append(cell)
                missing.append(grade_id(cell))
            if j < len(cells):
                new_cells.append(cells[j])
        nb.cells = new_cells
        if not missing:
            return []
        text = (
            "locked cells missing (deleted, or edited past recognition), put back from "
            f"source: {names(missing)}"
        )
        return [("test-restored", text)]

    def _unfound_answers(self, release, pairs) -> list[tuple[str, str]]:
        return [
            (
                "answer-missing",
                f"answer cell {grade_id(cell)} not found; its tests ran on whatever the "
                "notebook defines",
            )
            for i, cell in enumerate(release.cells)
            if is_answer(cell) and i not in pairs
        ]


def _wrong_notebook(preprocessor, release, matches, handed, resources) -> str | None:
    """The sentence saying the notebook is not this lesson's (naming the lesson it looks like,
    when its grade_ids are another release's), or None when enough graded cells matched."""
    graded = {i for i, c in enumerate(release.cells) if grade_id(c)}
    quality = len({i for i, _, _ in matches} & graded) / len(graded) if graded else 1.0
    if not graded or quality >= WRONG_NOTEBOOK:
        return None
    lesson = resources.get("nbgrader", {}).get("assignment") or "the lesson"
    text = f"not {lesson}'s notebook: only {quality:.0%} of its graded cells were recognised"
    other = _lesson_with_ids(preprocessor, handed, lesson)
    if other:
        text += f" (its cells are {other}'s)"
    return text + f"; graded as {lesson} all the same"


def _lesson_with_ids(preprocessor, ids: set[str], lesson: str) -> str | None:
    """The other lesson in release/ whose notebooks hold most of these grade_ids, if any."""
    from nbgrader.coursedir import CourseDirectory

    coursedir = CourseDirectory(config=preprocessor.config)
    releases = Path(coursedir.format_path(coursedir.release_directory, ".", "."))
    best, best_count = None, 0
    for path in sorted(releases.glob("*/*.ipynb")):
        if path.parent.name == lesson:
            continue
        count = len(ids & {grade_id(c) for c in notebooks.read(path).cells})
        if count > best_count and count >= len(ids) / 2:
            best, best_count = path.parent.name, count
    return best


# What each repair a wrong notebook makes inevitable is called in its one line.
_COUNTED = {
    "foreign-id": "grade_ids the lesson lacks removed",
    "duplicate-id": "copied grade_ids removed",
    "answer-missing": "answer cells not found",
    "test-restored": "locked-cell repairs",
    "metadata-restored": "metadata repairs",
}


def _count(notes: list[tuple[str, str]]) -> str:
    """The notes a wrong notebook makes inevitable, counted: "18 grade_ids the lesson lacks
    removed, 11 answer cells not found"."""
    kinds: dict[str, int] = {}
    for kind, _ in notes:
        kinds[kind] = kinds.get(kind, 0) + 1
    return ", ".join(f"{n} {_COUNTED.get(kind, kind)}" for kind, n in kinds.items())
