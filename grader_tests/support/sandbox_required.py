"""The one rule for tests that need the sandbox: under CI a missing sandbox is a failure."""

from __future__ import annotations

import os

import pytest


def require_sandbox() -> None:
    """Return when the sandbox runs here; else fail under CI (CI=true), skip elsewhere, with
    the reason classroom.isolation.sandbox.probe() gives. Called first by every test that
    needs it."""
    from classroom.isolation import sandbox

    reason = sandbox.probe()
    if reason is None:
        return
    if os.environ.get("CI"):
        pytest.fail(f"the sandbox must run under CI, but: {reason}")
    pytest.skip(reason)
