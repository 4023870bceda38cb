"""Drag area taken from the geom's size instead of the equivalent inertia box."""

# For a cube the geom is its own inertia box, so only other shapes reveal the slip.
LOSES = {
    "drop_heights_matches_mj_step",
}

EDITS = {
    "drop_heights": [
        (
            "    box = inertia_box(mass, inertia)",
            "    box = 2 * np.array(size if kind == 'box' else [size[0], size[0], size[-1]], dtype=float)",
        ),
    ],
}
