"""hollow_capsule_inertia asks MuJoCo (lab.geom_solid with shell=True) instead of computing."""

# Right wherever MuJoCo is installed; the grader calls it where only NumPy is.
LOSES = {
    "hollow_capsule_mass_and_axial",
    "hollow_capsule_transverse",
}

CELLS = {
    "hollow_capsule_inertia": '''\
def hollow_capsule_inertia(radius, half_length, density):
    """Mass and principal inertia of a hollow capsule, read from MuJoCo."""
    return lab.geom_solid("capsule", (radius, half_length), density=density, shell=True)
''',
}
