"""Lesson 01, "The world as text": MJCF read as text, the two-cube drop, the gripper's masses.

Modules: `scenes` (the lesson's MJCF), `drop` (the drop experiments and readers of an edited
model), `explore` (the inertiafromgeom toggle), `pictures` (the landing plot, the slow-motion
drop, MuJoCo's inertia boxes), `checks` (the visible checks).
"""

LESSON = "01-world-as-text"
