"""docs/architecture.md is true of nbgrader's chains: the chains its section "nbgrader's
chains" lists, step by step, are the chains nbgrader_config.py configures, in order (the
configuration loaded with traitlets' PyFileConfigLoader, as nbgrader and the grading command
load it); a step it names a module of is that module's; a step it says is off is off; and the
plug-ins it lists are the ones configured.

The section's form: a chain starts with a line "`Class.trait`, ..."; its steps follow as
"N. `ClassName` (module): what it does", continued on indented lines; a plug-in is a line
"- `Class.trait`: `name` (module): what it does".
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

import pytest
from nbconvert.exporters import HTMLExporter, NotebookExporter
from traitlets.utils.importstring import import_item

from classroom import build
from classroom.nbgrader_ext import preprocessors

DOC = build.REPO_ROOT / "docs" / "architecture.md"
SECTION = "## nbgrader's chains"
CHAIN = re.compile(r"^`(\w+\.\w*preprocessors)`")
STEP = re.compile(r"^\d+\. `(\w+)`(?: \((\w+)\))?: (.*)")
PLUG_IN = re.compile(r"^- `(\w+\.\w+)`: `(\w+)` \((\w+)\): (.*)")
PACKAGE = preprocessors.__name__  # where the course's steps live
EXPORTERS = {"GenerateFeedback": HTMLExporter}  # the others convert to a notebook


@dataclass(frozen=True)
class Step:
    """One step of a chain, or one plug-in, as the document states it."""

    name: str  # the class (or function) name
    module: str | None  # the course's module it is in, None for nbgrader's and nbconvert's
    text: str  # what it does, continuation lines joined


def _section() -> list[str]:
    text = DOC.read_text(encoding="utf-8")
    assert SECTION in text, f"{DOC.name} has no section {SECTION!r}"
    body = text.split(SECTION, 1)[1]
    return body.split("\n## ", 1)[0].splitlines()


def _parse() -> tuple[dict[str, list[Step]], dict[str, Step]]:
    """({chain trait: its steps}, {plug-in trait: the plug-in}) as the section states them."""
    chains: dict[str, list[Step]] = {}
    plug_ins: dict[str, Step] = {}
    current: list[Step] | None = None  # the chain being read
    last: tuple[dict | list, str | int] | None = None  # where the last step or plug-in went
    for line in _section():
        if match := CHAIN.match(line):
            current, last = chains.setdefault(match[1], []), None
        elif (match := STEP.match(line)) and current is not None:
            current.append(Step(match[1], match[2], match[3]))
            last = (current, len(current) - 1)
        elif match := PLUG_IN.match(line):
            plug_ins[match[1]] = Step(match[2], match[3], match[4])
            current, last = None, (plug_ins, match[1])
        elif line.startswith("  ") and last:  # its text goes on
            where, key = last
            step = where[key]
            where[key] = Step(step.name, step.module, f"{step.text} {line.strip()}")
        elif not line.strip():
            last = None
    return chains, plug_ins


DOC_CHAINS, DOC_PLUG_INS = _parse()


@pytest.fixture(scope="module")
def config():
    return build.load_nbgrader_config(build.REPO_ROOT)


def _configured(config) -> dict[str, object]:
    """{"Class.trait": value} of every setting nbgrader_config.py makes."""
    return {
        f"{section}.{key}": value for section in config for key, value in config[section].items()
    }


def _name(value) -> str:
    """The class or function name of a configured value (a dotted name, a class, a partial)."""
    if isinstance(value, functools.partial):
        value = value.func
    return value.rsplit(".", 1)[-1] if isinstance(value, str) else value.__name__


def _resolved(value):
    if isinstance(value, functools.partial):
        return value.func
    return import_item(value) if isinstance(value, str) else value


def test_the_document_states_the_chains():
    """The parser found something: four chains and four plug-ins, none empty."""
    assert len(DOC_CHAINS) == 4 and all(DOC_CHAINS.values()), DOC_CHAINS
    assert len(DOC_PLUG_INS) == 4, DOC_PLUG_INS


def test_every_configured_chain_is_in_the_document_and_no_other(config):
    configured = {trait for trait in _configured(config) if trait.endswith("preprocessors")}

    assert set(DOC_CHAINS) == configured


@pytest.mark.parametrize("trait", sorted(DOC_CHAINS))
def test_each_chain_is_the_configured_chain_in_order(config, trait):
    configured = [_name(step) for step in _configured(config)[trait]]

    assert [step.name for step in DOC_CHAINS[trait]] == configured


@pytest.mark.parametrize("trait", sorted(DOC_CHAINS))
def test_a_step_s_module_is_the_one_the_document_names(config, trait):
    """ "(guarded_execute)" is the course's module of the step; no module, not the course's."""
    for stated, value in zip(DOC_CHAINS[trait], _configured(config)[trait], strict=True):
        module = _resolved(value).__module__
        if stated.module:
            assert module == f"{PACKAGE}.{stated.module}", stated
        else:
            assert not module.startswith("classroom"), f"{stated.name} is the course's ({module})"


@pytest.mark.parametrize("trait", sorted(DOC_CHAINS))
def test_the_steps_said_to_be_off_are_off(config, trait):
    """A step whose text says "(off" does nothing in the configured chain; every other runs."""
    exporter = EXPORTERS.get(trait.split(".")[0], NotebookExporter)(config=config)
    exporter._preprocessors = []
    for value in _configured(config)[trait]:
        exporter.register_preprocessor(value)
    said_off = [step.name for step in DOC_CHAINS[trait] if "(off" in step.text]

    assert [type(p).__name__ for p in exporter._preprocessors if not p.enabled] == said_off


def test_every_plug_in_of_the_course_is_in_the_document_and_no_other(config):
    """Every setting whose value is the course's code (not a chain) is listed, and only those."""
    ours = {
        trait
        for trait, value in _configured(config).items()
        if callable(value) or (isinstance(value, str) and value.startswith("classroom."))
    }

    assert set(DOC_PLUG_INS) == ours


@pytest.mark.parametrize("trait", sorted(DOC_PLUG_INS))
def test_each_plug_in_is_the_configured_one(config, trait):
    stated, value = DOC_PLUG_INS[trait], _configured(config)[trait]

    assert stated.name == _name(value)
    assert _resolved(value).__module__ == f"{PACKAGE}.{stated.module}"
