"""A wrong letter in one check-yourself answer: sensor noise believed to need RK4."""

LOSES = {"check_noise_answer"}

EDITS = {
    "check_noise": [
        (
            'check_noise = None  # "A", "B" or "C"\ncheck_noise = "B"',
            'check_noise = "A"',
        ),
    ],
}
