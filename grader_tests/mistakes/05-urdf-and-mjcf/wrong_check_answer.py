"""A wrong letter for the check-yourself question on P servos' error at rest."""

LOSES = {
    "quiz_servo_fix_answer",
}

CELLS = {
    "quiz_servo_fix": 'quiz_servo_fix = "A"',
}
