"""The ``"ansi"`` rendering of the environments: a round's table as plain text.

Every environment of :mod:`nothanks_lab.envs` shows a round the same way: a header line with the
active card, the pot and the cards left, then one row per seat (chips, cards, score so far),
laid out by :func:`nothanks_lab.render.tables.text_table` like every other table the package
prints.
"""

from __future__ import annotations

from ..engine import Game
from ..render.tables import text_table

__all__ = ["render_ansi", "render_text"]


def render_text(game: Game) -> str:
    """`game`'s table as text, the seat to act marked with ``>``.

    >>> import nothanks_lab as nt
    >>> print(render_text(nt.Game(3, deck=range(3, 27))).splitlines()[0])
    card 3, pot 0, 23 cards left
    """
    if game.is_over:
        head = "round over"
    else:
        head = f"card {game.active_card}, pot {game.pot}, {game.cards_left} cards left"
    rows = []
    for seat, (chips, cards, score) in enumerate(
        zip(game.chips, game.hands, game.scores(), strict=True)
    ):
        mark = ">" if not game.is_over and seat == game.current_player else " "
        shown = " ".join(map(str, cards)) or "-"
        rows.append([f"{mark} player_{seat}", str(chips), shown, str(score)])
    table = text_table(["seat", "chips", "cards", "score"], rows, right={1, 3})
    return f"{head}\n{table}"


def render_ansi(render_mode: str | None, game: Game | None) -> str | None:
    """What an environment's ``render()`` returns: None without a render mode, else `game`'s
    table (a note instead before the first reset)."""
    if render_mode is None:
        return None
    if game is None:
        return "(no round yet: call reset())"
    return render_text(game)
