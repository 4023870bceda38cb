"""nbgrader's Execute preprocessor, made to survive what learners hand in.

`GuardedExecute` replaces `nbgrader.preprocessors.Execute` in the Autograde converter. It runs
the notebook cell by cell like nbgrader does (same kernel, same per-cell `Execute.timeout`,
interrupt on timeout, errors allowed) and adds:

- a whole-notebook limit (`notebook_timeout`): cells left when it runs out are not run, and a
  test cell not run gets an error output, so it scores 0 instead of full marks;
- a kernel that dies (`os._exit(1)`, a crash) or ignores the interrupt after a timeout is
  killed and restarted, the cells above are run again (test cells and the cells that killed it
  left out), and grading goes on, so the other answers keep their points;
- the rebinding guard of `kernel_guard.py` around every test cell;
- output capped per cell, in the kernel and again on arrival;
- kernels from `kernels.py`: on Unix sockets, started ahead, read in short slices.

What happened is recorded as notes in the notebook's metadata (`record_note`) for the report
and the feedback.
"""

from __future__ import annotations

import ast
import os
import secrets
from pathlib import Path
from queue import Empty
from time import monotonic

from nbclient import NotebookClient
from nbclient.exceptions import CellTimeoutError, DeadKernelError
from nbclient.util import ensure_async, run_sync
from nbformat.notebooknode import NotebookNode
from nbgrader import utils
from nbgrader.preprocessors import Execute
from traitlets import Bool, Integer, List, Unicode

from classroom.grading import kernels
from classroom.grading.results import record_note
from classroom.notebooks import grade_id, is_test, label, names

GUARD_SOURCE = Path(__file__).with_name("kernel_guard.py").read_text(encoding="utf-8")
CAP_MARK = "output capped by the grader"

# --------------------------------------------------------------------------------------------
# Outputs


def _error_output(ename: str, evalue: str) -> NotebookNode:
    return NotebookNode(
        output_type="error", ename=ename, evalue=evalue, traceback=[f"{ename}: {evalue}"]
    )


# --------------------------------------------------------------------------------------------
# The preprocessor


class GuardedExecute(Execute):
    """nbgrader's Execute with a notebook limit, kernel restarts, the guard and an output cap."""

    notebook_timeout = Integer(
        600, help="Seconds the whole notebook may run; cells left after that are not run."
    ).tag(config=True)
    max_output_chars = Integer(
        1_000_000, help="Characters of output kept per cell (-1: no limit)."
    ).tag(config=True)
    interrupt_grace = Integer(
        5, help="Seconds a kernel has to stop after the timeout interrupt before it is killed."
    ).tag(config=True)
    max_restarts = Integer(
        8, help="Kernel restarts allowed per notebook before the rest is left unrun."
    ).tag(config=True)
    guard = Bool(True, help="Guard test cells against rebound comparison functions.").tag(
        config=True
    )
    shutdown_kernel = Unicode("immediate").tag(config=True)
    warm_kernels = Bool(
        True,
        help="Start the next notebook's kernel while this one's grades are saved, so "
        "kernel start-up is off the critical path (the kernel then moves to the notebook's "
        "folder).",
    ).tag(config=True)
    preload = Bool(
        True,
        help="A kernel started ahead also runs the import statements of the notebook's "
        "leading locked cells (its set-up), in their order, so heavy imports happen while the "
        "previous notebook's grades are saved; the set-up cell then finds them loaded.",
    ).tag(config=True)
    hidden_markers = List(
        ["BEGIN HIDDEN TESTS", "END HIDDEN TESTS"],
        help="Delimiters of hidden tests; their cells' source is dropped from the kernel's "
        "history after each test, so no later cell can print it.",
    ).tag(config=True)

    def __init__(self, **kw):
        kw.setdefault("kernel_manager_class", kernels.IpcKernelManager)
        super().__init__(**kw)

    # nbclient hooks ---------------------------------------------------------------------

    def _get_timeout(self, cell):
        timeout = super()._get_timeout(cell)
        deadline = getattr(self, "_deadline", None)
        if deadline is None:
            return timeout
        left = max(1, int(deadline - monotonic()) + 1)
        return left if timeout is None else min(timeout, left)

    def output(self, outs, msg, display_id, cell_index):
        if self.max_output_chars is None or self.max_output_chars < 0:
            return super().output(outs, msg, display_id, cell_index)
        # The kernel caps first (kernel_guard); this catches what bypasses sys.stdout.
        limit = self.max_output_chars + self.max_output_chars // 20 + 1000
        text = (msg.get("content") or {}).get("text")
        if isinstance(text, str) and CAP_MARK in text:
            self._capped.add(cell_index)
        used = self._output_used.get(cell_index, 0)
        if used > limit:
            return None
        content = msg.get("content", {})
        if msg.get("msg_type") == "stream":
            size = len(content.get("text", ""))
        else:
            size = sum(len(str(v)) for v in (content.get("data") or {}).values())
        if used + size > limit:
            self._output_used[cell_index] = limit + 1
            if msg.get("msg_type") == "stream":
                content["text"] = content.get("text", "")[: max(limit - used, 0)]
                content["text"] += (
                    f"\n... output capped by the grader at {limit:,} characters ...\n"
                )
            else:
                content["data"] = {"text/plain": "(output capped by the grader)"}
            self._capped.add(cell_index)
        else:
            self._output_used[cell_index] = used + size
        return super().output(outs, msg, display_id, cell_index)

    # the run ----------------------------------------------------------------------------

    def preprocess(self, nb, resources=None, km=None):
        # As nbconvert's ExecutePreprocessor does: reset nbclient's per-notebook state.
        NotebookClient.__init__(self, nb, km)
        self._check_assign_resources(resources)
        self._output_used: dict[int, int] = {}
        self._capped: set[int] = set()
        run_sync(self._run_notebook)()
        self.set_widgets_metadata()
        return self.nb, self.resources

    def _note(self, kind, text, index=None):
        cell = self.nb.cells[index] if index is not None else None
        record_note(self.nb, kind, text, index, grade_id(cell) if cell is not None else None)

    def _plan(self):
        """Index of the first cell a learner can edit (the guard's snapshot goes before it)."""
        for index, cell in enumerate(self.nb.cells):
            if cell.cell_type == "code" and not utils.is_locked(cell):
                return index
        return len(self.nb.cells)

    async def _run_notebook(self):
        cells = self.nb.cells
        self._deadline = monotonic() + self.notebook_timeout
        self._snapshot_at = self._plan()
        self._snapshot_taken = False
        self._quarantined: dict[int, str] = {}
        self._timed_out: set[int] = set()
        self._restarts = 0
        self._gave_up = False
        try:
            await self._start_kernel()
            for index, cell in enumerate(cells):
                if index >= self._snapshot_at and not self._snapshot_taken:
                    await self._snapshot()
                if cell.cell_type != "code" or not cell.source.strip():
                    continue
                if self._gave_up or monotonic() >= self._deadline:
                    self._leave_unrun(index, cell)
                    continue
                await self._run_cell(index, cell)
        finally:
            await self._stop_kernel()
            if self.warm_kernels:
                await self._start_warm_kernel()
        unrun = [i for i, c in enumerate(cells) if c.metadata.get("classroom_unrun")]
        for index in unrun:
            cells[index].metadata.pop("classroom_unrun", None)
        if unrun:
            why = (
                "the kernel kept dying"
                if self._gave_up
                else f"the notebook used up its {self.notebook_timeout} s"
            )
            tests = [label(i, cells[i]) for i in unrun if is_test(cells[i])]
            self._note(
                "notebook-limit",
                f"{len(unrun)} cells were not run because {why}"
                + (f"; test cells scored 0: {', '.join(tests)}" if tests else ""),
            )
        for index in sorted(self._capped):
            self._note(
                "output-capped", f"output capped at {self.max_output_chars:,} characters", index
            )

    def _leave_unrun(self, index, cell):
        cell.outputs = []
        cell.metadata["classroom_unrun"] = True
        if is_test(cell):
            why = "the kernel kept dying" if self._gave_up else "the notebook's time ran out"
            cell.outputs.append(_error_output("NotRun", f"not run by the grader: {why}"))

    async def _run_cell(self, index, cell):
        test = is_test(cell)
        if test:
            restored = await self._guard_call("before_test")
            if restored is None:
                self._void(index, cell, "the grader's guard could not be reached before the test")
                return
            if restored:
                self._note(
                    "rebinding",
                    f"code above this test rebound {names(restored)}; the originals were put "
                    "back before the test ran",
                    index,
                )
        timeout = self._get_timeout(cell)  # before the run: after it the notebook's time is gone
        try:
            await self.async_execute_cell(cell, index, execution_count=self.code_cells_executed + 1)
        except DeadKernelError:
            cell.outputs.append(
                _error_output(
                    "KernelDied",
                    "this cell stopped the Python kernel; the grader restarted it, ran the "
                    "cells above again without this one, and went on",
                )
            )
            self._note("kernel-died", "the kernel died in this cell; restarted", index)
            self._quarantined[index] = "died"
            await self._restart_and_replay(index)
            return
        except CellTimeoutError:
            # nbclient gives up waiting for the cell's output after the interrupt
            cell.outputs.append(_error_output("CellTimeoutError", "no reply before the time limit"))
        if any(o.get("ename") == "CellTimeoutError" for o in cell.get("outputs", [])):
            self._timed_out.add(index)
            if await self._responsive():
                self._note("cell-timeout", f"interrupted after {timeout} s", index)
            else:
                cell.outputs.append(
                    _error_output(
                        "KernelUnresponsive",
                        "the cell ignored the interrupt; the grader restarted the kernel, "
                        "ran the cells above again without this one, and went on",
                    )
                )
                self._note(
                    "kernel-stuck", "ran over the time limit and ignored the interrupt", index
                )
                self._quarantined[index] = "stuck"
                await self._restart_and_replay(index)
                return
        if test:
            changed = await self._guard_call("after_test")
            if changed is None:
                self._void(index, cell, "the grader's guard could not be reached after the test")
            elif changed:
                self._void(
                    index,
                    cell,
                    f"code called by this test rebound {names(changed)} while it ran",
                )

    def _void(self, index, cell, why):
        cell.outputs.append(_error_output("GraderIntegrityError", why + "; no points"))
        self._note("tampering", why + "; the test cell scores 0", index)

    # kernel life ------------------------------------------------------------------------

    def _kernel_name(self) -> str:
        return self.kernel_name or self.nb.metadata.get("kernelspec", {}).get("name", "")

    def _setup_imports(self) -> list[tuple[str, str]]:
        """(statement, top-level module) for each import of the leading locked cells."""
        found = []
        for cell in self.nb.cells[: self._snapshot_at]:
            if cell.cell_type != "code" or not utils.is_locked(cell):
                continue
            try:
                tree = ast.parse(cell.source)
            except SyntaxError:
                continue
            for node in tree.body:
                if isinstance(node, ast.Import):
                    found += [(f"import {a.name}", a.name.split(".")[0]) for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    found.append((ast.unparse(node), node.module.split(".")[0]))
        return found

    async def _start_warm_kernel(self):
        """Start a kernel for the next notebook; it boots (and imports what this notebook's
        set-up imports) while this one's grades are saved."""
        if len(kernels.WARM) >= 1:
            return
        saved, self.km = self.km, None
        arguments = list(self.extra_arguments)
        imports = self._setup_imports() if self.preload else []
        if imports:
            code = kernels.PRELOAD.format(imports=imports)
            line = f"exec(compile({code!r}, '<grader preload>', 'exec'), {{}})"
            self.extra_arguments = arguments + [f"--IPKernelApp.exec_lines={line}"]
        try:
            km = self.create_kernel_manager()
            await self.async_start_new_kernel(cwd=os.getcwd())
            kernels.WARM.append(km)
        except Exception as exc:  # no harm: the next notebook starts its own
            self.log.warning("could not start a kernel ahead: %s", exc)
        finally:
            self.km = saved
            self.extra_arguments = arguments

    async def _start_kernel(self):
        moved = False
        if self.km is None and self.warm_kernels:
            self.km = await kernels.take_warm(self._kernel_name())
            moved = self.km is not None
        if self.km is None:
            self.km = self.create_kernel_manager()
        if not self.km.has_kernel:
            await self.async_start_new_kernel()
        mark = monotonic()
        await self.async_start_new_kernel_client()
        self._slow("kernel client ready", mark)
        kernels.slice_waits(self.kc.shell_channel)
        kernels.slice_waits(self.kc.iopub_channel)
        path = self.resources.get("metadata", {}).get("path")
        if moved and path:
            status, _ = await self._run_quiet(f"import os as _os; _os.chdir({path!r}); del _os", 30)
            if status != "ok":
                self.log.warning("could not move the kernel started ahead: %s", status)
        mark = monotonic()
        reply = await self.async_wait_for_reply(await ensure_async(self.kc.kernel_info()))
        self._slow("kernel_info", mark)
        if reply and "language_info" in reply["content"]:
            self.nb.metadata["language_info"] = reply["content"]["language_info"]
        self._snapshot_taken = False
        self._guard_key = "_grader_guard_" + secrets.token_hex(6)
        self._ok_token = secrets.token_hex(16)
        if self.guard:
            install = (
                GUARD_SOURCE
                + f"\ninstall({self._guard_key!r}, {self._ok_token!r}, "
                + f"output_cap={self.max_output_chars}, markers={tuple(self.hidden_markers)!r})\n"
            )
            code = f"exec(compile({install!r}, '<grader guard>', 'exec'), {{}})"
            mark = monotonic()
            status, _ = await self._run_quiet(code, 30)
            self._slow("guard install", mark)
            if status != "ok":
                self.log.warning("could not install the grader's guard: %s", status)

    async def _stop_kernel(self):
        if self.km is not None:
            try:
                await self._async_cleanup_kernel()
            except Exception as exc:  # a kernel already gone
                self.log.warning("kernel cleanup: %s", exc)
        self.km = None
        self.kc = None

    async def _run_quiet(self, code, timeout, user_expressions=None):
        """Run code without recording it; ('ok'|'error'|'timeout'|'dead', reply content)."""
        msg_id = await ensure_async(
            self.kc.execute(
                code,
                silent=True,
                store_history=False,
                user_expressions=user_expressions or {},
                allow_stdin=False,
                stop_on_error=False,
            )
        )
        end = monotonic() + timeout
        while True:
            left = end - monotonic()
            if left <= 0:
                return "timeout", None
            try:
                msg = await ensure_async(self.kc.shell_channel.get_msg(timeout=min(left, 1.0)))
            except Empty:
                if not await ensure_async(self.kc.is_alive()):
                    return "dead", None
                continue
            if msg["parent_header"].get("msg_id") == msg_id:
                content = msg["content"]
                return ("ok" if content.get("status") == "ok" else "error"), content

    async def _guard_call(self, method):
        """Call the guard; the names it reports, or None when it did not answer truly."""
        if not self.guard:
            return []
        expression = f"__import__('builtins').__dict__[{self._guard_key!r}].{method}()"
        status, content = await self._run_quiet("", 30, {"r": expression})
        if status != "ok":
            return None
        result = content.get("user_expressions", {}).get("r", {})
        text = result.get("data", {}).get("text/plain", "") if result.get("status") == "ok" else ""
        text = text.strip("'\"")
        token, _, names = text.partition("|")
        if token != self._ok_token:
            return None
        return [name for name in names.split(",") if name]

    async def _snapshot(self):
        self._snapshot_taken = True
        if self.guard:
            expression = f"__import__('builtins').__dict__[{self._guard_key!r}].snapshot()"
            mark = monotonic()
            status, _ = await self._run_quiet("", 60, {"r": expression})
            self._slow("guard snapshot", mark)
            if status != "ok":
                self.log.warning("the guard's snapshot failed: %s", status)

    def _slow(self, what: str, mark: float) -> None:
        if monotonic() - mark > 5:
            self.log.warning("slow %s: %.1f s", what, monotonic() - mark)

    async def _responsive(self):
        """After a timeout interrupt: does the kernel answer again within the grace time?"""
        for attempt in range(2):
            status, _ = await self._run_quiet("pass", self.interrupt_grace)
            if status in ("ok", "error"):
                return True
            if status == "dead":
                return False
            if attempt == 0:
                await ensure_async(self.km.interrupt_kernel())
        return False

    async def _restart_and_replay(self, upto):
        """Kill the kernel, start another, run the code cells above `upto` again quietly
        (test cells and cells that killed a kernel left out)."""
        while True:
            self._restarts += 1
            if self._restarts > self.max_restarts:
                self._gave_up = True
                return
            await self._stop_kernel()
            await self._start_kernel()
            if await self._replay(upto):
                return

    async def _replay(self, upto):
        """True when the cells above `upto` ran again; False when the kernel died again."""
        replayed = 0
        for index, cell in enumerate(self.nb.cells[:upto]):
            if index >= self._snapshot_at and not self._snapshot_taken:
                await self._snapshot()
            if (
                cell.cell_type != "code"
                or not cell.source.strip()
                or index in self._quarantined
                or index in self._timed_out
                or is_test(cell)
                or cell.metadata.get("classroom_unrun")
            ):
                continue
            left = self._deadline - monotonic()
            if left <= 0:
                return True
            timeout = min(left, self.timeout or left)
            status, _ = await self._run_quiet(cell.source, timeout)
            replayed += 1
            if status == "dead" or (status == "timeout" and not await self._responsive()):
                self._quarantined[index] = "died while run again"
                self._note("kernel-died", "the kernel died when this cell was run again", index)
                return False
        if upto > self._snapshot_at and not self._snapshot_taken:
            await self._snapshot()
        self._note("replayed", f"ran {replayed} cells above again in a new kernel", upto)
        return True
