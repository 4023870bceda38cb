"""Still pictures for lesson 03: MuJoCo's own drawing of each body's equivalent inertia box.

With the visual flag `mjVIS_INERTIA` on, MuJoCo draws every body that has mass as the uniform
box with the body's mass and principal moments (full side along principal axis k:
sqrt(6 / m * (I1 + I2 + I3 - 2 Ik))), centred on its centre of mass (`data.xipos`) and turned
onto its principal axes (`data.ximat`). The drawing is course.render's; this module holds the
lesson's picture size. A picture is a treat, never a requirement: it prints one line instead
of raising when no OpenGL back end can start, and renders nothing while nbgrader grades.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from course import render
from course.render import RenderingUnavailable, png_bytes

__all__ = ["HEIGHT", "WIDTH", "RenderingUnavailable", "inertia_box_image", "png_bytes"]

WIDTH, HEIGHT = 480, 300


def inertia_box_image(
    xml: str, lookat: Sequence[float], distance: float, labels: bool = False, **turn
) -> np.ndarray:
    """`xml` at rest with MuJoCo's inertia boxes, WIDTH x HEIGHT pixels (uint8, H x W x 3);
    `turn`: azimuth and elevation in degrees (course.render.free_camera)."""
    return render.inertia_box_image(xml, lookat, distance, (WIDTH, HEIGHT), labels, **turn)


def show_inertia_boxes(
    xml: str, lookat: Sequence[float], distance: float, width=WIDTH, height=HEIGHT, **view
) -> bool:
    """Show `xml` with MuJoCo's inertia boxes, width x height pixels; True when shown.
    `view`: azimuth, elevation (degrees) and labels, as course.render.inertia_box_image."""
    return render.show_inertia_boxes(xml, lookat, distance, size=(width, height), **view)
