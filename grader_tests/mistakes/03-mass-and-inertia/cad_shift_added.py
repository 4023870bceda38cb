"""The parallel-axis term added to the CAD inertia instead of taken off."""

LOSES = {
    "fullinertia_from_origin_matches_mujoco",
}

CELLS = {
    "fullinertia_from_origin": '''\
def fullinertia_from_origin(mass, com, inertia_about_origin):
    """MJCF fullinertia for a body whose CAD data give the inertia about the body origin.

    mass: kg. com: the centre of mass in the body frame, m (length 3).
    inertia_about_origin: 3x3 inertia about the body origin, in body axes, kg m^2.
    Returns the six numbers of <inertial fullinertia=...>: the inertia about the centre of
    mass in body axes, in MJCF's order (Ixx, Iyy, Izz, Ixy, Ixz, Iyz).
    """
    c = np.asarray(com, dtype=float)
    about_com = np.asarray(inertia_about_origin, dtype=float) + mass * (
        c @ c * np.eye(3) - np.outer(c, c)
    )
    mjcf_order = [(0, 0), (1, 1), (2, 2), (0, 1), (0, 2), (1, 2)]  # Ixx Iyy Izz Ixy Ixz Iyz
    return np.array([about_com[i, j] for i, j in mjcf_order])
''',
}
