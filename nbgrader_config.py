"""nbgrader configuration: the repository root is the course directory.

nbgrader's default folder names are kept (source/, release/, submitted/, autograded/,
feedback/), so `nbgrader generate_assignment 01-world-as-text` works from the root.
"""

import functools
import os
import sys
import warnings
from pathlib import Path

c = get_config()  # noqa: F821 (injected by traitlets when nbgrader loads this file)

# nbgrader 0.9's gradebook adds a new submission's rows through relationships SQLAlchemy 2
# warns about ("Object of type <SubmittedAssignment> not in session, add operation along ...
# will not proceed"); the rows are written all the same. The cause is in nbgrader's api.py,
# out of the course's reach, so only that message is silenced, for every nbgrader command and
# the grading command (both load this file before they open a gradebook).
warnings.filterwarnings("ignore", message=r"Object of type <\w+> not in session, add operation")

ROOT = Path(__file__).resolve().parent
# The instructor's tools (classroom/) are not part of the installed course package: nbgrader
# finds them here, in the course directory.
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from classroom.nbgrader_ext import preprocessors  # noqa: E402
from classroom.nbgrader_ext.preprocessors import lesson_registration  # noqa: E402

# The course's preprocessors in nbgrader's own chains (autograde, feedback), so that
# `nbgrader autograde` and `nbgrader generate_feedback` grade and hide exactly as
# `python -m classroom.grade` does.
preprocessors.configure(c)

# `nbgrader autograde LESSON` on a fresh clone: the lesson is registered in gradebook.db
# first (nbgrader's generate_assignment would do it; release/ is committed, so nobody has run it).
c.Autograde.pre_convert_hook = functools.partial(lesson_registration.register_missing, c)

# `nbgrader zip_collect`: of a student's resubmissions (Canvas's `-1`, `-2` names) the newest.
c.ZipCollectApp.collector_plugin = (
    "classroom.nbgrader_ext.preprocessors.newest_attempt.NewestAttemptCollector"
)

# `nbgrader release_feedback`: students graded from an LMS download have no exchange secret;
# they are named in one line and skipped, not a traceback that releases nobody's feedback.
c.ExchangeFactory.release_feedback = (
    "classroom.nbgrader_ext.preprocessors.exchange_feedback.ReleaseFeedbackOnExchange"
)

# `nbgrader collect`: only the regular files and folders a student handed in; a symbolic link
# in the exchange (to the gradebook, to the course) is named and left, never followed.
c.ExchangeFactory.collect = (
    "classroom.nbgrader_ext.preprocessors.exchange_collect.CollectRegularFiles"
)

c.CourseDirectory.root = str(ROOT)
c.CourseDirectory.course_id = "mujoco-physics"
# Release, collect and fetch go through an exchange folder that must be writable; a JupyterHub
# deployment points NBGRADER_EXCHANGE at its shared exchange.
c.Exchange.root = os.environ.get("NBGRADER_EXCHANGE", str(ROOT / "exchange"))

# A blank answer must leave the notebook runnable top to bottom: a function body that is
# only `pass` returns None (the visible checks say so), and a top-level answer cell does not
# stop "Run All" the way nbgrader's default `raise NotImplementedError()` would.
c.ClearSolutions.code_stub = {"python": "pass  # YOUR CODE HERE"}
c.ClearSolutions.text_stub = "YOUR ANSWER HERE"

# Self-study solutions (solution/<lesson>/) show the answers but never the source of hidden
# tests; they are committed without outputs, so the learner runs them like any lesson.
c.GenerateSolution.preprocessors = [
    "nbgrader.preprocessors.IncludeHeaderFooter",
    "nbgrader.preprocessors.LockCells",
    "nbgrader.preprocessors.ClearOutput",
    "nbgrader.preprocessors.ClearHiddenTests",
    "nbgrader.preprocessors.ClearMarkScheme",
]

# Per-cell limit while grading; a lesson runs in about 10 s, so a minute means a loop.
c.Execute.timeout = 60
