"""Finding a table by its code, and who may see it: the lobby's side of games.access."""
from django.urls import Resolver404, resolve
from django.utils.translation import gettext as _

from games.access import can_watch
from games.models import Game
from games.errors import GameError
from lobby.models import Table, normalise_code


class TableNotFound(GameError):
    status = 404


class TooManyCodeGuesses(TableNotFound):
    status = 429

    def __init__(self):
        super().__init__(_("Too many wrong table codes came from your address. "
                           "Please wait a few minutes and try again."))


def code_in(path):
    """The code of the table page at `path` (a page's own path), else "": only one that
    can be a table's (normalise_code), since the path is whatever was asked for."""
    try:
        match = resolve(path)
    except Resolver404:
        return ""
    return normalise_code(match.kwargs["code"]) if match.url_name == "table" else ""


def find_table(code):
    """The table with this code (typed with spaces, dashes or lower case, or a pasted link)."""
    normalised = normalise_code(code)
    table = None
    if normalised:
        try:
            table = Table.objects.select_related("game").get(code=normalised)
        except Table.DoesNotExist:
            pass
    if table is None:
        shown = (code or "").strip()[:40]
        if shown:
            raise TableNotFound(_("No table has the code “%(code)s”. Check the code and try again.") % {"code": shown})
        raise TableNotFound(_("Type the code of the table you were invited to."))
    return table


def can_find(table, viewer):
    """Who may open a table page without being given its code: anyone while the lobby
    lists it waiting for players, else whoever may watch its game (games.access). An
    unlisted table's code is its host's to give, so pages about people (a follower's
    Friends page, the bell) link only tables that pass this."""
    return (table.listed and table.game.status == Game.Status.WAITING) or can_watch(table.game, viewer)


def can_view(table, viewer):
    """Who may open a table page: anyone holding the code while it waits for players;
    once it plays, its players, and everyone if the table is public (games.access)."""
    return table.game.status == Game.Status.WAITING or can_watch(table.game, viewer)
