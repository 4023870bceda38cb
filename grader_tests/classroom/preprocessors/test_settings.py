"""settings: `setting` declares a preprocessor's configurable setting in one line, and
FeedbackPreprocessor takes the setting nbconvert's HTML exporter gives every preprocessor of
its chain (`display_data_priority`) without traitlets' "not recognized" warning."""

from __future__ import annotations

import logging

import pytest
from nbconvert.exporters import HTMLExporter
from nbgrader.preprocessors import NbGraderPreprocessor
from traitlets import Integer
from traitlets.config import Config

from classroom.nbgrader_ext.preprocessors.settings import FeedbackPreprocessor, setting

HELP = "Seconds the whole notebook may run."


class Limited(NbGraderPreprocessor):
    """A preprocessor with one setting, declared as the course's preprocessors declare theirs."""

    notebook_timeout = setting(Integer, 180, HELP)


class Plain(NbGraderPreprocessor):
    """A feedback step on nbgrader's base class alone (the warning's control)."""


class Ours(FeedbackPreprocessor):
    """A feedback step on the course's base class."""


@pytest.mark.timeout(30)
def test_a_setting_has_its_default():
    assert Limited().notebook_timeout == 180


@pytest.mark.timeout(30)
def test_a_setting_is_set_from_the_configuration():
    """As `c.Limited.notebook_timeout = 5` in nbgrader_config.py, or on the command line."""
    config = Config()
    config.Limited.notebook_timeout = 5

    assert Limited(config=config).notebook_timeout == 5


@pytest.mark.timeout(30)
def test_a_setting_is_listed_with_its_help():
    """`nbgrader autograde --help-all` lists it with its help."""
    assert "--Limited.notebook_timeout" in Limited.class_get_help()
    assert HELP in Limited.class_get_help()


def _warnings_registering(step, caplog) -> list[str]:
    """traitlets' warnings while an HTML exporter (the feedback's) builds `step`."""
    exporter = HTMLExporter(config=Config())
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        exporter.register_preprocessor(step)
    return [r.getMessage() for r in caplog.records if "not recognized" in r.getMessage()]


@pytest.mark.timeout(30)
def test_nbgrader_s_base_class_alone_would_warn(caplog):
    """The control: the warning FeedbackPreprocessor exists to avoid is real."""
    assert _warnings_registering(Plain, caplog) == [
        "Config option `display_data_priority` not recognized by `Plain`."
    ]


@pytest.mark.timeout(30)
def test_a_feedback_step_takes_the_exporter_s_setting_without_a_warning(caplog):
    assert _warnings_registering(Ours, caplog) == []

    config = Config()
    config.NbConvertBase.display_data_priority = ["text/plain"]
    exporter = HTMLExporter(config=config)
    exporter.register_preprocessor(Ours)
    (step,) = [p for p in exporter._preprocessors if isinstance(p, Ours)]
    assert step.display_data_priority == ["text/plain"]
