"""A URDF joint without <axis> written without an MJCF axis, so it turns about z, not x."""

# At qpos = 0 an axis moves nothing, so masses, limits and geoms (checked there) stay right.
LOSES = {
    "urdf_to_mjcf_kinematics_match_mujoco",
}

EDITS = {
    "urdf_to_mjcf": [
        (
            '    direction = _floats(axis.get("xyz") if axis is not None else None, [1, 0, 0])',
            '    direction = _floats(axis.get("xyz") if axis is not None else None, [0, 0, 1])',
        ),
    ],
}
