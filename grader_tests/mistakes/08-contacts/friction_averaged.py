"""Each friction coefficient taken as the average of the two geoms' instead of the larger."""

LOSES = {
    "contact_pair_parameters_matches_mujoco",
}

EDITS = {
    "contact_pair_parameters": [
        (
            'np.maximum(geom1["friction"], geom2["friction"])',
            '(np.asarray(geom1["friction"]) + np.asarray(geom2["friction"])) / 2',
        ),
    ],
}
