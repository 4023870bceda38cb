"""Lesson 08, "Contacts: how MuJoCo pushes back": which geom pairs touch, how two geoms'
contact parameters are mixed, soft contacts and the resting penetration they give, the
friction cone on a slope, and rolling friction.

Modules: `scenes` (the lesson's MJCF scenes and what MuJoCo does with them), `checks` (the
visible checks).
"""

LESSON = "08-contacts"
# The lesson's rows in source/START.md and README.md (classroom/lesson_tables.py).
TOPIC = (
    "which geoms touch, how contact parameters mix, soft contacts, friction on a slope, "
    "rolling friction"
)
BUILDS = (
    "which geoms touch and how two geoms' contact parameters mix: `geoms_collide`, "
    "`contact_pair_parameters`; soft contacts: `resting_penetration` (the depth at which a "
    "ball rests, and why a timeconst below two steps is raised); the friction cone: "
    "`slope_acceleration`, `normal_force` against `mj_contactForce`; rolling friction: "
    "`rolling_stop_distance`"
)
