"""One way to declare a preprocessor's setting.

    notebook_timeout = setting(Integer, 180, "Seconds the whole notebook may run.")

is `Integer(180, help=...).tag(config=True)`: settable as `c.GuardedExecute.notebook_timeout`
in nbgrader_config.py and as `--GuardedExecute.notebook_timeout=...` on nbgrader's command
line, and listed with its help by `nbgrader autograde --help-all`.
"""

from __future__ import annotations


def setting(trait, default, help: str):
    """A configurable traitlet of class `trait` with this default and help text."""
    return trait(default, help=help).tag(config=True)
