"""The lessons, one package each: its scenes, experiment runners, explorers and visible checks.

Each lesson package declares which lesson it is in its `__init__.py`, `LESSON = "NN-name"`,
the name of its folder in the course's source/; `registry()` finds them all, the way
dm_control's suite finds its domains. A lesson package imports the shared modules of `course`
and never another lesson.
"""

import importlib
import pkgutil
from types import ModuleType


def registry() -> dict[str, ModuleType]:
    """{lesson name: its package}, for every package below course.lessons that declares LESSON,
    sorted by lesson name. Two packages that declare the same lesson are an error."""
    found: dict[str, ModuleType] = {}
    for info in pkgutil.iter_modules(__path__):
        if not info.ispkg:
            continue
        package = importlib.import_module(f"{__name__}.{info.name}")
        lesson = getattr(package, "LESSON", None)
        if not isinstance(lesson, str):
            continue
        if lesson in found:
            raise RuntimeError(f"{found[lesson].__name__} and {package.__name__} both are {lesson}")
        found[lesson] = package
    return dict(sorted(found.items()))


def package(lesson: str) -> ModuleType:
    """The package of one lesson, by its name ("01-world-as-text")."""
    lessons = registry()
    if lesson not in lessons:
        raise KeyError(f"no lesson package declares LESSON = {lesson!r} (known: {list(lessons)})")
    return lessons[lesson]
