"""inertia_is_physical asks MuJoCo's compiler (lab.diaginertia_compiles) instead of the rule."""

# Right wherever MuJoCo is installed; the grader calls it where only NumPy is.
LOSES = {
    "inertia_is_physical_matches_mujoco",
    "inertia_is_physical_on_the_boundary",
}

CELLS = {
    "inertia_is_physical": '''\
def inertia_is_physical(diaginertia):
    """Whether MuJoCo compiles a moving body with this diaginertia."""
    return lab.diaginertia_compiles(diaginertia)
''',
}
