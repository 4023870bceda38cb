"""Priority ignored: the larger values and the solmix average even under a higher priority."""

SAYS = {"contact_pair_parameters": "higher priority"}  # what its visible check says

LOSES = {"contact_pair_parameters_matches_mujoco"}

EDITS = {
    "contact_pair_parameters": [
        ('    if geom1["priority"] != geom2["priority"]:', "    if False:  # priority ignored"),
    ],
}
