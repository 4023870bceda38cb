"""Priority ignored: the larger condim and friction and the solmix average even when one geom
has the higher priority."""

LOSES = {
    "contact_pair_parameters_matches_mujoco",
}

EDITS = {
    "contact_pair_parameters": [
        ('    if geom1["priority"] != geom2["priority"]:', "    if False:  # priority ignored"),
    ],
}
