"""Lesson 03, "Mass, inertia and default classes": capsules, rotated and combined inertias,
principal axes, CAD data about the origin, the triangle inequality and default classes.

Modules: `inertia` (the lesson's MJCF builders and MuJoCo readers), `checks` (the visible
checks).
"""

LESSON = "03-mass-and-inertia"
