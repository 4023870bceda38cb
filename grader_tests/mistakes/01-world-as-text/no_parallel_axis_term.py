"""Parts' inertias summed about their own centres, without the parallel-axis term."""

LOSES = {
    "combine_parts_inertia_matches_mujoco",
}

EDITS = {
    "combine_parts": [
        (
            "    for m_i, p_i, i_i in zip(masses, positions, inertias, strict=True):",
            "    for m_i, p_i, i_i in zip(masses, positions, inertias):",
        ),
        (
            "        inertia += np.diag(i_i) + m_i * (r @ r * np.eye(3) - np.outer(r, r))",
            "        inertia += np.diag(i_i)",
        ),
    ],
}
