"""Each landing counted in whole steps, not interpolated within its step with landing_time."""

# Delays then come in multiples of the timestep: 4 ms instead of 4.08 ms for the 100 g cube.
LOSES = {
    "delay_table_matches_mujoco",
    "delay_variant_matches_mj_step",
}

EDITS = {
    "landing_delay_ms": [
        (
            "        landing_time(\n"
            '            drop_heights("box", [0.1, 0.1, 0.1], m, drop_height, rho_air, timestep), timestep\n'
            "        )\n",
            '        (len(drop_heights("box", [0.1, 0.1, 0.1], m, drop_height, rho_air, timestep)) - 1)\n'
            "        * timestep\n",
        ),
    ],
}
