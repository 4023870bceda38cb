"""Lesson 03, "Mass, inertia and default classes": solid and hollow capsules, rotated and
combined inertias, principal axes, CAD data about the origin, the triangle inequality, default
classes, and MuJoCo's pictures of inertia boxes.

Modules: `inertia` (the lesson's MJCF builders and MuJoCo readers), `checks` (the visible
checks), `pictures` (still pictures of the equivalent inertia boxes, mjVIS_INERTIA).
"""

LESSON = "03-mass-and-inertia"
# The lesson's rows in source/START.md and README.md (classroom/lesson_tables.py).
TOPIC = "inertia of shapes and bodies, default classes, the compiler's checks"
BUILDS = (
    "`hollow_capsule_inertia` (a thin-walled capsule, `shellinertia`), `rotate_inertia`, "
    "`body_inertia_from_geoms`, `principal_axes`, `fullinertia_from_origin`, "
    "`inertia_is_physical`, `resolve_attribute` (how default classes resolve), "
    "`audit_inertias`; default classes, global options and the compiler's mass errors"
)
