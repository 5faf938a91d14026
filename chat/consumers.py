"""A table page's stream with its chat (config.routing: ?table=<code>): lobby's
TableConsumer (the seats) plus the rooms its reader may read (chat.rooms), joined as
channel groups, and the messages its page sends.

A frame carries only what was said ({"chat_text": "..."} or {"chat_phrase": "hello"}):
who says it is the socket's session as it is now, and where is the table of the
socket's URL and the writer's room there, so a forged frame can neither speak for
someone else nor into another table or room. The socket is Origin-checked
(config.asgi), which is what CSRF is for the form that posts the same message
without JavaScript (chat.views.send).
"""
import logging
from importlib import import_module
from types import SimpleNamespace

from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib.auth import get_user
from django.utils import translation
from django.utils.html import escape
from django.utils.translation import gettext as _

from chat import live
from chat import posting, preferences, presentation
from chat.live import person_group
from chat.models import Message
from games import broadcast
from games.access import GUEST_TOKEN_KEY, Viewer
from games.consumers import WithoutDatabaseHop
from infra.frames import read_frame
from infra.outages import UNREACHABLE
from infra.write_waits import WritesBusy
from lobby.access import can_view
from lobby.consumers import TableConsumer
from lobby.models import Table

log = logging.getLogger(__name__)

SessionStore = import_module(settings.SESSION_ENGINE).SessionStore


def parse_chat(text):
    """{"text": ...} or {"phrase": ...} from a page's frame, or None for anything else."""
    frame = read_frame(text, 4000)
    if frame is None:
        return None
    if isinstance(frame.get("chat_phrase"), str):
        return {"phrase": frame["chat_phrase"]}
    if "chat_text" in frame:
        return {"text": frame["chat_text"] if isinstance(frame["chat_text"], str) else ""}
    return None


def notice(text="", sent=False):
    """The line under the chat: a refusal, or (empty, marked sent) that the message went."""
    marker = ' data-sent="true"' if sent else ""
    return f'<p id="chat-notice" class="chat-notice" role="alert" hx-swap-oob="true"{marker}>{escape(text)}</p>'


class TableChatConsumer(WithoutDatabaseHop, TableConsumer):
    """?table=<code>: the seats panel and the chat of a table page."""

    async def connect(self):
        self.chat, self.chat_groups, self.chat_seen = None, set(), {}
        await super().connect()  # its first table_changed sends the chat panel too
        if getattr(self, "table", None) is not None and self.viewer.user is not None:
            await broadcast.join(self, person_group(self.viewer.user.pk))

    async def disconnect(self, code):
        for group in getattr(self, "chat_groups", ()):
            await broadcast.leave(self, group)
        if getattr(self, "viewer", None) is not None and self.viewer.user is not None:
            await broadcast.leave(self, person_group(self.viewer.user.pk))
        await super().disconnect(code)

    async def receive(self, text_data=None, bytes_data=None):
        frame = parse_chat(text_data)
        if frame is None or self.table is None:
            return await super().receive(text_data, bytes_data)
        answer, push = await self.chat_post(frame)
        if push is not None:  # from here, not from the database thread: it waits for nothing
            try:
                await self.channel_layer.group_send(*push)
            except UNREACHABLE:
                log.warning("chat message %s not pushed: Redis is away", push[1]["message"]["id"])
        await self.send(text_data=answer)

    async def table_changed(self, event):
        await super().table_changed(event)
        if self.table is not None:
            await self.chat_follow(whole=False)  # a seat taken, the game over: other rooms

    async def chat_follow(self, whole):
        """Reads what this page's reader may see of the chat now, joins those rooms'
        groups (and leaves the others) before reading their messages, so nothing falls
        in between. Sends the rooms when they may differ from the page's (on connect,
        other rooms or other authors hidden), and the whole panel when `whole` or when
        what they may write changed."""
        view = await self.chat_view()
        if view is None:
            return
        before, self.chat = self.chat, view
        groups = presentation.groups_of(self.table.game_id, view)
        for group in groups - self.chat_groups:
            await broadcast.join(self, group)
        for group in self.chat_groups - groups:
            await broadcast.leave(self, group)
        self.chat_groups = groups
        if before is not None and not whole:
            whole = (view.access.writes, view.on, view.silence) != (before.access.writes, before.on, before.silence)
            if not whole and (view.access.reads, view.hidden) == (before.access.reads, before.hidden):
                return
        html = await self.chat_panel(view, rooms_only=not whole)
        if html is not None:
            await self.send(text_data=html)

    @database_sync_to_async
    def chat_view(self):
        table = Table.objects.select_related("game").filter(pk=self.table.pk).first()
        if table is None or not can_view(table, self.viewer):
            return None
        self.table = table
        return presentation.chat_view(table, self.viewer, self.scope.get("session"))

    @database_sync_to_async
    def chat_panel(self, view, rooms_only):
        # Every message up to `last` is in what is read next: their pushes are skipped.
        last = Message.objects.filter(game_id=self.table.game_id).order_by("-id").values_list("id", flat=True).first()
        messages = presentation.room_messages(self.table.game_id, view)
        self.chat_seen = {room: max([last or 0, *(data["id"] for data in messages.get(room, []))])
                          for room in view.access.reads}
        with translation.override(self.language):
            return presentation.render_panel(self.table, self.viewer, view, messages, rooms_only=rooms_only)

    @database_sync_to_async
    def chat_post(self, frame):
        """Posts as the session's person now, in their room of this socket's table:
        (the notice line to answer with, the (group, event) to push or None). The
        message itself comes to this page with the room's push."""
        viewer = self.viewer_now()
        table = Table.objects.select_related("game").filter(pk=self.table.pk).first()
        with translation.override(self.language):
            if table is None or not can_view(table, viewer):
                return notice(_("This chat is closed.")), None
            try:
                message = posting.post(table.game, viewer, text=frame.get("text"), phrase=frame.get("phrase"),
                                       players_chat=table.players_chat,
                                       chat_on=preferences.chat_on(viewer.user, self.session_now), push=False)
            except posting.ChatRefusal as refusal:
                return notice(str(refusal)), None
            except WritesBusy as busy:  # nothing stored (infra.write_waits)
                return notice(str(busy)), None
        return notice(sent=True), live.posted(message)

    def viewer_now(self):
        """Who this page's session is now, read afresh as an HTTP request would."""
        session = SessionStore(session_key=self.scope["session"].session_key)
        self.session_now = session
        user = get_user(SimpleNamespace(session=session))
        return Viewer(user=user if user.is_authenticated else None, guest_token=session.get(GUEST_TOKEN_KEY, ""))

    async def chat_message(self, event):
        data = event["message"]
        view = self.chat
        if (self.table is None or view is None or not view.reads(data["room"]) or data["author_id"] in view.hidden
                or data["id"] <= self.chat_seen.get(data["room"], 0)):
            return
        with translation.override(self.language):
            await self.send(text_data=presentation.pushed_message(data, view))

    async def chat_deleted(self, event):
        if self.table is not None:
            await self.send(text_data=f'<li id="chat-message-{int(event["id"])}" hx-swap-oob="delete"></li>')

    async def chat_person(self, event):
        """This person's mutes, switch or silence changed: the panel again."""
        if self.table is not None:
            await self.chat_follow(whole=False)
