"""The hollow caps' centre of mass put 3r/8 from the flat face (a SOLID cap's), not r/2."""

# The three moves are right; the distance is the solid capsule's.

LOSES = {
    "hollow_capsule_transverse",
}

EDITS = {
    "hollow_capsule_inertia": [
        (
            "    d = h / 2 + r / 2  # from the capsule's centre to each shell's COM",
            "    d = h / 2 + 3 * r / 8  # from the capsule's centre to each shell's COM",
        ),
        ("((2 / 3 - 1 / 4) * r**2 + d**2)", "((2 / 3 - 9 / 64) * r**2 + d**2)"),
    ],
}
