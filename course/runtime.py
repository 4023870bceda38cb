"""Where a notebook runs: JupyterLab, Colab, or nbgrader's grader.

Nothing here imports mujoco: `configure_rendering_backend` must run before it is imported.
"""

import ctypes.util
import os
import sys


def in_grader() -> bool:
    """True while nbgrader executes the notebook (it sets NBGRADER_EXECUTION)."""
    return bool(os.environ.get("NBGRADER_EXECUTION"))


def plot_skipped() -> bool:
    """True while grading, after printing one line that says the plot was not built.

    A lesson's plot helper returns None when this is true: nbgrader's kernel draws on a
    headless back end and the graded notebook keeps no figure, so no one would see it."""
    if not in_grader():
        return False
    print("Plot skipped while grading. Nothing graded depends on it.")
    return True


def in_colab() -> bool:
    """True inside a Google Colab runtime."""
    return "google.colab" in sys.modules


def configure_rendering_backend() -> str | None:
    """Choose MuJoCo's OpenGL back end for this process; return the value of MUJOCO_GL.

    On Linux without a display, EGL renders on the CPU through Mesa. A value already set by the
    user wins, and macOS and Windows keep MuJoCo's default (None).
    """
    headless_linux = sys.platform.startswith("linux") and not os.environ.get("DISPLAY")
    if os.environ.get("MUJOCO_GL") == "osmesa" and ctypes.util.find_library("OSMesa") is None:
        # MuJoCo would fail at `import mujoco`, before any cell could say why.
        print("MUJOCO_GL=osmesa needs the OSMesa library, which is not installed: using egl.")
        os.environ["MUJOCO_GL"] = "egl"
        os.environ["PYOPENGL_PLATFORM"] = "egl"
    if headless_linux and "MUJOCO_GL" not in os.environ and "mujoco" not in sys.modules:
        os.environ["MUJOCO_GL"] = "egl"
        # PyOpenGL must agree with MuJoCo, or its first GL call looks for GLX.
        os.environ.setdefault("PYOPENGL_PLATFORM", "egl")
    return os.environ.get("MUJOCO_GL")
