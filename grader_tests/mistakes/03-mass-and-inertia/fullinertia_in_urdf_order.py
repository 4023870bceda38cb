"""fullinertia written in URDF's order (ixx ixy ixz iyy iyz izz) instead of MJCF's."""

LOSES = {
    "fullinertia_from_origin_matches_mujoco",
}

EDITS = {
    "fullinertia_from_origin": [
        (
            "    mjcf_order = [(0, 0), (1, 1), (2, 2), (0, 1), (0, 2), (1, 2)]  # Ixx Iyy Izz Ixy Ixz Iyz\n    return np.array([about_com[i, j] for i, j in mjcf_order])",
            "    urdf_order = [(0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2)]  # ixx ixy ixz iyy iyz izz\n    return np.array([about_com[i, j] for i, j in urdf_order])",
        ),
    ],
}
