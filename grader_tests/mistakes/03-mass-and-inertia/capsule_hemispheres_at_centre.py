"""A capsule's two hemispheres left at its centre: only 2/5 m_s r^2 across the axis."""

# The capsule appears in no other graded function (bodies take their geoms from MuJoCo),
# so only the moment across the axis is lost.
LOSES = {
    "capsule_inertia_transverse",
}

EDITS = {
    "capsule_inertia": [
        (
            "    across = m_cyl * (3 * r**2 + h**2) / 12 + m_caps * (83 / 320 * r**2 + d**2)",
            "    across = m_cyl * (3 * r**2 + h**2) / 12 + 2 / 5 * m_caps * r**2",
        ),
    ],
}
