"""Tests of course.listing: a model file shown folded, in the page and as plain text."""

import html
import re

from course import listing
from course.lessons.urdf_and_mjcf import arm


def test_a_long_file_is_shown_folded():
    """The page shows a title line with the line count that opens onto the whole text
    (escaped, in a scrolling box); plain text shows the title, the first lines and how many
    more."""
    text = arm.urdf_text()
    lines = text.splitlines()
    assert len(lines) > 60  # lesson 05's arm, long enough to need folding
    folded = listing.Listing("The arm in URDF", text)
    page = folded._repr_html_()
    assert page.startswith("<details><summary>") and page.endswith("</details>")
    assert f"The arm in URDF: {len(lines)} lines" in page
    assert "overflow: auto" in page and "max-height" in page
    shown = re.search(r"<pre[^>]*>(.*)</pre>", page, re.S).group(1)
    assert html.unescape(shown) == text and "<robot" not in shown
    plain = repr(folded).splitlines()
    assert plain[0] == "The arm in URDF:" and plain[1:-1] == lines[: len(plain) - 2]
    assert plain[-1] == f"... {len(lines) - (len(plain) - 2)} more lines" and len(plain) <= 15


def test_a_short_file_is_shown_whole_as_plain_text():
    """A file within the plain-text head is shown whole, with no "more lines" line."""
    assert repr(listing.Listing("short", "a\nb")).splitlines() == ["short:", "a", "b"]


def test_show_listing_displays_the_listing(capsys):
    """Outside a notebook, show_listing prints the plain-text form and returns None."""
    assert listing.show_listing("a\nb", "short") is None
    assert capsys.readouterr().out.splitlines() == ["short:", "a", "b"]
