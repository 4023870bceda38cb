"""Lesson 05, "URDF and MJCF: one arm, two formats": the element map, the two-link arm in both
formats, MuJoCo's URDF import, position servos under gravity, and what breaks.

Modules: `arm` (the lesson's arm and its experiments), `element_map` (the map's rows, asked of
MuJoCo), `arms` (generated arms for the checks), `checks` (the visible checks).
"""

LESSON = "05-urdf-and-mjcf"
