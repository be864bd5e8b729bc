"""The parent's reader of a bot process's answers (tournaments/pipes.py): the same framing as
``multiprocessing.connection.Connection.send_bytes``, many messages per read."""

from __future__ import annotations

import os
import struct
from multiprocessing.connection import Connection

import pytest

from nothanks_lab.tournaments.pipes import FrameReader


def _pair(max_size: int = 1 << 20) -> tuple[Connection, FrameReader]:
    r, w = os.pipe()
    return Connection(w, readable=False), FrameReader(r, max_size)


def test_reads_what_send_bytes_wrote_in_order_many_per_read() -> None:
    out, inbox = _pair()
    sent = [b"T", b"P", b"", b'{"error": {}}', b"x" * 5000]
    for m in sent:
        out.send_bytes(m)
    got = []
    while len(got) < len(sent):
        assert inbox.poll(1.0)
        got.append(inbox.recv())
    assert got == sent
    assert not inbox.poll(0.01)  # nothing more: no message made up
    out.close()
    with pytest.raises(EOFError):
        inbox.poll(1.0)
    inbox.close()


def test_a_message_split_across_writes_waits_for_its_end() -> None:
    r, w = os.pipe()
    inbox = FrameReader(r, 100)
    os.write(w, struct.pack("!i", 3) + b"ab")
    assert not inbox.poll(0.05)
    os.write(w, b"c")
    assert inbox.poll(1.0) and inbox.recv() == b"abc"
    os.close(w)
    inbox.close()


def test_an_oversized_length_is_refused_before_its_payload() -> None:
    r, w = os.pipe()
    inbox = FrameReader(r, 100)
    os.write(w, struct.pack("!i", -1) + struct.pack("!Q", 10**12))
    with pytest.raises(OSError, match="at most 100"):
        inbox.poll(1.0)
    os.close(w)
    inbox.close()


def test_a_long_header_message_is_read() -> None:
    r, w = os.pipe()
    inbox = FrameReader(r, 100)
    os.write(w, struct.pack("!i", -1) + struct.pack("!Q", 2) + b"ok")
    assert inbox.poll(1.0) and inbox.recv() == b"ok"
    os.close(w)
    inbox.close()
