"""principal_axes returns its quaternion scalar last, (x, y, z, w)."""

# The moments are still right.
LOSES = {
    "principal_axes_rebuild_tensor",
}

CELLS = {
    "principal_axes": '''\
def principal_axes(inertia):
    """The principal moments and axes of a symmetric 3x3 inertia tensor (kg m^2, body axes).

    Returns (moments, quat): the three principal moments (kg m^2), and the unit quaternion
    (w, x, y, z) of the rotation whose columns are the matching principal axes in body
    coordinates, as MuJoCo stores them in body_inertia and body_iquat. Any order of the
    moments is accepted as long as the quaternion's axes come in the same order.
    """
    moments, axes = np.linalg.eigh(np.asarray(inertia, dtype=float))
    if np.linalg.det(axes) < 0:  # a mirror image: make it a rotation
        axes[:, 0] = -axes[:, 0]
    quat = np.zeros(4)
    mujoco.mju_mat2Quat(quat, axes.flatten())
    return moments, np.roll(quat, -1)
''',
}
