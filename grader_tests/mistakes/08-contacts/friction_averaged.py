"""Each friction coefficient taken as the average of the two geoms' instead of the larger."""

SAYS = {"contact_pair_parameters": "not an average"}  # what its visible check says

LOSES = {"contact_pair_parameters_matches_mujoco"}

EDITS = {
    "contact_pair_parameters": [
        (
            'np.maximum(geom1["friction"], geom2["friction"])',
            '(np.asarray(geom1["friction"]) + np.asarray(geom2["friction"])) / 2',
        ),
    ],
}
