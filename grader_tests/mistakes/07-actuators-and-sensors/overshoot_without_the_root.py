"""The overshoot as exp(-pi ratio), the root of 1 - ratio^2 left out of the exponent."""

SAYS = {"servo_settling": "root of 1"}  # what its visible check says

LOSES = {"servo_settling_matches_mj_step"}

EDITS = {
    "servo_settling": [
        (
            "np.exp(-np.pi * ratio / np.sqrt(1.0 - ratio**2))",
            "np.exp(-np.pi * ratio)",
        ),
    ],
}
