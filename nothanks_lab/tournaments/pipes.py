"""Reading a bot process's answers: many framed messages per system call.

An isolated bot (`nothanks_lab.tournaments.sandbox`) answers each decision of a batch with one
short message as soon as it has decided, so the parent knows exactly which decision a bot that
overran its time limit was stuck on. Read the way `multiprocessing.connection.Connection` reads
(a poll, then two reads per message), a batch of 100 answers costs the parent 300 system calls
while the bot itself only had a threshold to compare: the parent's reading was most of an
isolated league's time. `FrameReader` reads the same framing (a 4-byte big-endian length, or
-1 and an 8-byte length, then the payload: what ``Connection.send_bytes`` writes) with one
``os.read`` of everything that has arrived, and hands the messages out one by one from its
buffer; it polls the pipe only when no whole message is buffered.
"""

from __future__ import annotations

import os
import select
import struct
import time

__all__ = ["FrameReader"]

_SHORT = struct.Struct("!i")
_LONG = struct.Struct("!Q")
_CHUNK = 1 << 16


class FrameReader:
    """The read end of a pipe carrying ``Connection.send_bytes`` messages."""

    def __init__(self, fd: int, max_size: int) -> None:
        self.fd = fd
        #: Longest message accepted (bytes): a longer one is an OSError as soon as its length
        #: has arrived, before its payload is buffered.
        self.max_size = max_size
        self._buf = bytearray()
        self._poller = select.poll()
        self._poller.register(fd, select.POLLIN | select.POLLHUP | select.POLLERR)
        self._eof = False

    def _frame_end(self) -> tuple[int, int] | None:
        """(start, end) of the first whole buffered message's payload, or None."""
        buf = self._buf
        if len(buf) < 4:
            return None
        (size,) = _SHORT.unpack_from(buf)
        start = 4
        if size == -1:
            if len(buf) < 12:
                return None
            (size,) = _LONG.unpack_from(buf, 4)
            start = 12
        if not 0 <= size <= self.max_size:
            raise OSError(f"a message of {size} bytes (at most {self.max_size})")
        end = start + size
        return (start, end) if len(buf) >= end else None

    def poll(self, timeout: float) -> bool:
        """Whether a whole message is there within `timeout` seconds (EOFError: the pipe closed)."""
        if self._frame_end() is not None:
            return True
        deadline = time.monotonic() + max(timeout, 0.0)
        while True:
            if self._eof:
                raise EOFError("the bot's process closed its pipe")
            left = deadline - time.monotonic()
            if left <= 0 or not self._poller.poll(max(left, 0.0) * 1000):
                return self._frame_end() is not None
            data = os.read(self.fd, _CHUNK)
            if not data:
                self._eof = True
                if self._frame_end() is None:
                    raise EOFError("the bot's process closed its pipe")
            self._buf += data
            if self._frame_end() is not None:
                return True

    def recv(self) -> bytes:
        """The next whole message (call after `poll` said one is there)."""
        found = self._frame_end()
        if found is None:
            raise OSError("no whole message is buffered")
        start, end = found
        data = bytes(self._buf[start:end])
        del self._buf[:end]
        return data

    def close(self) -> None:
        """Close the pipe's read end."""
        try:
            self._poller.unregister(self.fd)
        except (KeyError, ValueError):
            pass
        os.close(self.fd)
