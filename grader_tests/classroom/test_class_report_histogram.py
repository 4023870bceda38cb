"""The class report's histogram: bins as numpy.histogram makes them, drawn as an SVG image
that parses, one bar per bin, its alt text saying the counts."""

from __future__ import annotations

import base64
import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from classroom.grading import class_report

SVG = "{http://www.w3.org/2000/svg}"


def drawn(scores, maximum, lesson="01-world-as-text"):
    """(the <img> tag, the parsed SVG root) of the histogram."""
    tag = class_report._histogram(scores, maximum, lesson)
    data = re.search(r'src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"', tag).group(1)
    return tag, ET.fromstring(base64.b64decode(data))


@pytest.mark.parametrize("maximum", [1.0, 7.0, 24.0, 60.0])
def test_counts_are_numpys(maximum):
    rng = np.random.default_rng(17)
    scores = list(rng.uniform(0, maximum, 200)) + [0.0, maximum, maximum]
    bins = max(1, min(int(maximum) + 1, 25))
    want, _ = np.histogram(scores, bins=bins, range=(0, maximum))
    assert class_report.histogram_counts(scores, maximum) == want.tolist()


def test_one_bar_per_bin_tallest_full_height():
    scores = [0, 3, 3, 3, 24, 24]
    tag, svg = drawn(scores, 24.0)
    bars = svg.findall(f"{SVG}rect")
    counts = class_report.histogram_counts(scores, 24.0)
    assert len(bars) == len(counts) == 25
    heights = [float(bar.get("height")) for bar in bars]
    tallest = max(heights)
    assert tallest > 100
    assert [round(h / tallest * max(counts)) for h in heights] == counts
    assert f"learners per bin: {counts}" in tag
    assert int(svg.get("width")) > 200 and int(svg.get("height")) > 80


def test_a_class_of_zeros_and_an_empty_maximum():
    """Nobody scored, or the lesson has no points: still an image, one bar, no division by 0."""
    _, svg = drawn([0.0, 0.0], 0.0)
    assert len(svg.findall(f"{SVG}rect")) == 1
    titles = [t.text for t in svg.iter(f"{SVG}text")]
    assert "01-world-as-text: scores" in titles
