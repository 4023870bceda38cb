"""ReleaseFeedbackOnExchange: `nbgrader release_feedback` releases what the exchange can carry.

nbgrader files a learner's feedback on the exchange under a hash of the secret their
`nbgrader submit` left (submission_secret.txt, collected beside the notebook). A student
whose notebook came from an LMS download (the grading command's `--zip`, or `nbgrader
zip_collect`) never submitted on the exchange and has no secret: nbgrader's own
release_feedback stopped on the first such folder with a traceback, and released nobody's
feedback after it. nbgrader_config.py makes this subclass the exchange's release_feedback:
those students are skipped, named in one line (their feedback goes back through the LMS),
and everyone who did submit on the exchange gets theirs.
"""

from __future__ import annotations

import glob
import os

from nbgrader.exchange.default import ExchangeReleaseFeedback


class ReleaseFeedbackOnExchange(ExchangeReleaseFeedback):
    """nbgrader's release_feedback, skipping students who did not submit on the exchange."""

    def copy_files(self):
        unsubmitted = sorted(
            {
                os.path.basename(os.path.dirname(os.path.dirname(page)))
                for page in glob.glob(os.path.join(self.src_path, "*.html"))
                if not os.path.isfile(os.path.join(os.path.dirname(page), "submission_secret.txt"))
            }
        )
        if unsubmitted:
            self.log.warning(
                "Feedback not released for %d student(s) who did not submit on the exchange "
                "(%s): hand theirs back through the LMS (feedback/<student>/%s/)",
                len(unsubmitted),
                ", ".join(unsubmitted),
                self.coursedir.assignment_id,
            )
            excluded = [s for s in self.coursedir.student_id_exclude.split(",") if s]
            self.coursedir.student_id_exclude = ",".join(excluded + unsubmitted)
        return super().copy_files()
