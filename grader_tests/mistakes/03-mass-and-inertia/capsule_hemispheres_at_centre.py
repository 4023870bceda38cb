"""A capsule's two hemispheres left at its centre: only 2/5 m_s r^2 across the axis."""

# The capsule appears in no other graded function (bodies take their geoms from MuJoCo),
# so only the moment across the axis is lost.
LOSES = {
    "capsule_inertia_transverse",
}

CELLS = {
    "capsule_inertia": '''\
def capsule_inertia(radius, half_length, density):
    """Mass and principal inertia of a uniform solid capsule, as MuJoCo's compiler infers them.

    radius: m. half_length: half the length of the cylindrical part, m (MJCF size[1]).
    density: kg/m^3.
    Returns (mass, principal_inertia): mass in kg; a length-3 array of the moments about the
    capsule's own x, y and z axes through its centre, in kg m^2 (z is the capsule's axis).
    """
    r, h = float(radius), 2.0 * float(half_length)  # h: length of the cylindrical part
    m_cyl = density * np.pi * r**2 * h
    m_caps = density * 4 / 3 * np.pi * r**3  # the two hemispheres make one sphere
    axial = m_cyl * r**2 / 2 + 2 / 5 * m_caps * r**2
    d = h / 2 + 3 * r / 8  # from the capsule's centre to each hemisphere's COM
    across = m_cyl * (3 * r**2 + h**2) / 12 + 2 / 5 * m_caps * r**2
    return m_cyl + m_caps, np.array([across, across, axial])
''',
}
