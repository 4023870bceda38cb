"""Damping left explicit: c_implicit ignored."""

LOSES = {
    "semi_implicit_euler_implicit_damping",
}

EDITS = {
    "semi_implicit_euler": [
        (
            "    v_new = v + h * accel(x, v) / (1 + h * c_implicit)",
            "    v_new = v + h * accel(x, v)",
        ),
    ],
}
