"""Instructor tools: build release/ and the self-study solution/ from source/ with nbgrader."""
