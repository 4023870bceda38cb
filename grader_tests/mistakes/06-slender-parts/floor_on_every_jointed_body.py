"""The floor applied to every body with a joint, robot links on hinges included."""

SAYS = {"floor_arrays": "Only free bodies"}  # what its visible check says

LOSES = {"apply_inertia_floor_matches_mujoco"}

EDITS = {
    "apply_inertia_floor": [
        (
            "        if joint < 0 or model.jnt_type[joint] != 0:  # no joint, or not a free one",
            "        if joint < 0:",
        ),
    ],
}
