"""The refusals commands share: a game that is not running, a person without a seat
or who left, a two-player rule asked in a bigger game."""
from games.turn.refusals import NOT_YOURS, Refused, _
from games.turn.state import FINISHED, PLAYING


def running(state):
    """Refused unless the game is being played."""
    if state.status != PLAYING:
        raise Refused(_("This game is over.") if state.status == FINISHED else _("This game has not started yet."))


def running_seat(state, by):
    """The seat of `by` in the running game, or the refusal."""
    running(state)
    seat = state.seat_of(by) if by else None
    if seat is None:
        raise Refused(_("You have no seat in this game."), NOT_YOURS)
    if seat.left_at is not None:
        raise Refused(_("You have already left this game."))
    return seat


def opponent_gone(state, seat):
    """A two-player game whose other player left is the stayer's already (§11.4)."""
    if any(other.left_at is not None for other in state.seats if other.colour != seat.colour):
        raise Refused(_("Your opponent left the table: this game is yours whatever happens."))


def two_player_seat(state, by, takeback=False):
    """running_seat, in a two-player game only (draw offers and takebacks)."""
    seat = running_seat(state, by)
    if state.variant.players != 2:
        raise Refused(_("Takebacks are asked in two-player games only.") if takeback
                      else _("Draws are offered in two-player games only."))
    return seat
