"""A toy course and the downloads an instructor really gets, built at test time.

The toy lesson (`TOY`) is the one the grading command's tests use (grader_tests/classroom/
test_grade_command.py), with what an instructor's term needs on top: a predict-first
question (`predict_double`, right answer `RIGHT`), a visible check whose hint is one long
sentence (the likely mistake, which a feedback page must wrap) and hidden tests with a line
that must never reach a learner (`HIDDEN_LINES`).

Downloads are written the way the LMS writes them:

- Canvas (Assignment > Download Submissions): one flat zip of files named
  `<sortable name>[_LATE]_<user id>_<attachment id>_<file name>` (`canvas_name`), a
  resubmitted file's name with `-1` before its extension;
- Moodle (View all submissions > Download all submissions): a folder per submission,
  `<Full Name>_<participant id>_assignsubmission_file_/<file name>` (`moodle_name`), or, with
  "Download submissions in folders" unticked, the same prefix glued to the file name.

`nbgrader_cli` and `grade_cli` run nbgrader's commands and the course's grading command in a
subprocess, as an instructor (or a learner) types them in a shell.
"""

from __future__ import annotations

import copy
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell

REPO_ROOT = Path(__file__).resolve().parents[2]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

import toy_lesson  # noqa: E402

from classroom import build  # noqa: E402
from classroom.nbgrader_ext import notebooks  # noqa: E402

TOY = toy_lesson.TOY

COURSE_ID = "mujoco-physics"
RIGHT = "B"  # the right answer to the toy's predict-first question
HINT = (
    "Did you return x added to itself, whatever x is, rather than a power of x or x plus a "
    "constant, which agree with it at one point only and nowhere else on the number line?"
)
SECRET = "# hidden case: three and a half, which no visible check ever shows"
HIDDEN_LINES = (SECRET, '_expect.close(double(3.5), 7.0, "double(3.5)", hint=HINT)')
GRADE_TIMEOUT = 600


# --------------------------------------------------------------------------------------------
# The toy lesson


TEST_SOURCE = (
    f'"""double doubles."""\nHINT = {HINT!r}\n'
    'expect.close(double(2), 4, "double(2)", hint=HINT)\n'
    f"### BEGIN HIDDEN TESTS\n{SECRET}\nfrom course import expect as _expect\n\n"
    f"{HIDDEN_LINES[1]}\n### END HIDDEN TESTS"
)


def toy_source() -> nbformat.NotebookNode:
    """The toy lesson's source notebook: set-up, a prediction, `double` and its test (2
    points, hidden case), a multiple-choice answer and its test (1 point)."""
    return toy_lesson.notebook(
        [
            new_markdown_cell("# Toy lesson"),
            toy_lesson.locked_cell("setup", "from course import expect, quiz"),
            new_code_cell('predict_double = None  # "A" or "B"'),
            new_code_cell(
                'quiz.choose(\n    "predict_double",\n    ["It halves x.", "It doubles x."],\n'
                '    why="B. double(x) is x added to itself.",\n)'
            ),
            toy_lesson.answer_cell("double", toy_lesson.DOUBLE),
            toy_lesson.graded_cell("double_doubles", TEST_SOURCE, points=2),
            *toy_lesson.answer_cells(),
        ]
    )


def toy_course(folder: Path, *, config_lines: str = "") -> Path:
    """A course directory: the repository's nbgrader_config.py (plus `config_lines`) and the
    toy lesson's source, built into release/ and solution/ by the course's own build."""
    folder.mkdir(parents=True, exist_ok=True)
    config = (REPO_ROOT / "nbgrader_config.py").read_text(encoding="utf-8")
    (folder / "nbgrader_config.py").write_text(config + config_lines, encoding="utf-8")
    notebooks.write(toy_source(), notebooks.lesson_notebook(TOY, "source", folder))
    build.build([TOY], root=folder)
    return folder


def copy_course(course: Path, folder: Path) -> Path:
    """A copy of a course directory (gradebook, journal and outputs included)."""
    if folder.exists():
        shutil.rmtree(folder)
    shutil.copytree(course, folder, symlinks=True)
    return folder


def handed_in(course: Path, double="2 * x", answer="B", predict=RIGHT) -> nbformat.NotebookNode:
    """The toy's release as a learner hands it in: `double` returning `double` (None: left
    blank), `answer` and `predict_double` set (None: left as released)."""
    nb = notebooks.read_lesson(TOY, "release", course)
    for cell in nb.cells:
        if double is not None and cell.source.startswith("def double"):
            cell.source = f"def double(x):\n    return {double}"
        elif answer is not None and cell.source.startswith("answer = None"):
            cell.source = f"answer = {answer!r}"
        elif predict is not None and cell.source.startswith("predict_double = None"):
            cell.source = f"predict_double = {predict!r}"
    return nb


def saved_by_jupyterlab(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """nb as JupyterLab saves it after Run All with timing recorded: execution counts,
    outputs, `execution` timings and `trusted` in every code cell's metadata."""
    nb = copy.deepcopy(nb)
    count = 0
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        count += 1
        cell.execution_count = count
        cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text="ran\n")]
        cell.metadata["execution"] = {
            "iopub.execute_input": "2026-02-01T09:00:00.000001Z",
            "iopub.status.busy": "2026-02-01T09:00:00.000000Z",
            "iopub.status.idle": "2026-02-01T09:00:00.100000Z",
            "shell.execute_reply": "2026-02-01T09:00:00.090000Z",
        }
        cell.metadata["trusted"] = True
    nb.metadata["language_info"] = {"name": "python", "version": "3.12.3"}
    return nb


# --------------------------------------------------------------------------------------------
# LMS downloads


def canvas_name(last, first, user_id, attachment_id, file, *, late=False, joined=False) -> str:
    """A file name as Canvas writes it in a submissions download: `smith_alice_12345_67890_
    00-toy.ipynb` as older versions wrote it, with `_LATE` after the name for a late one
    (`joined`: the name without the underscore, "smithalice", as Canvas's ContentZipper
    writes it today: the sortable name lower-cased, every non-word character removed)."""
    name = f"{last}{'' if joined else '_'}{first}".lower()
    return f"{name}{'_LATE' if late else ''}_{user_id}_{attachment_id}_{file}"


def moodle_name(full_name: str, participant: int, file: str, *, folders=True) -> str:
    """A file's path in a Moodle "Download all submissions" zip: `Alice Smith_12345_
    assignsubmission_file_/00-toy.ipynb` (`folders` False: the prefix glued to the name)."""
    prefix = f"{full_name}_{participant}_assignsubmission_file_"
    return f"{prefix}/{file}" if folders else f"{prefix}{file}"


def write_zip(path: Path, members: dict[str, nbformat.NotebookNode | str | bytes]) -> Path:
    """A zip holding each member (a notebook, text or bytes) under its name."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, content in members.items():
            if isinstance(content, nbformat.NotebookNode):
                content = nbformat.writes(content)
            zf.writestr(name, content)
    return path


# --------------------------------------------------------------------------------------------
# Commands, as typed in a shell


def shell_env(cwd: Path, exchange: Path | None = None) -> dict[str, str]:
    """The environment of a command typed in cwd: the course's tools importable, this
    Python's scripts on PATH, Jupyter's and IPython's settings and data in cwd (a learner's
    nbgrader cache among them), and NBGRADER_EXCHANGE when there is an exchange."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO_ROOT)  # what an instructor's editable install gives
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    for variable, folder in (
        ("JUPYTER_CONFIG_DIR", "jc"),
        ("JUPYTER_DATA_DIR", "jd"),
        ("IPYTHONDIR", "ip"),
    ):
        env[variable] = str(cwd / f".{folder}")
    env.pop("JUPYTER_RUNTIME_DIR", None)
    if exchange is not None:
        env["NBGRADER_EXCHANGE"] = str(exchange)
    return env


def nbgrader_cli(cwd: Path, *args: str, exchange: Path | None = None, timeout: float = 300):
    """`nbgrader ARGS` run in cwd (a course directory, or a learner's folder); with an
    exchange, NBGRADER_EXCHANGE and --Exchange.root name it, as a hub's configuration does."""
    if exchange is not None:
        args = (*args, f"--Exchange.root={exchange}")
    command = [sys.executable, "-m", "nbgrader", *args]
    return subprocess.run(
        command, cwd=cwd, env=shell_env(cwd, exchange), capture_output=True, text=True,
        timeout=timeout, check=False,
    )  # fmt: skip


def grade_cli(cwd: Path, *args: str, exchange: Path | None = None, timeout=GRADE_TIMEOUT):
    """`python -m classroom.grade ARGS` run from cwd (the course directory, as the guide
    says: no --root unless the test passes one)."""
    command = [sys.executable, "-m", "classroom.grade", *args]
    return subprocess.run(
        command, cwd=cwd, env=shell_env(cwd, exchange), capture_output=True, text=True,
        timeout=timeout, check=False,
    )  # fmt: skip


# --------------------------------------------------------------------------------------------
# The toy class, as each LMS hands it over

CANVAS_SCORES = {"12345": 3.0, "12346": 1.0, "12347": 3.0, "12348": 1.0, "12349": 0.0}
CANVAS_NAMES = {  # (first, last) as nbgrader's gradebook keeps them
    "12345": ("Alice", "Smith"),
    "12346": ("Carol", "Smith"),
    "12347": ("Bob", "Jones"),
    "12348": ("Leedana", ""),  # Canvas wrote the name joined: there is no telling the parts
    "12349": ("Ivan", "Kim"),
}
CANVAS_PREDICTIONS = {"A": 2, "B": 2}  # and Ivan's left as released


def canvas_download(course: Path, path: Path) -> Path:
    """The toy class as Canvas's "Download Submissions" zip (`CANVAS_SCORES`):

    - 12345 smith_alice: complete, saved by JupyterLab (3/3);
    - 12346 smith_carol, the same family name: `double` is x ** 3 (1/3);
    - 12347 jones_bob, late: a blank first attempt, then a complete resubmission, `-1` (3/3);
    - 12348 leedana, the name joined as some Canvas versions write it: `double` is 3 * x (1/3);
    - 12349 kim_ivan: the release untouched (0/3).
    """
    files = {
        canvas_name("smith", "alice", 12345, 67890, f"{TOY}.ipynb"): saved_by_jupyterlab(
            handed_in(course)
        ),
        canvas_name("smith", "carol", 12346, 67891, f"{TOY}.ipynb"): handed_in(
            course, double="x ** 3"
        ),
        canvas_name("jones", "bob", 12347, 67892, f"{TOY}.ipynb", late=True): handed_in(
            course, double=None, answer=None, predict=None
        ),
        canvas_name("jones", "bob", 12347, 67899, f"{TOY}-1.ipynb", late=True): handed_in(
            course, predict="A"
        ),
        canvas_name("lee", "dana", 12348, 67893, f"{TOY}.ipynb", joined=True): handed_in(
            course, double="3 * x", predict="A"
        ),
        canvas_name("kim", "ivan", 12349, 67894, f"{TOY}.ipynb"): notebooks.read_lesson(
            TOY, "release", course
        ),
    }
    return write_zip(path, files)


def moodle_download(course: Path, path: Path, *, folders: bool = True) -> Path:
    """The toy class as Moodle's "Download all submissions" zip: Alice Smith (12345,
    complete), Carol Smith (12346, `double` is x ** 3) and Erin Ng (12350), who handed in two
    different notebooks, `00-toy.ipynb` (complete) and `Copy of 00-toy.ipynb` (`double` is
    x + 2), and an online text."""
    files = {
        moodle_name("Alice Smith", 12345, f"{TOY}.ipynb", folders=folders): handed_in(course),
        moodle_name("Carol Smith", 12346, f"{TOY}.ipynb", folders=folders): handed_in(
            course, double="x ** 3"
        ),
        moodle_name("Erin Ng", 12350, f"{TOY}.ipynb", folders=folders): handed_in(course),
        moodle_name("Erin Ng", 12350, f"Copy of {TOY}.ipynb", folders=folders): handed_in(
            course, double="x + 2"
        ),
        "Erin Ng_12350_assignsubmission_onlinetext_"
        + ("/" if folders else "")
        + "onlinetext.html": "<p>My notebook.</p>",
    }
    return write_zip(path, files)


def submit_from(home: Path, student: str, nb, exchange: Path, name: str = f"{TOY}.ipynb"):
    """A learner's `nbgrader submit` of nb (saved as `name` in the fetched lesson folder, in
    place of the released notebook) as `student`, the way a hub's user submits."""
    folder = home / TOY
    (folder / f"{TOY}.ipynb").unlink(missing_ok=True)
    (folder / name).write_text(nbformat.writes(nb), encoding="utf-8")
    return nbgrader_cli(
        home, "submit", TOY, "--course", COURSE_ID, f"--student={student}", exchange=exchange
    )
