"""Each hollow cap moved out by the half-length from its flat face, as if from its COM."""

LOSES = {
    "hollow_capsule_transverse",
}

EDITS = {
    "hollow_capsule_inertia": [
        (
            "    across = m_tube * (r**2 / 2 + h**2 / 12) + m_caps * ((2 / 3 - 1 / 4) * r**2 + d**2)",
            "    across = m_tube * (r**2 / 2 + h**2 / 12) + m_caps * (2 / 3 * r**2 + (h / 2) ** 2)",
        ),
    ],
}
