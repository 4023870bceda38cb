"""The lesson's release notebook, for the preprocessors that repair a submission against it.

Not a preprocessor: the one place that finds release/<lesson>/<notebook>.ipynb from nbgrader's
configuration (CourseDirectory) and the resources nbgrader hands each preprocessor.
"""

from __future__ import annotations

from pathlib import Path

from classroom.nbgrader_ext import notebooks

_CACHE: dict[tuple[str, float], object] = {}


def release_of(preprocessor, resources) -> object | None:
    """The release notebook the notebook being converted was handed out as, or None when there
    is none (a lesson nbgrader never generated)."""
    from nbgrader.coursedir import CourseDirectory

    info = resources.get("nbgrader", {})
    assignment, notebook = info.get("assignment"), info.get("notebook")
    if not assignment or not notebook:
        return None
    coursedir = CourseDirectory(config=preprocessor.config)
    folder = Path(coursedir.format_path(coursedir.release_directory, ".", assignment))
    path = folder / f"{notebook}.ipynb"
    if not path.is_file():
        return None
    key = (str(path), path.stat().st_mtime)
    if key not in _CACHE:
        _CACHE[key] = notebooks.read(path)
    return _CACHE[key]
