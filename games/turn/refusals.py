"""A command the rules refuse: nothing changed, and the message says why.

The message is an English msgid, marked for translation here (the locale's catalogue
holds it) and translated where it is shown (games.writer turns a Refused into the
games.errors.GameError the page shows, in the page's language)."""


def gettext_noop(message):
    """Marks `message` for the catalogue; it is translated where it is shown."""
    return message


_ = gettext_noop

# What kind of refusal: the edge answers each with its own status.
REFUSED = "refused"      # 400: against the rules now
STALE = "stale"          # 409: the game moved on (another tab, a double click, a retry)
NOT_YOURS = "not_yours"  # 403: not this person's turn, seat or game
LATE = "late"            # 409: the mover's time is up; a worker makes their time-out
BUSY = "busy"            # 429: (kept for the edge's own refusals)


class Refused(Exception):
    """`message` % `params` (both untranslated) is what the person is told."""

    def __init__(self, message, kind=REFUSED, deadline=None, **params):
        super().__init__(message % params if params else message)
        self.message, self.kind, self.params, self.deadline = message, kind, params, deadline

    def stale():
        return Refused(_("The game has moved on; here is the current position."), STALE)
    stale = staticmethod(stale)
