"""The radius of gyration taken as I / m, without the square root."""

SAYS = {"radius_of_gyration": "length"}  # what its visible check says

LOSES = {"radius_of_gyration_matches_mujoco_rings"}

EDITS = {
    "radius_of_gyration": [
        (
            "    return np.sqrt(np.asarray(principal_inertia, dtype=float) / mass)",
            "    return np.asarray(principal_inertia, dtype=float) / mass",
        ),
    ],
}
