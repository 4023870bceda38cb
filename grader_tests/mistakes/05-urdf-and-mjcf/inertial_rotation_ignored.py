"""The inertial origin's rpy ignored: the tensor written as if the inertial frame were the link's."""

# The geoms, joints and body poses do not depend on the inertial frame, so only the mass
# properties are wrong.
LOSES = {
    "urdf_to_mjcf_mass_properties_match_mujoco",
}

EDITS = {
    "urdf_to_mjcf": [
        (
            "    turned = turn @ tensor @ turn.T  # MJCF has no inertial rotation beside fullinertia",
            "    turned = tensor",
        ),
    ],
}
