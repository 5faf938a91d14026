"""The rematch buttons of a table page (lobby.rematch): accept and decline. POST only, with CSRF; the seat is checked on the server."""
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.errors import GameError
from lobby import rematch
from lobby.broadcast import table_changed
from lobby.views import done, find


@require_POST
def accept(request, code):
    table, viewer, refused = find(request, code)
    if refused:
        return refused
    try:
        started = rematch.accept(table, viewer, request.POST.get("game", ""))
    except GameError as error:
        return done(request, table, error=error)
    table_changed(table.pk, lobby=table.listed)
    return done(request, table, _("The rematch has started.") if started else
                _("You accepted the rematch. It starts when everyone has accepted."))


@require_POST
def decline(request, code):
    table, viewer, refused = find(request, code)
    if refused:
        return refused
    try:
        rematch.decline(table, viewer, request.POST.get("game", ""))
    except GameError as error:
        return done(request, table, error=error)
    table_changed(table.pk, lobby=table.listed)
    return done(request, table, _("You declined the rematch."))
