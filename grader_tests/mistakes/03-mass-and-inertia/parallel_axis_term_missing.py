"""Geom inertias summed about their own centres, without the parallel-axis term."""

# Mass and centre of mass are still right.
LOSES = {
    "body_inertia_from_geoms_aligned",
    "body_inertia_from_geoms_turned",
}

EDITS = {
    "body_inertia_from_geoms": [
        (
            "        inertia += tensor + geom_mass * (d @ d * np.eye(3) - np.outer(d, d))",
            "        inertia += tensor",
        ),
    ],
}
