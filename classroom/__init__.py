"""The instructor's tools, run from the course directory (not part of the learner's package):
build, set-up cell, demo, the grading command and its nbgrader preprocessors."""

import sys

# jsonschema (which nbformat imports) loads rfc3987_syntax when it is installed (Jupyter
# Server's dependencies install it), and that module compiles its 38 grammars at import: 0.7 s
# of the start of every process that grades, for the "iri" format checks that nothing here runs
# (nbformat validates without format checks). Marked absent, jsonschema goes without them.
sys.modules.setdefault("rfc3987_syntax", None)
