"""Each hemisphere moved by h/2 from its flat face, as if that axis passed through its COM."""

LOSES = {
    "capsule_inertia_transverse",
}

EDITS = {
    "capsule_inertia": [
        (
            "    across = m_cyl * (3 * r**2 + h**2) / 12 + m_caps * (83 / 320 * r**2 + d**2)",
            "    across = m_cyl * (3 * r**2 + h**2) / 12 + m_caps * (2 / 5 * r**2 + (h / 2) ** 2)",
        ),
    ],
}
