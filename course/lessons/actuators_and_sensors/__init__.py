"""Lesson 07, "Actuators and sensors: what makes a model a robot": MuJoCo's one actuator
model (gain and affine bias), the joint transmission and its gear, control and force limits,
servo damping from dampratio, why implicitfast exists, the accelerometer, and keyframes.

Modules: `robots` (the lesson's models and what MuJoCo computes on them), `checks` (the
visible checks and the hidden tests' comparisons).
"""

LESSON = "07-actuators-and-sensors"
