"""MatchCellsToRelease: nbgrader's metadata put back on the cells a learner's tools mangled.

nbgrader grades a cell by its metadata (`grade_id`, `locked`, points). An editor can strip it
from some or all cells (plain nbgrader then scores 0 without a word), a copied cell duplicates
a `grade_id` (plain nbgrader then stops grading the whole class), a test cell can be deleted.
After RestoreReleaseMetadata in the sanitize chain, before nbgrader's own OverwriteCells:

1. cells are matched to the release (`classroom.grading.matching`);
2. matched cells get the release's nbgrader metadata back, and a locked cell whose text was
   edited is noted (OverwriteCells then restores its source from the gradebook);
3. nbgrader metadata left on unmatched cells (a copied answer cell) is removed;
4. locked cells that were not found are put back from the release at their place;
5. answer cells not found, and a notebook that hardly matches, are noted.
"""

from __future__ import annotations

import copy

from nbformat.v4.nbbase import random_cell_id
from nbgrader.preprocessors import NbGraderPreprocessor

from classroom.grading import matching
from classroom.grading.results import record_note
from classroom.notebooks import grade_id, is_answer, is_locked, names
from classroom.preprocessors.release import release_of
from classroom.verdicts import trusted

WRONG_NOTEBOOK = 0.3  # below this share of recognised graded cells, say so


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
        matches = matching.align(release.cells, nb.cells, known)
        pairs, inserts = matching.fill_gaps(release.cells, nb.cells, matches, known)
        self._restore(nb, release, pairs, _tests_in_gradebook(resources))
        self._drop_duplicates(nb, pairs, known)
        self._insert_missing(nb, release, inserts)
        self._note_unfound(nb, release, pairs, matches, resources)
        return nb, resources

    def _restore(self, nb, release, pairs, tests: dict[str, str]) -> None:
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
        found = restored["content"] + restored["position"]
        if found:
            how = ", ".join(f"{len(v)} by {k}" for k, v in restored.items() if v)
            text = (
                f"nbgrader metadata missing on {len(found)} cells, matched back to the source "
                f"({how}): {names(found)}"
            )
            record_note(nb, "metadata-restored", text)
        if edited:
            text = f"locked cells edited, restored from source: {names(edited)}"
            record_note(nb, "test-restored", text)

    def _drop_duplicates(self, nb, pairs, known) -> None:
        used = {j for j, _ in pairs.values()}
        for j, cell in enumerate(nb.cells):
            if j not in used and "nbgrader" in cell.metadata:
                gid = grade_id(cell)
                why = (
                    "a copy of a cell kept elsewhere" if gid in known else "an id the lesson lacks"
                )
                text = f"cell {j} carried grade_id {gid!r} ({why}); id removed"
                record_note(nb, "duplicate-id", text)
                del cell.metadata["nbgrader"]

    def _insert_missing(self, nb, release, inserts) -> None:
        cells, new_cells, missing = nb.cells, [], []
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
            text = (
                "locked cells missing (deleted, or edited past recognition), put back from "
                f"source: {names(missing)}"
            )
            record_note(nb, "test-restored", text)

    def _note_unfound(self, nb, release, pairs, matches, resources) -> None:
        for i, cell in enumerate(release.cells):
            if is_answer(cell) and i not in pairs:
                text = (
                    f"answer cell {grade_id(cell)} not found; its tests ran on whatever the "
                    "notebook defines"
                )
                record_note(nb, "answer-missing", text)
        graded = {i for i, c in enumerate(release.cells) if grade_id(c)}
        quality = len({i for i, _, _ in matches} & graded) / len(graded) if graded else 1.0
        if graded and quality < WRONG_NOTEBOOK:
            lesson = resources.get("nbgrader", {}).get("assignment") or "the lesson"
            text = (
                f"only {quality:.0%} of the lesson's graded cells were recognised: "
                f"this may not be {lesson}'s notebook"
            )
            record_note(nb, "wrong-notebook", text)
