"""The chains of classroom/nbgrader_ext/preprocessors/__init__.py: each written once, and the
grading command's feedback chain built from FEEDBACK, not from a list of its own."""

from __future__ import annotations

from nbconvert.exporters import HTMLExporter
from traitlets.config import Config
from traitlets.utils.importstring import import_item

from classroom.nbgrader_ext import preprocessors
from classroom.nbgrader_ext.preprocessors import GraderNotes


def _registered(chain: list, config: Config) -> list:
    """The preprocessors an HTML exporter runs for `chain`, registered as nbgrader's
    GenerateFeedback registers its chain."""
    exporter = HTMLExporter(config=config)
    exporter._preprocessors = []
    for step in chain:
        exporter.register_preprocessor(step)
    return exporter._preprocessors


def test_the_command_s_feedback_chain_is_feedback_in_order():
    """Each step of the worker's chain is an instance of FEEDBACK's class at its place."""
    config = Config()
    steps = _registered(preprocessors.feedback_chain(config, ["renamed", "late"]), config)

    assert [type(s) for s in steps] == [import_item(name) for name in preprocessors.FEEDBACK]


def test_grader_notes_carries_the_command_s_sentences():
    """GraderNotes gets the sentences the command passes in, as they were passed."""
    config = Config()
    steps = _registered(preprocessors.feedback_chain(config, ["renamed", "late"]), config)

    (notes,) = [s for s in steps if isinstance(s, GraderNotes)]
    assert notes.notes == ["renamed", "late"]


def test_the_course_s_steps_take_the_course_s_settings():
    """A setting of the course's configuration reaches the chain's steps (they are built
    from it, not with defaults)."""
    config = Config()
    config.HideHiddenTests.enabled = False
    steps = _registered(preprocessors.feedback_chain(config, []), config)

    assert [type(s).__name__ for s in steps if not s.enabled] == [
        "HideHiddenTests",
        "CSSHTMLHeaderPreprocessor",
    ]


def test_configure_puts_each_chain_into_its_trait():
    """configure() sets nbgrader's three chains to the module's three, in order."""
    config = Config()
    preprocessors.configure(config)

    assert config.Autograde.sanitize_preprocessors == list(preprocessors.SANITIZE)
    assert config.Autograde.autograde_preprocessors == list(preprocessors.AUTOGRADE)
    assert config.GenerateFeedback.preprocessors == list(preprocessors.FEEDBACK)


def test_every_named_step_exists():
    """Every dotted name of every chain imports (a renamed class breaks here, not in a run)."""
    for chain in (preprocessors.SANITIZE, preprocessors.AUTOGRADE, preprocessors.FEEDBACK):
        for name in chain:
            assert isinstance(import_item(name), type), name
