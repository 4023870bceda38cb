"""Helper package for the MuJoCo physics course.

Notebooks import it first: importing it picks a headless OpenGL back end (MUJOCO_GL) before
anything imports mujoco, because mujoco reads that variable once, at import.

The package holds scenes, experiment runners, checks against MuJoCo, quiz widgets and
rendering. It never holds a solution: learners can read every line of it.
"""

from course.runtime import configure_rendering_backend

__version__ = "0.1.0"

configure_rendering_backend()
