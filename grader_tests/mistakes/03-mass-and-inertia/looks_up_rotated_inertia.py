"""rotate_inertia has MuJoCo rebuild the turned inertia (lab.inertia_about_point)."""

# Right wherever MuJoCo is installed; the grader calls it where only NumPy is.
# body_inertia_from_geoms turns each geom with rotate_inertia, so every call of it fails too,
# and its three tests are lost with rotate_inertia's.
LOSES = {
    "rotate_inertia_matches_mujoco",
    "body_inertia_from_geoms_mass_and_com",
    "body_inertia_from_geoms_aligned",
    "body_inertia_from_geoms_turned",
}

CELLS = {
    "rotate_inertia": '''\
def rotate_inertia(principal, quat):
    """The inertia tensor in body axes of moments `principal` turned by `quat`, from MuJoCo."""
    inertial = lab.inertial_element(1.0, diaginertia=principal, quat=quat)
    return lab.inertia_about_point(inertial)
''',
}
