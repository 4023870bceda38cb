"""The feedback pages' HTML exporter remembers each cell source's HTML from one page to the
next: a page made by an exporter that has rendered other notebooks is the page a fresh
exporter makes, and an edited cell shows its edit."""

from __future__ import annotations

import copy
from pathlib import Path

import nbformat
import pytest
from traitlets.config import Config

from classroom.grading.feedback_page import feedback_exporter_class

FIXTURES = Path(__file__).resolve().parent / "preprocessors" / "fixtures"


def fixture(name: str) -> nbformat.NotebookNode:
    return nbformat.read(FIXTURES / f"{name}.ipynb", as_version=4)


def exporter():
    config = Config()
    config.HTMLExporter.template_name = "classic"
    return feedback_exporter_class()(config=config)


def page(exporter, nb) -> str:
    html, _ = exporter.from_notebook_node(copy.deepcopy(nb))
    return html


@pytest.fixture(scope="module")
def notebooks():
    return {name: fixture(name) for name in ("release", "correct_answers", "wrong_for_negatives")}


class TestRememberedHtml:
    @pytest.mark.timeout(60)
    def test_pages_are_those_of_a_fresh_exporter(self, notebooks):
        """One exporter renders three notebooks and the first again; each page is the one
        an exporter that never rendered anything else makes."""
        shared = exporter()
        order = ["release", "correct_answers", "wrong_for_negatives", "release"]
        for name in order:
            assert page(shared, notebooks[name]) == page(exporter(), notebooks[name]), name

    @pytest.mark.timeout(60)
    def test_an_edited_cell_shows_its_edit(self, notebooks):
        shared = exporter()
        nb = notebooks["correct_answers"]
        page(shared, nb)
        edited = copy.deepcopy(nb)
        code = next(c for c in edited.cells if c.cell_type == "code" and c.source.strip())
        markdown = next(c for c in edited.cells if c.cell_type == "markdown")
        code.source += "\nedited_name_42 = 1"
        markdown.source += "\n\nAn edited sentence."
        again = page(shared, edited)
        assert "edited_name_42" in again and "An edited sentence." in again

    @pytest.mark.timeout(60)
    def test_a_cell_with_attachments_is_its_own(self, notebooks):
        """Two cells with the same Markdown and different attached images show each its
        own image."""
        shared = exporter()
        nb = copy.deepcopy(notebooks["release"])
        cells = []
        for colour in ("AAAA", "BBBB"):
            cell = nbformat.v4.new_markdown_cell("![a plot](attachment:plot.png)")
            cell.attachments = {"plot.png": {"image/png": colour}}
            cells.append(cell)
        nb.cells = cells
        html = page(shared, nb)
        assert "data:image/png;base64,AAAA" in html and "data:image/png;base64,BBBB" in html
