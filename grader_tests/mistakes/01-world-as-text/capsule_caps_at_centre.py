"""A capsule's hemispherical caps placed at its centre (no offset term)."""

LOSES = {
    "solid_inertia_capsule_matches_mujoco",
}

EDITS = {
    "solid_inertia": [
        (
            "    i_side += m_caps * (2 / 5 * r**2 + length**2 / 4 + 3 / 8 * length * r)",
            "    i_side += m_caps * 2 / 5 * r**2",
        ),
    ],
}
