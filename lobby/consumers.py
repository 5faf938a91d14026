"""Websockets of the lobby and of table pages. They only push; every action goes
through HTTP with CSRF. A table page gets its seats panel whole on every change; a
lobby page its list whole on connect, then what changed, versioned, so a page that
missed a change (or reconnects) always catches up."""
import asyncio
import logging

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.http import QueryDict
from django.template.loader import render_to_string
from django.utils import translation

from accounts import throttle
from config.client_address import socket_client_address
from games import broadcast
from games.access import Viewer
from games.consumers import requested_language
from lobby import presence
from lobby.access import can_view
from lobby import counts as online
from lobby.broadcast import LOBBY_GROUP, lobby_version
from lobby.counts import counts
from lobby.drawing import draw_counts, draw_section, read_list
from lobby.filters import LOBBY_PAGES, LobbyFilterForm
from lobby.listing import LOBBY_ROWS, OPEN, PLAYING
from lobby.presentation import render_seats
from lobby.models import Table

log = logging.getLogger(__name__)

COALESCE = 0.3  # seconds a lobby page's changes are gathered into one frame
GAP_WAIT = 2.0  # seconds a lobby page waits for a version that has not come before reading its list again


class LobbyConsumer(AsyncWebsocketConsumer):
    """/ws/lobby/?lang=&category=&rated=&page=: one page of the list of public tables for
    one filter, for everyone (visitors watch and join as guests).

    On connect the page gets its list whole; then only what changed: rows added at the
    top, changed in place, removed (hx-swap-oob), gathered for COALESCE seconds so a
    busy site sends a page a few frames a second at most. Changes come versioned
    (lobby.broadcast); one that skips a version means this page missed one, and it
    reads its list again."""

    async def connect(self):
        self.language = requested_language(self.scope)
        self.shown, self.page = lobby_filter(self.scope)
        self.version, self.rows, self.counts = 0, {OPEN: [], PLAYING: []}, None
        self.pending, self.flushing, self.lock, self.gap_since = [], None, asyncio.Lock(), None
        self.joined = True
        await broadcast.join(self, LOBBY_GROUP)
        await self.accept()
        self.person = online.person_of(self.scope, self.channel_name)
        await online.arrive(self.person)
        async with self.lock:
            await self.reload()

    async def disconnect(self, code):
        if getattr(self, "joined", False):
            await broadcast.leave(self, LOBBY_GROUP)
        if getattr(self, "person", None):
            await online.depart(self.person)
        if getattr(self, "flushing", None) is not None:
            self.flushing.cancel()

    async def receive(self, text_data=None, bytes_data=None):
        """Pages never send anything that matters here."""

    async def lobby_changes(self, event):
        if event["version"] <= self.version:
            return  # read already with the list this page shows
        self.pending.append(event)
        if self.flushing is None:
            self.flushing = asyncio.create_task(self.flush_soon())

    async def flush_soon(self):
        """After COALESCE seconds, what arrived meanwhile goes out as one frame, in version
        order. A version missing from the run waits for up to GAP_WAIT seconds (two
        processes' changes may cross on the way); still missing then, it was lost, and
        the page reads its whole list again."""
        await asyncio.sleep(COALESCE)
        async with self.lock:
            self.flushing = None
            pending = sorted((e for e in self.pending if e["version"] > self.version), key=lambda e: e["version"])
            ready = []
            for event in pending:
                if event["version"] != self.version + 1 + len(ready):
                    break
                ready.append(event)
            self.pending = pending[len(ready):]
            if ready:
                await self.send(text_data=self.apply(ready))
            if not self.pending:
                self.gap_since = None
                return
            loop = asyncio.get_running_loop()
            self.gap_since = self.gap_since or loop.time()
            if loop.time() - self.gap_since < GAP_WAIT:
                self.flushing = asyncio.create_task(self.flush_soon())
                return
            self.pending, self.gap_since = [], None
            await self.reload()  # a change never reached this page

    def apply(self, events):
        """The frame that takes this page from its rows to theirs after `events`."""
        before = {section: [table_id for table_id, _html in rows] for section, rows in self.rows.items()}
        drawn = {table_id: html for rows in self.rows.values() for table_id, html in rows}
        for event in events:
            for change in event["changes"]:
                self.change(change, drawn)
            self.version, counts = event["version"], event["counts"]
        parts = []
        for section, rows in self.rows.items():
            after = [table_id for table_id, _html in rows]
            if bool(before[section]) != bool(after):
                with translation.override(self.language):
                    html = draw_section(section, [html for _id, html in rows])
                parts.append(html.replace("<section ", '<section hx-swap-oob="true" ', 1))
                continue
            parts += [f'<tr id="lobby-row-{table_id}" hx-swap-oob="delete"></tr>'
                      for table_id in before[section] if table_id not in after]
            added = [html for table_id, html in rows if table_id not in before[section]]
            if added:
                parts.append(f'<tbody hx-swap-oob="afterbegin:#{section}-tables tbody">{"".join(added)}</tbody>')
            parts += [html.replace("<tr ", '<tr hx-swap-oob="true" ', 1) for table_id, html in rows
                      if table_id in before[section] and drawn.get(table_id) != html]
        return "".join(parts) + self.counts_and_version(counts)

    def change(self, change, drawn):
        """One table's change applied to this page's rows (`drawn`: the rows as the page shows them)."""
        table_id = change["id"]
        current = next((section for section, rows in self.rows.items()
                        if any(shown_id == table_id for shown_id, _html in rows)), None)
        target = change["section"] if change["section"] and self.wants(change) else None
        if current is not None and current == target:
            html = change["html"].get(self.language) or change["html"][settings.LANGUAGE_CODE]
            self.rows[current] = [(shown_id, html if shown_id == table_id else old)
                                  for shown_id, old in self.rows[current]]
            return
        if current is not None:
            self.rows[current] = [(shown_id, old) for shown_id, old in self.rows[current] if shown_id != table_id]
        if target is not None and self.page == 1:  # newest first: later pages keep theirs
            html = change["html"].get(self.language) or change["html"][settings.LANGUAGE_CODE]
            self.rows[target] = [(table_id, html)] + self.rows[target][:LOBBY_ROWS - 1]

    def wants(self, change):
        return ((not self.shown["category"] or change["category"] == self.shown["category"])
                and (not self.shown["rated"] or (self.shown["rated"] == "rated") == change["rated"]))

    def counts_and_version(self, counts):
        html = f'<div id="lobby-version" hidden hx-swap-oob="true" data-lobby-version="{self.version}"></div>'
        if counts != self.counts:
            self.counts = counts
            with translation.override(self.language):
                html += draw_counts(counts)
        return html

    async def reload(self):
        html = await self.read()
        await self.send(text_data=html)

    @database_sync_to_async
    def read(self):
        """This page's list whole, as the database has it now."""
        version = lobby_version()  # before reading: every later change has a higher one
        with translation.override(self.language):
            html, self.rows = read_list(self.shown, self.page, version)
            self.version = version
            return html + self.counts_and_version(counts())


def lobby_filter(scope):
    """(what to show, page) from the socket's query string, as the lobby's page had them."""
    query = QueryDict(scope.get("query_string", b"").decode("latin-1"))
    try:
        page = min(max(int(query.get("page", "1")), 1), LOBBY_PAGES)
    except ValueError:
        page = 1
    return LobbyFilterForm(query).shown(), page


class TableConsumer(AsyncWebsocketConsumer):
    """/ws/tables/<code>/: the seats panel of a table page, rendered for its viewer."""

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
        self.person = online.person_of(self.scope, self.channel_name)
        await online.arrive(self.person)
        if self.viewer.user is not None and self.viewer.user.pk == self.table.host_id:
            self.heartbeat = asyncio.create_task(self.keep_seen(self.table.pk))
        await self.table_changed({})

    async def disconnect(self, code):
        if getattr(self, "person", None):
            await online.depart(self.person)
        if getattr(self, "heartbeat", None) is not None:
            self.heartbeat.cancel()
        if getattr(self, "table", None) is not None:
            await broadcast.leave(self, self.table.group_name)

    async def keep_seen(self, table_id):
        """While its host has this page open, the table is not abandoned (lobby.presence)."""
        while True:
            try:
                await sync_to_async(presence.mark_seen, thread_sensitive=False)(table_id)
            except Exception:  # Redis away: the lobby then lists every table anyway
                log.warning("could not mark table %s seen", table_id)
            await asyncio.sleep(presence.HEARTBEAT)

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
