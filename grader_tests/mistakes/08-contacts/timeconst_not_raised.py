"""A timeconst below two timesteps used as it is: MuJoCo's refsafe forgotten."""

LOSES = {"resting_penetration_matches_mujoco"}

EDITS = {
    "resting_penetration": [
        ("    timeconst = max(timeconst, 2 * timestep)  # MuJoCo's refsafe\n", ""),
    ],
}
