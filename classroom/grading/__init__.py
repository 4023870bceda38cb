"""Grading a class: intake, the worker pool, the records and the report (see `classroom.grade`,
the command, and docs/architecture.md)."""

import sys

# jsonschema (which nbformat imports) loads rfc3987_syntax when it is installed (Jupyter
# Server's dependencies install it), and that module compiles its 38 grammars at import: 0.7 s
# of every grading process's start, for the "iri" format checks that nothing here runs
# (nbformat validates without format checks). Marked absent, jsonschema goes without them.
sys.modules.setdefault("rfc3987_syntax", None)
