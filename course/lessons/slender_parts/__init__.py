"""Lesson 06, "Slender parts: spin, rolling and the inertia floor": light slender parts, the
rotation per step a blow at the rim gives them, the inertia floor of a simulation stack built
on MuJoCo, written into MuJoCo's arrays, and the rolling law that gives its price.

Modules: `parts` (the lesson's parts, the ring, the scenes and MuJoCo's arrays), `runs` (the
experiments, simulated by MuJoCo), `pictures` (the strike's and the race's plots), `checks`
(the visible checks).
"""

LESSON = "06-slender-parts"
# The lesson's rows in source/START.md and README.md (classroom/lesson_tables.py).
TOPIC = "slender parts, the inertia floor, and rolling down a slope"
BUILDS = (
    "radius of gyration and rotation per step (a struck marker gains energy under Euler); the"
    " inertia floor: `radius_of_gyration`, `needs_inertia_floor`, `floor_armature`, "
    "`apply_inertia_floor` on MuJoCo's arrays and the `mj_setConst` trap; the rolling law: "
    "`rolling_acceleration`, `floored_rolling_ratio`, `fitted_acceleration`, raced down a "
    "slope"
)
