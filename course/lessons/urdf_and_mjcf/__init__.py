"""Lesson 05, "URDF and MJCF: one arm, two formats": the element map, the two-link arm in both
formats, MuJoCo's URDF import, position servos under gravity, and what breaks.

Modules: `arm` (the lesson's arm and its experiments), `element_map` (the map's rows, asked of
MuJoCo), `arms` (generated arms for the checks), `checks` (the visible checks).
"""

LESSON = "05-urdf-and-mjcf"
# The lesson's rows in source/START.md and README.md (classroom/lesson_tables.py).
TOPIC = "one arm in URDF and in MJCF, and MuJoCo's URDF import"
BUILDS = (
    "the element map checked against MuJoCo; `urdf_inertia_to_fullinertia`, "
    "`urdf_geometry_to_mjcf`, `rpy_to_quat`, `planar_arm_tip`, `servo_rest_angles` and your "
    "own `urdf_to_mjcf`, compared body by body with MuJoCo's URDF import; why a P servo "
    'misses its target, and what a missing `<exclude>` or `angle="radian"` does'
)
