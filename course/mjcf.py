"""Writing MJCF: attribute text, shape sizes and the keywords MuJoCo accepts.

Shared by every lesson's scene builders. Sizes follow MJCF: half-lengths for a box, (radius,)
for a sphere, (radius, half-length of the cylindrical part along z) for a cylinder or a
capsule. Units: metres, kilograms, seconds.
"""

from collections.abc import Mapping, Sequence
from numbers import Real
from pathlib import Path

# How many size numbers each shape takes in MJCF.
SHAPE_SIZES = {"box": 3, "sphere": 1, "cylinder": 2, "capsule": 2}
SHAPE_KINDS = tuple(SHAPE_SIZES)

# The values MJCF accepts for compiler/inertiafromgeom and option/integrator.
INERTIA_FROM_GEOM = ("auto", "true", "false")
INTEGRATORS = ("Euler", "RK4", "implicit", "implicitfast", "discrete")


def numbers(values: Sequence[float]) -> str:
    """MJCF attribute text for numbers, at full double precision."""
    return " ".join(repr(float(v)) for v in values)


def one_of(value: str, allowed: Sequence[str], what: str) -> str:
    """`value` when it is one of `allowed`, else ValueError naming `what` and the choices."""
    if value not in allowed:
        raise ValueError(f"{what} is one of {', '.join(map(repr, allowed))}, not {value!r}")
    return value


def check_shape(kind: str, size: Sequence[float]) -> None:
    """Raise ValueError with a plain message when `kind` or `size` is not a valid MJCF shape."""
    one_of(kind, SHAPE_KINDS, "a shape's kind")
    needed = SHAPE_SIZES[kind]
    if len(size) != needed:
        raise ValueError(f"a {kind} needs {needed} size numbers (MJCF half-lengths), got {size}")
    if any(not float(s) > 0 for s in size):
        raise ValueError(f"sizes must be positive, got {size}")


def template(module_file: str, name: str) -> str:
    """The MJCF template `models/<name>.xml` beside the module `module_file` (its __file__).

    Templates are MJCF with str.format fields ({mass!r}, {size}) that `fill` fills in.
    """
    return (Path(module_file).parent / "models" / f"{name}.xml").read_text(encoding="utf-8")


def fill(mjcf_template: str, values: Mapping) -> str:
    """The template with its fields filled from `values`: numbers as Python floats (so `!r`
    writes them at full precision), anything else as given. Extra values are ignored, so a
    builder may pass its own arguments (locals()) once it has checked them."""
    return mjcf_template.format(
        **{
            k: float(v) if isinstance(v, Real) and not isinstance(v, bool) else v
            for k, v in values.items()
        }
    )
