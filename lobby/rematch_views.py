"""The rematch buttons of a table page (lobby.rematch): accept, decline, and leaving
a table whose game ended. POST only, with CSRF; the seat is checked on the server."""
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.services import GameError
from lobby import rematch
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
    return done(request, table, _("You declined the rematch."))


def leave_after_game(request, table, viewer):
    """Leaving a table whose game ended: no rematch for anyone; on to the lobby."""
    try:
        rematch.decline(table, viewer, table.game.public_id)
    except GameError as error:
        return done(request, table, error=error)
    messages.info(request, _("You left the table."))
    target = reverse("lobby" if request.user.is_authenticated else "home")
    if request.htmx:
        return HttpResponse(status=204, headers={"HX-Redirect": target})
    return redirect(target)
