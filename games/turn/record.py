"""What follows from a game's moves alone: a colour's last own move, whether the game
may still be aborted, why Undo is refused. Pure: the moves are anything with .ply,
.colour and .made_by (PlayedMove, or games.models.Move)."""
from games.turn.refusals import _
from games.turn.state import BY_AUTO, COMPUTER, ABANDONED, PLAYING


def last_own_move(moves, colour):
    """The last move `colour` chose (passes made for it automatically do not count)."""
    return next((m for m in reversed(moves) if m.colour == colour and m.made_by != BY_AUTO), None)


def abortable(colours, moves):
    """Whether a game with these `moves` may still be aborted: some colour has made no
    move of its own yet."""
    return any(last_own_move(moves, colour) is None for colour in colours)


def undo_refusal(state, seat):
    """Why the player at `seat` (None: no seat) may not take back their last move in
    `state` now, or None. Undo is for games against the computer."""
    if state.kind != COMPUTER:
        return _("Moves cannot be taken back at an online table.")
    if seat is None:
        return _("This is not your game.")
    if state.ending == ABANDONED:
        return _("You left this game for a new one; it stays as it was.")
    if state.status == PLAYING and state.turn != seat.colour:
        return _("Wait for the computer's move before taking back.")
    if last_own_move(state.moves, seat.colour) is None:
        return _("There is no move of yours to take back.")
    return None
