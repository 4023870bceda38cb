"""Parts' inertias summed about their own centres, without the parallel-axis term."""

LOSES = {
    "combine_parts_inertia_matches_mujoco",
}

EDITS = {
    "combine_parts": [
        (
            "        inertia += np.diag(i_i) + m_i * (r @ r * np.eye(3) - np.outer(r, r))",
            "        inertia += np.diag(i_i)",
        ),
    ],
}
