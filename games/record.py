"""A game's moves, seats and position as the write path and the drawing share them,
and whether Undo is allowed in a stored game. The rules that follow from the moves
alone (a colour's last own move, whether a game may still be aborted) are
games.turn.record's, named here too for the Django side."""
from django.utils.translation import gettext as _

from games import Board
from games.models import Game
from games.turn.record import abortable, last_own_move  # noqa: F401 (the pure rules, re-exported)
from infra.lru import LRU


class GameRecord:
    """A game's moves, seats and current position, read once and shared by every
    language its state is drawn in (games.services.play_move extends it with the
    moves it wrote, so the push after a move reads nothing again).

    The moves and position a move left behind are kept in this process (`keep`, after
    commit) under the game's version and ply, so the game's next move here neither
    reads nor replays them. Every change of a game's moves through games.services
    bumps its version; a change that bypasses the service is still seen when it
    changes the ply (a move added or taken back). One that rewrites a move in place
    and touches neither cannot be seen without reading the moves, which this saves.
    The seats are always read."""

    KEEP = 1000  # games; a few MB of moves at most
    _kept = LRU(KEEP)  # public_id -> (version, ply, moves, board)

    def __init__(self, game):
        self.game = game
        self.seats = list(game.seats.all())
        version, ply, moves, board = self._kept.get(game.public_id, (None, None, None, None))
        if (version, ply) == (game.version, game.ply):
            self.moves, self.board = list(moves), board.copy()
            return
        self.moves = list(game.moves.order_by("ply"))
        self.board = Board(game.variant_obj)
        for move in self.moves:
            self.board.push(move.square)

    def keep(self):
        """Remember the moves and position of the game's current version (once committed)."""
        self._kept.put(self.game.public_id, (self.game.version, self.game.ply, tuple(self.moves), self.board.copy()))


def undo_refusal(game, seat, moves):
    """Why the player at `seat` may not take back their last move now, or None.
    `moves`: the game's moves in order. Undo is for games against the computer."""
    if game.kind != Game.Kind.COMPUTER:
        return _("Moves cannot be taken back at an online table.")
    if seat is None:
        return _("This is not your game.")
    if game.is_abandoned:
        return _("You left this game for a new one; it stays as it was.")
    if game.status == Game.Status.PLAYING and game.turn != seat.colour:
        return _("Wait for the computer's move before taking back.")
    if last_own_move(moves, seat.colour) is None:
        return _("There is no move of yours to take back.")
    return None
