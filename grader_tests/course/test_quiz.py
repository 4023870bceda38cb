"""Tests of course.quiz: letters, the graded check, the plain-text reveal and the widget.

A click is simulated by setting `.value` on the radio buttons, which is what the browser does.
Outside a kernel the widget's messages are appended to the Output's `outputs`, which the tests
read. The last test repeats the widget tests under ipywidgets 7.7.1 (Colab's version) when it
is installed in .venv/ipywidgets7 (make test puts it there).
"""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import ipywidgets
import pytest

import course.quiz as quiz

REPO = Path(__file__).resolve().parents[2]
CHOICES = ["It falls faster", "Both land together", "It falls slower"]
WHY = "Without air, every body falls with the same acceleration g."


def output_text(choice: quiz.Choice) -> str:
    """Everything printed into the widget's Output so far."""
    return "".join(item.get("text", "") for item in choice.output.outputs)


@pytest.fixture(autouse=True)
def no_ipython_shell():
    """Each test starts and ends without an IPython shell instance (get_ipython() is None)."""
    from IPython.core.interactiveshell import InteractiveShell

    InteractiveShell.clear_instance()
    yield
    InteractiveShell.clear_instance()


def test_letters_are_capitals_from_a():
    """letters(n) are the first n capital letters; fewer than 2 choices is an authoring error."""
    assert quiz.letters(3) == ["A", "B", "C"]
    assert quiz.letters(2) == ["A", "B"]
    with pytest.raises(ValueError):
        quiz.letters(1)


@pytest.mark.parametrize("value", ["A", "B", "C"])
def test_check_choice_accepts_each_capital_letter(value):
    """A capital letter among the choices passes and is returned unchanged."""
    assert quiz.check_choice("predict_vacuum", value, 3) == value


@pytest.mark.parametrize(
    "value, fragment",
    [
        (None, 'Record your choice first: set predict_vacuum = "A", "B" or "C"'),
        ("", "Record your choice first"),
        ("b ", 'write predict_vacuum = "B": one capital letter, no spaces'),
        ("b", 'write predict_vacuum = "B"'),
        (" C", 'write predict_vacuum = "C"'),
        ("D", 'predict_vacuum = \'D\' is not one of "A", "B" or "C".'),
        (2, "it is an int, not text: write the letter in quotes"),
        ("AB", "is not one of"),
    ],
)
def test_check_choice_rejects_anything_else_with_a_clear_message(value, fragment):
    """None, blanks, lower case, spaces, unknown letters and numbers fail, saying what to write."""
    with pytest.raises(AssertionError) as failure:
        quiz.check_choice("predict_vacuum", value, 3)
    assert fragment in str(failure.value)


def test_reveal_without_a_choice_asks_for_one_and_hides_why(capsys):
    """reveal with no recorded letter prints one line asking for it, and not the explanation."""
    assert quiz.reveal("predict_vacuum", None, 3, WHY) is None
    out = capsys.readouterr().out
    assert out.splitlines() == [
        'Record your choice first: set predict_vacuum = "A", "B" or "C" in the answer cell above,'
        " then run this cell again."
    ]
    assert WHY not in out


def test_reveal_with_an_invalid_value_explains_and_hides_why(capsys):
    """reveal with "b " says to write "B" and does not reveal the explanation."""
    assert quiz.reveal("predict_vacuum", "b ", 3, WHY) is None
    out = capsys.readouterr().out
    assert 'predict_vacuum = "B"' in out
    assert WHY not in out


def test_reveal_with_a_choice_prints_it_then_why(capsys):
    """reveal with "B" prints "You chose B." and then the explanation."""
    assert quiz.reveal("predict_vacuum", "B", 3, WHY) is None
    assert capsys.readouterr().out == f"You chose B.\n{WHY}\n"


def test_choose_starts_with_nothing_selected_and_nothing_revealed():
    """Before any click no button is selected, the variable is untouched, nothing is shown."""
    namespace = {"predict_vacuum": None}
    choice = quiz.choose("predict_vacuum", CHOICES, why=WHY, namespace=namespace)
    assert choice.buttons.value is None
    assert choice.buttons.index is None
    assert [label for label, _ in choice.buttons.options] == [
        "A. It falls faster",
        "B. Both land together",
        "C. It falls slower",
    ]
    assert namespace == {"predict_vacuum": None}
    assert output_text(choice) == ""


def test_click_records_letter_then_reveals_why():
    """A click sets namespace[name] and prints the line to write, then (only then) the reason."""
    namespace = {}
    choice = quiz.choose("predict_vacuum", CHOICES, why=WHY, namespace=namespace)
    choice.buttons.value = "B"
    assert namespace["predict_vacuum"] == "B"
    text = output_text(choice)
    recorded = (
        'Recorded for this session: predict_vacuum = "B".\n'
        "Write that line in the answer cell above so it survives a re-run."
    )
    assert text == f"{recorded}\n{WHY}\n"


def test_second_click_replaces_the_first():
    """Changing one's mind records the new letter and shows only the new message."""
    namespace = {}
    choice = quiz.choose("predict_vacuum", CHOICES, why=WHY, namespace=namespace)
    choice.buttons.value = "A"
    choice.buttons.value = "C"
    assert namespace["predict_vacuum"] == "C"
    text = output_text(choice)
    assert 'predict_vacuum = "C"' in text
    assert 'predict_vacuum = "A"' not in text
    assert text.count(WHY) == 1


def test_click_without_why_only_records():
    """With why=None a click records the letter and prints only the 'Recorded' line."""
    namespace = {}
    choice = quiz.choose("predict_drop", ["Yes", "No"], namespace=namespace)
    choice.buttons.value = "A"
    assert namespace["predict_drop"] == "A"
    assert output_text(choice).splitlines() == [
        'Recorded for this session: predict_drop = "A".',
        "Write that line in the answer cell above so it survives a re-run.",
    ]


def test_recorded_letter_is_preselected_and_why_shown():
    """If the answer cell already set the letter, that button is selected and why is shown."""
    namespace = {"predict_vacuum": "C"}
    choice = quiz.choose("predict_vacuum", CHOICES, why=WHY, namespace=namespace)
    assert choice.buttons.value == "C"
    assert namespace == {"predict_vacuum": "C"}
    assert output_text(choice) == f'Your recorded answer: predict_vacuum = "C".\n{WHY}\n'


def test_invalid_recorded_value_is_not_preselected_and_why_hidden():
    """A recorded "b" selects nothing, says to write "B", and keeps the explanation hidden."""
    namespace = {"predict_vacuum": "b"}
    choice = quiz.choose("predict_vacuum", CHOICES, why=WHY, namespace=namespace)
    assert choice.buttons.value is None
    text = output_text(choice)
    assert 'predict_vacuum = "B"' in text
    assert WHY not in text


LETTERED_WHY = "B. Without air, every body falls with the same acceleration g."


def test_a_prediction_is_told_right_before_why():
    """An explanation that starts with the right letter makes a right click say so."""
    choice = quiz.choose("predict_vacuum", CHOICES, why=LETTERED_WHY, namespace={})
    choice.buttons.value = "B"
    assert output_text(choice).splitlines()[2:] == ["Right: B.", LETTERED_WHY]


def test_a_prediction_is_told_wrong_with_the_answer():
    """A wrong click names the choice and the right letter, then explains."""
    choice = quiz.choose("predict_vacuum", CHOICES, why=LETTERED_WHY, namespace={})
    choice.buttons.value = "C"
    lines = output_text(choice).splitlines()
    assert lines[2] == "Not this one: you chose C, the answer is B."
    assert lines[3] == LETTERED_WHY


def test_an_explicit_answer_wins_and_a_preselected_choice_is_judged():
    namespace = {"predict_vacuum": "A"}
    choice = quiz.choose("predict_vacuum", CHOICES, why=WHY, namespace=namespace, answer="A")
    assert "Right: A." in output_text(choice)


def test_an_answer_that_is_not_a_choice_is_refused():
    with pytest.raises(ValueError, match="answer 'D'"):
        quiz.choose("predict_vacuum", CHOICES, why=WHY, namespace={}, answer="D")


def test_a_graded_question_without_why_never_says_right_or_wrong():
    """No why and no answer: the buttons only record, so they cannot leak a graded key."""
    for letter in "ABC":
        choice = quiz.choose("check_answer", CHOICES, namespace={})
        choice.buttons.value = letter
        text = output_text(choice)
        assert "Right" not in text and "Not this one" not in text


def test_widget_text_wraps_between_words_at_its_width():
    """A long explanation comes in lines of at most quiz.WIDTH characters, no word cut."""
    why = "B. " + " ".join(["inertia"] * 60)
    choice = quiz.choose("predict_vacuum", CHOICES, why=why, namespace={})
    choice.buttons.value = "B"
    lines = output_text(choice).splitlines()
    assert len(lines) > 4 and all(len(line) <= quiz.WIDTH for line in lines)
    assert " ".join(lines[3:]) == why


def test_reveal_says_right_or_wrong(capsys):
    quiz.reveal("predict_vacuum", "A", 3, LETTERED_WHY)
    assert capsys.readouterr().out.splitlines()[1] == "Not this one: you chose A, the answer is B."


def test_default_namespace_is_the_ipython_user_namespace():
    """Inside IPython, a click sets the variable in get_ipython().user_ns."""
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    shell.user_ns["predict_vacuum"] = None
    choice = quiz.choose("predict_vacuum", CHOICES, why=WHY)
    choice.buttons.value = "A"
    assert shell.user_ns["predict_vacuum"] == "A"


def test_default_namespace_outside_ipython_is_the_callers_globals():
    """Outside IPython, a click sets the variable in the calling module's globals."""
    namespace = {"quiz": quiz, "CHOICES": CHOICES}
    exec("choice = quiz.choose('predict_outside', CHOICES)", namespace)
    namespace["choice"].buttons.value = "B"
    assert namespace["predict_outside"] == "B"


WIDGETS_SCRIPT = """
    import ipywidgets
    import course.quiz as quiz

    assert ipywidgets.__version__ == "7.7.1", ipywidgets.__version__
    ns = {}
    choice = quiz.choose("predict_vacuum", ["x", "y", "z"], why="Because.", namespace=ns)
    assert choice.buttons.value is None and choice.buttons.index is None, "preselected"
    choice.buttons.value = "B"
    assert ns == {"predict_vacuum": "B"}, ns
    text = "".join(o["text"] for o in choice.output.outputs)
    assert text.startswith('Recorded for this session: predict_vacuum = "B".'), text
    assert text.endswith("Because.\\n"), text
    again = quiz.choose("predict_vacuum", ["x", "y", "z"], why="Because.", namespace=ns)
    assert again.buttons.value == "B"
    print("ok")
"""


# `make test` installs Colab's widget versions here once, beside the virtual environment, so
# the test itself downloads nothing.
IPYWIDGETS7 = Path(os.environ.get("COURSE_IPYWIDGETS7", REPO / ".venv" / "ipywidgets7"))


def test_widgets_work_under_ipywidgets_7_7_1():
    """Under Colab's ipywidgets 7.7.1 the buttons start empty, record a click and reveal why."""
    target = IPYWIDGETS7
    if not (target / "ipywidgets").is_dir():
        pytest.skip(f"ipywidgets 7.7.1 is not installed in {target}: run `make test`")
    env = dict(os.environ, PYTHONPATH=str(target))
    env.pop("NBGRADER_EXECUTION", None)
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(WIDGETS_SCRIPT)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def test_graded_runs_write_into_the_widget_state_not_through_stdout(monkeypatch, capsys):
    """While nbgrader runs the notebook no browser routes printed text, and under nbclient
    that print now and then hid the cell's idle status (the run waited a whole cell
    timeout): the text goes into the Output widget's own state instead."""
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    monkeypatch.setattr(quiz, "_has_kernel", lambda: True)
    output = ipywidgets.Output()
    quiz._say(output, ['Your recorded answer: q = "B".', None])
    assert capsys.readouterr().out == ""
    assert [o["text"] for o in output.outputs] == ['Your recorded answer: q = "B".\n']


@pytest.fixture
def graded(monkeypatch):
    """As while nbgrader runs the notebook: NBGRADER_EXECUTION set, and any widget a failure."""
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")

    def no_widget(*args, **kwargs):
        raise AssertionError("a widget was built while grading")

    for name in ("RadioButtons", "Output", "VBox"):
        monkeypatch.setattr(quiz.ipywidgets, name, no_widget)


def test_graded_runs_print_the_question_with_the_recorded_letter(graded, capsys):
    """No browser shows a widget while grading: the feedback gets the choices, the letter the
    answer cell recorded, the verdict and why, as text."""
    namespace = {"predict_vacuum": "C"}
    choice = quiz.choose("predict_vacuum", CHOICES, why=LETTERED_WHY, namespace=namespace)
    assert capsys.readouterr().out.splitlines() == [
        "A. It falls faster",
        "B. Both land together",
        "C. It falls slower",
        'Your recorded answer: predict_vacuum = "C".',
        "Not this one: you chose C, the answer is B.",
        LETTERED_WHY,
    ]
    assert (choice.name, choice.buttons, choice.output, choice.box) == ("predict_vacuum",) + (
        None,
    ) * 3
    assert namespace == {"predict_vacuum": "C"}


def test_graded_runs_without_a_letter_say_what_to_write_and_hide_why(graded, capsys):
    quiz.choose("predict_vacuum", CHOICES, why=LETTERED_WHY, namespace={})
    lines = capsys.readouterr().out.splitlines()
    assert lines[:3] == ["A. It falls faster", "B. Both land together", "C. It falls slower"]
    assert lines[3].startswith('Record your choice first: set predict_vacuum = "A", "B" or "C"')
    assert LETTERED_WHY not in "\n".join(lines)


def test_a_graded_question_printed_while_grading_never_says_right_or_wrong(graded, capsys):
    quiz.choose("check_answer", CHOICES, namespace={"check_answer": "B"})
    text = capsys.readouterr().out
    assert 'Your recorded answer: check_answer = "B".' in text
    assert "Right" not in text and "Not this one" not in text


def test_long_choices_wrap_within_the_cell():
    """A long choice wraps inside the cell instead of running past its right edge: the
    buttons carry the quiz class, are no wider than the cell, and the box brings the style
    that lets their labels take more than one line."""
    choice = quiz.choose("q", ["short", "a long choice " * 12], namespace={})
    assert quiz.QUIZ_CLASS in choice.buttons._dom_classes
    assert choice.buttons.layout.width != "max-content"
    assert choice.buttons.layout.max_width == "100%"
    style = choice.box.children[0]
    assert isinstance(style, ipywidgets.HTML)
    assert f".{quiz.QUIZ_CLASS} label" in style.value
    assert "white-space: normal" in style.value and "height: auto" in style.value


def test_prediction_cell_says_only_the_written_letter_counts():
    """A prediction's answer cell names the letters, says the buttons set the variable for
    this session only and that only the letter written in the cell counts, then sets it to
    None; it is valid Python with lines the formatter keeps."""
    text = quiz.prediction_cell("predict_vacuum", 4)
    *comment, last = text.splitlines()
    assert last == "predict_vacuum = None"
    said = " ".join(line.lstrip("# ") for line in comment)
    assert '"A", "B", "C" or "D"' in said
    assert "for this session only" in said and "only a letter written here counts" in said
    assert "fill it in" not in said
    assert all(len(line) <= 100 for line in text.splitlines())
    namespace = {}
    exec(compile(text, "cell", "exec"), namespace)
    assert namespace["predict_vacuum"] is None
