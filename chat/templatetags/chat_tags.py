"""The chat in other apps' pages, without their code importing it: the table page's
panel ({% table_chat %}) and the players' chat beside a review's moves ({% review_chat game %})."""
from django import template
from django.template.loader import render_to_string

from chat import preferences, presentation, rooms
from chat.models import Message, Room
from games.access import Viewer
from games.models import Game

register = template.Library()


@register.simple_tag(takes_context=True)
def table_chat(context):
    request, table = context["request"], context["table"]
    viewer = Viewer.from_request(request, create=False)
    view = presentation.chat_view(table, viewer, request.session)
    return presentation.render_panel(table, viewer, view, presentation.room_messages(table.game_id, view),
                                     request=request)


@register.simple_tag(takes_context=True)
def review_chat(context, game):
    """The players' chat of a table's game, each message at its move: for everyone once
    the game is over, for its players before (the review checked who may see the game)."""
    request = context["request"]
    if not game or getattr(game, "kind", None) != Game.Kind.TABLE:
        return ""
    viewer = Viewer.from_request(request, create=False)
    user = viewer.user
    if not preferences.chat_on(user, request.session):
        return ""
    if game.status != Game.Status.FINISHED and viewer.seat_in(game) is None:
        return ""
    messages = (Message.objects.filter(game=game, room=Room.PLAYERS, deleted_at=None)
                .exclude(author_id__in=rooms.hidden_authors(user)))
    if not messages:
        return ""
    return render_to_string("chat/includes/review_chat.html", {"messages": messages}, request=request)
