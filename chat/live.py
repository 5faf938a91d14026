"""Pushing chat to open table pages (chat.consumers) over their table socket.

Each room of a game is a channel group of the pages reading it (PLAYERS' and
SPECTATORS' apart: a spectator's message never reaches a player's page during the
game), and each signed-in person's pages are a group too, told when their mutes,
switch or silence change. A message goes as its data; each daphne draws it once per
language (chat.presentation), and each page leaves out what its reader muted.
"""
import logging

from games import broadcast

log = logging.getLogger(__name__)


def room_group(game_id, room):
    return f"chat-{game_id}-{room}"


def person_group(user_id):
    return f"chat-user-{user_id}"


def message_data(message):
    """What a page needs to draw a message (chat.presentation.render_message)."""
    return {"id": message.pk, "room": message.room, "author_id": message.author_id,
            "name": message.author_name, "guest": message.author_id is None, "text": message.text,
            "phrase": message.phrase, "ply": message.ply}


def _send(group, event):
    try:
        broadcast.group_send(group, event)
    except Exception:  # Redis away: the pages catch up when their socket reconnects
        log.exception("could not push chat to %s", group)


def posted(message):
    """(group, event) of a new message's push."""
    return room_group(message.game_id, message.room), {"type": "chat.message", "message": message_data(message)}


def message_posted(message):
    _send(*posted(message))


def message_deleted(message):
    _send(room_group(message.game_id, message.room), {"type": "chat.deleted", "id": message.pk})


def person_changed(user_id):
    _send(person_group(user_id), {"type": "chat.person"})
