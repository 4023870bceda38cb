"""The solmix weights swapped: geom1 weighted by solmix2 / (solmix1 + solmix2)."""

SAYS = {"contact_pair_parameters": "which\nweight|which weight"}  # what its visible check says

LOSES = {"contact_pair_parameters_matches_mujoco"}

EDITS = {
    "contact_pair_parameters": [
        ("else s1 / (s1 + s2)", "else s2 / (s1 + s2)"),
    ],
}
