"""The gear applied once: length and velocity geared, the force handed to the joint as it is."""

SAYS = {"joint_transmission": "both ways"}  # what its visible check says

LOSES = {"joint_transmission_matches_mujoco"}

EDITS = {
    "joint_transmission": [
        (
            "    return gear * qpos, gear * qvel, gear * force",
            "    return gear * qpos, gear * qvel, force",
        ),
    ],
}
