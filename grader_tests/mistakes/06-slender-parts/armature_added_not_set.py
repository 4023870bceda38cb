"""The floor's armature added to whatever armature the rotational dofs already had."""

# The lesson's workbench starts with no armature, so only the hidden models that carry some
# (a <joint type="free" armature>, or a floor applied before) reveal it.
LOSES = {"apply_inertia_floor_matches_mujoco"}

EDITS = {
    "apply_inertia_floor": [
        (
            "            model.dof_armature[dof + 3 : dof + 6] = armature  # the rotations only",
            "            model.dof_armature[dof + 3 : dof + 6] += armature",
        ),
    ],
}
