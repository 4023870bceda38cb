"""capsule_inertia asks MuJoCo (lab.geom_solid) instead of computing the capsule."""

# Right wherever MuJoCo is installed; the grader calls it where only NumPy is.
LOSES = {
    "capsule_inertia_mass_and_axial",
    "capsule_inertia_transverse",
}

CELLS = {
    "capsule_inertia": '''\
def capsule_inertia(radius, half_length, density):
    """Mass and principal inertia of a uniform solid capsule, read from MuJoCo."""
    return lab.geom_solid("capsule", (radius, half_length), density=density)
''',
}
