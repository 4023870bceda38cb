"""The floor's armature written on all six dofs of the free joint, translations included."""

SAYS = {"floor_arrays": "translation dof"}  # what its visible check says

LOSES = {"apply_inertia_floor_matches_mujoco"}

EDITS = {
    "apply_inertia_floor": [
        (
            "            model.dof_armature[dof + 3 : dof + 6] = armature  # the rotations only",
            "            model.dof_armature[dof : dof + 6] = armature",
        ),
    ],
}
