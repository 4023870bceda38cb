"""The Recorder (classroom/grading/run.py): grades.csv and the report are rewritten as results
come, at a spacing that keeps the rewrite's cost a small share of the run, and the journal
never holds a result the last rewrite did not (what a killed run keeps is in grades.csv)."""

import io
import time

from classroom.grading import report
from classroom.grading.plan import RunFacts
from classroom.grading.results import Result
from classroom.grading.run import Recorder, RunContext

SAVE_SECONDS = 0.05  # one rewrite of grades.csv and the report, as a large class costs it


class ListJournal:
    """A journal that keeps the results appended to it."""

    def __init__(self):
        self.results = []

    def append(self, result, content):
        self.results.append(result)


def recorder_with_slow_save(root):
    journal, saves = ListJournal(), []

    def save(results):
        time.sleep(SAVE_SECONDS)
        saves.append([r.student for r in results])

    context = RunContext(root=root, maxima={}, failed={}, facts=RunFacts())
    context.journal, context.save = journal, save
    progress = report.Progress(0, stream=io.StringIO())
    return Recorder(context, None, progress), journal, saves


def results(count: int) -> list[Result]:
    return [Result(id=n, student=f"s{n:02d}", lesson="00-toy") for n in range(count)]


def test_quick_results_are_saved_in_batches_and_never_journaled_before_saved(tmp_path):
    recorder, journal, saves = recorder_with_slow_save(tmp_path)
    for result in results(30):  # far quicker than a save: each would wait for one
        recorder(result)
        journaled = [r.student for r in journal.results]
        assert set(journaled) <= set(saves[-1]), "journaled before grades.csv held it"
    assert 1 <= len(saves) < 30, f"{len(saves)} saves for 30 results"
    recorder.flush()
    assert saves[-1] == [r.student for r in results(30)]
    assert [r.student for r in journal.results] == saves[-1]


def test_results_spaced_wider_than_a_save_are_each_saved_at_once(tmp_path):
    recorder, journal, saves = recorder_with_slow_save(tmp_path)
    recorder.SAVE_INTERVAL = 0.2  # the floor, made short for the test
    for result in results(3):
        recorder(result)
        assert saves[-1][-1] == result.student and journal.results[-1] is result
        time.sleep(max(Recorder.SAVE_SPACING * SAVE_SECONDS, 0.2) + 0.05)
    assert len(saves) == 3


def test_saves_are_at_least_the_interval_apart(tmp_path):
    """However cheap a save, results arriving every 0.1 s are saved once per SAVE_INTERVAL:
    the first at once (the progress shows), the rest in batches."""
    recorder, journal, saves = recorder_with_slow_save(tmp_path)
    recorder.SAVE_SPACING, recorder.SAVE_INTERVAL = 0.0, 0.5
    for result in results(10):
        recorder(result)
        time.sleep(0.1)
    assert saves[0] == ["s00"]
    assert 2 <= len(saves) <= 4, f"{len(saves)} saves of 10 results over 1 s"
    recorder.flush()
    assert [r.student for r in journal.results] == [r.student for r in results(10)]
