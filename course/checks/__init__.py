"""Visible checks: quick comparisons with MuJoCo that a lesson runs right after each function.

Each check prints one line when the function agrees with MuJoCo and raises AssertionError
with the likely mistake when it does not. Hints point at a convention or a concept, never at
the formula the learner is asked to write.
"""
