"""Lesson 04, "Frames, quaternions and where the mass sits": text, spec, model and data; the
kinematic tree; units and angles; quaternions, Euler sequences and poses; forward kinematics;
origin, centre of mass and principal axes; a spinning box; meshes.

Modules: `scenes` (the lesson's MJCF), `trees` (kinematic trees as plain data and the poses
MuJoCo gives them), `bodies` (a posed body whose mass sits off its origin), `spin` (the
spinning-box experiment), `pictures` (its paths seen from above), `text` (how numbers are
printed), `checks` (the visible checks).
"""

LESSON = "04-frames-and-quaternions"
# The lesson's rows in source/START.md and README.md (classroom/lesson_tables.py).
TOPIC = "frames, quaternions and forward kinematics"
BUILDS = (
    "`quat_from_axis_angle`, `quat_multiply`, `quat_to_matrix`, `euler_to_quat` (any "
    "`eulerseq`), `rotation_angle_between`, `compose_pose`, `forward_kinematics` on "
    "plain-data trees, `com_in_world`, `inertia_in_world`; spec, model and data; welded "
    'bodies, `<freejoint>` and `type="free"`, degrees and radians, `alignfree`, a box spun in'
    " zero gravity, convex hulls and mesh inertia modes"
)
