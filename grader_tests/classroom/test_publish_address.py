"""Setting the course's address re-stamps every lesson: the build's side of the Colab route.

An instructor sets [tool.mujoco-course] repository in pyproject.toml and runs `make build`
(`python -m classroom.build --normalise-source`). On a copy of this course with an address
set, every source notebook's set-up cell and badge, the README's lesson table and the built
release notebook must then carry that address, and the checks must call the old ones stale.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from classroom import build, setup_cell
from classroom.nbgrader_ext import notebooks

ROOT = Path(__file__).resolve().parents[2]
ADDRESS = setup_cell.CourseAddress("https://github.com/an-org/a-course", "main")


@pytest.fixture
def published(tmp_path) -> Path:
    """A copy of the course (pyproject.toml, nbgrader_config.py, README.md, source/, course/) whose
    pyproject.toml sets ADDRESS."""
    for name in ("pyproject.toml", "nbgrader_config.py", "README.md"):
        shutil.copyfile(ROOT / name, tmp_path / name)
    for folder in ("source", "course"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    pyproject = tmp_path / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    old = 'repository = ""'
    assert text.count(old) == 1, "pyproject.toml's [tool.mujoco-course] changed shape"
    pyproject.write_text(text.replace(old, f'repository = "{ADDRESS.repository}"'))
    assert setup_cell.course_address(tmp_path) == ADDRESS
    return tmp_path


@pytest.mark.timeout(300)
def test_setting_the_address_restamps_every_lesson_and_the_readme(published):
    lessons = notebooks.discover_lessons(published)
    assert len(lessons) >= 6
    paths = [notebooks.lesson_notebook(lesson, root=published) for lesson in lessons]
    # Committed for no address: stale once one is set, and the checks say so.
    assert all(build.source_problems(path) for path in paths)
    assert build.readme_problems(published) != []

    assert build.main(["--normalise-source", "--root", str(published), lessons[0]]) == 0
    for path in paths[1:]:
        build.normalise_source(path)
    for lesson, path in zip(lessons, paths, strict=True):
        assert build.source_problems(path) == [], lesson
        nb = notebooks.read(path)
        url = setup_cell.colab_url(lesson, ADDRESS)
        assert nb.cells[0].source.startswith(f"[Open in Colab]({url})"), lesson
        setup = nb.cells[setup_cell.setup_cell_index(nb)].source
        assert f'repository = "{ADDRESS.repository}"' in setup, lesson
    assert build.readme_problems(published) == []
    readme = (published / "README.md").read_text(encoding="utf-8")
    for lesson in lessons:
        assert f"({setup_cell.colab_url(lesson, ADDRESS)}) |" in readme, lesson

    # What learners get is built from source/: the release notebook and the wheel follow.
    release = notebooks.read_lesson(lessons[0], "release", published)
    assert release.cells[0].source.startswith("[Open in Colab](https://colab.research.google")
    assert (published / "release" / setup_cell.wheel_name(published)).is_file()
