"""Links on fixed joints kept as bodies of their own instead of fused into their parent."""

# The bodies still sit and collide where MuJoCo's import puts them; only the mass is split
# over more bodies than the import has.
LOSES = {
    "urdf_to_mjcf_mass_properties_match_mujoco",
}

EDITS = {
    "urdf_to_mjcf": [
        (
            'fusestatic="true"',
            'fusestatic="false"',
        ),
    ],
}
