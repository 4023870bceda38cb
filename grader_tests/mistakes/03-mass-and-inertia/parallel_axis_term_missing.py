"""Geom inertias summed about their own centres, without the parallel-axis term."""

# Mass and centre of mass are still right.
LOSES = {
    "body_inertia_from_geoms_aligned",
    "body_inertia_from_geoms_turned",
}

CELLS = {
    "body_inertia_from_geoms": '''\
def body_inertia_from_geoms(geoms):
    """Mass, centre of mass and inertia of one body made of `geoms`, as MuJoCo compiles it.

    geoms: a list of lab.Geom(kind, size, pos, quat, density, mass): MJCF size (m), the
    geom's centre in the body frame (m), a unit quaternion (w, x, y, z) for its orientation,
    and a density (kg/m^3) used when mass (kg) is None.
    Returns (mass, com, inertia): mass in kg; centre of mass (length 3, m, body frame); the
    3x3 inertia about the centre of mass in body axes, kg m^2.
    """
    masses, centres, tensors = [], [], []
    for geom in geoms:
        geom_mass, principal = lab.geom_solid(geom.kind, geom.size, geom.density, geom.mass)
        masses.append(geom_mass)
        centres.append(np.asarray(geom.pos, dtype=float))
        tensors.append(rotate_inertia(principal, geom.quat))
    masses, centres = np.array(masses), np.array(centres)
    mass = masses.sum()
    com = masses @ centres / mass
    inertia = np.zeros((3, 3))
    for geom_mass, centre, tensor in zip(masses, centres, tensors, strict=True):
        d = centre - com  # parallel-axis theorem, about the body's COM
        inertia += tensor
    return mass, com, inertia
''',
}
