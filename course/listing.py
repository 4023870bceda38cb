"""A model file shown folded in the notebook, so a hundred-line URDF does not fill the page.

    listing.show_listing(arm.urdf_text(), "The arm in URDF")

In JupyterLab, Colab and the feedback page the learner sees one title line that opens onto
the whole text in a scrolling box; where only plain text is shown (a terminal, a test reading
the output), the title, the first HEAD lines and how many more there are.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

__all__ = ["HEAD", "Listing", "show_listing"]


HEAD = 12  # lines of a folded file shown where only plain text is shown


@dataclass(frozen=True)
class Listing:
    """A model file's text, shown folded: in JupyterLab, Colab and the feedback page a title
    line that opens onto the whole text in a scrolling box; as plain text, the title, the first
    HEAD lines and how many more there are."""

    title: str
    text: str

    def _repr_html_(self) -> str:
        count = len(self.text.splitlines())
        return (
            f"<details><summary>{html.escape(self.title)}: {count} lines (click to open)"
            '</summary><pre style="max-height: 24em; overflow: auto">'
            f"{html.escape(self.text)}</pre></details>"
        )

    def __repr__(self) -> str:
        lines = self.text.splitlines()
        more = len(lines) - HEAD
        tail = [f"... {more} more lines"] if more > 0 else []
        return "\n".join([f"{self.title}:", *lines[:HEAD], *tail])


def show_listing(text: str, title: str) -> None:
    """Display the file `text` folded under `title` (a Listing); outside IPython print its
    plain-text form. Returns None."""
    listing = Listing(title, text)
    try:
        from IPython.display import display
    except ImportError:
        print(repr(listing))
        return
    display(listing)
