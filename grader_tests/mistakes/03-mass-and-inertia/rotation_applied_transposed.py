"""The rotation applied as R^T I R, which turns the geom the opposite way."""

# body_inertia_from_geoms turns each geom with rotate_inertia, so bodies of turned geoms
# inherit the slip; with unturned geoms R is the identity and nothing changes.
LOSES = {
    "body_inertia_from_geoms_turned",
    "rotate_inertia_matches_mujoco",
}

EDITS = {
    "rotate_inertia": [
        (
            "    return rotation @ np.diag(np.asarray(principal, dtype=float)) @ rotation.T",
            "    return rotation.T @ np.diag(np.asarray(principal, dtype=float)) @ rotation",
        ),
    ],
}
