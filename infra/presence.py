"""Who is on the site now, in any daphne process: which person, on which page, at which
places (a game's seat, a game's spectators, a table as its host), since when heard of,
and how long gone. The one presence of the site; its readers (games.gone,
lobby.host_presence, social.online, lobby.counts) say what it means for them.

A page's socket is registered in its process while it is open: `arrive` with its
person (an account, else the session, else the socket) and the path of its page, then
`enter`/`leave` for each place it stands at. Kept in Redis, each mark scored with
the last time it was heard of:

- ONLINE, a sorted set of people: how many are online (one command to count them);
- `person:<person>`, a sorted set of "<channel>|<path>": the pages a person has open;
- `at:<place>`, a sorted set of channels: the sockets at a place now, and beside it
  `at:<place>:seen`, the last time any of them was heard of or left.

A socket writes its marks when it comes; after that one task per event loop writes
every mark of its process's sockets in one pipeline every HEARTBEAT seconds (500
spectators on one daphne: one transaction, not 500). A socket that closes removes its
marks and writes when it left. A mark not heard of for STALE seconds no longer counts
(its daphne was killed, nobody removed it); the people's sets expire as soon, a
place's after KEEP, so nothing stays online for good and nothing needs cleaning up.

The clock is the instance's (`Presence(clock=...)`): tests move it by hand. Redis
errors reach the callers (infra.outages.UNREACHABLE): each reader decides what an
unknown presence means for it.
"""
import asyncio
import logging
import time
import weakref

from django.conf import settings

from infra.redis_clients import async_redis_client, redis_client

log = logging.getLogger(__name__)

PREFIX = "reversi:presence"
ONLINE = f"{PREFIX}:online"
KEEP = 24 * 3600  # a place's marks expire this long after their last change


def person_of(scope, channel_name):
    """Who a socket is: "u<id>" for an account, else "s<session key>" (a guest's seat
    token lives in their session), else "c<channel>" (a visitor without a session)."""
    user = scope.get("user")
    if user is not None and user.is_authenticated:
        return f"u{user.pk}"
    key = getattr(scope.get("session"), "session_key", None)
    return f"s{key}" if key else f"c{channel_name}"


def user_person(user_id):
    return f"u{user_id}"


class _Socket:
    __slots__ = ("person", "page", "places")

    def __init__(self, person, page):
        self.person, self.page, self.places = person, page, set()


class Presence:
    def __init__(self, clock=time.time, heartbeat=None, stale=None):
        self.clock = clock
        self.heartbeat = float(heartbeat if heartbeat is not None else settings.PRESENCE_HEARTBEAT)
        self.stale = float(stale if stale is not None else settings.PRESENCE_STALE)
        self._loops = weakref.WeakKeyDictionary()  # event loop -> ({channel: _Socket}, marking task)

    # -- the sockets' side (async, in daphne) ----------------------------------------

    def _sockets(self):
        loop = asyncio.get_running_loop()
        entry = self._loops.get(loop)
        if entry is None:
            entry = self._loops[loop] = [{}, None]
        if entry[1] is None or entry[1].done():
            entry[1] = loop.create_task(self._keep_marking(entry[0]))
        return entry[0]

    async def arrive(self, channel, person, path=""):
        """A page's socket opened: its person is online, on `path`."""
        sockets = self._sockets()
        socket = sockets.get(channel) or sockets.setdefault(channel, _Socket(None, None))
        socket.person, socket.page = person, member(channel, path)
        await self._write({channel: socket})

    async def enter(self, channel, place):
        """The socket (arrived) stands at `place` now. Returns whether nobody else's
        socket was there until now (a player who was away is back)."""
        now = self.clock()
        sockets = self._sockets()
        (sockets.get(channel) or sockets.setdefault(channel, _Socket(None, None))).places.add(place)
        key = place_key(place)
        async with async_redis_client().pipeline(transaction=True) as pipe:
            pipe.zrangebyscore(key, now - self.stale, "+inf")
            _mark_place(pipe, place, [channel], now)
            before = (await pipe.execute())[0]
        return not [other for other in before if other.decode() != channel]

    async def leave(self, channel, place):
        """The socket left `place` (it closed, or moved on). Returns whether nobody is there now."""
        now = self.clock()
        sockets = self._sockets()
        socket = sockets.get(channel)
        if socket is not None:
            socket.places.discard(place)
            if not socket.places and socket.person is None:
                del sockets[channel]
        key = place_key(place)
        async with async_redis_client().pipeline(transaction=True) as pipe:
            pipe.zrem(key, channel)
            pipe.set(f"{key}:seen", now, ex=KEEP)
            pipe.zrangebyscore(key, now - self.stale, "+inf")
            others = (await pipe.execute())[2]
        return not others

    async def depart(self, channel):
        """The page's socket closed: its person goes offline here unless another socket
        of theirs in this process is open. (Its places it leaves itself, `leave`.)"""
        sockets = self._sockets()
        socket = sockets.get(channel)
        if socket is None or socket.person is None:
            return
        if socket.places:
            person, socket.person = socket.person, None
        else:
            person = sockets.pop(channel).person
        async with async_redis_client().pipeline(transaction=True) as pipe:
            pipe.zrem(_person(person), socket.page)
            if not any(other.person == person for other in sockets.values()):
                pipe.zrem(ONLINE, person)  # a socket of theirs in another process writes it again
            await pipe.execute()

    async def _keep_marking(self, sockets):
        while sockets:
            await asyncio.sleep(self.heartbeat)
            try:
                await self._write(sockets)
            except Exception as error:  # Redis away: the marks lapse, the readers say what that means
                log.warning("presence not marked (%s)", error)

    async def mark(self):
        """Write every mark of this loop's sockets now (what its task does every HEARTBEAT)."""
        await self._write(self._sockets())

    async def _write(self, sockets):
        now = self.clock()
        people, places = {}, {}
        for channel, socket in list(sockets.items()):
            if socket.person is not None:
                people.setdefault(socket.person, []).append(socket.page)
            for place in socket.places:
                places.setdefault(place, []).append(channel)
        if not people and not places:
            return
        async with async_redis_client().pipeline(transaction=True) as pipe:
            if people:
                pipe.zadd(ONLINE, dict.fromkeys(people, now))
                pipe.expire(ONLINE, KEEP)
            for person, pages in people.items():
                key = _person(person)
                pipe.zadd(key, dict.fromkeys(pages, now))
                pipe.zremrangebyscore(key, "-inf", now - self.stale)
                pipe.expire(key, int(self.stale) + 1)
            for place, channels in places.items():
                _mark_place(pipe, place, channels, now)
                pipe.zremrangebyscore(place_key(place), "-inf", now - self.stale)
            await pipe.execute()

    # -- the readers' side (sync, in views and workers) --------------------------------

    def online_count(self):
        """How many people have a page open now."""
        with redis_client().pipeline() as pipe:
            pipe.zremrangebyscore(ONLINE, "-inf", self.clock() - self.stale)
            pipe.zcard(ONLINE)
            return pipe.execute()[1]

    def pages(self, people):
        """{person: [paths of their open pages]} of those among `people` online now."""
        people = list(people)
        if not people:
            return {}
        since = self.clock() - self.stale
        pipe = redis_client().pipeline(transaction=False)
        for person in people:
            pipe.zrangebyscore(_person(person), since, "+inf")
        found = {}
        for person, members in zip(people, pipe.execute()):
            if members:
                found[person] = [m.decode().split("|", 1)[1] for m in members]
        return found

    def last_seen(self, places):
        """{place: (here, the last time a socket there was heard of or left; None if never)}."""
        places = list(places)
        if not places:
            return {}
        now = self.clock()
        pipe = redis_client().pipeline(transaction=False)
        for place in places:
            pipe.zcount(place_key(place), now - self.stale, "+inf")
            pipe.get(f"{place_key(place)}:seen")
        answers = pipe.execute()
        return {place: (answers[2 * i] > 0, float(answers[2 * i + 1]) if answers[2 * i + 1] else None)
                for i, place in enumerate(places)}

    def count(self, place):
        """How many sockets stand at `place` now."""
        return redis_client().zcount(place_key(place), self.clock() - self.stale, "+inf")


def member(channel, path):
    """What a page is called in its person's set: its channel and its path."""
    return f"{channel}|{path}"


def _person(person):
    return f"{PREFIX}:person:{person}"


def place_key(place):
    """The Redis key of the sockets at `place` (beside it, `<key>:seen`)."""
    return f"{PREFIX}:at:{place}"


def _mark_place(pipe, place, channels, now):
    key = place_key(place)
    pipe.zadd(key, dict.fromkeys(channels, now))
    pipe.expire(key, KEEP)
    pipe.set(f"{key}:seen", now, ex=KEEP)


presence = Presence()
