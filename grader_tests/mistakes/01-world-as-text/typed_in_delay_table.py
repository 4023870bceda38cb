"""The lesson's delay table typed in instead of computed."""

# The table covers the lesson's masses only: the hidden tests ask for others.
LOSES = {
    "delay_table_matches_mujoco",
    "delay_variant_matches_mj_step",
}

EDITS = {
    "landing_delay_ms": [
        (
            "    times = [\n"
            "        landing_time(\n"
            '            drop_heights("box", [0.1, 0.1, 0.1], m, drop_height, rho_air, timestep), timestep\n'
            "        )\n"
            "        for m in (light_kg, heavy_kg)\n"
            "    ]\n"
            "    return 1000 * (times[0] - times[1])",
            "    table = {0.005: 93.44, 0.01: 46.25, 0.02: 22.59, 0.05: 8.65, 0.1: 4.08, 0.2: 1.81,\n"
            "             0.5: 0.45, 1.0: 0.0}  # copied from the table printed above\n"
            "    return table[light_kg]",
        ),
    ],
}
