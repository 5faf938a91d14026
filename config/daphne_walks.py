"""daphne's two walks over its open connections, a slice at a time.

daphne goes through every connection in one pass every second (reaping applications
that have ended: Server.application_checker) and every two seconds (time-outs and
keep-alive pings: Server.timeout_checker). With thousands of pages open a pass holds
the event loop for 10-60 ms, and pages opened together fall due for their ping in the
same pass, so the moves that arrive meanwhile wait (benchmarks/README.md, "Idle
pages"). Here each walk makes the same checks on every connection at least as often,
in slices STEP seconds apart: daphne's own method does the checking, handed a view
of the server whose connections are one slice.
"""
import math

STEP = 0.02  # seconds between two slices of a walk


class Walk:
    """Which connections each slice of one walk goes through: a round takes the
    connections open as it begins and goes through them in at most `slices` slices,
    so each is visited at least once per period."""

    def __init__(self, slices):
        self.slices = slices
        self.round, self.at = [], 0

    def next_slice(self, connections):
        if self.at >= len(self.round):
            self.round, self.at = list(connections), 0
        size = math.ceil(len(self.round) / self.slices)
        part = self.round[self.at:self.at + size]
        self.at += size
        return [protocol for protocol in part if protocol in connections]


class _ServerSlice:
    """The server as one slice of a walk sees it: its connections that slice, and the
    walk's own rescheduling a no-op (spread_daphne_walks schedules the slices)."""

    def __init__(self, server, connections):
        self._server, self.connections = server, connections

    def __getattr__(self, name):
        return getattr(self._server, name)

    def application_checker(self):
        pass

    def timeout_checker(self):
        pass


def _sliced(name, check, period):
    def walk_a_slice(server):
        from twisted.internet import reactor  # daphne has installed its reactor by now

        walk = server.__dict__.setdefault("walks", {}).setdefault(name, Walk(max(1, round(period / STEP))))
        part = {protocol: server.connections[protocol] for protocol in walk.next_slice(server.connections)}
        visited = list(part)
        try:
            check(_ServerSlice(server, part))
        finally:
            for protocol in visited:
                if protocol not in part:  # the check let it go
                    server.connections.pop(protocol, None)
            reactor.callLater(STEP, getattr(server, name))

    walk_a_slice.__name__ = name
    return walk_a_slice


def spread_daphne_walks():
    from daphne.server import Server

    if getattr(Server, "walks_spread", False):
        return
    for name, period in (("application_checker", 1.0), ("timeout_checker", 2.0)):
        setattr(Server, name, _sliced(name, getattr(Server, name), period))
    Server.walks_spread = True
