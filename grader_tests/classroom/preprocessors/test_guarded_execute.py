"""GuardedExecute: nbgrader's Execute in the sandbox, never running a test cell, with a notebook
limit, kernel restarts and an output cap.

Each test runs one fixture notebook in a real python3 kernel (the ipykernel of this venv) in
the real sandbox (`sandboxed=True`), with short limits (3 s a cell), as nbgrader tests its own
Execute with --Execute.timeout=2. Test cells are DecideVerdicts' business: after
GuardedExecute they have no outputs and no execution count, so the evidence of what happened
is in the other cells, mostly a learner's last cell that prints `double(21)`.

There is no cap inside the kernel any more (the in-kernel guard, kernel_guard.py, is gone):
a flood reaches the grader whole and is cut as it arrives, so the cap tests check what is
kept and noted, not what the kernel sent.
"""

import re

import pytest
from traitlets.config import Config

from classroom.isolation import kernels, sandbox
from classroom.nbgrader_ext.notebooks import is_test
from classroom.nbgrader_ext.notes import notes_of
from classroom.nbgrader_ext.preprocessors import GuardedExecute

CELL_TIMEOUT = 3
SLOT = 920  # a sandbox slot of its own: a grader (slots 0, 1...) may run beside the tests
MAX_OUTPUT = 1000
CAP_MARK = "output capped by the grader"
PROBE = "double(21) = 42\n"  # what the last cell prints when double is still defined


def configured(timeout=CELL_TIMEOUT, iopub_timeout=4, **guarded) -> Config:
    config = Config()
    config.Execute.timeout = timeout
    config.Execute.iopub_timeout = iopub_timeout  # for a busy kernel's last output (4 s)
    config.GuardedExecute.sandboxed = True
    config.SandboxedKernelManager.slot = SLOT
    config.GuardedExecute.notebook_timeout = 60
    config.GuardedExecute.interrupt_grace = 1
    config.GuardedExecute.max_output_chars = MAX_OUTPUT
    config.GuardedExecute.warm_kernels = False  # no kernel left running after a test
    for name, value in guarded.items():
        setattr(config.GuardedExecute, name, value)
    return config


def execute(nb, folder, **options):
    """nb run by GuardedExecute in `folder`, as the autograde chain runs it; None when the
    sandbox cannot run here (the test's require_sandbox() says why)."""
    if sandbox.probe() is not None:
        return None
    preprocessor = GuardedExecute(config=configured(**options))
    nb, _ = preprocessor.preprocess(nb, {"metadata": {"path": str(folder)}})
    return nb


def errors(cell):
    return [output.ename for output in cell.outputs if output.output_type == "error"]


def printed(cell) -> str:
    return "".join(o.text for o in cell.outputs if o.output_type == "stream")


def untouched_tests(nb) -> bool:
    """Every test cell is as the chain handed it in: never run, no output."""
    tests = [cell for cell in nb.cells if is_test(cell)]
    return len(tests) == 2 and all(
        cell.outputs == [] and cell.execution_count is None for cell in tests
    )


def notes_of_kind(nb, kind):
    return [note for note in notes_of(nb) if note.kind == kind]


@pytest.fixture(scope="module", autouse=True)
def _kernel_sockets():
    """Remove the folder of this process's kernel sockets after the module."""
    yield
    kernels.remove_socket_dir()


@pytest.fixture(scope="module")
def flooded(read_nb, tmp_path_factory):
    """floods_output, run once for the tests of the output cap."""
    return execute(read_nb("floods_output"), tmp_path_factory.mktemp("flooded"))


@pytest.fixture(scope="module")
def out_of_time(read_nb, tmp_path_factory):
    """runs_past_notebook_limit, run once with 5 s for the notebook and 30 s a cell."""
    nb = read_nb("runs_past_notebook_limit")
    return execute(nb, tmp_path_factory.mktemp("out_of_time"), timeout=30, notebook_timeout=5)


class TestGuardedExecute:
    @pytest.mark.timeout(60)
    def test_test_cells_never_run(self, require_sandbox, read_nb, tmp_path):
        """Every cell runs but the test cells, which keep no output and no execution count."""
        require_sandbox()
        nb = execute(read_nb("correct_answers"), tmp_path)

        ran = [i for i, cell in enumerate(nb.cells) if cell.get("execution_count") is not None]
        assert ran == [1, 3, 6]  # the set-up and the two answer cells
        assert untouched_tests(nb)  # a test cell run would print its "OK: ..." line
        assert all(cell.outputs == [] for cell in nb.cells if cell.cell_type == "code")
        assert notes_of(nb) == []

    @pytest.mark.timeout(60)
    def test_kernel_runs_in_the_sandbox(self, require_sandbox, read_nb, tmp_path):
        """The learner's code runs as the sandbox's nobody, in its private copy of the folder."""
        require_sandbox()
        nb = execute(read_nb("checks_where_it_runs"), tmp_path)

        assert printed(nb.cells[8]) == "65534 /notebook\n"

    @pytest.mark.timeout(60)
    def test_loop_interrupted_later_cells_run(self, require_sandbox, read_nb, tmp_path):
        """A loop is interrupted after the cell timeout; the cells after it run, double kept."""
        require_sandbox()
        nb = execute(read_nb("loops_forever"), tmp_path)

        assert "CellTimeoutError" in errors(nb.cells[3])
        assert nb.cells[6].execution_count is not None  # the quiz answer cell
        assert printed(nb.cells[8]) == PROBE
        assert untouched_tests(nb)
        (note,) = notes_of_kind(nb, "cell-timeout")
        assert (note.cell, note.grade_id) == (3, "double")
        assert note.text == f"interrupted after {CELL_TIMEOUT} s"

    @pytest.mark.timeout(60)
    def test_kernel_that_exits_is_restarted(self, require_sandbox, read_nb, tmp_path):
        """A cell calling os._exit(1) gets an error; a new kernel runs the rest, double kept."""
        require_sandbox()
        nb = execute(read_nb("kernel_exits"), tmp_path)

        assert errors(nb.cells[4]) == ["KernelDied"]
        assert printed(nb.cells[9]) == PROBE  # double defined again by the replay
        assert untouched_tests(nb)
        (note,) = notes_of_kind(nb, "kernel-died")
        assert note.cell == 4
        (replayed,) = notes_of_kind(nb, "replayed")
        assert replayed.text == "ran 2 cells above again in a new kernel"

    @pytest.mark.timeout(60)
    def test_kernel_ignoring_interrupt_is_restarted(self, require_sandbox, read_nb, tmp_path):
        """A cell that swallows the interrupt is given up on; a new kernel runs the rest."""
        require_sandbox()
        nb = execute(read_nb("ignores_interrupt"), tmp_path, timeout=2, iopub_timeout=1)

        assert "KernelUnresponsive" in errors(nb.cells[4])
        assert printed(nb.cells[9]) == PROBE
        assert untouched_tests(nb)
        (note,) = notes_of_kind(nb, "kernel-stuck")
        assert note.cell == 4

    @pytest.mark.timeout(60)
    def test_notebook_limit_leaves_later_cells_unrun(self, require_sandbox, out_of_time):
        """Once the notebook's time is used up, the cells left are not run, and that is noted."""
        require_sandbox()
        nb = out_of_time

        assert "CellTimeoutError" in errors(nb.cells[4])  # cut short by the notebook's limit
        for index in (7, 9):  # the quiz answer cell and the learner's last cell
            assert nb.cells[index].outputs == []
            assert nb.cells[index].execution_count is None
        assert untouched_tests(nb)
        (note,) = notes_of_kind(nb, "notebook-limit")
        assert note.text == "2 cells were not run because the notebook used up its 5 s"

    @pytest.mark.timeout(60)
    def test_timeout_note_gives_the_time_the_cell_had(self, require_sandbox, out_of_time):
        """A cell cut short by the notebook's limit is noted with the seconds it had, not 1 s."""
        require_sandbox()
        (note,) = notes_of_kind(out_of_time, "cell-timeout")
        assert note.cell == 4
        seconds = int(re.fullmatch(r"interrupted after (\d+) s", note.text).group(1))
        assert 2 <= seconds <= 6

    @pytest.mark.timeout(60)
    def test_printed_flood_capped(self, require_sandbox, flooded):
        """50,000 printed characters arrive capped near max_output_chars, with a mark."""
        require_sandbox()
        (output,) = flooded.cells[3].outputs
        assert output.name == "stdout"
        assert CAP_MARK in output.text
        assert len(output.text) < 3 * MAX_OUTPUT
        assert flooded.cells[3].execution_count is not None

    @pytest.mark.timeout(60)
    @pytest.mark.parametrize(
        "index",
        [pytest.param(6, id="displayed"), pytest.param(9, id="display-updates")],
    )
    def test_display_flood_capped(self, require_sandbox, flooded, index):
        """A displayed flood leaves a mark, not the text: a 50,000 character display_data (not
        through sys.stdout, cell 6), or five million-character updates of a shown display
        (cell 9)."""
        require_sandbox()
        (output,) = flooded.cells[index].outputs
        assert output.output_type == "display_data"
        assert output.data == {"text/plain": f"({CAP_MARK})"}

    @pytest.mark.timeout(60)
    def test_huge_error_message_capped(self, require_sandbox, flooded):
        """An error whose message is a million characters keeps its type, a cut message, a mark."""
        require_sandbox()
        (output,) = flooded.cells[8].outputs
        assert output.output_type == "error" and output.ename == "ValueError"
        assert CAP_MARK in output.evalue
        assert len(output.evalue) < 3 * MAX_OUTPUT
        assert sum(len(line) for line in output.traceback) < 3 * MAX_OUTPUT

    @pytest.mark.timeout(60)
    def test_floods_noted_and_tests_untouched(self, require_sandbox, flooded):
        """Each capped cell is noted once, and the test cells between them are left alone."""
        require_sandbox()
        capped = notes_of_kind(flooded, "output-capped")
        assert [(note.cell, note.grade_id) for note in capped] == [
            (3, "double"),
            (6, "quiz_double"),
            (8, None),
            (9, None),
        ]
        assert capped[0].text == f"output capped at {MAX_OUTPUT:,} characters"
        assert untouched_tests(flooded)
