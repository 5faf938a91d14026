"""A game's events for programs (the bot API, the analysis board): they resume from the
last version they read, as a page's socket does (games.events)."""
import json

from django.http import HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games import events, events_limit
from games.access import find_game
from games.params import whole_number
from games.snapshot import state_data


def text(body, status):
    return HttpResponse(body, status=status, content_type="text/plain; charset=utf-8")


@require_GET
def game_events(request, public_id):
    """The events after ?since=<version>, as NDJSON (one JSON object a line; nothing when
    the asker is up to date). When they cannot all be given, or no `since` came, the
    only line is the whole state as data ({"type": "state", "v": ...}), from which the
    next ask resumes. Whoever may watch the game may ask (404 otherwise, as for its
    page); a stranger GAME_EVENTS_ASKS_PER_MINUTE times a minute (games.events_limit)."""
    game, viewer = find_game(request, public_id, create_guest=False)
    since = request.GET.get("since")
    version = whole_number(since) if since is not None else -1
    if version is None:
        return text(_("Give the version you have as a whole number: ?since=12."), 400)
    if viewer.seat_in(game) is None and not viewer.owns(game) and not events_limit.take(request):
        response = text(_("Too many requests for this game's events; ask again in a minute."), 429)
        response["Retry-After"] = str(events_limit.seconds_left())
        return response
    lines = events.since(game, version)
    if lines is None:
        lines = [state_data(game)]
    response = HttpResponse("".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines),
                            content_type="application/x-ndjson")
    response["Cache-Control"] = "no-store"
    return response
