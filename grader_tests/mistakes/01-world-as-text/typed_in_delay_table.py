"""The lesson's delay table typed in instead of computed."""

LOSES = {
    "delay_variant_matches_mj_step",
}

EDITS = {
    "landing_delay_ms": [
        (
            '    """Landing delay (ms) of a light 20 cm cube behind a heavy one, from your own integrator.\n\n    Both cubes fall from rest with their bottom faces drop_height (m) above the table top;\n    masses in kg, air density in kg/m^3, timestep in s. Returns the light cube\'s interpolated\n    landing time minus the heavy cube\'s, in milliseconds.\n    """\n    times = [\n        falls.landing_time(\n            drop_heights("box", [0.1, 0.1, 0.1], m, drop_height, rho_air, timestep), timestep\n        )\n        for m in (light_kg, heavy_kg)\n    ]\n    return 1000 * (times[0] - times[1])',
            '    """Copied from the table printed above."""\n    table = {0.005: 93.44, 0.01: 46.25, 0.02: 22.59, 0.05: 8.65, 0.1: 4.08, 0.2: 1.81,\n             0.5: 0.45, 1.0: 0.0}\n    return table[light_kg]',
        ),
    ],
}
