"""Comparisons used by visible checks and hidden tests, with messages a learner can act on.

A learner's answer cell runs in the same kernel as the tests, so it could rebind
`numpy.allclose`, `math.isclose` or a builtin to make every comparison pass. Everything
this module relies on is bound here, when the lesson's first cell imports it, and the
comparisons themselves are plain Python arithmetic on floats.
"""

import builtins
import math

import numpy

_abs, _len, _float, _isinstance = builtins.abs, builtins.len, builtins.float, builtins.isinstance
_range, _zip, _max, _sum = builtins.range, builtins.zip, builtins.max, builtins.sum
_isfinite = math.isfinite
_array = numpy.array
_ndarray = numpy.ndarray


class NotAnswered(AssertionError):
    """The function under test returned None: its body has not been written yet."""


def as_floats(value, what: str) -> list:
    """`value` as a nested list of Python floats; clear AssertionError if it is not numbers."""
    if value is None:
        raise NotAnswered(f"{what} is None: write the body of the function (it returns nothing).")
    try:
        array = _array(value, dtype=_float)
    except (TypeError, ValueError):
        raise AssertionError(f"{what} should be numbers, got {value!r}") from None
    if not _isinstance(array, _ndarray):
        raise AssertionError(f"{what} could not be read as numbers")
    return array.tolist()


def sequence_of(result, count: int, what: str):
    """Assert `result` is a tuple or list of `count` items (a function's several results)."""
    if not _isinstance(result, (tuple, list)) or _len(result) != count:
        raise AssertionError(f"{what} should return {count} values as a tuple, got {result!r}")
    return result


def _shape(values) -> tuple:
    shape = []
    while _isinstance(values, list):
        shape.append(_len(values))
        values = values[0] if values else None
    return tuple(shape)


def _flat(values) -> list:
    if not _isinstance(values, list):
        return [values]
    out = []
    for item in values:
        out.extend(_flat(item))
    return out


def close(got, want, what: str, rtol: float = 1e-6, atol: float = 1e-12, hint: str = "") -> None:
    """Assert that `got` equals `want` elementwise within atol + rtol * |want|.

    Shapes must match exactly (a 3-vector is not a 3x3 matrix). The message names `what`,
    shows both values and adds `hint`, the likely mistake.
    """
    got_values, want_values = as_floats(got, what), as_floats(want, f"expected {what}")
    if _shape(got_values) != _shape(want_values):
        raise AssertionError(
            f"{what} has shape {_shape(got_values)}, expected {_shape(want_values)}. {hint}"
        )
    for g, w in _zip(_flat(got_values), _flat(want_values), strict=True):
        if not _isfinite(g):
            raise AssertionError(f"{what} contains {g}, expected finite numbers. {hint}")
        if _abs(g - w) > atol + rtol * _abs(w):
            raise AssertionError(
                f"{what} = {_fmt(got_values)}, but MuJoCo gives {_fmt(want_values)}. {hint}".strip()
            )


def _fmt(values) -> str:
    if _isinstance(values, list):
        return "[" + ", ".join(_fmt(v) for v in values) + "]"
    return f"{values:.6g}"


def inertia_matches(got_3x3, principal, axes, what: str, rtol: float = 1e-6, hint: str = ""):
    """Assert a 3x3 inertia tensor (kg m^2, body frame) is the one MuJoCo stores as principal
    moments `principal` along the columns of `axes` (body_inertia and body_iquat).

    It checks symmetry and that each principal axis e_k satisfies I e_k = I_k e_k, which holds
    for any correct tensor whatever order or sign the axes come in.
    """
    tensor = as_floats(got_3x3, what)
    if _shape(tensor) != (3, 3):
        raise AssertionError(f"{what} should be a 3x3 matrix, got shape {_shape(tensor)}. {hint}")
    scale = _max(_abs(_float(p)) for p in as_floats(principal, "principal moments"))
    atol = 1e-9 * scale + 1e-15
    for i in _range(3):
        for j in _range(3):
            if _abs(tensor[i][j] - tensor[j][i]) > atol + rtol * scale:
                raise AssertionError(f"{what} is not symmetric: [{i}][{j}] != [{j}][{i}]. {hint}")
    axes_values = as_floats(axes, "principal axes")
    moments = as_floats(principal, "principal moments")
    for k in _range(3):
        e = [axes_values[r][k] for r in _range(3)]
        image = [_float(_sum(tensor[r][c] * e[c] for c in _range(3))) for r in _range(3)]
        for r in _range(3):
            if _abs(image[r] - moments[k] * e[r]) > atol + rtol * scale:
                raise AssertionError(
                    f"{what} = {_fmt(tensor)} does not have MuJoCo's principal moment "
                    f"{moments[k]:.6g} kg m^2 along axis {_fmt(e)} "
                    f"(MuJoCo's principal moments: {_fmt(moments)}). {hint}".strip()
                )


def choice(name: str, value, n_choices: int) -> str:
    """Assert a multiple-choice answer is one of the letters A, B, ...; return it."""
    letters = "ABCDEFGH"[:n_choices]
    if value is None:
        raise NotAnswered(f"{name} is None: set it to one of {', '.join(letters)} (a string).")
    if not _isinstance(value, str) or value.strip().upper() not in letters:
        raise AssertionError(f"{name} should be one of {', '.join(letters)}, got {value!r}")
    return value.strip().upper()
