"""Reading a bot process's answers: many framed messages per system call.

An isolated bot (`nothanks_lab.tournaments.child`) answers a batch of decisions with one short
message, and a failing one with its moves so far and a message saying what went wrong. Read the
way `multiprocessing.connection.Connection` reads (a poll, then two reads per message), every
message costs the parent three system calls. `FrameReader` reads the same framing (a 4-byte
big-endian length, or -1 and an 8-byte length, then the payload: what
``Connection.send_bytes`` writes) with one ``os.read`` of everything that has arrived, and hands
the messages out one by one from its buffer; it polls the pipe only when no whole message is
buffered.

The other way, a batch of views travels as ints (`encode_views`, `decode_views`): the public
facts of each view and nothing else, cheaper to pack and unpack than JSON's dicts and lists.
"""

from __future__ import annotations

import os
import select
import struct
import time
from array import array
from typing import Any

from ..rules import Rules
from ..tables import cards_of as _cards_of
from ..view import PlayerView

__all__ = ["FrameReader", "FrameWriter", "decode_views", "encode_views"]

_SHORT = struct.Struct("!i")
_LONG = struct.Struct("!Q")
_CHUNK = 1 << 16


class FrameError(OSError):
    """The bytes on a pipe are not a message: its writer wrote something else to it."""


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
            raise FrameError(f"a message of {size} bytes (at most {self.max_size})")
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
            left = deadline - time.monotonic()  # past it: still take what has already come
            if not self._poller.poll(max(left, 0.0) * 1000):
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


class FrameWriter:
    """The write end of a pipe to a bot's process, writing ``Connection.send_bytes`` frames
    without ever blocking past a deadline: a process that stops reading (a signal handler that
    sleeps, say) cannot hold the parent once a batch is larger than the pipe's buffer."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        os.set_blocking(fd, False)
        self._poller = select.poll()
        self._poller.register(fd, select.POLLOUT | select.POLLERR)

    def send(self, data: bytes, timeout: float) -> bool:
        """Write one frame of `data`; False if the reader did not take all of it within `timeout` s
        (BrokenPipeError: the reader is gone)."""
        head = (
            _SHORT.pack(len(data))
            if len(data) < 2**31 - 1
            else _SHORT.pack(-1) + _LONG.pack(len(data))
        )
        view = memoryview(head + data)
        deadline = time.monotonic() + max(timeout, 0.0)
        while view:
            try:
                view = view[os.write(self.fd, view) :]
                continue
            except BlockingIOError:
                pass
            left = deadline - time.monotonic()
            if left <= 0 or not self._poller.poll(left * 1000):
                return False
        return True

    def close(self) -> None:
        """Close the pipe's write end."""
        os.close(self.fd)


def _view_facts(view: PlayerView) -> list[int]:
    """A view's public facts as ints (the rules travel once, at start): seat, players, active
    card (-1: none), pot, cards left, current player (-1: none), each seat's chips, each seat's
    hand as a bit mask (bit c: card c)."""
    active, current = view.active_card, view.current_player
    return [
        view.seat,
        view.n_players,
        -1 if active is None else active,
        view.pot,
        view.cards_left,
        -1 if current is None else current,
        *view.chips,
        *view.hand_masks,
    ]


def encode_views(views: list[PlayerView]) -> bytes:
    """The message of a batch: its size, then each view's facts, as 8-byte ints (the machine's
    own byte order: both ends run on it). Packing ints costs a fraction of JSON's dicts and
    lists, in the parent and in the child, and only the facts fit in."""
    flat = [len(views)]
    for view in views:
        flat += _view_facts(view)
    return array("q", flat).tobytes()


def decode_views(data: bytes, rules: Rules, hands_of: dict[int, tuple[int, ...]]) -> list[Any]:
    """The views `encode_views` packed, built whole (`hands_of`: a cache of mask -> cards)."""
    ints = array("q")
    ints.frombytes(data)
    views, i = [], 1
    for _ in range(ints[0]):
        seat, n, active, pot, left, current = ints[i : i + 6]
        chips = tuple(ints[i + 6 : i + 6 + n])
        masks = tuple(ints[i + 6 + n : i + 6 + 2 * n])
        i += 6 + 2 * n
        hands = []
        for m in masks:
            hand = hands_of.get(m)
            if hand is None:
                hand = hands_of[m] = _cards_of(m)
            hands.append(hand)
        # The parent sends only views of its games or of screening's made-up positions, all
        # checked there; nothing in this process is protected by re-checking them.
        views.append(
            PlayerView._of_engine(
                {
                    "seat": seat,
                    "n_players": n,
                    "active_card": None if active < 0 else active,
                    "pot": pot,
                    "my_chips": chips[seat],
                    "chips": chips,
                    "hands": tuple(hands),
                    "cards_left": left,
                    "rules": rules,
                    "current_player": None if current < 0 else current,
                    "hand_masks": masks,
                }
            )
        )
    if i != len(ints):
        raise ValueError(f"a batch of {ints[0]} views holds {len(ints) - i} ints more")
    return views
