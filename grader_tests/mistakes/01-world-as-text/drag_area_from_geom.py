"""Drag area taken from the geom's size instead of the equivalent inertia box."""

# For a cube the geom is its own inertia box, so only other shapes reveal the slip.
LOSES = {
    "drop_heights_matches_mj_step",
}

CELLS = {
    "drop_heights": '''\
def drop_heights(kind, size, mass, drop_height=0.40, rho_air=0.0, timestep=0.002, gravity=9.81):
    """Heights (m) of a falling shape's lowest point above the table top, one per step.

    kind, size: the geom, as for solid_inertia (MJCF half-lengths); mass: kg.
    drop_height: start height of the lowest point above the table top, m.
    rho_air: air density, kg/m^3 (0 is vacuum); timestep: s; gravity: m/s^2, pointing down.
    Returns a 1-D array: element 0 is drop_height (at rest), element k the height after k
    steps, and the last element is the first height at or below 0 (its index is the landing
    step).
    """
    unit_mass, _ = solid_inertia(kind, size, 1.0)
    _, inertia = solid_inertia(kind, size, mass / unit_mass)
    box = 2 * np.array(size if kind == 'box' else [size[0], size[0], size[-1]], dtype=float)

    def accel(z, vz):
        return -gravity + quadratic_drag([0.0, 0.0, vz], box, rho_air)[2] / mass

    heights, z, vz = [drop_height], drop_height, 0.0
    while z > 0:
        z, vz = semi_implicit_euler(z, vz, accel, timestep)
        heights.append(z)
    return np.array(heights)
''',
}
