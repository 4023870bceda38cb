"""The inertia tensor turned with R^T in place of R: R^T D R instead of R D R^T."""

LOSES = {
    "inertia_in_world_matches_ximat",
}

EDITS = {
    "inertia_in_world": [
        (
            "    return rotation @ np.diag(np.asarray(body_inertia, dtype=float)) @ rotation.T",
            "    return rotation.T @ np.diag(np.asarray(body_inertia, dtype=float)) @ rotation",
        ),
    ],
}
