"""Grading a class: intake, the worker pool, the records and the report (see `classroom.grade`,
the command, and docs/architecture.md)."""
