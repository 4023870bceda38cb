"""One way to declare a preprocessor's setting.

    notebook_timeout = setting(Integer, 180, "Seconds the whole notebook may run.")

is `Integer(180, help=...).tag(config=True)`: settable as `c.GuardedExecute.notebook_timeout`
in nbgrader_config.py and as `--GuardedExecute.notebook_timeout=...` on nbgrader's command
line, and listed with its help by `nbgrader autograde --help-all`.
"""

from __future__ import annotations

from nbgrader.preprocessors import NbGraderPreprocessor
from traitlets import List


def setting(trait, default, help: str):
    """A configurable traitlet of class `trait` with this default and help text."""
    return trait(default, help=help).tag(config=True)


class FeedbackPreprocessor(NbGraderPreprocessor):
    """A preprocessor of nbgrader's feedback chain (its HTML exporter's).

    nbconvert's HTML exporter configures `display_data_priority` for every preprocessor of its
    chain; NbGraderPreprocessor declares that trait without `config=True`, so traitlets warned
    "Config option `display_data_priority` not recognized" once per course preprocessor on
    every `nbgrader generate_feedback`. Declared configurable here, as nbgrader's own GetGrades
    declares it, the exporter's value is simply taken.
    """

    display_data_priority = List(
        NbGraderPreprocessor.class_traits()["display_data_priority"].default(),
        help="Output types by preference (set by the exporter; unused by the course).",
    ).tag(config=True)
