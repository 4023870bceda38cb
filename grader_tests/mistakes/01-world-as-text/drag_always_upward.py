"""Drag written as +1/2 rho A v^2: right for a falling body, wrong for any other motion."""

LOSES = {
    "quadratic_drag_matches_qfrc_fluid",
}

CELLS = {
    "quadratic_drag": '''\
def quadratic_drag(v, box, rho):
    """MuJoCo's quadratic drag force (N) on a box moving without rotating.

    v: velocity in the box's axes, m/s (length 3).
    box: the box's full side lengths along x, y, z, m (length 3), e.g. from inertia_box.
    rho: fluid density, kg/m^3 (1.2 for air).
    Returns the force, length 3, in the box's axes.
    """
    v, box = np.asarray(v, dtype=float), np.asarray(box, dtype=float)
    area = np.array([box[1] * box[2], box[0] * box[2], box[0] * box[1]])
    return 0.5 * rho * area * v**2
''',
}
