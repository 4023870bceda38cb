"""A solid sphere weighed with a thin shell's inertia, 2/3 m r^2."""

LOSES = {
    "solid_inertia_sphere_matches_mujoco",
}

EDITS = {
    "solid_inertia": [
        (
            "        return mass, np.full(3, 2 / 5 * mass * r**2)",
            "        return mass, np.full(3, 2 / 3 * mass * r**2)",
        ),
    ],
}
