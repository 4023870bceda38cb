"""Lesson 08, "Contacts: how MuJoCo pushes back": which geom pairs touch, how two geoms'
contact parameters are mixed, soft contacts and the resting penetration they give, the
friction cone on a slope, and rolling friction.

Modules: `scenes` (the lesson's MJCF scenes and what MuJoCo does with them), `checks` (the
visible checks).
"""

LESSON = "08-contacts"
