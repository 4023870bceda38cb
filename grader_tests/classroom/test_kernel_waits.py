"""kernels.slice_waits: a reply whose wake-up was lost is read within a slice, not at the end
of the cell's timeout; and the tests' own notebook runner waits that way too.

The lost wake-up is played by a channel whose poll, once, sleeps through its whole timeout
although a message is queued (what a ZMQ socket did when nbclient sent on it while polling).
"""

import asyncio
import time
from queue import Empty

import lesson_code
import nbformat

from classroom.isolation import kernels


class LostWakeUp:
    """A channel with one queued message (or none) whose first poll misses it."""

    def __init__(self, message=None):
        self.message, self.polls = message, []

    async def get_msg(self, timeout=None):
        self.polls.append(timeout)
        if len(self.polls) == 1 or self.message is None:
            await asyncio.sleep(timeout)
            raise Empty
        return self.message


def timed(channel, timeout: float):
    start = time.monotonic()
    try:
        result = asyncio.run(channel.get_msg(timeout=timeout))
    except Empty:
        result = Empty
    return result, time.monotonic() - start


def test_a_missed_message_is_read_within_a_slice():
    channel = LostWakeUp({"msg_type": "execute_reply"})
    kernels.slice_waits(channel, step=0.05)
    message, seconds = timed(channel, timeout=30)
    assert message == {"msg_type": "execute_reply"}
    assert seconds < 1, f"{seconds:.2f} s: the whole timeout was waited"
    assert channel.polls[0] == 0.05


def test_without_a_message_empty_comes_at_the_timeout():
    channel = LostWakeUp()
    kernels.slice_waits(channel, step=0.05)
    message, seconds = timed(channel, timeout=0.3)
    assert message is Empty
    assert 0.28 <= seconds < 1.0, seconds
    assert len(channel.polls) >= 5, channel.polls


def test_the_unsliced_channel_waits_the_whole_timeout():
    """The fixture is real: without slicing, the missed message costs the timeout."""
    message, seconds = timed(LostWakeUp({"msg_type": "execute_reply"}), timeout=0.5)
    assert message is Empty and seconds >= 0.49


def test_run_notebook_slices_its_client_waits(monkeypatch, tmp_path):
    sliced, slice_waits = [], kernels.slice_waits

    def recording(channel, step=0.5):
        sliced.append(type(channel).__name__)
        return slice_waits(channel, step)

    monkeypatch.setattr(lesson_code.kernels, "slice_waits", recording)
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print(6 * 7)")])
    lesson_code.run_notebook(nb, tmp_path, timeout=60, kernel_name="python3")
    assert nb.cells[0].outputs[0]["text"] == "42\n"
    assert len(sliced) == 2, sliced
