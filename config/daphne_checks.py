"""daphne's checks of its open connections, each made when it can be due.

daphne goes through every connection in one pass every second (reaping applications
that have ended: Server.application_checker) and every two seconds (time-outs and
keep-alive pings: Server.timeout_checker). With thousands of pages open that is
thousands of checks a second that nearly always find nothing to do, and a pass
holds the event loop for 10-60 ms (benchmarks/README.md, "Idle pages"). Here the
same checks are made only on the connections that may need one:

- reaping (daphne's own application_checker, handed a view of the server holding
  just those connections): a connection whose application has ended, or that has
  disconnected, once a second until daphne lets it go;
- time-outs and pings (the protocol's own check_timeouts): an open websocket when
  its next keep-alive ping falls due or its time limit ends; any other connection
  (an HTTP request, a websocket still in its handshake) every two seconds, as daphne
  does. Due connections come off a heap every STEP seconds, at most BATCH at a time,
  so pages opened together do not all ping in the same moment.
"""
import heapq
import itertools
import time

STEP = 0.02  # seconds between two looks at the heap of due checks
BATCH = 50  # connections checked at most per look
PERIOD = 2.0  # daphne's period for time-outs, kept for all but open websockets


class DueChecks:
    """One server's waiting checks: when each connection's time-outs are next due,
    and the connections to look at for reaping."""

    def __init__(self):
        self.heap = []
        self.order = itertools.count()  # ties never compare two protocols
        self.to_reap = set()

    def check_at(self, when, protocol):
        heapq.heappush(self.heap, (when, next(self.order), protocol))

    def take_due(self, now, limit=BATCH):
        """The connections due by `now`, earliest first, at most `limit` of them."""
        taken = []
        while self.heap and self.heap[0][0] <= now and len(taken) < limit:
            taken.append(heapq.heappop(self.heap)[2])
        return taken


def next_check(server, protocol, now):
    """When a connection's time-outs next need a look: an open websocket when its
    ping falls due (daphne pings once more than ping_interval has passed) or its
    time limit ends, anything else a period from now."""
    if getattr(protocol, "state", None) == getattr(protocol, "STATE_OPEN", ...) and hasattr(protocol, "last_ping"):
        due = protocol.last_ping + server.ping_interval
        if server.websocket_timeout >= 0:
            due = min(due, protocol.socket_opened + server.websocket_timeout)
        return max(due, now) + STEP
    return now + PERIOD


def due_checks(server):
    try:
        return server.due_checks
    except AttributeError:
        server.due_checks = DueChecks()
        return server.due_checks


class _ServerView:
    """The server as daphne's application_checker sees it here: only the connections
    to reap, and the checker's own rescheduling a no-op (ours reschedules)."""

    def __init__(self, server, connections):
        self._server, self.connections = server, connections

    def __getattr__(self, name):
        return getattr(self._server, name)

    def application_checker(self):
        pass


def schedule_daphne_checks():
    """Replace daphne's passes over every connection with checks when due (once per
    process, before daphne builds its Server)."""
    from daphne.server import Server

    if getattr(Server, "checks_when_due", False):
        return
    connected, disconnected = Server.protocol_connected, Server.protocol_disconnected
    create_application, reap = Server.create_application, Server.application_checker

    def protocol_connected(self, protocol):
        connected(self, protocol)
        due_checks(self).check_at(time.time() + PERIOD, protocol)

    def protocol_disconnected(self, protocol):
        disconnected(self, protocol)
        due_checks(self).to_reap.add(protocol)

    def create_application_watched(self, protocol, scope):
        queue = create_application(self, protocol, scope)
        future = self.connections.get(protocol, {}).get("application_instance")
        if future is not None:
            future.add_done_callback(lambda _future: due_checks(self).to_reap.add(protocol))
        return queue

    def application_checker(self):
        from twisted.internet import reactor  # daphne has installed its reactor by now

        checks = due_checks(self)
        view = {protocol: self.connections[protocol] for protocol in checks.to_reap if protocol in self.connections}
        looked_at = list(view)
        try:
            reap(_ServerView(self, view))
        finally:
            for protocol in looked_at:
                if protocol not in view:  # daphne let it go
                    self.connections.pop(protocol, None)
            # A disconnected one stays until its application ends or is killed for
            # taking too long; one still connected comes back when it disconnects.
            checks.to_reap = {protocol for protocol in view if "disconnected" in view[protocol]}
            reactor.callLater(1, self.application_checker)

    def timeout_checker(self):
        from twisted.internet import reactor

        checks = due_checks(self)
        due = [protocol for protocol in checks.take_due(time.time()) if protocol in self.connections]
        try:
            for protocol in due:
                protocol.check_timeouts()
        finally:
            now = time.time()
            for protocol in due:
                if protocol in self.connections:
                    checks.check_at(next_check(self, protocol, now), protocol)
            reactor.callLater(STEP, self.timeout_checker)

    Server.protocol_connected = protocol_connected
    Server.protocol_disconnected = protocol_disconnected
    Server.create_application = create_application_watched
    Server.application_checker = application_checker
    Server.timeout_checker = timeout_checker
    Server.checks_when_due = True
