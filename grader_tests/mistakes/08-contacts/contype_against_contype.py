"""contype tested against contype (and conaffinity against conaffinity)."""

SAYS = {"geoms_collide": "which geom's conaffinity"}  # what its visible check says

LOSES = {"geoms_collide_matches_mujoco"}

EDITS = {
    "geoms_collide": [
        (
            "return bool((contype1 & conaffinity2) or (contype2 & conaffinity1))",
            "return bool((contype1 & contype2) or (conaffinity1 & conaffinity2))",
        ),
    ],
}
