"""The instructor's tools, run from the course directory (not part of the learner's package):
build, set-up cell, demo, the grading command and its nbgrader preprocessors."""
