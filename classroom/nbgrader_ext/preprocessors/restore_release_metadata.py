"""RestoreReleaseMetadata: the notebook's and its cells' metadata as the release has them.

Colab saves its own metadata (and nbformat 4.0 without cell ids), other editors add theirs,
and a learner can switch the kernel. First in the sanitize chain: the notebook metadata
becomes the release's (kernelspec, language_info; anything a learner planted goes), each cell
keeps only the metadata keys the release uses, empty or broken nbgrader metadata is dropped
(nbgrader itself would stop on it), and cell keys nbformat does not know are removed.
"""

from __future__ import annotations

import copy

import nbformat
from nbgrader.preprocessors import NbGraderPreprocessor

from classroom.nbgrader_ext.notebooks import grade_id
from classroom.nbgrader_ext.notes import record_note
from classroom.nbgrader_ext.preprocessors.release import release_of

# Cell metadata editors keep for themselves (timings, scroll and collapse state): removed
# without a note, since it says nothing about the learner's work.
HOUSEKEEPING = frozenset({"execution", "ExecuteTime", "collapsed", "scrolled", "trusted"})

CELL_KEYS = {
    "code": {"cell_type", "id", "metadata", "source", "outputs", "execution_count"},
    "markdown": {"cell_type", "id", "metadata", "source", "attachments"},
    "raw": {"cell_type", "id", "metadata", "source", "attachments"},
}


def clean_cell(cell, keys: set[str]) -> list[str]:
    """Keep the cell metadata keys in `keys`, drop the rest, clear outputs; the dropped keys."""
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


class RestoreReleaseMetadata(NbGraderPreprocessor):
    """Give the notebook the release's notebook metadata and only its cell metadata keys."""

    def preprocess(self, nb, resources):
        release = release_of(self, resources)
        if release is None:
            return nb, resources
        kernel = (nb.metadata.get("kernelspec") or {}).get("name")
        wanted = (release.metadata.get("kernelspec") or {}).get("name")
        colab = "colab" in nb.metadata or any("colab" in c.get("metadata", {}) for c in nb.cells)
        nb.metadata = copy.deepcopy(release.metadata)
        keys = {"nbgrader", "tags"}.union(*(c.metadata.keys() for c in release.cells))
        dropped = set()
        for cell in nb.cells:
            dropped.update(clean_cell(cell, keys))
        if colab:
            record_note(nb, "format", "saved by Google Colab: Colab's metadata removed")
        if kernel != wanted:
            record_note(nb, "format", f"kernel {kernel!r} replaced by the lesson's {wanted!r}")
        dropped -= HOUSEKEEPING
        if dropped and not colab:
            record_note(nb, "format", f"cell metadata removed: {', '.join(sorted(dropped))}")
        return nb, resources
