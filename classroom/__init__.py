"""The instructor's tools, run from the course directory (not part of the learner's package):
build, set-up cell, demo, the grading command and its nbgrader preprocessors."""

import sys

# jsonschema (which nbformat imports) loads rfc3987_syntax when it is installed (Jupyter
# Server's dependencies install it), and that module compiles its 38 grammars at import: 0.7 s
# of the start of every process that grades, for the "iri" format checks that nothing here runs
# (nbformat validates without format checks). Marked absent, jsonschema goes without them.
sys.modules.setdefault("rfc3987_syntax", None)


def end_without_collecting() -> None:
    """Call as a grading process is about to end, after everything is written and closed.

    At exit the interpreter tears down nbgrader, SQLAlchemy, matplotlib and MuJoCo with a
    full garbage collection at each step: about a second of every run and of every worker
    (measured on the grading command: 1.1 to 1.3 s from the end of main to the process's end,
    0.1 s frozen). Frozen objects are never collected, so nothing of that is run; files and
    databases here are closed by the code that opened them, not left to the collector."""
    import gc

    gc.freeze()
