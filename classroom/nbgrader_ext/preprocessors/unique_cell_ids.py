"""UniqueCellIds: every cell has an id, valid and unique, as nbformat 4.5 requires.

A copied cell carries its original's id; Colab and older editors write none. Ids are kept
where they are fine, replaced where missing, invalid or taken.
"""

from __future__ import annotations

import re

from nbformat.v4.nbbase import random_cell_id
from nbgrader.preprocessors import NbGraderPreprocessor

from classroom.nbgrader_ext.notes import record_note

CELL_ID = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")


class UniqueCellIds(NbGraderPreprocessor):
    """Give each cell a valid id no other cell has."""

    def preprocess(self, nb, resources):
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
        nb.nbformat, nb.nbformat_minor = 4, max(int(nb.get("nbformat_minor", 5)), 5)
        if added or renamed:
            text = f"cell ids: {added} added, {renamed} made valid and unique"
            record_note(nb, "format", text)
        return nb, resources
