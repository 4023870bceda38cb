"""Numbers as the lesson prints them: short, aligned, and without "-0"."""

import numpy as np


def vec(values, digits: int = 6) -> str:
    """A vector as "(a, b, c)" with `digits` significant digits; zeros written as 0."""
    flat = np.asarray(values, dtype=float).reshape(-1)
    return "(" + ", ".join(num(v, digits) for v in flat) + ")"


def num(value: float, digits: int = 6) -> str:
    """One number with `digits` significant digits; anything below 1e-12 in size is 0."""
    value = float(value)
    return "0" if abs(value) < 1e-12 else f"{value:.{digits}g}"


def matrix(values, digits: int = 6) -> str:
    """A 3x3 matrix, one row per line, each row as `vec` writes it."""
    rows = np.asarray(values, dtype=float).reshape(3, 3)
    return "\n".join(vec(row, digits) for row in rows)
