"""Lesson 01, "The world as text": MJCF read as text, the two-cube drop, the gripper's masses.

Modules: `scenes` (the lesson's MJCF), `drop` (the drop experiments and readers of an edited
model), `explore` (the inertiafromgeom toggle), `pictures` (the landing plot, the slow-motion
drop, MuJoCo's inertia boxes), `checks` (the visible checks).
"""

LESSON = "01-world-as-text"
# The lesson's rows in source/START.md and README.md (classroom/lesson_tables.py).
TOPIC = "a model file read as text: masses, inertias, a drop through air"
BUILDS = (
    "MJCF and URDF read as text; `solid_inertia`, `combine_parts` (parallel-axis theorem), "
    "`semi_implicit_euler`, `inertia_box`, `quadratic_drag`, your own drop loop; the two-cube"
    " drop reproduced to 0.01 ms"
)
