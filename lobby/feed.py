"""The lobby's changes as a daphne process hands them to its lobby pages: one receiver
per event loop takes each change from the channel layer once, keeps one view per
filter, page and language (the rows it shows, at its version), and sends each view's
frame, drawn once, to every page showing that view. A page costs a method call per
frame, not a channel-layer delivery per change (benchmarks/README.md, "The lobby at a
crowd's scale").

Changes come versioned (lobby.broadcast). A view applies them in order: rows added in
their place, changed in place, removed (hx-swap-oob), gathered for COALESCE seconds so
a busy site sends a page a few frames a second at most; the page then shows what a
fresh load of it would. A version that has not come
is waited for GAP_WAIT seconds (two processes' changes may cross on the way), then
the view reads its list again and its pages get it whole.

The receiver runs while the process has lobby pages open. Until it is in the lobby's
group (starting, or Redis away) a page gets its list read for it alone (its own
socket then fails on the absent Redis and reconnects, as every socket does); when the
receiver loses Redis, its views are dropped and their pages closed (1011): they
reconnect and read the list again, so nothing missed meanwhile stays missed."""
import asyncio
import bisect
import logging
import time

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.utils import translation

from infra.frames import write_frame
from infra.outages import UNREACHABLE
from infra.per_loop import PerLoop
from lobby.broadcast import LOBBY_GROUP, lobby_version
from lobby.counts import counts
from lobby.drawing import draw_counts, draw_pages, draw_rows, draw_section, read_drawn
from lobby.listing import OPEN, PLAYING, lobby_places, more_after, page_of

log = logging.getLogger(__name__)

COALESCE = 0.3  # seconds a view's changes are gathered into one frame
GAP_WAIT = 2.0  # seconds a view waits for a version that has not come before reading its list again
KEPT = 10.0  # seconds a change is kept for views that have not applied it yet (a view reading its list)
REJOIN_EVERY = 3600.0  # seconds: channels-redis' default layer forgets a group's member after a day


class LobbyFeed:
    def __init__(self):
        self.views = {}  # (category, rated, page, language) -> View
        self.view_of = {}  # page (its consumer) -> View
        self.showing = set()  # pages being sent their list
        self.changes = {}  # version -> (change, monotonic time it arrived)
        self.receiver, self.joined, self.flushing = None, None, None

    async def show(self, page, shown, number, language):
        """Send `page` (a consumer) its list whole, then its view's frames until leave(page)."""
        self.showing.add(page)  # the receiver stays meanwhile
        try:
            self.start()
            if not await asyncio.shield(self.joined):
                view = View(shown, number, language)  # for this page alone: nothing keeps it current
                await view.read()
                await send(page, view.whole())
                return
            key = View.key_of(shown, number, language)
            while True:
                view = self.views.get(key)
                if view is None:
                    view = self.views[key] = View(shown, number, language)
                async with view.lock:
                    if self.views.get(key) is not view:
                        continue  # dropped while this page waited for it
                    if view.version is None:
                        await view.read()
                    if page not in self.showing:
                        return  # it left meanwhile
                    if self.views.get(key) is not view:  # Redis lost meanwhile: it reconnects
                        await page.close(code=1011)
                        return
                    view.pages.add(page)
                    self.view_of[page] = view
                    await send(page, view.whole())
                    return
        finally:
            self.showing.discard(page)

    def leave(self, page):
        self.showing.discard(page)
        view = self.view_of.pop(page, None)
        if view is not None:
            view.pages.discard(page)
            if not view.pages and not view.lock.locked() and self.views.get(view.key) is view:
                del self.views[view.key]  # (one in use meanwhile: at the next flush)
        if not self.view_of and not self.showing and self.receiver is not None:
            self.receiver.cancel()  # no lobby page here any more: no change is needed here
            self.receiver = None
            self.views.clear()

    def start(self):
        if self.receiver is None or self.receiver.done():
            self.joined = asyncio.get_running_loop().create_future()
            self.receiver = asyncio.create_task(self.receive(self.joined))

    async def receive(self, joined):
        """Join the lobby's group on a channel of this feed's own and take every change."""
        layer = get_channel_layer()
        channel = None
        try:
            channel = await layer.new_channel()
            await layer.group_add(LOBBY_GROUP, channel)
            joined.set_result(True)
            keeping = asyncio.create_task(keep_joined(layer, channel))
            try:
                while True:
                    change = await layer.receive(channel)
                    if change.get("type") == "lobby.changes":
                        self.arrived(change)
            finally:
                keeping.cancel()
        except UNREACHABLE as error:
            log.warning("the lobby's changes stopped coming (%s); its pages reconnect", error)
            if not joined.done():
                joined.set_result(False)
            await self.lost()
        except asyncio.CancelledError:
            if channel is not None:
                try:
                    await layer.group_discard(LOBBY_GROUP, channel)
                except UNREACHABLE:
                    pass  # the group forgets this channel when Redis does
            raise
        finally:
            if not joined.done():
                joined.set_result(False)

    async def lost(self):
        """Redis went away under the receiver: every page here may have missed changes."""
        pages = list(self.view_of)
        self.views.clear()
        self.view_of.clear()
        self.changes.clear()
        for page in pages:
            try:
                await page.close(code=1011)
            except Exception:  # gone already
                pass

    def arrived(self, change):
        self.changes[change["version"]] = (change, time.monotonic())
        if self.flushing is None:
            self.flushing = asyncio.create_task(self.flush_soon())

    async def flush_soon(self):
        """After COALESCE seconds every view sends what it can apply in version order; a
        view still waiting for a version is looked at again COALESCE seconds later."""
        await asyncio.sleep(COALESCE)
        self.flushing = None
        now = time.monotonic()
        self.changes = {version: kept for version, kept in self.changes.items() if now - kept[1] < KEPT}
        waiting = False
        for key, view in list(self.views.items()):
            if view.lock.locked():  # reading its list for a page: the next flush
                waiting = True
                continue
            async with view.lock:
                if not view.pages:
                    if self.views.get(key) is view:
                        del self.views[key]
                elif view.version is not None:
                    waiting |= await view.flush(self.changes, now)
        if waiting and self.flushing is None:
            self.flushing = asyncio.create_task(self.flush_soon())


async def keep_joined(layer, channel):
    while True:
        await asyncio.sleep(REJOIN_EVERY)
        try:
            await layer.group_add(LOBBY_GROUP, channel)
        except UNREACHABLE:
            return  # the receiver meets it too, and ends


async def send(page, html):
    try:
        if not write_frame(page, html):  # a view's pages share the frame
            await page.send(text_data=html)
    except Exception:  # a page gone meanwhile must not keep the others waiting
        log.debug("lobby frame not sent", exc_info=True)


class View:
    """One page of the list for one filter in one language, as its lobby pages show it.

    It keeps the place of every table its filter lists (not only its page's), so a
    change anywhere leaves it with exactly the rows a fresh load of the page would show:
    a row that comes onto the page from another (one before it left, or a newer one
    came) is read and drawn then, alone."""

    def __init__(self, shown, page, language):
        self.shown, self.page, self.language = shown, page, language
        self.key = self.key_of(shown, page, language)
        self.pages, self.lock = set(), asyncio.Lock()
        self.version, self.counts, self.gap_since = None, None, None
        self.places = {OPEN: [], PLAYING: []}  # section -> [(place, table id)], in the list's order
        self.drawn = {}  # table id -> its row in this view's language, for the rows this page shows

    @staticmethod
    def key_of(shown, page, language):
        return shown["category"], shown["rated"], page, language

    @database_sync_to_async
    def read(self):
        """This view's list as the database has it now."""
        version = lobby_version()  # before reading: every later change has a higher one
        self.places, self.drawn = lobby_places(self.shown), {}
        self.draw_missing()
        self.version, self.counts, self.gap_since = version, counts(), None

    def shown_ids(self, section):
        return page_of(self.places[section], self.page)

    def draw_missing(self):
        """Read and draw the rows this page shows that it has not drawn; a table the lobby
        no longer lists there is dropped (its change is on its way)."""
        while True:
            missing = {table_id: section for section in self.places for table_id in self.shown_ids(section)
                       if table_id not in self.drawn}
            if not missing:
                return
            with translation.override(self.language):
                found = read_drawn(list(missing))
            for table_id, section in missing.items():
                if table_id in found and found[table_id][0] == section:
                    self.drawn[table_id] = found[table_id][1]
                else:
                    self.places[section] = [entry for entry in self.places[section] if entry[1] != table_id]

    def rows(self):
        return {section: [(table_id, self.drawn[table_id]) for table_id in self.shown_ids(section)]
                for section in self.places}

    def whole(self):
        with translation.override(self.language):
            return (draw_rows(self.rows(), self.version, self.shown, self.page, more_after(self.places, self.page))
                    + self.version_html() + draw_counts(self.counts))

    async def flush(self, changes, now):
        """Send this view's pages the changes after its version, up to the first one that
        has not come; after GAP_WAIT seconds of that, the list whole read again. Whether
        it still waits for a version."""
        ready = []
        while self.version + 1 + len(ready) in changes:
            ready.append(changes[self.version + 1 + len(ready)][0])
        if ready:
            frame = await self.apply(ready)
            for page in list(self.pages):
                await send(page, frame)
        if not any(version > self.version for version in changes):
            self.gap_since = None
            return False
        self.gap_since = self.gap_since or now
        if now - self.gap_since < GAP_WAIT:
            return True
        await self.read()  # a change never reached this process
        html = self.whole()
        for page in list(self.pages):
            await send(page, html)
        return False

    async def apply(self, events):
        """The frame that takes a page from this view's rows to theirs after `events`."""
        before = {section: self.shown_ids(section) for section in self.places}
        more_before, drawn_before = more_after(self.places, self.page), dict(self.drawn)
        for event in events:
            for change in event["changes"]:
                self.change(change)
            self.version, counts_now = event["version"], event["counts"]
        if any(table_id not in self.drawn for section in self.places for table_id in self.shown_ids(section)):
            await database_sync_to_async(self.draw_missing)()
        shown = {section: self.shown_ids(section) for section in self.places}
        self.drawn = {table_id: self.drawn[table_id] for ids in shown.values() for table_id in ids}
        with translation.override(self.language):
            parts = [self.section_frame(section, before[section], shown[section], drawn_before)
                     for section in self.places]
            more = more_after(self.places, self.page)
            if more != more_before:
                parts.append(draw_pages(self.shown, self.page, more).replace("<div ", '<div hx-swap-oob="true" ', 1))
            parts.append(self.version_html())
            if counts_now != self.counts:
                self.counts = counts_now
                parts.append(draw_counts(counts_now))
        return "".join(parts)

    def section_frame(self, section, before, after, drawn_before):
        """What takes one section's rows from `before` to `after` (ids, in order). A section
        that comes or goes empty is sent whole; otherwise each row removed, added after
        the row before it, or changed, each in a <template> of its own: a table's rows
        and bodies do not survive HTML parsing on their own, and htmx swaps the
        out-of-band parts it finds in templates (static lobby/frames.js)."""
        if bool(before) != bool(after):
            html = draw_section(section, [self.drawn[table_id] for table_id in after])
            return html.replace("<section ", '<section hx-swap-oob="true" ', 1)
        table = f"#{section}-tables"
        parts = [f'<template><tr hx-swap-oob="delete:{table} #lobby-row-{table_id}"></tr></template>'
                 for table_id in before if table_id not in after]
        kept = set(before)
        index = 0
        while index < len(after):
            if after[index] in kept:
                index += 1
                continue
            run = index
            while run < len(after) and after[run] not in kept:
                run += 1
            where = f"afterend:{table} #lobby-row-{after[index - 1]}" if index else f"afterbegin:{table} tbody"
            rows = "".join(self.drawn[table_id] for table_id in after[index:run])
            parts.append(f'<template><tbody hx-swap-oob="{where}">{rows}</tbody></template>')
            index = run
        for table_id in after:
            if table_id in kept and drawn_before.get(table_id) != self.drawn[table_id]:
                oob = f'<tr hx-swap-oob="outerHTML:{table} #lobby-row-{table_id}" '
                parts.append(f'<template>{self.drawn[table_id].replace("<tr ", oob, 1)}</template>')
        return "".join(parts)

    def change(self, change):
        """One table's change applied to this view's places and rows."""
        table_id = change["id"]
        for section, places in self.places.items():
            self.places[section] = [entry for entry in places if entry[1] != table_id]
        self.drawn.pop(table_id, None)
        if change["section"] and self.wants(change):
            bisect.insort(self.places[change["section"]], (tuple(change["place"]), table_id))
            self.drawn[table_id] = change["html"].get(self.language) or change["html"][settings.LANGUAGE_CODE]

    def wants(self, change):
        return ((not self.shown["category"] or change["category"] == self.shown["category"])
                and (not self.shown["rated"] or (self.shown["rated"] == "rated") == change["rated"]))

    def version_html(self):
        return f'<div id="lobby-version" hidden hx-swap-oob="true" data-lobby-version="{self.version}"></div>'


lobby_feed = PerLoop(LobbyFeed)  # lobby_feed(): this process's feed
