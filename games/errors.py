"""What a game refuses, as the edge answers it: each refusal with its HTTP status and a
message for the person, in their language. Nothing changed when one is raised.

games.writer.apply turns the turn engine's refusals (games.turn.refusals.Refused, an
untranslated msgid and its params) into these, translated in the active language."""
from django.utils.translation import gettext, gettext as _

from games.presentation import colour_name
from games.turn import refusals


class GameError(Exception):
    """A request the game refuses; the message is for the player. Nothing changed."""

    status = 400


class StaleMove(GameError):
    """The game moved on (another tab, a double click, a retried request)."""

    status = 409


class NotYourTurn(GameError):
    status = 403


class NotAPlayer(GameError):
    status = 403


class ComputerBusy(GameError):
    """The visitor (or their address) has as many computer games thinking as allowed (games.thinking)."""

    status = 429

    def __init__(self):
        super().__init__(_("The computer is still thinking on your other games; try again once it has answered."))


class DatabaseBusy(GameError):
    """A person's move could not get the database in time (another writer holds its lock):
    nothing changed, and the page sends the move again shortly (static/js/moves.js)."""

    status = 503

    def __init__(self):
        super().__init__(_("The site is busy; your move is sent again in a moment."))


class OutOfTime(GameError):
    """The player's move came after their deadline (and its grace): a worker makes their time-out."""

    status = 409

    def __init__(self, message, deadline):
        super().__init__(message)
        self.deadline = deadline


class Busy(GameError):
    status = 429


def from_refusal(refused):
    """The GameError the person is shown for the engine's `refused`, translated now."""
    message = gettext(refused.message)
    if refused.params:
        params = dict(refused.params)
        if "colour" in params:  # a colour's key, named in the active language
            params["colour"] = colour_name(params["colour"])
        message = message % params
    if refused.kind == refusals.LATE:
        return OutOfTime(message, refused.deadline)
    error = {refusals.STALE: StaleMove, refusals.NOT_YOURS: NotYourTurn, refusals.BUSY: Busy}.get(refused.kind, GameError)
    return error(message)
