"""A capsule's hemispherical caps placed at its centre (no offset term)."""

LOSES = {
    "solid_inertia_capsule_matches_mujoco",
}

CELLS = {
    "solid_inertia": '''\
def solid_inertia(kind, size, density):
    """Mass and principal inertia of a uniform solid shape, as MuJoCo's compiler infers them.

    kind: "box", "sphere", "cylinder" or "capsule".
    size: MJCF size, in metres: box (x, y, z) HALF-lengths; sphere (radius,);
        cylinder and capsule (radius, half-length of the cylindrical part along z).
    density: kg/m^3.
    Returns (mass, principal_inertia): mass in kg; a length-3 array of the moments of
    inertia about the shape's own x, y and z axes through its centre, in kg m^2.
    """
    if kind == "box":
        a, b, c = 2 * np.asarray(size, dtype=float)  # MJCF sizes are half-lengths
        mass = density * a * b * c
        return mass, mass / 12 * np.array([b**2 + c**2, a**2 + c**2, a**2 + b**2])
    if kind == "sphere":
        r = size[0]
        mass = density * 4 / 3 * np.pi * r**3
        return mass, np.full(3, 2 / 5 * mass * r**2)
    if kind not in ("cylinder", "capsule"):
        raise ValueError(f"unknown shape kind {kind!r}")
    r, length = size[0], 2 * size[1]
    m_cyl = density * np.pi * r**2 * length
    i_side, i_axis = m_cyl * (3 * r**2 + length**2) / 12, m_cyl * r**2 / 2
    if kind == "cylinder":
        return m_cyl, np.array([i_side, i_side, i_axis])
    m_caps = density * 4 / 3 * np.pi * r**3  # the two hemispheres make one sphere
    i_side += m_caps * 2 / 5 * r**2
    i_axis += m_caps * 2 / 5 * r**2
    return m_cyl + m_caps, np.array([i_side, i_side, i_axis])
''',
}
