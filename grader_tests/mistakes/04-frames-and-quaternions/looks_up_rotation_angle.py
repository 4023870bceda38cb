"""rotation_angle_between asks MuJoCo (course.frames) instead of computing the angle."""

# Right wherever MuJoCo is installed; the grader calls it where only NumPy is.
LOSES = {
    "rotation_angle_between_matches_mujoco",
}

CELLS = {
    "rotation_angle_between": '''\
def rotation_angle_between(q1, q2):
    """The angle between two orientations, read from MuJoCo."""
    from course import frames

    return frames.rotation_angle(q1, q2)
''',
}
