"""Warm zygotes for a grading slot, started before the autograde chain asks for them.

The isolation layer (classroom.isolation.zygote) forks kernels and answer processes from a
slot's zygotes but knows nothing of what runs in them; this module knows what the autograde
chain will ask for (GuardedExecute's kernel, DecideVerdicts' answer process) and starts both.
"""

from __future__ import annotations

import os

from classroom.isolation import sandbox, zygote
from classroom.nbgrader_ext.preprocessors import decide_verdicts
from classroom.nbgrader_ext.verdicts import boundary


def prestart(slot: int) -> None:
    """Start the slot's kernel and answer zygotes now, as the autograde chain will ask for
    them (NBGRADER_EXECUTION=autograde, the default limits), so that their imports overlap
    other work (a worker's, while the lessons are generated). Call it from a thread that
    lives as long as the zygotes: bwrap --die-with-parent ends a sandbox when the thread that
    started it ends. Raises ZygoteGone when one cannot start."""
    env = {key: os.environ[key] for key in sandbox.PASSED_ENV if key in os.environ}
    env["NBGRADER_EXECUTION"] = "autograde"
    # Both launched, then both waited for: their preloads run side by side.
    kernel = zygote.kernel_zygote(slot, sandbox.Limits(), env, wait=False)
    answers = zygote.answer_zygote(
        slot,
        lambda: decide_verdicts.answer_sandbox(slot),
        str(boundary.SERVER_SCRIPT),
        str(boundary.numpy_only_site()),
        wait=False,
    )
    kernel.wait_ready()
    answers.wait_ready()
