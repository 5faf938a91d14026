"""At most WEBSOCKETS_PER_ADDRESS open websockets per client address, over every route.

Each open socket holds memory in daphne (one address opened 3,000 lobby sockets in a
few seconds, doubling the process), so past the bound a socket is accepted and closed
at once with TOO_MANY (refused at the handshake instead, the browser would log a
failed connection), which htmx does not reconnect after; the page tries again after
a pause (static/js/reconnect.js). The address is the client's by the trusted-proxy
rule (infra.client_address).

Counted per daphne process, in memory: a socket counts from its handshake until its
application ends, so a killed daphne takes its counts with it and nothing is left
stuck. With several daphnes behind a balancer an address may hold the bound on each.
"""
from collections import Counter

from django.conf import settings

from infra.client_address import socket_client_address

TOO_MANY = 4429


class SocketsPerAddress:
    def __init__(self, inner):
        self.inner = inner
        self.open = Counter()

    async def __call__(self, scope, receive, send):
        if scope["type"] != "websocket":
            return await self.inner(scope, receive, send)
        address = socket_client_address(scope)
        if self.open[address] >= settings.WEBSOCKETS_PER_ADDRESS:
            return await refuse(receive, send)
        self.open[address] += 1
        try:
            return await self.inner(scope, receive, send)
        finally:
            self.open[address] -= 1
            if not self.open[address]:
                del self.open[address]


async def refuse(receive, send):
    if (await receive())["type"] == "websocket.connect":
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.close", "code": TOO_MANY})
