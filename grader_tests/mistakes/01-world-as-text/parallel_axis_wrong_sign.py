"""The parallel-axis term subtracted instead of added."""

LOSES = {
    "combine_parts_inertia_matches_mujoco",
}

CELLS = {
    "combine_parts": '''\
def combine_parts(masses, positions, inertias):
    """One rigid body from parts, as MuJoCo's compiler combines a body's geoms.

    masses: the parts' masses, kg (length n).
    positions: the parts' centres in the body frame, m (n x 3).
    inertias: each part's principal inertia about its own centre, kg m^2 (n x 3); every
        part's principal axes are aligned with the body frame.
    Returns (mass, com, inertia): total mass in kg; centre of mass (length 3) in m; and the
    3x3 inertia matrix about the centre of mass, in the body frame, in kg m^2.
    """
    masses = np.asarray(masses, dtype=float)
    positions = np.asarray(positions, dtype=float)
    mass = masses.sum()
    com = masses @ positions / mass
    inertia = np.zeros((3, 3))
    for m_i, p_i, i_i in zip(masses, positions, inertias):
        r = p_i - com  # parallel-axis theorem: move each part's inertia to the COM
        inertia += np.diag(i_i) - m_i * (r @ r * np.eye(3) - np.outer(r, r))
    return mass, com, inertia
''',
}
