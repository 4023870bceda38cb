"""A hollow capsule's two hemispherical shells left at its centre: only 2/3 m_s r^2 across."""

# The hollow capsule appears in no other graded function (bodies take their geoms from
# MuJoCo), so only the moment across the axis is lost.
LOSES = {
    "hollow_capsule_transverse",
}

EDITS = {
    "hollow_capsule_inertia": [
        (
            "    across = m_tube * (r**2 / 2 + h**2 / 12) + m_caps * ((2 / 3 - 1 / 4) * r**2 + d**2)",
            "    across = m_tube * (r**2 / 2 + h**2 / 12) + 2 / 3 * m_caps * r**2",
        ),
    ],
}
