"""The lobby's and a table page's streams of a page socket (config.routing: ?lobby=1,
?table=<code>). They only push; every action goes through HTTP with CSRF. A table page gets its seats panel whole on every change; a
lobby page its list whole on connect, then what changed (lobby.feed)."""
import logging

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.http import QueryDict
from django.template.loader import render_to_string
from django.utils import translation

from accounts import throttle
from games import broadcast
from games.access import Viewer
from games.consumers import requested_language
from infra.client_address import socket_client_address
from infra.outages import UNREACHABLE
from infra.presence import presence
from lobby import host_presence
from lobby.access import can_view
from lobby.feed import lobby_feed
from lobby.filters import LOBBY_PAGES, LobbyFilterForm
from lobby.models import Table
from lobby.presentation import render_seats

log = logging.getLogger(__name__)


class LobbyConsumer(AsyncWebsocketConsumer):
    """?lobby=1&lang=&category=&rated=&page=: one page of the list of public tables for
    one filter, for everyone (visitors watch and join as guests). It gets its list whole
    on connect, then what changed, from its process's receiver of the lobby's changes
    (lobby.feed)."""

    async def connect(self):
        shown, page = lobby_filter(self.scope)
        await self.accept()
        self.feed = lobby_feed()
        await self.feed.show(self, shown, page, requested_language(self.scope))

    async def disconnect(self, code):
        if getattr(self, "feed", None) is not None:
            self.feed.leave(self)

    async def receive(self, text_data=None, bytes_data=None):
        """Pages never send anything that matters here."""


def lobby_filter(scope):
    """(what to show, page) from the socket's query string, as the lobby's page had them."""
    query = QueryDict(scope.get("query_string", b"").decode("latin-1"))
    try:
        page = min(max(int(query.get("page", "1")), 1), LOBBY_PAGES)
    except ValueError:
        page = 1
    return LobbyFilterForm(query).shown(), page


class TableConsumer(AsyncWebsocketConsumer):
    """?table=<code>: the seats panel of a table page, rendered for its viewer."""

    async def connect(self):
        self.language = requested_language(self.scope)
        self.viewer = Viewer.from_scope(self.scope)
        self.table, refusal = await self.find_table(self.scope["url_route"]["kwargs"]["code"])
        if self.table is None:
            # Accepted, then closed with a code htmx does not reconnect after (refused
            # at the handshake, the browser would log a failed connection, a 403).
            # A guest's page meets this when its own click started the game before
            # its socket opened; it reloads with the seat at once.
            await self.accept()
            await self.close(code=refusal)
            return
        await broadcast.join(self, self.table.group_name)
        await self.accept()
        if self.viewer.user is not None and self.viewer.user.pk == self.table.host_id:
            self.host_place = host_presence.host_place(self.table.pk)
            await self.stand(presence.enter)
        await self.table_changed({})

    async def disconnect(self, code):
        if getattr(self, "host_place", None) is not None:
            await self.stand(presence.leave)
        if getattr(self, "table", None) is not None:
            await broadcast.leave(self, self.table.group_name)

    async def stand(self, enter_or_leave):
        """While its host has this page open, the table is not abandoned (lobby.host_presence)."""
        try:
            await enter_or_leave(self.channel_name, self.host_place)
        except UNREACHABLE:  # Redis away: the lobby then lists every table anyway
            log.warning("could not mark %s seen", self.host_place)

    async def receive(self, text_data=None, bytes_data=None):
        """Moves and seats go through HTTP with CSRF; anything sent here is ignored."""

    async def table_changed(self, event):
        if self.table is None:
            return  # refused already; a message that was on its way
        html = await self.panel()
        if html is None:
            # The table started and this viewer has no seat: the page answers 403 now,
            # so its socket stops too (checked on every push, not only on connect).
            await self.channel_layer.group_discard(self.table.group_name, self.channel_name)
            self.table = None
            await self.close(code=4403)
        elif html:
            await self.send(text_data=html)

    async def table_closed(self, event):
        if self.table is None:
            return
        with translation.override(self.language):
            html = render_to_string("lobby/includes/seats_closed.html")
        await self.send(text_data=html)

    @database_sync_to_async
    def find_table(self, code):
        """(table, None), or (None, close code): 4404 for a code of no table or a table
        this viewer may not see, 4429 for every table but their own once their address
        typed too many wrong codes (counted with the pages', lobby.views.find_by_code)."""
        address = socket_client_address(self.scope)
        guessing = throttle.table_code_guessing_at(address)
        table = Table.objects.select_related("game").filter(code=code).first()
        if table is None:
            if guessing:
                return None, 4429
            throttle.count_table_code_miss_at(address)
            return None, 4404
        if guessing and self.viewer.seat_in(table.game) is None:
            return None, 4429
        if not can_view(table, self.viewer):
            return None, 4404
        return table, None

    @database_sync_to_async
    def panel(self):
        """The seats panel for this viewer; "" once the table is gone, None if they may no longer see it."""
        table = Table.objects.select_related("game").filter(pk=self.table.pk).first()
        if table is None:
            return ""
        if not can_view(table, self.viewer):
            return None
        with translation.override(self.language):
            return render_seats(table, self.viewer)
