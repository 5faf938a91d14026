"""The chat as pages show it: a person's view of a table's chat (ChatView), its panel,
and each message drawn as text (escaped by the templates, never a link or an image).

A pushed message is drawn once per process, language and kind of reader (who may
report and mute it, or not), and kept: every page of that kind in that language gets
the same drawing."""
from dataclasses import dataclass

from django.template.loader import render_to_string
from django.utils import translation

from chat import live, preferences, rooms
from chat.models import Message, Report, Room
from chat.phrases import PHRASES
from infra.lru import LRU

LOG_LENGTH = 100  # messages a room shows (the newest)

_drawn = LRU(2000)


@dataclass(frozen=True)
class ChatView:
    """What one person sees of one table's chat now."""

    access: rooms.Access
    on: bool
    hidden: frozenset  # authors they do not see (chat.rooms.hidden_authors)
    user_id: int | None
    silence: str = ""  # why they may not write, if silenced

    def reads(self, room):
        return self.on and room in self.access.reads


def chat_view(table, viewer, session):
    """`viewer`'s ChatView of `table` (games.access.Viewer; the caller checked they may see it)."""
    user = viewer.user
    on = preferences.chat_on(user, session)
    access = rooms.access(table.game, viewer, table.players_chat)
    silence = preferences.silence_of(user) if user is not None and on else None
    return ChatView(access=access, on=on, hidden=rooms.hidden_authors(user) if on else frozenset(),
                    user_id=user.pk if user is not None else None,
                    silence=preferences.silence_sentence(silence) if silence is not None else "")


def groups_of(game_id, view):
    return {live.room_group(game_id, room) for room in view.access.reads} if view.on else set()


def room_messages(game_id, view):
    """{room: [message data, oldest first]} of the rooms `view` reads."""
    shown = {}
    for room in view.access.reads if view.on else ():
        messages = (Message.objects.filter(game_id=game_id, room=room, deleted_at=None)
                    .exclude(author_id__in=view.hidden).order_by("-id")[:LOG_LENGTH])
        shown[room] = [live.message_data(message) for message in reversed(messages)]
    return shown


def render_message(data, actions, language=None):
    """One message as a list item (<li id="chat-message-<id>">); `actions`: with the
    report and mute buttons (a signed-in reader, not its author)."""
    language = language or translation.get_language()
    key = (data["id"], language, actions, data["name"], data["text"], data["phrase"])
    html = _drawn.get(key)
    if html is None:
        with translation.override(language):
            phrase = PHRASES.get(data["phrase"]) if data["phrase"] else None
            html = render_to_string("chat/includes/message.html", {
                "m": data, "shown": str(phrase) if phrase is not None else data["text"], "actions": actions,
                "reasons": Report.Reason.choices})
        _drawn.put(key, html)
    return html


def has_actions(view, data):
    return view.user_id is not None and data["author_id"] != view.user_id


def pushed_message(data, view):
    """What a page reading `data`'s room gets: the message appended to its room's log."""
    return (f'<ol id="chat-log-{data["room"]}" hx-swap-oob="beforeend">'
            f'{render_message(data, has_actions(view, data))}</ol>')


ROOM_TITLES = {Room.PLAYERS: translation.gettext_lazy("Players' chat"),
               Room.SPECTATORS: translation.gettext_lazy("Spectators' chat")}


def render_panel(table, viewer, view, messages, request=None, rooms_only=False):
    """The whole chat panel (<section id="chat">, swapped by id), or with `rooms_only`
    just its rooms (<div id="chat-rooms">), leaving the form and what is typed there."""
    shown_rooms = [{"key": room, "title": ROOM_TITLES[room],
                    "messages": [render_message(data, has_actions(view, data)) for data in messages.get(room, [])]}
                   for room in view.access.reads] if view.on else []
    if rooms_only:
        return render_to_string("chat/includes/rooms.html", {"rooms": shown_rooms, "oob": True})
    seated = viewer.seat_in(table.game) is not None
    return render_to_string("chat/includes/panel.html", {
        "table": table, "view": view, "rooms": shown_rooms, "writes": view.access.writes and not view.silence,
        "can_type": viewer.user is not None, "phrases": PHRASES.items(),
        "players_chat_off": not table.players_chat and seated, "signed_in": viewer.user is not None,
    }, request=request)
