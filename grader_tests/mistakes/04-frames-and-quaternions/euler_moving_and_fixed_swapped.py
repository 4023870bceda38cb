"""eulerseq read the other way round: lowercase as fixed axes, uppercase as moving axes."""

LOSES = {
    "euler_to_quat_matches_compiled_body_quat",
}

EDITS = {
    "euler_to_quat": [
        ("        if letter.islower():", "        if letter.isupper():"),
    ],
}
