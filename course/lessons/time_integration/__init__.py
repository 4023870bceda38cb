"""Lesson 02, "Time integration and the timestep": Euler, semi-implicit Euler and RK4 against
MuJoCo, energy drift, orders of accuracy and the stability edge of a stiff spring.

Modules: `dynamics` (the lesson's scenes and MuJoCo readers), `checks` (the visible checks).
"""

LESSON = "02-time-integration"
# The lesson's rows in source/START.md and README.md (classroom/lesson_tables.py).
TOPIC = "how MuJoCo steps time, and what the timestep does"
BUILDS = (
    "`explicit_euler`, `semi_implicit_euler`, `rk4` and `largest_stable_timestep`, matched "
    "step for step with MuJoCo's `Euler` and `RK4`; energy drift, orders of accuracy, the "
    "stability edge of a stiff spring"
)
