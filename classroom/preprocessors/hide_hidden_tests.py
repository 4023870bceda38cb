"""HideHiddenTests: feedback that shows hidden tests' results but never their source.

nbgrader's GenerateFeedback renders the autograded notebook, whose test cells hold the hidden
tests restored from the gradebook, and a failing hidden test's traceback quotes its lines.
After nbgrader's GetGrades in the feedback chain: in each test cell with a hidden region it
keeps the visible lines, puts one comment line where the hidden tests were, says whether the
visible check and the hidden tests passed (and the cell's points), and reduces a hidden
test's error to its type and message.
"""

from __future__ import annotations

import html
import re

from nbformat.notebooknode import NotebookNode
from nbgrader.preprocessors import ClearHiddenTests

from classroom.notebooks import split_hidden

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
            visible, numbers = split_hidden(cell.source)
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
        begin = self.begin_test_delimeter
        if cell.cell_type != "code" or begin not in cell.source:
            return cell, resources
        visible, hidden = split_hidden(cell.source, HIDDEN_PLACEHOLDER)
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
