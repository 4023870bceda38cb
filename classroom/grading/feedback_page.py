"""The HTML exporter of feedback pages: nbconvert's, without its slow final pass, and with
the HTML of each cell's source remembered from one page to the next."""

from __future__ import annotations

import re

IMG_WITHOUT_ALT = re.compile(r"<img(?![^>]*\balt=)", re.IGNORECASE)
REMEMBERED = 4096  # sources whose HTML a worker keeps (a lesson has about a hundred cells)


class Remembered:
    """A filter's results remembered by their arguments' key, up to `REMEMBERED` of them.

    Most cells of a lesson are the same in every learner's notebook (the prose, the locked
    cells, the tests), and turning their source into HTML (Pygments for code, mistune for
    Markdown) was about half of each feedback page's time."""

    def __init__(self, compute):
        self.compute = compute
        self.found: dict = {}

    def get(self, key, *args, **kwargs):
        if key not in self.found:
            if len(self.found) >= REMEMBERED:
                self.found.clear()
            self.found[key] = self.compute(*args, **kwargs)
        return self.found[key]


class RememberedHighlight:
    """nbconvert's Highlight2HTML filter, each (source, language) highlighted once."""

    def __init__(self, highlight):
        self.remembered = Remembered(highlight)

    def __call__(self, source, language=None, metadata=None):
        magics = metadata.get("magics_language") if metadata else None
        key = (source, language, magics)
        return self.remembered.get(key, source, language, metadata)


def feedback_exporter_class():
    """nbconvert's HTMLExporter without its final BeautifulSoup pass, for feedback pages.

    That pass re-parses the whole page (about a third of a feedback page's time) to give
    images alt text and to make JupyterLab-template cells focusable; the feedback uses the
    classic template, which has no such cells, and the alt text is added here directly.
    Anything unexpected falls back to nbconvert's own method.
    """
    from nbconvert.exporters import HTMLExporter, TemplateExporter
    from nbconvert.filters.highlight import Highlight2HTML
    from nbconvert.filters.widgetsdatatypefilter import WidgetsDataTypeFilter

    try:
        from jinja2 import pass_context
    except ImportError:  # jinja2 < 3
        from jinja2 import contextfilter as pass_context

    class FeedbackHTMLExporter(HTMLExporter):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self._highlights: dict = {}  # pygments lexer: its RememberedHighlight
            self._markdown = Remembered(
                lambda context, source: HTMLExporter.markdown2html(self, context, source)
            )

        @pass_context
        def markdown2html(self, context, source):
            """nbconvert's, remembered by the source alone, but for a cell with attachments
            (their images are the cell's own) or when images are embedded (from files beside
            the notebook: the only use of its path)."""
            if context.get("cell", {}).get("attachments") or self.embed_images:
                return HTMLExporter.markdown2html(self, context, source)
            return self._markdown.get(source, context, source)

        def from_notebook_node(self, nb, resources=None, **kw):
            try:
                language = nb.metadata.get("language_info", {})
                lexer = language.get("pygments_lexer", language.get("name"))
                highlight = self.filters.get("highlight_code")
                if highlight is None:  # one remembering filter per lexer, for every page
                    if lexer not in self._highlights:
                        own = Highlight2HTML(pygments_lexer=lexer, parent=self)
                        self._highlights[lexer] = RememberedHighlight(own)
                    highlight = self._highlights[lexer]
                resources = self._init_resources(resources)
                data_type = WidgetsDataTypeFilter(
                    notebook_metadata=self._nb_metadata, parent=self, resources=resources
                )
            except (AttributeError, TypeError):  # another nbconvert: its own way
                return super().from_notebook_node(nb, resources, **kw)
            self.register_filter("highlight_code", highlight)
            self.register_filter("filter_data_type", data_type)
            page, resources = TemplateExporter.from_notebook_node(self, nb, resources, **kw)
            alt = '<img alt="No description has been provided for this image"'
            return IMG_WITHOUT_ALT.sub(alt, page), resources

    return FeedbackHTMLExporter
