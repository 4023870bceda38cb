"""A body falling onto a table top: the scene and the landing arithmetic lessons share.

A fall is described by heights: the height (m) of the body's lowest point above the table top
after 0, 1, 2, ... steps. It "lands" at the first step whose height is at or below 0. The
table itself is virtual: until the body reaches it nothing touches it, so the heights up to
the landing step are those of a free fall, and the scene needs no table geom.
"""

from collections.abc import Sequence

import numpy as np

from course import mjcf
from course.mjcf import check_shape, numbers

# One free body made of one shape, falling straight down from rest (body named "body").
SHAPE_DROP = mjcf.template(__file__, "shape_drop")


def shape_drop(
    kind: str,
    size: Sequence[float],
    mass: float,
    air_density: float = 0.0,
    timestep: float = 0.002,
    gravity: float = 9.81,
) -> str:
    """One upright shape of `mass` kg on a free joint, released from rest (body named "body").

    air_density in kg/m^3 (0 is vacuum, 1.2 is air), timestep in s, gravity in m/s^2.
    """
    check_shape(kind, size)
    return SHAPE_DROP.format(
        kind=kind,
        size=numbers(size),
        mass=float(mass),
        air_density=float(air_density),
        timestep=float(timestep),
        gravity=float(gravity),
    )


def landing_step(heights) -> int:
    """Index of the first height at or below zero; ValueError if the body never gets there."""
    heights = np.asarray(heights, dtype=float)
    if heights.ndim != 1 or heights.size < 2:
        raise ValueError("heights must be a 1-D sequence with the start and at least one step")
    below = np.flatnonzero(heights <= 0.0)
    if below.size == 0:
        raise ValueError(f"the body never reaches the table top ({heights.size - 1} steps)")
    return int(below[0])


def landing_time(heights, timestep: float) -> float:
    """Time (s) at which the body reaches the table top, interpolated linearly within the
    landing step, so that two falls can differ by less than one timestep."""
    heights = np.asarray(heights, dtype=float)
    k = landing_step(heights)
    if k == 0:
        return 0.0
    above, below = heights[k - 1], heights[k]
    return float((k - 1 + above / (above - below)) * timestep)


def fall_steps(drop_height: float, gravity: float, timestep: float, margin: float = 2.0) -> int:
    """Steps that surely cover a fall of `drop_height` m: `margin` times the vacuum fall time."""
    return int(margin * np.sqrt(2 * drop_height / gravity) / timestep) + 10
