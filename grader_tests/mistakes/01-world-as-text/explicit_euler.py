"""Explicit Euler: the position moves with the old velocity."""

# The drop loop steps with semi_implicit_euler, so the heights inherit the slip. The delays
# do not: in a straight fall the velocity never depends on the position, so explicit Euler
# gives every cube the same heights one step late, and a difference of landing times
# cancels the lag exactly.
LOSES = {
    "semi_implicit_euler_matches_mj_step",
    "semi_implicit_euler_implicit_damping",
    "drop_heights_matches_mj_step",
}

EDITS = {
    "semi_implicit_euler": [
        (
            "    return x + h * v_new, v_new",
            "    return x + h * v, v_new",
        ),
    ],
}
