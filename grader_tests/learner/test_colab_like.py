"""The lessons' first cell, and every released lesson in an environment with Colab's versions.

The first tests check the set-up cell itself (classroom/setup_cell.py): valid, formatted
Python that installs only what is missing, never ipywidgets, and nothing outside Colab or while
grading. Then `make test` has built .venv-colab once: Python 3.12, numpy 2, matplotlib 3.10,
ipywidgets 7.7.1 with widgetsnbextension 3.6 (what Colab has), plus a wheelhouse of what the
first cell installs. Each test session makes a fresh, empty virtual environment on top of it
(a .pth file adds .venv-colab's packages, as Colab's preinstalled ones), builds the course
wheel as `make build` does, and runs every released lesson with its solution answers in a
kernel there that looks like Colab's (google.colab imported) and has no network, the wheel
beside the notebook as a learner who uploaded both has it. The first cell must install mujoco,
mediapy (from the wheelhouse instead of PyPI) and the course from that wheel, print one line,
and leave ipywidgets at 7.7.1; every quiz widget must record a click and show its feedback
under ipywidgets 7. One lesson also runs with no wheel and the course address pointing at a
local git repository standing in for the published one: the cell installs from there.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import nbformat
import pytest
from jupyter_client import KernelManager
from jupyter_client.kernelspec import KernelSpecManager
from learner_checks import (
    FAKE_COLAB,
    OFFLINE_GUARD,
    RELEASED,
    ROOT,
    WIDGET_PROBE,
    assert_clips_small,
    assert_runs_cleanly,
    embedded_videos,
    execute,
    kernel_env,
    probe_report,
    startup_folder,
    widget_problems,
)
from nbgrader_harness import filled_release

from classroom import setup_cell, wheel

COLAB_VENV = Path(os.environ.get("COURSE_COLAB_VENV", ROOT / ".venv-colab"))
COLAB_PYTHON = COLAB_VENV / "bin" / "python"
WHEELHOUSE = COLAB_VENV / "wheelhouse"
MISSING = (
    f"the Colab-like environment {COLAB_VENV} is not built: `make test` builds it once "
    "(or `make .venv-colab/.installed`)"
)
COLAB_VERSIONS = """
import json, sys
from importlib.metadata import version
print(json.dumps({
    "python": list(sys.version_info[:2]),
    **{n: version(n) for n in ("numpy", "matplotlib", "ipywidgets", "widgetsnbextension")},
}))
"""
NOT_COLAB_PACKAGES = ("mujoco", "mediapy", "course", "imageio_ffmpeg", "mujoco_menagerie")


# --------------------------------------------------------------------------------------------
# The set-up cell as text


PUBLISHED = setup_cell.CourseAddress("https://github.com/an-org/a-course", "spring")


def _run_block(
    monkeypatch,
    installed: dict[str, str],
    *,
    colab=True,
    grading=False,
    address=PUBLISHED,
    folder: Path | None = None,
):
    """Run the course's part of the set-up cell, for `address`, in `folder` (the notebook's;
    default: an empty one) with pip replaced by a recorder.

    `installed` says which distributions importlib.metadata finds, at which version. Returns
    the pip argument lists and the constraints files' texts.
    """
    import importlib.metadata
    import types

    calls, constraints = [], []

    def fake_version(name):
        if name not in installed:
            raise importlib.metadata.PackageNotFoundError(name)
        return installed[name]

    def fake_run(command, **kwargs):
        calls.append(command)
        if "--constraint" in command:
            constraints.append(Path(command[command.index("--constraint") + 1]).read_text())
        return subprocess.CompletedProcess(command, 0, "", "")

    monkeypatch.setattr(importlib.metadata, "version", fake_version)
    monkeypatch.setattr(subprocess, "run", fake_run)
    if colab:
        monkeypatch.setitem(sys.modules, "google.colab", types.ModuleType("google.colab"))
    else:
        monkeypatch.delitem(sys.modules, "google.colab", raising=False)
    if grading:
        monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    else:
        monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)
    if folder is None:
        folder = Path(tempfile.mkdtemp(prefix="notebook-"))
    monkeypatch.chdir(folder)
    block = setup_cell.setup_block(address=address)
    exec(compile(block, "<set-up cell>", "exec"), {"__name__": "__main__"})
    return calls, constraints


COLAB_HAS = {"ipywidgets": "7.7.1", "widgetsnbextension": "3.6.10", "numpy": "2.0.2"}


def test_setup_cell_installs_what_colab_lacks_and_keeps_its_widgets(monkeypatch):
    """In Colab: missing packages in one pip call with Colab's versions pinned, then the course
    with --no-deps; ipywidgets is never a requirement."""
    calls, constraints = _run_block(monkeypatch, COLAB_HAS)
    assert len(calls) == 2, calls
    first, second = calls
    assert first[:5] == [sys.executable, "-m", "pip", "install", "--quiet"]
    wanted = list(setup_cell.colab_requirements().values())
    assert first[-len(wanted) :] == wanted
    assert constraints == ["ipywidgets==7.7.1\nwidgetsnbextension==3.6.10\nnumpy==2.0.2\n"]
    assert second[-2:] == ["--no-deps", setup_cell.course_pip_spec(address=PUBLISHED)]
    assert second[-1] == "mujoco-physics-course @ git+https://github.com/an-org/a-course@spring"
    for call in calls:
        assert not any(arg.startswith(("ipywidgets", "widgetsnbextension")) for arg in call)


def test_setup_cell_installs_only_what_is_missing(monkeypatch):
    """With mujoco and the course already there, only the rest is installed."""
    installed = dict(COLAB_HAS, mujoco="4.0.0")
    installed[setup_cell.course_distribution()] = "0.1.0"
    calls, _ = _run_block(monkeypatch, installed)
    assert len(calls) == 1
    assert "mujoco>=4.0,<5" not in calls[0] and "mediapy>=1.2,<2" in calls[0]
    everything = dict(installed, **dict.fromkeys(setup_cell.colab_requirements(), "1"))
    assert _run_block(monkeypatch, everything)[0] == []


def test_setup_cell_prefers_the_wheel_beside_the_notebook(monkeypatch, tmp_path):
    """A course wheel beside the notebook (or one folder up, as in release/) is installed
    instead of the published address."""
    wheel = setup_cell.wheel_name()
    (tmp_path / "lesson").mkdir()
    (tmp_path / wheel).write_bytes(b"")
    calls, _ = _run_block(monkeypatch, COLAB_HAS, folder=tmp_path / "lesson")
    assert calls[-1][-2:] == ["--no-deps", f"../{wheel}"]
    (tmp_path / "lesson" / wheel).write_bytes(b"")
    calls, _ = _run_block(monkeypatch, COLAB_HAS, folder=tmp_path / "lesson")
    assert calls[-1][-2:] == ["--no-deps", wheel]
    calls, _ = _run_block(monkeypatch, COLAB_HAS, folder=tmp_path / "lesson", address=UNPUBLISHED)
    assert calls[-1][-2:] == ["--no-deps", wheel]


UNPUBLISHED = setup_cell.CourseAddress("")


def test_setup_cell_without_wheel_or_address_says_what_to_do(monkeypatch):
    """Unpublished and no wheel uploaded: before installing anything, the cell stops with one
    line naming the wheel to upload."""
    with pytest.raises(RuntimeError) as raised:
        _run_block(monkeypatch, COLAB_HAS, address=UNPUBLISHED)
    message = str(raised.value)
    assert "\n" not in message and message.startswith("The course package is missing: upload")
    assert setup_cell.wheel_glob() in message
    calls, _ = _run_block(monkeypatch, {}, address=UNPUBLISHED, colab=False)
    assert calls == []  # outside Colab it has nothing to say


@pytest.mark.parametrize("colab, grading", [(False, False), (True, True), (False, True)])
def test_setup_cell_installs_nothing_outside_colab_or_while_grading(monkeypatch, colab, grading):
    """On a learner's machine and under nbgrader the cell never calls pip."""
    assert _run_block(monkeypatch, {}, colab=colab, grading=grading)[0] == []


def test_setup_block_is_plain_formatted_python_ending_with_import_course():
    """The course's part compiles as plain Python (no magics), is ruff-formatted and lint-clean,
    and its last statement is `import course`, so mujoco comes after the back end is chosen."""
    block = setup_cell.setup_block()
    compile(block, "<set-up cell>", "exec")
    statements = [line for line in block.splitlines() if line and not line.startswith("#")]
    assert setup_cell.COURSE_IMPORT.match(statements[-1])
    assert "import mujoco" not in block and "%pip" not in block and "!pip" not in block
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent))
    if ruff is None:
        pytest.skip("ruff is installed by `make test`")
    for command in (["format", "--diff"], ["check", "--ignore", "F401,E402"]):
        result = subprocess.run(
            [ruff, *command, "--stdin-filename", "setup.py", "-"],
            input=block,
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        assert result.returncode == 0, result.stdout + result.stderr


def test_stamping_replaces_the_course_part_and_keeps_the_lessons():
    """Stamping an old set-up cell keeps the lesson's imports, adds the badge once, and a
    second stamp changes nothing; a stale cell is reported."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell("# 09 · A lesson\n\nText."),
        nbformat.v4.new_code_cell(
            "# Set-up. Old words.\nimport course\n\nimport mujoco\n\nprint(mujoco.__version__)"
        ),
    ]
    assert len(setup_cell.stamp_problems(nb, "09-a-lesson", "nb")) == 2
    once = setup_cell.stamp_notebook(nb, "09-a-lesson", address=PUBLISHED)
    twice = setup_cell.stamp_notebook(once, "09-a-lesson", address=PUBLISHED)
    assert [c.source for c in once.cells] == [c.source for c in twice.cells]
    configured = setup_cell.stamp_notebook(once, "09-a-lesson")
    assert setup_cell.stamp_problems(configured, "09-a-lesson", "nb") == []
    setup = once.cells[1].source
    assert once.cells[1].metadata["cellView"] == "form"  # Colab shows the @title line
    assert setup.startswith(setup_cell.SETUP_TITLE)
    assert setup.endswith("\n\nimport mujoco\n\nprint(mujoco.__version__)")
    assert setup.count("import course") == 1 and "Old words" not in setup
    assert setup.index("import course") < setup.index("import mujoco")
    badge = setup_cell.colab_badge("09-a-lesson", address=PUBLISHED)
    assert once.cells[0].source == f"{badge}\n\n# 09 · A lesson\n\nText."
    assert badge == (
        "[Open in Colab](https://colab.research.google.com/github/an-org/a-course/blob/spring"
        "/release/09-a-lesson/09-a-lesson.ipynb)"
    )
    assert '"https://github.com/an-org/a-course"' in setup
    unpublished = setup_cell.stamp_notebook(once, "09-a-lesson", address=UNPUBLISHED)
    assert unpublished.cells[0].source.startswith("*To run this lesson in Google Colab, upload")
    assert unpublished.cells[0].source.count("# 09 · A lesson") == 1


def test_badge_is_text_and_no_lesson_points_at_an_unset_address():
    """A notebook's badge is a link or a sentence, never an image (offline JupyterLab shows an
    unreachable image as a broken icon); a GitHub address gets a Colab link, another address
    (Colab opens GitHub only) and no address get the upload sentence naming the wheel; with no
    address set, no committed notebook or README names a repository to open or install."""
    other = setup_cell.CourseAddress("https://git.example.org/course.git")
    assert setup_cell.colab_badge("01-x", address=PUBLISHED).startswith("[Open in Colab](")
    for address in (other, UNPUBLISHED):
        badge = setup_cell.colab_badge("01-x", address=address)
        assert setup_cell.wheel_name() in badge and "](" not in badge
    assert 'repository = "https://git.example.org/course.git"' in setup_cell.setup_block(
        address=other
    )
    if setup_cell.course_address().repository:
        pytest.skip("this checkout sets a course address; the rest is about an unset one")
    texts = [ROOT / "README.md", *ROOT.glob("*/*/*.ipynb")]
    for path in texts:
        text = path.read_text(encoding="utf-8")
        assert "colab.research.google.com/github" not in text, path
        assert "github.com/mujoco-physics-course" not in text, path
        assert "![Open In Colab]" not in text or path.name == "README.md", path


def test_course_address_is_read_from_pyproject(tmp_path):
    """[tool.mujoco-course] sets the address and branch; absent or empty means unpublished."""
    shutil.copyfile(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    text = (tmp_path / "pyproject.toml").read_text(encoding="utf-8")
    start = text.index("[tool.mujoco-course]")
    end = text.index("\n[", start + 1)
    published = '[tool.mujoco-course]\nrepository = "https://github.com/o/n/"\nbranch = "v2"\n'
    (tmp_path / "pyproject.toml").write_text(text[:start] + published + text[end:])
    assert setup_cell.course_address(tmp_path) == setup_cell.CourseAddress(
        "https://github.com/o/n", "v2"
    )
    assert setup_cell.CourseAddress("https://github.com/o/n").github_path == "o/n"
    (tmp_path / "pyproject.toml").write_text(text[:start] + text[end:])
    assert setup_cell.course_address(tmp_path) == UNPUBLISHED
    assert setup_cell.course_pip_spec(tmp_path) is None


@pytest.mark.parametrize("lesson", RELEASED)
def test_readme_has_the_lessons_colab_badge(lesson):
    """The README opens each released lesson in Colab with the badge the notebook carries."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"| {setup_cell.readme_badge(lesson)} |" in readme, (
        f"README.md lacks the Open in Colab badge of {lesson}; "
        "`make build` writes the README's lesson table with them"
    )


# --------------------------------------------------------------------------------------------
# The lessons in a Colab-like environment


def _site_packages(python: Path) -> list[str]:
    code = (
        "import json, sysconfig; p = sysconfig.get_paths(); "
        "print(json.dumps([p['purelib'], p['platlib']]))"
    )
    out = subprocess.run([str(python), "-c", code], capture_output=True, text=True, check=True)
    return list(dict.fromkeys(json.loads(out.stdout)))


def _published_repository(tmp: Path) -> setup_cell.CourseAddress:
    """A local git repository standing in for the published course: the course package
    (pyproject.toml, README.md, course/) committed on branch main; its file:// address."""
    repo = tmp / "published"
    repo.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copyfile(ROOT / name, repo / name)
    shutil.copytree(ROOT / "course", repo / "course", ignore=shutil.ignore_patterns("__pycache__"))
    identity = ["-c", "user.name=course", "-c", "user.email=course@example.org"]
    for command in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "c"]):
        subprocess.run(["git", *identity, *command], cwd=repo, check=True, capture_output=True)
    return setup_cell.CourseAddress(repo.as_uri(), "main")


def _fresh_colab(tmp: Path) -> dict:
    """A fresh Colab-like environment in tmp: its python, its own site-packages, a kernel spec
    manager that starts it, and the kernel's environment (offline, pip on the wheelhouse)."""
    if not (COLAB_VENV / ".installed").is_file() or not WHEELHOUSE.is_dir():
        pytest.fail(MISSING)
    venv = tmp / "venv"
    subprocess.run([str(COLAB_PYTHON), "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    own = _site_packages(python)
    Path(own[0], "colab-preinstalled.pth").write_text(
        "\n".join(_site_packages(COLAB_PYTHON)) + "\n"
    )
    spec = tmp / "kernels" / "colab-like"
    spec.mkdir(parents=True)
    argv = [str(python), "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    (spec / "kernel.json").write_text(
        json.dumps({"argv": argv, "display_name": "Colab-like", "language": "python"})
    )
    ipython = startup_folder(
        tmp / "ipython", {"00-colab.py": FAKE_COLAB, "01-offline.py": OFFLINE_GUARD}
    )
    env = kernel_env(
        IPYTHONDIR=str(ipython),
        COURSE_OFFLINE_LOG=str(tmp / "network-attempts.jsonl"),
        MENAGERIE_CACHE_DIR=str(tmp / "menagerie-cache"),
        # pip, run by the first cell: the wheelhouse `make test` filled instead of PyPI.
        PIP_NO_INDEX="1",
        PIP_FIND_LINKS=str(WHEELHOUSE),
        PIP_DISABLE_PIP_VERSION_CHECK="1",
    )
    return {
        "python": python,
        "site": Path(own[0]),
        "kernels": KernelSpecManager(kernel_dirs=[str(spec.parent)]),
        "env": env,
        "tmp": tmp,
    }


@pytest.fixture(scope="module")
def colab(tmp_path_factory):
    """A fresh Colab-like environment and the course wheel, built as `make build` builds the
    one in release/ (classroom/wheel.py) from this checkout."""
    tmp = tmp_path_factory.mktemp("colab")
    found = _fresh_colab(tmp)
    found["wheel"] = wheel.build_wheel(tmp / "wheels")
    return found


def _run_in_colab(colab: dict, lesson: str, nb: nbformat.NotebookNode, workdir: Path):
    """Run nb, the WIDGET_PROBE appended, in colab's kernel with workdir as its folder."""
    nb.cells.append(nbformat.v4.new_code_cell(WIDGET_PROBE))
    km = KernelManager(kernel_name="colab-like", kernel_spec_manager=colab["kernels"])
    execute(nb, workdir, colab["env"], km=km, timeout=240)
    return lesson, nb


@pytest.mark.timeout(120)
def test_environment_has_colabs_versions_and_lacks_the_course(colab):
    """Python 3.12+, numpy 2, matplotlib 3.10, ipywidgets 7.7.1, widgetsnbextension 3.6; and
    neither mujoco, mediapy nor the course until the first cell installs them."""
    out = subprocess.run(
        [str(colab["python"]), "-c", COLAB_VERSIONS],
        capture_output=True,
        text=True,
        check=True,
        env=colab["env"],
    )
    versions = json.loads(out.stdout)
    assert versions["python"] >= [3, 12], versions
    assert versions["numpy"].startswith("2."), versions
    assert versions["matplotlib"].startswith("3.10."), versions
    assert versions["ipywidgets"] == "7.7.1", versions
    assert versions["widgetsnbextension"].startswith("3.6."), versions
    installed = [p.name for p in colab["site"].iterdir()]
    assert not set(installed) & set(NOT_COLAB_PACKAGES), installed


@pytest.fixture(scope="module", params=RELEASED)
def colab_run(request, colab):
    """(lesson, notebook run in the Colab-like kernel with WIDGET_PROBE appended)."""
    lesson = request.param
    workdir = colab["tmp"] / f"work-{lesson}"
    workdir.mkdir()
    # The learner uploaded the notebook and the course wheel to Colab: both in its folder.
    shutil.copyfile(colab["wheel"], workdir / colab["wheel"].name)
    return _run_in_colab(colab, lesson, filled_release(lesson), workdir)


@pytest.mark.timeout(600)
def test_lesson_runs_in_colab_like_environment(colab_run, colab):
    """No error or warning; the first cell prints one short line, and installed the course
    from the wheel beside the notebook into the fresh environment without touching
    ipywidgets."""
    lesson, nb = colab_run
    assert_runs_cleanly(lesson, nb, "in the Colab-like environment")
    report = probe_report(nb)
    assert report["ipywidgets"] == "7.7.1", report
    assert Path(report["course"]).is_relative_to(colab["site"]), report["course"]
    installed = {p.name for p in colab["site"].iterdir()}
    assert {"mujoco", "mediapy", "course"} <= installed, installed
    assert not {name for name in installed if name.startswith(("ipywidgets", "widgetsnb"))}


@pytest.mark.timeout(600)
def test_widgets_record_clicks_under_ipywidgets_7(colab_run):
    """Each predict-first widget records a click and shows its feedback; the other selection
    widgets take every option without an error."""
    lesson, nb = colab_run
    problems = widget_problems(nb)
    assert not problems, f"{lesson}:\n" + "\n".join(problems)


@pytest.mark.timeout(600)
def test_videos_stay_small_in_colab_like_environment(colab_run):
    """Every embedded clip is smaller than 1 MB."""
    lesson, nb = colab_run
    assert_clips_small(lesson, embedded_videos(nb))


ADDRESS_LESSON = "02-time-integration"


@pytest.mark.timeout(600)
def test_lesson_installs_the_course_from_the_configured_address(tmp_path):
    """With no wheel beside the notebook, the set-up cell installs the course with `pip install
    git+ADDRESS` from the address the build stamped in (here a local git repository standing
    in for the published one), offline, and the lesson runs to the end."""
    colab = _fresh_colab(tmp_path)
    address = _published_repository(tmp_path)
    nb = setup_cell.stamp_notebook(filled_release(ADDRESS_LESSON), ADDRESS_LESSON, address=address)
    assert address.repository in nb.cells[setup_cell.setup_cell_index(nb)].source
    workdir = tmp_path / "work"
    workdir.mkdir()
    lesson, nb = _run_in_colab(colab, ADDRESS_LESSON, nb, workdir)
    assert_runs_cleanly(lesson, nb, "installing from the configured address")
    report = probe_report(nb)
    assert report["ipywidgets"] == "7.7.1", report
    assert Path(report["course"]).is_relative_to(colab["site"]), report["course"]
    (record,) = colab["site"].glob("mujoco_physics_course-*.dist-info/direct_url.json")
    assert json.loads(record.read_text())["url"] == address.repository
