"""The position servo's bias written +kp, +kv: it pushes away from its target."""

SAYS = {"actuator_parameters": "which sign"}  # what its visible check says

LOSES = {"actuator_parameters_match_mujoco"}

EDITS = {
    "actuator_parameters": [
        (
            "return np.array([kp, 0.0, 0.0]), np.array([0.0, -kp, -kv])",
            "return np.array([kp, 0.0, 0.0]), np.array([0.0, kp, kv])",
        ),
    ],
}
