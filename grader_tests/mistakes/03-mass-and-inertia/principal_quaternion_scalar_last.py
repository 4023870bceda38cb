"""principal_axes returns its quaternion scalar last, (x, y, z, w)."""

# The moments are still right.
LOSES = {
    "principal_axes_rebuild_tensor",
}

EDITS = {
    "principal_axes": [
        (
            "    return moments, quat",
            "    return moments, np.roll(quat, -1)",
        ),
    ],
}
