"""How a move (at a computer game or at a table) is asked for and answered, the same
for games/views.py, lobby/views.py and a game socket's moves (games/consumers.py): the
position it was meant for, then the state fragment with the message line (htmx, the
socket) or a redirect to the game's page (plain forms)."""
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from games.drawing import render_state, server_now
from games.params import whole_number
from games.presentation import game_url
from games.errors import DatabaseBusy, GameError
from infra.write_waits import RETRY_AFTER


def expected_ply(request):
    return page_ply(request.POST.get("ply"))


def page_ply(value):
    """The ply of the position the page showed, as it sent it, or GameError."""
    ply = whole_number(value)
    if ply is None:
        raise GameError(_("The move came without the position it was meant for; reload the page."))
    return ply


def state_and_message(game, error=None):
    """The state fragment and the message line (emptied, or the refusal's reason)."""
    return render_state(game) + server_now(game) + render_to_string("games/includes/message.html",
                                                                {"error": error, "version": game.version})


def move_or_undo(request, game, change, hidden=None):
    """Answer a request that changes the position: `change(ply)` (a games.services call
    given the ply the page showed) returns the new game; a GameError changed nothing
    and is shown beside the position as it now is, unless `hidden()` (asked only
    then) returns a refusal page for a viewer who may not see the game at all."""
    try:
        game = change(expected_ply(request))
    except GameError as error:
        refusal = hidden() if hidden is not None else None
        if refusal is not None:
            return refusal
        if isinstance(error, DatabaseBusy):
            return busy_answer(request, game, error)
        game.refresh_from_db()
        return respond(request, game, error)
    return respond(request, game)


def busy_message(busy, version=None, retry=True):
    """Only the message line, marked for the page to send the move again (static/js/moves.js)
    unless not `retry` (an action, which the player asks for again): drawing the position
    would wait for the database that is busy. `version`: of the position the page shows,
    so that the message goes once a newer one is shown."""
    return render_to_string("games/includes/message.html",
                            {"error": busy, "retry": RETRY_AFTER if retry else None, "version": version})


def busy_answer(request, game, busy):
    if not request.htmx:
        messages.error(request, str(busy))
        return redirect(game_url(game))
    response = HttpResponse(busy_message(busy), status=busy.status)
    response["Retry-After"] = str(RETRY_AFTER)
    return response


def respond(request, game, error=None):
    """htmx: the state fragment plus the message line. Plain form posts: redirect to
    where the game is played (its table, or the play page)."""
    if not request.htmx:
        if error:
            messages.error(request, str(error))
        return redirect(game_url(game))
    return HttpResponse(state_and_message(game, error), status=error.status if error else 200)
