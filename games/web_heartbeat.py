"""Each daphne process beats in Redis (games.downtime.beat) every BEAT seconds from
the moment it listens until it stops, on its event loop: a daphne that cannot run its
loop cannot take a move either. The workers' clocks flag nobody while no daphne beats,
and the first daphne back after an outage records it (docs/rules.md §11.3). Wired in
config.asgi."""
import asyncio
import logging
import time

log = logging.getLogger(__name__)


async def keep_beating():
    from games import downtime
    from infra.outages import UNREACHABLE
    from infra.redis_clients import async_redis_client

    since = time.time()
    failing = False
    while True:
        try:
            outage = await downtime.beat(async_redis_client(), since)
        except UNREACHABLE as error:
            if not failing:
                log.warning("web heartbeat not written (%s); trying every second", error)
            failing = True
        except Exception:  # a beat that stops stops every flag of the site: log it, beat on
            if not failing:
                log.exception("web heartbeat failed; trying every second")
            failing = True
        else:
            if outage:
                start, end = downtime.parse(outage)
                log.warning("no web process ran for %.1f s: that time is given back to the players to move",
                            (end - start).total_seconds())
            failing = False
        await asyncio.sleep(downtime.BEAT)


def beat_while_listening():
    """Start keep_beating when daphne's server first listens (once per process, before
    daphne builds its Server; nothing happens in a process that imports the
    application without serving it)."""
    from daphne.server import Server

    if getattr(Server, "beats", False):
        return
    listened = Server.listen_success

    def listen_success(self, port):
        from twisted.internet import reactor  # daphne has installed its asyncio reactor by now

        listened(self, port)
        if not getattr(self, "beating", False):
            self.beating = True
            # kept on the server: the loop holds its tasks only weakly
            reactor.callWhenRunning(lambda: setattr(self, "beat_task",
                                                    reactor._asyncioEventloop.create_task(keep_beating())))

    Server.listen_success = listen_success
    Server.beats = True
