"""Lesson 04, "Frames, quaternions and where the mass sits": text, spec, model and data; the
kinematic tree; units and angles; quaternions, Euler sequences and poses; forward kinematics;
origin, centre of mass and principal axes; a spinning box; meshes.

Modules: `scenes` (the lesson's MJCF), `trees` (kinematic trees as plain data and the poses
MuJoCo gives them), `bodies` (a posed body whose mass sits off its origin), `spin` (the
spinning-box experiment), `pictures` (its paths seen from above), `text` (how numbers are
printed), `checks` (the visible checks).
"""

LESSON = "04-frames-and-quaternions"
