"""Predict-first and check-yourself questions with lettered choices.

The record of a learner's choice is a variable in an answer cell, e.g.

    predict_vacuum = "B"

because nbgrader re-runs the notebook in a fresh kernel, where a widget click is gone. The
widget from `choose` only makes choosing pleasant: a click sets the variable for the running
session and prints the line to write in the answer cell.

Choices are capital letters "A", "B", "C"... written as a string. The rule is strict on purpose:
"b", " B" or 2 are rejected with a message saying what to write, so the visible check, the
widget and the hidden grading test all read an answer the same way.

For a prediction (not graded) the notebook passes the right letter, as `answer` or as the first
letter of `why` ("B. Gravity's force is m g, ..."), and a choice is told right or wrong before
the explanation. A graded question passes neither: its buttons only record, and the hidden
tests hold the key. This module never holds a correct answer itself.
"""

from __future__ import annotations

import string
import sys
import textwrap
from collections.abc import MutableMapping, Sequence

import ipywidgets

from course import runtime

__all__ = [
    "Choice",
    "answer_in",
    "check_choice",
    "choose",
    "letters",
    "prediction_cell",
    "reveal",
    "verdict",
]

_MAX_CHOICES = len(string.ascii_uppercase)
WIDTH = 88  # characters a line of a widget's text: wrapped here, between words
QUIZ_CLASS = "course-quiz"
# ipywidgets gives each radio label one line's height and lets it run past the right edge;
# these rules let a long choice wrap within the cell, its lines beside the button (ipywidgets
# 8 puts the button after the text in the label; `order` puts it first either way).
WRAP_LABELS = (
    f"<style>.{QUIZ_CLASS} label {{display: flex; align-items: baseline; height: auto;"
    f" line-height: 1.35; white-space: normal; padding: 2px 0;}}"
    f" .{QUIZ_CLASS} label input {{order: -1; flex: none;}}</style>"
)
KEEP_IT = "Write that line in the answer cell above so it survives a re-run."


def letters(n_choices: int) -> list[str]:
    """The letters of `n_choices` choices: letters(3) == ["A", "B", "C"]."""
    if not isinstance(n_choices, int) or not 2 <= n_choices <= _MAX_CHOICES:
        raise ValueError(f"a question needs 2 to {_MAX_CHOICES} choices, got {n_choices!r}")
    return list(string.ascii_uppercase[:n_choices])


def _spelled(allowed: list[str]) -> str:
    quoted = [f'"{letter}"' for letter in allowed]
    return ", ".join(quoted[:-1]) + " or " + quoted[-1]


def prediction_cell(name: str, n_choices: int) -> str:
    """The answer cell of a prediction, as every lesson writes it: the letters to write, and
    that the buttons below set the variable for this session only (a re-run keeps only what
    the cell says)."""
    return (
        f"# Your guess, {_spelled(letters(n_choices))}, written on the next line. The buttons"
        " below\n# set it for this session only; only a letter written here counts.\n"
        f"{name} = None"
    )


def _problem(name: str, value: object, n_choices: int) -> str | None:
    """What is wrong with `value` as the answer `name`, in one sentence; None when valid."""
    allowed = letters(n_choices)
    if value is None or (isinstance(value, str) and not value.strip()):
        return (
            f"Record your choice first: set {name} = {_spelled(allowed)} in the answer cell "
            "above, then run this cell again."
        )
    if isinstance(value, str) and value in allowed:
        return None
    hint = ""
    if isinstance(value, str) and value.strip().upper() in allowed:
        hint = f' (write {name} = "{value.strip().upper()}": one capital letter, no spaces)'
    elif not isinstance(value, str):
        kind = type(value).__name__
        article = "an" if kind[0] in "aeiou" else "a"
        hint = f" (it is {article} {kind}, not text: write the letter in quotes)"
    return f"{name} = {value!r} is not one of {_spelled(allowed)}{hint}."


def check_choice(name: str, value: object, n_choices: int) -> str:
    """Return `value` if it is one of the first `n_choices` capital letters.

    Raises AssertionError with a sentence naming the variable and what to write otherwise.
    The visible part of a graded question's test cell calls it; the hidden part compares the
    letter with the key.
    """
    problem = _problem(name, value, n_choices)
    if problem is not None:
        raise AssertionError(problem)
    return value


def answer_in(why: str | None, n_choices: int) -> str | None:
    """The right letter an explanation starts with ("B. Because ..." gives "B"), else None."""
    if why and len(why) > 2 and why[1:3] == ". " and why[0] in letters(n_choices):
        return why[0]
    return None


def verdict(value: str, answer: str | None) -> str | None:
    """One line saying whether the letter `value` is `answer`; None when there is no answer."""
    if answer is None:
        return None
    if value == answer:
        return f"Right: {answer}."
    return f"Not this one: you chose {value}, the answer is {answer}."


def reveal(
    name: str, value: object, choices_count: int, why: str, answer: str | None = None
) -> None:
    """Plain-text reveal: say right or wrong, then print the explanation, once a valid choice
    is recorded.

    `answer` (default: the letter `why` starts with) is the right letter. With a valid `value`
    prints "You chose B.", the verdict and `why`; otherwise one line saying what to write,
    and nothing of `why`. Returns None, so a cell ending in reveal(...) shows only the text.
    """
    problem = _problem(name, value, choices_count)
    if problem is not None:
        print(problem)
        return
    print(f"You chose {value}.")
    told = verdict(value, answer or answer_in(why, choices_count))
    if told:
        print(told)
    print(why)


class Choice:
    """What `choose` displayed: the radio buttons, the message area, and the whole box.

    Tests drive it by setting `buttons.value` to a letter and reading `output.outputs`.
    Evaluating a Choice shows nothing, since `choose` has already displayed it (a cell ending
    in `choose(...)` would otherwise show the buttons twice); `display(choice.box)` shows it
    again. While graded, the question is printed as text and the three are None.
    """

    def __init__(self, name: str, buttons, output, box) -> None:
        self.name = name
        self.buttons = buttons
        self.output = output
        self.box = box

    def _ipython_display_(self) -> None:
        pass


def choose(
    name: str,
    choices: Sequence[str],
    why: str | None = None,
    namespace: MutableMapping | None = None,
    answer: str | None = None,
) -> Choice:
    """Show the choices as radio buttons; a click records the letter in `namespace[name]`.

    Args:
      name: the answer variable, e.g. "predict_vacuum".
      choices: the texts of the choices, labelled "A", "B", "C"... in this order.
      why: the explanation, shown only after a choice is recorded; None shows none.
      namespace: where the variable lives; default the notebook's user namespace
        (get_ipython().user_ns), or the caller's globals outside IPython.
      answer: the right letter, for a question that is not graded; default the letter `why`
        starts with. A graded question passes no `why` and no `answer`: a click only records.

    When `namespace[name]` already holds a valid letter (the answer cell ran first), that
    button is preselected and `why` is shown. A click sets `namespace[name]`, prints
    `Recorded for this session: name = "B".` and KEEP_IT, then whether it is right, then
    `why` (each wrapped at WIDTH characters).
    Displays the widget and returns a Choice. While nbgrader runs the notebook, no browser
    shows a widget: the question is printed instead (`_as_text`), for the feedback page.
    """
    allowed = letters(len(choices))
    answer = answer or answer_in(why, len(choices))
    if answer is not None and answer not in allowed:
        raise ValueError(f"answer {answer!r} is not one of {_spelled(allowed)}")
    if namespace is None:
        namespace = _user_namespace(sys._getframe(1).f_globals)
    if runtime.in_grader():
        return _as_text(name, allowed, choices, namespace.get(name), answer, why)

    buttons = _radio_buttons(allowed, choices)
    output = ipywidgets.Output()
    box = ipywidgets.VBox([ipywidgets.HTML(WRAP_LABELS), buttons, output])

    _show_recorded(namespace.get(name), name, allowed, buttons, output, answer, why)

    def on_change(change) -> None:
        letter = change["new"]
        if letter is None:
            return
        namespace[name] = letter
        lines = [
            f'Recorded for this session: {name} = "{letter}".',
            KEEP_IT,
            verdict(letter, answer),
            why,
        ]
        _say(output, lines, clear=True)

    buttons.observe(on_change, names="value")
    _display(box)
    return Choice(name, buttons, output, box)


def _recorded_lines(recorded, name, allowed, answer, why) -> list[str | None]:
    """What the widget says of a letter the answer cell already set: the letter, the verdict
    and why (an invalid value: what to write instead; no value: nothing)."""
    if recorded is None:
        return []
    problem = _problem(name, recorded, len(allowed))
    if problem is not None:
        return [problem]
    return [f'Your recorded answer: {name} = "{recorded}".', verdict(recorded, answer), why]


def _show_recorded(recorded, name, allowed, buttons, output, answer, why) -> None:
    """A letter the answer cell already set: its button selected, the verdict and why shown
    (an invalid value: what to write instead)."""
    lines = _recorded_lines(recorded, name, allowed, answer, why)
    if not lines:
        return
    if isinstance(recorded, str) and recorded in allowed:
        buttons.index = allowed.index(recorded)
    _say(output, lines)


def _as_text(name, allowed, choices, recorded, answer, why) -> Choice:
    """The question as the graded notebook shows it: each choice, then what the widget would
    say of the recorded letter (or that none is recorded). A widget that no browser will show
    cost the grader's kernel 11 ms more than this print, besides its messages."""
    lines = [f"{letter}. {text}" for letter, text in zip(allowed, choices, strict=True)]
    told = _recorded_lines(recorded, name, allowed, answer, why)
    print(_wrapped(lines + (told or [_problem(name, None, len(allowed))])), end="")
    return Choice(name, None, None, None)


def _radio_buttons(allowed: list[str], choices: Sequence[str]):
    """One radio button a choice, labelled "A. text", none selected."""
    # index=None starts with no button selected; both ipywidgets 7.7 and 8 accept it
    # (without it, version 7 selects the first choice).
    return ipywidgets.RadioButtons(
        options=[
            (f"{letter}. {text}", letter) for letter, text in zip(allowed, choices, strict=True)
        ],
        index=None,
        layout=ipywidgets.Layout(width="auto", max_width="100%"),
    ).add_class(QUIZ_CLASS)


def _user_namespace(caller_globals: dict) -> MutableMapping:
    try:
        from IPython import get_ipython
    except ImportError:
        return caller_globals
    shell = get_ipython()
    return shell.user_ns if shell is not None else caller_globals


def _has_kernel() -> bool:
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


def _say(output, lines: list[str | None], clear: bool = False) -> None:
    """Write lines (None skipped) into the Output widget, replacing its text if `clear`.
    Each is wrapped between words here (a notebook's output would break words anywhere)."""
    text = _wrapped(lines)
    if _has_kernel() and not runtime.in_grader():
        # In a kernel the browser routes printed text into the widget (by message id); this
        # is the route that works in JupyterLab and in Colab's ipywidgets 7. Not while
        # graded: no browser reads it, and under nbclient that print now and then left the
        # cell's idle status unseen, so the grader waited its whole cell timeout.
        if clear:
            output.clear_output()
        with output:
            print(text, end="")
    else:
        # Without a kernel nothing routes printed text, so append it to the widget's state.
        if clear:
            output.outputs = ()
        output.append_stdout(text)


def _wrapped(lines: list[str | None]) -> str:
    """The lines (None skipped), each wrapped between words at WIDTH, one per line."""
    wrapped = [textwrap.fill(line, WIDTH, break_long_words=False) for line in lines if line]
    return "\n".join(wrapped) + "\n"


def _display(widget) -> None:
    try:
        from IPython.display import display
    except ImportError:
        return
    if _has_kernel():
        display(widget)
