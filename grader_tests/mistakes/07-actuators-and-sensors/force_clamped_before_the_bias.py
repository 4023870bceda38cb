"""forcerange applied to gain * ctrl before the bias is added, not to the whole force."""

SAYS = {"actuator_force": "only after"}  # what its visible check says

LOSES = {"actuator_force_matches_mujoco"}

EDITS = {
    "actuator_force": [
        (
            "    force = gain[0] * ctrl + bias[0] + bias[1] * length + bias[2] * velocity\n"
            "    if forcerange is not None:\n"
            "        force = min(max(force, forcerange[0]), forcerange[1])\n",
            "    force = gain[0] * ctrl\n"
            "    if forcerange is not None:\n"
            "        force = min(max(force, forcerange[0]), forcerange[1])\n"
            "    force = force + bias[0] + bias[1] * length + bias[2] * velocity\n",
        ),
    ],
}
