"""Lesson 07, "Actuators and sensors: what makes a model a robot": MuJoCo's one actuator
model (gain and affine bias), the joint transmission and its gear, control and force limits,
servo damping from dampratio, why implicitfast exists, the accelerometer, and keyframes.

Modules: `robots` (the lesson's models and what MuJoCo computes on them), `checks` (the
visible checks and the hidden tests' comparisons).
"""

LESSON = "07-actuators-and-sensors"
# The lesson's rows in source/START.md and README.md (classroom/lesson_tables.py).
TOPIC = "actuators and sensors: gain and bias, gear, limits, servo damping, the accelerometer"
BUILDS = (
    "one actuator model (fixed gain, affine bias): `actuator_parameters`, `actuator_force` "
    "with `ctrlrange` and `forcerange`, `joint_transmission` (gear), `servo_kv` and "
    "`reflected_inertia` (what `dampratio` compiles to), `servo_settling` (a servo under a "
    "load), `accelerometer_reading`; a stiff velocity servo under `Euler` and `implicitfast`,"
    " sensor noise stored but not applied, keyframes, an arm held level by a servo"
)
