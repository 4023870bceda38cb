"""Lesson 06, "Slender parts: spin, rolling and the inertia floor": light slender parts, the
rotation per step a blow at the rim gives them, the inertia floor of a simulation stack built
on MuJoCo, written into MuJoCo's arrays, and the rolling law that gives its price.

Modules: `parts` (the lesson's parts, the ring, the scenes and MuJoCo's arrays), `runs` (the
experiments, simulated by MuJoCo), `pictures` (the strike's and the race's plots), `checks`
(the visible checks).
"""

LESSON = "06-slender-parts"
