"""class_report.html: the view of a class an instructor uses to decide what to teach again.

One self-contained page (the plot an inline SVG image, readable offline), per lesson: the
distribution of scores, how many learners got each test cell's full marks, the mistakes the
checks diagnosed most often (failure messages grouped by their hint), and what the class
predicted before reading, beside the right answer.
"""

from __future__ import annotations

import ast
import base64
import html
import re
from collections import Counter
from pathlib import Path

from classroom.grading import report
from classroom.grading.results import Result
from classroom.nbgrader_ext import notebooks

NAME = "class_report.html"
STYLE = """
body { font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; color: #222; }
h1 { font-size: 1.6rem; } h2 { border-bottom: 2px solid #ddd; padding-bottom: .2rem; }
table { border-collapse: collapse; margin: .5rem 0 1.5rem; }
td, th { border: 1px solid #ddd; padding: .25rem .6rem; text-align: left; vertical-align: top; }
th { background: #f4f4f4; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
.hint { max-width: 36rem; } img { max-width: 100%; } .right { font-weight: bold; color: #1a7f37; }
"""


def predictions_of(source) -> dict[str, tuple[str, int]]:
    """{prediction name: (right letter, number of choices)} from a lesson's quiz.choose calls
    (the right letter opens their `why`)."""
    found = {}
    for cell in source.cells:
        if cell.cell_type != "code" or "choose" not in cell.source:
            continue
        try:
            tree = ast.parse(cell.source)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "choose"):
                continue
            args = node.args
            why = next((k.value for k in node.keywords if k.arg == "why"), None)
            if (
                len(args) >= 2
                and isinstance(args[0], ast.Constant)
                and isinstance(why, ast.Constant)
            ):
                letter = re.match(r"\s*([A-Z])\.", str(why.value))
                count = len(args[1].elts) if isinstance(args[1], ast.List) else 0
                if letter:
                    found[str(args[0].value)] = (letter.group(1), count)
    return found


def hint_of(message: str) -> str:
    """What a failure message diagnosed, without its numbers: its last sentence, as a key."""
    sentences = [s.strip() for s in re.split(r"(?<=[.!?])\s+", message.strip()) if s.strip()]
    key = sentences[-1] if sentences else message
    return re.sub(r"-?\d+(?:\.\d+)?(?:e[-+]?\d+)?", "#", key)[:300]


HISTOGRAM = {"width": 600, "height": 260, "left": 48, "right": 16, "top": 30, "bottom": 44}


def histogram_counts(scores: list[float], maximum: float) -> list[int]:
    """Learners per bin: one bin per point up to 25 bins over [0, maximum], the last bin
    closed (a full score counts in it), as numpy.histogram bins them."""
    top = maximum or 1.0
    bins = max(1, min(int(maximum) + 1, 25))
    counts = [0] * bins
    for score in scores:
        index = min(int(max(score, 0.0) / top * bins), bins - 1)
        counts[index] += 1
    return counts


def _histogram(scores: list[float], maximum: float, lesson: str) -> str:
    """The distribution of scores as an inline SVG image (drawn here: no plotting library
    to load at the end of every run), its alt text the counts themselves."""
    counts = histogram_counts(scores, maximum)
    box = HISTOGRAM
    plot_w = box["width"] - box["left"] - box["right"]
    plot_h = box["height"] - box["top"] - box["bottom"]
    tallest = max(counts) or 1
    bar_w = plot_w / len(counts)
    base_y = box["top"] + plot_h
    parts = []
    for index, count in enumerate(counts):
        height = plot_h * count / tallest
        x = box["left"] + index * bar_w
        parts.append(
            f'<rect x="{x + 1:.1f}" y="{base_y - height:.1f}" width="{max(bar_w - 2, 1):.1f}" '
            f'height="{height:.1f}" fill="#4c78a8"/>'
        )
    parts += _axes(box, plot_w, plot_h, tallest, maximum or 1.0)
    title = html.escape(f"{lesson}: scores")
    parts.append(f'<text x="{box["width"] / 2}" y="18" text-anchor="middle">{title}</text>')
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{box["width"]}" '
        f'height="{box["height"]}" font-family="sans-serif" font-size="12">'
        + "".join(parts)
        + "</svg>"
    )
    data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
    alt = html.escape(f"Histogram of {lesson} scores (of {maximum:g}), learners per bin: {counts}")
    return f'<img alt="{alt}" src="data:image/svg+xml;base64,{data}">'


def _axes(box: dict, plot_w: float, plot_h: float, tallest: int, top: float) -> list[str]:
    """The histogram's axes: a few score ticks below, learner counts on the left, labels."""
    left, base_y = box["left"], box["top"] + plot_h
    parts = [
        f'<line x1="{left}" y1="{base_y}" x2="{left + plot_w}" y2="{base_y}" stroke="#333"/>',
        f'<line x1="{left}" y1="{box["top"]}" x2="{left}" y2="{base_y}" stroke="#333"/>',
    ]
    for step in range(5):
        value = top * step / 4
        x = left + plot_w * step / 4
        parts.append(f'<text x="{x:.1f}" y="{base_y + 16}" text-anchor="middle">{value:g}</text>')
    for count in sorted({0, tallest // 2, tallest}):
        y = base_y - plot_h * count / tallest
        parts.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{count}</text>')
    label_y = box["height"] - 8
    parts.append(
        f'<text x="{left + plot_w / 2}" y="{label_y}" text-anchor="middle">'
        f"score (of {top:g})</text>"
    )
    parts.append(
        f'<text x="14" y="{box["top"] + plot_h / 2}" text-anchor="middle" '
        f'transform="rotate(-90 14 {box["top"] + plot_h / 2})">learners</text>'
    )
    return parts


def _question_rows(results: list[Result]) -> list[str]:
    cells: dict[str, list] = {}
    for result in results:
        for grade in result.grades:
            entry = cells.setdefault(grade.name, [0, 0, grade.max_score])
            entry[0] += 1
            entry[1] += float(grade.auto_score or 0) >= float(grade.max_score or 0)
    rows = []
    for name, (count, full, points) in cells.items():
        share = full / count if count else 0.0
        rows.append(
            f"<tr><td>{html.escape(name)}</td><td class=n>{points:g}</td>"
            f"<td class=n>{full}/{count}</td><td class=n>{share:.0%}</td></tr>"
        )
    return rows


NOT_ANSWERED = re.compile(r"\breturned None: write\b")  # course.expect.NotAnswered's message


def _mistake_rows(results: list[Result], most: int = 10) -> list[str]:
    """The failure messages most learners got, grouped by hint; a blank answer (its function
    returned None: NotAnswered) is no mistake to teach against and is left out."""
    counts = Counter()
    example: dict[tuple, str] = {}
    for result in results:
        for test, message in result.failures.items():
            if NOT_ANSWERED.search(message):
                continue
            key = (test, hint_of(message))
            counts[key] += 1
            example.setdefault(key, message)
    rows = []
    for key, count in counts.most_common(most):
        test, text = html.escape(key[0]), html.escape(example[key][:400])
        rows.append(f"<tr><td class=n>{count}</td><td>{test}</td><td class=hint>{text}</td></tr>")
    return rows


def _prediction_rows(results: list[Result], source) -> list[str]:
    rows = []
    for name, (right, count) in predictions_of(source).items():
        letters = Counter(r.predictions.get(name, "—") for r in results)
        cells = []
        for letter in [chr(65 + i) for i in range(count)] + ["—"]:
            mark = " class='n right'" if letter == right else " class=n"
            cells.append(f"<td{mark}>{letter}: {letters.get(letter, 0)}</td>")
        rows.append(f"<tr><td>{html.escape(name)}</td><td>{right}</td>{''.join(cells)}</tr>")
    return rows


def _table(header: list[str], rows: list[str]) -> str:
    if not rows:
        return "<p>(none)</p>"
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    return f"<table><tr>{head}</tr>{''.join(rows)}</table>"


def lesson_section(lesson: str, results: list[Result], root: Path) -> str:
    handed = [r for r in results if r.lesson == lesson and r.grades]
    maximum = max((r.totals()[1] for r in handed), default=0.0)
    scores = [r.totals()[0] for r in handed]
    full = sum(score >= maximum > 0 for score in scores)
    late = sum(bool(r.lateness) for r in handed)
    parts = [f"<h2>{html.escape(lesson)}</h2>"]
    parts.append(
        f"<p>{len(handed)} notebooks graded; {full} with full marks; {late} late; mean "
        f"{(sum(scores) / len(scores) if scores else 0):.1f} of {maximum:g}.</p>"
    )
    if scores:
        parts.append(_histogram(scores, maximum, lesson))
    parts.append("<h3>Each test: who got its full marks</h3>")
    parts.append(_table(["test", "points", "full marks", "share"], _question_rows(handed)))
    parts.append("<h3>The mistakes the checks diagnosed most often</h3>")
    parts.append(_table(["learners", "test", "what the check said (one example)"],
                        _mistake_rows(handed)))  # fmt: skip
    source = notebooks.read_lesson(lesson, "source", root)
    parts.append("<h3>What the class predicted before reading</h3>")
    parts.append(_table(["question", "right", "answers"], _prediction_rows(handed, source)))
    return "\n".join(parts)


def write(
    root: Path, results: list[Result], lessons: list[str], course: str = "", out: Path | None = None
) -> Path:
    """Write class_report.html into `out` (default: the course directory `root`, whose
    source/ holds the lessons): first the rows that need a human, then a section for each of
    `lessons` (every lesson of the gradebook, not only this run's); its path."""
    body = [f"<h1>Class report{': ' + html.escape(course) if course else ''}</h1>"]
    human = report.needs_a_human(results)
    items = "".join(f"<li>{html.escape(line)}</li>" for line in human)
    body.append(f"<h2>Needs a human ({len(human)})</h2>")
    body.append(f"<ul>{items}</ul>" if human else "<p>(none)</p>")
    body += [lesson_section(lesson, results, root) for lesson in lessons]
    page = (
        "<!DOCTYPE html><html><head><meta charset='utf-8'><title>Class report</title>"
        f"<style>{STYLE}</style></head><body>{''.join(body)}</body></html>"
    )
    path = Path(out or root) / NAME
    partial = path.with_name(NAME + ".partial")
    partial.write_text(page, encoding="utf-8")
    partial.replace(path)
    return path
