"""Lesson 03, "Mass, inertia and default classes": solid and hollow capsules, rotated and
combined inertias, principal axes, CAD data about the origin, the triangle inequality, default
classes, and MuJoCo's pictures of inertia boxes.

Modules: `inertia` (the lesson's MJCF builders and MuJoCo readers), `checks` (the visible
checks), `pictures` (still pictures of the equivalent inertia boxes, mjVIS_INERTIA).
"""

LESSON = "03-mass-and-inertia"
