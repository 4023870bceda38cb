"""The parallel-axis term taken about the body origin instead of the centre of mass."""

# Mass and centre of mass are still right; every checked body has its COM off the origin.
LOSES = {
    "body_inertia_from_geoms_aligned",
    "body_inertia_from_geoms_turned",
}

EDITS = {
    "body_inertia_from_geoms": [
        (
            "        d = centre - com  # parallel-axis theorem, about the body's COM",
            "        d = centre  # parallel-axis theorem",
        ),
    ],
}
