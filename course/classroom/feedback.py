"""Feedback HTML that shows hidden tests' results but never their source.

nbgrader's GenerateFeedback renders the autograded notebook, whose test cells hold the hidden
tests restored from the gradebook, and a failing hidden test's traceback quotes its lines.
`HideHiddenTests` runs after nbgrader's GetGrades in the feedback converter: in each test cell
with a hidden region it keeps the visible lines, puts one comment line where the hidden tests
were, says whether the visible check and the hidden tests passed (and the cell's points), and
reduces a hidden test's error to its type and message. `GraderNotes` puts what the grader did
about the submission (a renamed file, restored cells, a timeout) at the top of the page.
"""

from __future__ import annotations

import html
import re

from nbformat.notebooknode import NotebookNode
from nbformat.v4 import new_markdown_cell
from nbgrader.preprocessors import ClearHiddenTests, NbGraderPreprocessor
from traitlets import List

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
CELL_FRAME = re.compile(r"(?:Cell\s+)?In\s*\[(\d+)\],\s*line\s+(\d+)")
HIDDEN_PLACEHOLDER = "# Hidden tests run here (source not shown)."


def error_line(output: NotebookNode, execution_count) -> int | None:
    """Line of the cell where the error was raised, from IPython's traceback frames."""
    line = None
    for frame in output.get("traceback", []):
        for count, number in CELL_FRAME.findall(ANSI.sub("", frame)):
            if execution_count is None or int(count) == execution_count:
                line = int(number)
                break
        if line is not None:
            break
    return line


def split_hidden(source: str, begin: str, end: str) -> tuple[list[str], set[int]]:
    """The visible lines (a placeholder where a hidden region was) and the 1-based numbers of
    the hidden lines, delimiters included."""
    visible, hidden, inside = [], set(), False
    for number, line in enumerate(source.split("\n"), start=1):
        if begin in line:
            inside = True
            hidden.add(number)
            visible.append(HIDDEN_PLACEHOLDER)
        elif end in line:
            inside = False
            hidden.add(number)
        elif inside:
            hidden.add(number)
        else:
            visible.append(line)
    return visible, hidden


REDACTED = "[a line of a hidden test, removed by the grader]"
SECRET_MIN = 8  # shorter hidden lines (")", "else:") say nothing and are left alone


class HideHiddenTests(ClearHiddenTests):
    """Replace hidden-test source and tracebacks in feedback by their results.

    Besides the test cells themselves, any output line that quotes a hidden line (a warning
    shows its caller's line; a learner's cell could print what the kernel remembers) is
    replaced. Subclasses nbgrader's ClearHiddenTests only to share its configured delimiters.
    """

    def preprocess(self, nb, resources):
        hidden, shown = set(), set()
        for cell in nb.cells:
            if cell.cell_type != "code":
                continue
            visible, numbers = split_hidden(
                cell.source, self.begin_test_delimeter, self.end_test_delimeter
            )
            lines = cell.source.split("\n")
            hidden.update(lines[n - 1].strip() for n in numbers)
            shown.update(line.strip() for line in visible)
        self._secrets = {line for line in hidden - shown if len(line) >= SECRET_MIN}
        nb, resources = super().preprocess(nb, resources)
        for cell in nb.cells:
            for output in cell.get("outputs", []):
                _redact_output(output, self._secrets)
        return nb, resources

    def preprocess_cell(self, cell, resources, cell_index):
        begin, end = self.begin_test_delimeter, self.end_test_delimeter
        if cell.cell_type != "code" or begin not in cell.source:
            return cell, resources
        visible, hidden = split_hidden(cell.source, begin, end)
        errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
        where = error_line(errors[0], cell.get("execution_count")) if errors else None
        if not errors:
            seen, unseen = "passed", "passed"
        elif where is None:
            seen = unseen = f"not completed ({errors[0].get('ename', 'error')})"
        elif where in hidden:
            seen, unseen = "passed", "failed"
        else:
            seen, unseen = "failed", "not run (the visible check failed first)"
        has_visible = any(
            line.strip() and not line.startswith("#") and not line.lstrip().startswith('"""')
            for line in visible
        )
        for output in errors:
            if where is not None and where not in hidden:
                output["traceback"] = [
                    frame
                    for frame in output.get("traceback", [])
                    if not _frame_of(frame, cell.get("execution_count"))
                ] or [f"{output.get('ename')}: {output.get('evalue')}"]
            else:
                output["traceback"] = [f"{output.get('ename')}: {output.get('evalue')}"]
        cell.source = "\n".join(visible)
        meta = cell.metadata.get("nbgrader", {})
        points = ""
        if meta.get("points") is not None and meta.get("score") is not None:
            points = f" (this cell: {float(meta['score']):g} of {float(meta['points']):g} points)"
        lines = []
        if has_visible:
            lines.append(f"Visible check: {seen}.")
        lines.append(f"Hidden tests: {unseen}{points}.")
        cell.outputs.append(
            NotebookNode(
                output_type="display_data",
                metadata={},
                data={
                    "text/plain": " ".join(lines),
                    "text/html": "<p class='grader-result'>"
                    + "<br>".join(html.escape(line) for line in lines)
                    + "</p>",
                },
            )
        )
        return cell, resources


def _redact(text, secrets):
    if not isinstance(text, str) or not secrets:
        return text
    lines = text.split("\n")
    for index, line in enumerate(lines):
        plain = ANSI.sub("", line)
        if any(secret in plain for secret in secrets):
            lines[index] = REDACTED
    return "\n".join(lines)


def _redact_output(output, secrets) -> None:
    if "text" in output:
        output["text"] = _redact(output["text"], secrets)
    if "evalue" in output:
        output["evalue"] = _redact(output["evalue"], secrets)
    if "traceback" in output:
        output["traceback"] = [_redact(frame, secrets) for frame in output["traceback"]]
    for mime, value in (output.get("data") or {}).items():
        if mime.startswith("text/") or mime.endswith("json"):
            output["data"][mime] = _redact(value, secrets)


def _frame_of(frame: str, execution_count) -> bool:
    plain = ANSI.sub("", frame)
    return any(
        execution_count is None or int(count) == execution_count
        for count, _ in CELL_FRAME.findall(plain)
    )


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


class GraderNotes(NbGraderPreprocessor):
    """Put the grader's notes about this submission in a cell at the top of the feedback."""

    notes = List([], help="Sentences about what the grader did with this submission.").tag(
        config=True
    )

    def preprocess(self, nb, resources):
        if self.notes:
            text = "**Notes from the grader**\n\n" + "\n".join(
                f"- {html.escape(str(n))}" for n in self.notes
            )
            nb.cells.insert(0, new_markdown_cell(text))
        return nb, resources
