"""Writing in a table's chat: the only code that creates Message rows.

Every message is checked before anything is stored or counted: the room comes from
the writer's seat as it is now (chat.rooms), a guest may only send a fixed phrase,
a silenced account nothing, and text must be 1-280 characters without control
characters. Then the person's rate (chat.limits, in Redis) is counted, the message
stored, and after commit pushed to the pages reading its room (chat.live).
"""
import unicodedata

from django.db import transaction
from django.utils.translation import gettext as _

from chat import limits, live, preferences, rooms
from chat.models import MESSAGE_MAX, Message
from chat.phrases import PHRASES
from infra.outages import UNREACHABLE


class ChatRefusal(Exception):
    """Why a message was not sent, in the writer's language; nothing was stored."""


def clean_text(text):
    """The text as stored, or ChatRefusal: stripped, 1-280 characters, no control characters."""
    if not isinstance(text, str):
        raise ChatRefusal(_("Type a message first."))
    text = unicodedata.normalize("NFC", text).strip()
    if not text:
        raise ChatRefusal(_("Type a message first."))
    if len(text) > MESSAGE_MAX:
        raise ChatRefusal(_("A message has at most %(most)d characters; yours has %(n)d.")
                          % {"most": MESSAGE_MAX, "n": len(text)})
    if any(unicodedata.category(ch) in ("Cc", "Cs", "Co") for ch in text):
        raise ChatRefusal(_("A message cannot contain control characters."))
    return text


def author_name(viewer, game):
    if viewer.user is not None:
        return viewer.user.display_name
    seat = viewer.seat_in(game)
    return (seat.guest_name if seat is not None and seat.guest_name else _("Guest"))[:40]


def post(game, viewer, *, text=None, phrase=None, players_chat=True, chat_on=True, push=True):
    """Stores a message of `viewer` (games.access.Viewer) in their room of `game`'s chat
    and pushes it after commit (`push=False`: the caller pushes it, chat.live.posted);
    ChatRefusal says why not. The caller has checked that
    the viewer may see the game (or its table). No lock: a message changes nothing
    else, and the rate limit counts in one Redis script."""
    access = rooms.access(game, viewer, players_chat)
    if not access.writes:
        if not players_chat and viewer.seat_in(game) is not None:
            raise ChatRefusal(_("The players' chat is off at this table."))
        raise ChatRefusal(_("You can only read this chat."))
    if not chat_on:
        raise ChatRefusal(_("Your chat is off. Turn it on to write."))
    if phrase is not None:
        if phrase not in PHRASES:
            raise ChatRefusal(_("Choose one of the phrases."))
        text = ""
    elif viewer.user is None:
        raise ChatRefusal(_("Without an account you can send the phrases below. Sign in to write your own."))
    else:
        text = clean_text(text)
        phrase = ""
    if viewer.user is not None:
        silence = preferences.silence_of(viewer.user)
        if silence is not None:
            raise ChatRefusal(preferences.silence_sentence(silence))
    try:
        wait = limits.take("chat", limits.person_key(viewer))
    except UNREACHABLE:
        raise ChatRefusal(_("Chat is not available right now. Try again in a moment.")) from None
    if wait:
        raise ChatRefusal(_("You are sending messages too fast. Wait %(n)d seconds.") % {"n": wait})
    with transaction.atomic():
        message = Message.objects.create(
            game=game, room=access.writes, author=viewer.user,
            guest_token="" if viewer.user is not None else viewer.guest_token,
            author_name=author_name(viewer, game), text=text, phrase=phrase, ply=game.ply)
        if push:
            transaction.on_commit(lambda: live.message_posted(message))
    return message
