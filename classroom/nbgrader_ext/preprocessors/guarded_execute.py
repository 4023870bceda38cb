"""GuardedExecute: nbgrader's Execute, made to survive what learners hand in.

In the autograde chain in place of `nbgrader.preprocessors.Execute`. It runs the notebook cell
by cell like nbgrader does (one kernel, the per-cell `Execute.timeout`, interrupt on timeout,
errors allowed), in a sandboxed kernel (`classroom.isolation.sandbox.SandboxedKernelManager`, set by
nbgrader_config.py), and:

- never runs a test cell: its points are decided by DecideVerdicts, outside the kernel, so
  nothing the learner's code does to the kernel can reach a test;
- a whole-notebook limit (`notebook_timeout`): cells left when it runs out are not run;
- a kernel that dies (`os._exit(1)`, a crash) or ignores the interrupt after a timeout is
  killed and restarted, the cells above are run again (the cells that killed it left out),
  and the run goes on;
- every output a cell can emit counts against its cap (`max_output_chars`): streams,
  display data, results, errors (message and traceback) and display updates;
- kernels forked from the worker slot's zygote (`warm`, classroom.isolation.zygote: the interpreter,
  ipykernel and the set-up's imports paid once per worker), or cold kernels from
  `classroom.isolation.kernels` (on Unix sockets, one started ahead for the next notebook);
  either way read in short slices.

What happened is recorded as notes in the notebook's metadata (`record_note`).
"""

from __future__ import annotations

import asyncio
import os
from queue import Empty
from time import monotonic

import zmq
from nbclient import NotebookClient
from nbclient.exceptions import CellTimeoutError, DeadKernelError
from nbclient.util import ensure_async, run_sync
from nbformat.notebooknode import NotebookNode
from nbgrader.preprocessors import Execute
from traitlets import Bool, Integer, Unicode, default

from classroom.isolation import kernels
from classroom.nbgrader_ext.notebooks import grade_id, is_test
from classroom.nbgrader_ext.notes import record_note
from classroom.nbgrader_ext.preprocessors.settings import setting

CAP_MARK = "output capped by the grader"


def _error_output(ename: str, evalue: str) -> NotebookNode:
    return NotebookNode(
        output_type="error", ename=ename, evalue=evalue, traceback=[f"{ename}: {evalue}"]
    )


def output_size(content: dict) -> int:
    """Characters an output message carries, whatever its kind."""
    size = len(str(content.get("text", ""))) + len(str(content.get("evalue", "")))
    size += len(str(content.get("ename", "")))
    size += sum(len(str(line)) for line in content.get("traceback") or [])
    size += sum(len(str(value)) for value in (content.get("data") or {}).values())
    return size + len(str(content.get("metadata") or ""))


def capped(content: dict, room: int) -> dict:
    """The content of an output cut to `room` characters, saying so."""
    note = f"\n... {CAP_MARK} ...\n"
    if "text" in content:
        return {**content, "text": str(content["text"])[: max(room, 0)] + note}
    if "evalue" in content:
        evalue = str(content["evalue"])[: max(room, 0)] + note
        return {**content, "evalue": evalue, "traceback": [f"{content.get('ename')}: {evalue}"]}
    return {**content, "data": {"text/plain": f"({CAP_MARK})"}, "metadata": {}}


class GuardedExecute(Execute):
    """nbgrader's Execute with a notebook limit, kernel restarts and an output cap, which
    leaves the test cells to DecideVerdicts."""

    notebook_timeout = setting(
        Integer, 180, "Seconds the whole notebook may run; cells left after that are not run."
    )
    max_output_chars = setting(
        Integer, 1_000_000, "Characters of output kept per cell, every kind counted (-1: no limit)."
    )
    interrupt_grace = setting(
        Integer, 5, "Seconds a kernel has to stop after the timeout interrupt before it is killed."
    )
    max_restarts = setting(
        Integer, 8, "Kernel restarts allowed per notebook before the rest is left unrun."
    )
    shutdown_kernel = Unicode("immediate").tag(config=True)
    warm = setting(
        Bool,
        True,
        "Fork each sandboxed kernel from the worker slot's zygote, a sandboxed Python with "
        "ipykernel, NumPy, MuJoCo, the course and the set-ups' imports loaded once "
        "(classroom.isolation.zygote); "
        "False: a cold kernel (a new interpreter) for every notebook.",
    )
    warm_kernels = setting(
        Bool,
        True,
        "Cold kernels only: start the next notebook's kernel while this one's grades are "
        "saved, so kernel start-up is off the critical path.",
    )
    sandboxed = setting(
        Bool,
        True,
        "Run the kernel in the sandbox (classroom.isolation.sandbox); off only when told.",
    )

    def __init__(self, *args, **kwargs):
        # nbgrader's Execute.__init__ passes kernel_manager_class=AsyncKernelManager, so the
        # default below would never be used: the kernel would run unsandboxed, as the grader.
        given = "kernel_manager_class" in kwargs
        super().__init__(*args, **kwargs)
        if not given:
            self.kernel_manager_class = self._kernel_manager_class_default()

    @default("kernel_manager_class")
    def _kernel_manager_class_default(self):
        if not self.sandboxed:
            return kernels.IpcKernelManager
        from classroom.isolation import sandbox

        sandbox.require()
        if self.warm:
            from classroom.isolation import zygote

            return zygote.WarmKernelManager
        return sandbox.SandboxedKernelManager

    @property
    def _ahead(self) -> bool:
        """Whether kernels are started ahead: cold kernels only (a fork needs no head start,
        and the slot's sandbox holds one kernel at a time)."""
        from classroom.isolation import zygote

        return self.warm_kernels and not issubclass(
            self.kernel_manager_class, zygote.WarmKernelManager
        )

    # nbclient hooks ---------------------------------------------------------------------

    def _get_timeout(self, cell):
        timeout = super()._get_timeout(cell)
        deadline = getattr(self, "_deadline", None)
        if deadline is None:
            return timeout
        left = max(1, int(deadline - monotonic()) + 1)
        return left if timeout is None else min(timeout, left)

    def _room(self, cell_index: int, content: dict) -> tuple[bool, dict]:
        """(keep the output?, its content, cut when the cell's cap is reached)."""
        if self.max_output_chars is None or self.max_output_chars < 0:
            return True, content
        used = self._output_used.get(cell_index, 0)
        if used > self.max_output_chars:
            return False, content
        size = output_size(content)
        if used + size <= self.max_output_chars:
            self._output_used[cell_index] = used + size
            return True, content
        self._output_used[cell_index] = self.max_output_chars + 1
        self._capped.add(cell_index)
        return True, capped(content, self.max_output_chars - used)

    def output(self, outs, msg, display_id, cell_index):
        keep, content = self._room(cell_index, msg.get("content") or {})
        if not keep:
            return None
        return super().output(outs, {**msg, "content": content}, display_id, cell_index)

    def _update_display_id(self, display_id, msg):
        # An update replaces a shown output: it counts against the cap of every cell showing
        # it (here: the cell running now), like a new output would.
        index = getattr(self, "_running", None)
        keep, content = self._room(index, msg.get("content") or {})
        if keep:
            super()._update_display_id(display_id, {**msg, "content": content})

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

    def _runnable(self, cell) -> bool:
        return cell.cell_type == "code" and bool(cell.source.strip()) and not is_test(cell)

    async def _run_notebook(self):
        self._deadline = monotonic() + self.notebook_timeout
        self._quarantined: dict[int, str] = {}
        self._timed_out: set[int] = set()
        self._restarts, self._gave_up = 0, False
        unrun = []
        try:
            await self._start_kernel()
            for index, cell in enumerate(self.nb.cells):
                if not self._runnable(cell):
                    continue
                if self._gave_up or monotonic() >= self._deadline:
                    cell.outputs = []
                    unrun.append(index)
                    continue
                self._running = index
                await self._run_cell(index, cell)
        finally:
            await self._stop_kernel()
            if self._ahead:
                await self._start_warm_kernel()
        self._note_the_run(unrun)

    def _note_the_run(self, unrun: list[int]) -> None:
        if unrun:
            why = (
                "the kernel kept dying"
                if self._gave_up
                else (f"the notebook used up its {self.notebook_timeout} s")
            )
            self._note("notebook-limit", f"{len(unrun)} cells were not run because {why}")
        for index in sorted(self._capped):
            text = f"output capped at {self.max_output_chars:,} characters"
            self._note("output-capped", text, index)

    async def _run_cell(self, index, cell):
        timeout = self._get_timeout(cell)  # before the cell runs: the time it is given
        try:
            await self.async_execute_cell(cell, index, execution_count=self.code_cells_executed + 1)
        except (DeadKernelError, ValueError) as error:
            # ValueError: jupyter_client refused a message of the kernel ("Invalid Signature":
            # a kernel out of threads sends broken frames); the kernel is not trusted again.
            refused = isinstance(error, ValueError)
            cell.outputs.append(
                _error_output(
                    "KernelDied",
                    "this cell stopped the Python kernel; the grader restarted it, ran the "
                    "cells above again without this one, and went on",
                )
            )
            why = "sent a message the grader refused" if refused else "died in this cell"
            self._note("kernel-died", f"the kernel {why}; restarted", index)
            self._quarantined[index] = "died"
            await self._restart_and_replay(index)
            return
        except CellTimeoutError:
            # nbclient gives up waiting for the cell's output after the interrupt
            cell.outputs.append(_error_output("CellTimeoutError", "no reply before the time limit"))
        if any(o.get("ename") == "CellTimeoutError" for o in cell.get("outputs", [])):
            await self._after_timeout(index, cell, timeout)

    async def _after_timeout(self, index, cell, timeout) -> None:
        self._timed_out.add(index)
        if await self._responsive():
            self._note("cell-timeout", f"interrupted after {timeout} s", index)
            return
        cell.outputs.append(
            _error_output(
                "KernelUnresponsive",
                "the cell ignored the interrupt; the grader restarted the kernel, ran the cells "
                "above again without this one, and went on",
            )
        )
        self._note("kernel-stuck", "ran over the time limit and ignored the interrupt", index)
        self._quarantined[index] = "stuck"
        await self._restart_and_replay(index)

    # kernel life ------------------------------------------------------------------------

    def _kernel_name(self) -> str:
        return self.kernel_name or self.nb.metadata.get("kernelspec", {}).get("name", "")

    def _folder(self) -> str | None:
        return self.resources.get("metadata", {}).get("path")

    async def _start_warm_kernel(self):
        """Start a kernel for the next notebook: it boots while this one's grades are saved."""
        if len(kernels.WARM) >= 1:
            return
        saved, self.km = self.km, None
        try:
            km = self.create_kernel_manager()
            if hasattr(km, "provide_folder"):  # sandboxed: its folder comes with the notebook
                km.folder_later = True
                await self.async_start_new_kernel()
            else:
                await self.async_start_new_kernel(cwd=os.getcwd())
            kernels.WARM.append(km)
        except Exception as exc:  # no harm: the next notebook starts its own
            self.log.warning("could not start a kernel ahead: %s", exc)
        finally:
            self.km = saved

    async def _start_kernel(self):
        moved = False
        if self.km is None and self._ahead:
            self.km = await kernels.take_warm(self._kernel_name())
            moved = self.km is not None
        if self.km is None:
            self.km = self.create_kernel_manager()
        if not self.km.has_kernel:
            await self.async_start_new_kernel()
        await self.async_start_new_kernel_client()
        kernels.slice_waits(self.kc.shell_channel)
        kernels.slice_waits(self.kc.iopub_channel)
        if moved and self._folder():
            await self._move_kernel(self._folder())
        reply = await self.async_wait_for_reply(await ensure_async(self.kc.kernel_info()))
        if reply and "language_info" in reply["content"]:
            self.nb.metadata["language_info"] = reply["content"]["language_info"]

    async def async_start_new_kernel_client(self):
        """nbclient's, waiting for the kernel with kernels.wait_for_ready (no fixed 0.2 s
        of iopub silence), its sockets retrying a connection every 10 ms, not ZMQ's 100 ms
        (they connect before a just forked kernel has bound its sockets)."""
        try:
            self.kc = self.km.client()
            self.kc.context.setsockopt(zmq.RECONNECT_IVL, kernels.RECONNECT_MS)
            await ensure_async(self.kc.start_channels())
            await kernels.wait_for_ready(self.kc, self.km, self.startup_timeout)
        except Exception as error:
            self.log.error("Error starting a kernel client: %s", error)
            await self._async_cleanup_kernel()
            raise
        self.kc.allow_stdin = False
        return self.kc

    async def _move_kernel(self, folder: str) -> None:
        """Give a kernel started ahead this notebook's folder (a sandbox gets a copy)."""
        if hasattr(self.km, "provide_folder"):
            self.km.provide_folder(folder)
            return
        status, _ = await self._run_quiet(f"import os as _os; _os.chdir({folder!r}); del _os", 30)
        if status != "ok":
            self.log.warning("could not move the kernel started ahead: %s", status)

    async def _stop_kernel(self):
        if self.km is not None:
            try:
                await self._async_cleanup_kernel()
            except Exception as exc:  # a kernel already gone
                self.log.warning("kernel cleanup: %s", exc)
        self.km = None
        self.kc = None

    async def _run_quiet(self, code, timeout):
        """Run code without recording it; ('ok'|'error'|'timeout'|'dead', reply content)."""
        msg_id = await ensure_async(
            self.kc.execute(
                code, silent=True, store_history=False, allow_stdin=False, stop_on_error=False
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
            except ValueError:  # a message refused (bad signature): as good as dead
                return "dead", None
            if msg["parent_header"].get("msg_id") == msg_id:
                content = msg["content"]
                return ("ok" if content.get("status") == "ok" else "error"), content

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
        (the cells that killed a kernel or timed out left out)."""
        while True:
            self._restarts += 1
            if self._restarts > self.max_restarts:
                self._gave_up = True
                return
            await self._stop_kernel()
            try:
                await self._start_kernel()
            except RuntimeError:  # died at start: the last one's processes were still going
                await asyncio.sleep(1)
                continue
            if await self._replay(upto):
                return

    async def _replay(self, upto):
        """True when the cells above `upto` ran again; False when the kernel died again."""
        replayed = 0
        for index, cell in enumerate(self.nb.cells[:upto]):
            skipped = index in self._quarantined or index in self._timed_out
            if not self._runnable(cell) or skipped:
                continue
            left = self._deadline - monotonic()
            if left <= 0:
                return True
            status, _ = await self._run_quiet(cell.source, min(left, self.timeout or left))
            replayed += 1
            if status == "dead" or (status == "timeout" and not await self._responsive()):
                self._quarantined[index] = "died while run again"
                self._note("kernel-died", "the kernel died when this cell was run again", index)
                return False
        self._note("replayed", f"ran {replayed} cells above again in a new kernel", upto)
        return True
