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


def _views_of_a_game(deck: object, moves: int) -> list[object]:
    """The views of every seat after `moves` moves (take when a pass is refused, else pass
    then take, alternating), and the finished round's."""
    from nothanks_lab import Action, Game

    game = Game(4, deck=deck, first_player=2)
    views = []
    for k in range(moves):
        if game.is_over:
            break
        legal = game.legal_actions()
        game.step(Action.PASS if Action.PASS in legal and k % 3 else Action.TAKE)
        views.append(game.view(k % 4))
    while not game.is_over:
        game.step(Action.TAKE)
    return [*views, game.view(1)]


def test_a_batch_of_views_travels_as_its_public_facts_only() -> None:
    from array import array

    from nothanks_lab.deals import deal_decks
    from nothanks_lab.rules import Rules
    from nothanks_lab.tournaments.pipes import decode_views, encode_views

    rules = Rules()
    views: list = _views_of_a_game(deal_decks(rules, seed=3, start=0, count=1)[0], 60)
    data = encode_views(views)
    ints = array("q")
    ints.frombytes(data)
    facts = [len(views)]
    for v in views:
        active = -1 if v.active_card is None else v.active_card
        current = -1 if v.current_player is None else v.current_player
        facts += [v.seat, v.n_players, active, v.pot, v.cards_left, current]
        facts += [*v.chips, *(sum(1 << c for c in hand) for hand in v.hands)]
    assert ints.tolist() == facts  # every int is a named public fact: nothing else fits in
    back = decode_views(data, rules, {})
    assert back == views
    assert [b.hand_masks for b in back] == [v.hand_masks for v in views]
    assert back[-1].is_over and back[0].my_hand == views[0].my_hand


def test_the_bytes_sent_do_not_depend_on_the_cards_still_face_down() -> None:
    from nothanks_lab.deals import deal_decks
    from nothanks_lab.rules import Rules
    from nothanks_lab.tournaments.pipes import encode_views

    deck = deal_decks(Rules(), seed=5, start=0, count=1)[0]
    other = deck.copy()
    other[12:] = other[12:][::-1]  # the same first 12 cards, the rest in another order
    assert (other != deck).any()
    seen = [encode_views(_views_of_a_game(d, 16)[:-1]) for d in (deck, other)]
    assert seen[0] == seen[1]
    with pytest.raises(ValueError, match="ints more"):
        from nothanks_lab.tournaments.pipes import decode_views

        decode_views(seen[0] + bytes(8), Rules(), {})
