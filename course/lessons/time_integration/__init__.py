"""Lesson 02, "Time integration and the timestep": Euler, semi-implicit Euler and RK4 against
MuJoCo, energy drift, orders of accuracy and the stability edge of a stiff spring.

Modules: `dynamics` (the lesson's scenes and MuJoCo readers), `checks` (the visible checks).
"""

LESSON = "02-time-integration"
