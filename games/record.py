"""A game's moves, seats and position as the write path and the drawing share them,
and whether Undo is allowed in a stored game. The rules that follow from the moves
alone (a colour's last own move, whether a game may still be aborted) are
games.turn.record's, named here too for the Django side."""
from django.utils.translation import gettext as _

from games import Board, IllegalMoveError
from games.models import Game, Move
from games.turn.record import abortable, last_own_move  # noqa: F401 (the pure rules, re-exported)
from infra.lru import LRU


class GameRecord:
    """A game's moves, seats and current position, read once and shared by every
    language its state is drawn in (games.writer extends it with the
    moves it wrote, so the push after a move reads nothing again).

    The moves and position a move left behind are kept in this process (`keep`, after
    commit) under the game's version and ply, so the game's next move here neither
    reads nor replays them. Every change of a game's moves through games.writer
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
        # Up to the game's ply: a move committed after the game row was read is not this version's.
        self.moves = list(game.moves.filter(ply__lte=game.ply).order_by("ply"))
        self.board = Board(game.variant_obj)
        for move in self.moves:
            self.board.push(move.square)

    def keep(self):
        """Remember the moves and position of the game's current version (once committed).
        Moves read across a takeback (fewer than the game's ply) are not kept."""
        if len(self.moves) != self.game.ply:
            return
        self._kept.put(self.game.public_id, (self.game.version, self.game.ply, tuple(self.moves), self.board.copy()))

    @classmethod
    def follow(cls, game_id, public_id, events):
        """Bring what this process kept of a game up to the last of `events` (a push,
        games.events), so that drawing it reads no moves: each event after the kept
        version must follow on from it and be a move (appended, played on the kept
        position) or one of KEEP_MOVES. Anything else (a takeback, a version this
        process did not see) and nothing is brought up: the next record reads the moves."""
        version, ply, moves, board = cls._kept.get(public_id, (None, None, None, None))
        if version is None or not events or events[-1]["v"] <= version:
            return
        moves, board = list(moves), board.copy()
        for event in events:
            if event["v"] <= version:
                continue
            if event["v"] != version + 1 or event["type"] not in ("move", *KEEP_MOVES):
                return
            if event["type"] == "move":
                if event["ply"] != ply + 1:
                    return
                try:
                    board.push(event["square"])
                except IllegalMoveError:  # what was kept is not that version's: read the moves again
                    cls._kept.put(public_id, (None, None, None, None))
                    return
                moves.append(Move(game_id=game_id, ply=event["ply"], colour=event["colour"], square=event["square"],
                                  flips=list(event["flips"]), made_by=event["made_by"]))
                ply += 1
            version += 1
        cls._kept.put(public_id, (version, ply, tuple(moves), board))


# The events that leave a game's moves as they were (games.turn writes them).
KEEP_MOVES = ("turn", "end", "offer", "offer_ended", "level", "shared", "mailed", "downtime", "seat", "leave")


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
