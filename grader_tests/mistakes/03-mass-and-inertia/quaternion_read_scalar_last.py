"""The MJCF quaternion read as (x, y, z, w) instead of (w, x, y, z)."""

# body_inertia_from_geoms turns each geom with rotate_inertia, so bodies of turned geoms
# inherit the slip; for unturned geoms (1, 0, 0, 0) read backwards is a half turn about x,
# which leaves a diagonal tensor as it is, so body_inertia_from_geoms_aligned keeps its points.
LOSES = {
    "body_inertia_from_geoms_turned",
    "rotate_inertia_matches_mujoco",
}

EDITS = {
    "rotate_inertia": [
        (
            "    w, x, y, z = np.asarray(quat, dtype=float)",
            "    x, y, z, w = np.asarray(quat, dtype=float)",
        ),
    ],
}
