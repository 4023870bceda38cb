"""Lesson 01, "The world as text": MJCF read as text, the two-cube drop, the gripper's masses.

Modules: `scenes` (the lesson's MJCF), `drop` (the drop experiments), `explore` (the
inertiafromgeom toggle), `checks` (the visible checks).
"""

LESSON = "01-world-as-text"
