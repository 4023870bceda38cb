"""The rotation applied as R^T I R, which turns the geom the opposite way."""

# body_inertia_from_geoms turns each geom with rotate_inertia, so bodies of turned geoms
# inherit the slip; with unturned geoms R is the identity and nothing changes.
LOSES = {
    "body_inertia_from_geoms_turned",
    "rotate_inertia_matches_mujoco",
}

CELLS = {
    "rotate_inertia": '''\
def rotate_inertia(principal, quat):
    """The inertia tensor, in body axes, of a geom whose principal moments `principal`
    (length 3, kg m^2, about the geom's own x, y, z axes) are turned by `quat`.

    quat: the geom's orientation in the body frame, a unit quaternion (w, x, y, z), scalar
    first as in MJCF.
    Returns the 3x3 inertia about the geom's centre, in the body's axes, kg m^2.
    """
    w, x, y, z = np.asarray(quat, dtype=float)
    rotation = np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
        ]
    )  # its columns are the geom's axes in body coordinates
    return rotation.T @ np.diag(np.asarray(principal, dtype=float)) @ rotation
''',
}
