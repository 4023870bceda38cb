"""The HTML exporter of feedback pages: nbconvert's, without its slow final pass."""

from __future__ import annotations

import re

IMG_WITHOUT_ALT = re.compile(r"<img(?![^>]*\balt=)", re.IGNORECASE)


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

    class FeedbackHTMLExporter(HTMLExporter):
        def from_notebook_node(self, nb, resources=None, **kw):
            try:
                language = nb.metadata.get("language_info", {})
                lexer = language.get("pygments_lexer", language.get("name"))
                highlight = self.filters.get(
                    "highlight_code", Highlight2HTML(pygments_lexer=lexer, parent=self)
                )
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
