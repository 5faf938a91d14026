"""A page of the site as the benchmarks play it: a keep-alive HTTP client with the
page's session and CSRF token (HTTP), a game websocket that keeps the newest state
and when each ply arrived (Screen, parse_state), and a page's websocket opened as
htmx's ws extension does, trying again when the handshake fails (connect)."""
import asyncio
import json
import re
import time
import urllib.parse

import websockets


class HTTP:
    """A minimal keep-alive HTTP/1.1 client on asyncio streams (one per player)."""

    def __init__(self, port, session):
        self.port, self.session, self.csrf = port, session, ""
        self.reader = self.writer = None

    async def request(self, method, path, data=None, headers=()):
        for attempt in (1, 2):
            try:
                return await self._request(method, path, data, headers)
            except (ConnectionError, asyncio.IncompleteReadError):
                self.close()
                if attempt == 2:
                    raise

    async def _request(self, method, path, data, headers):
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        body = urllib.parse.urlencode(data).encode() if data is not None else b""
        cookie = f"sessionid={self.session}" + (f"; csrftoken={self.csrf}" if self.csrf else "")
        lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}", f"Cookie: {cookie}", *headers]
        if data is not None:
            lines += ["Content-Type: application/x-www-form-urlencoded", f"Content-Length: {len(body)}"]
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        await self.writer.drain()
        status = int((await self.reader.readline()).split()[1])
        length, chunked, close = None, False, False
        while True:
            line = (await self.reader.readline()).decode("latin-1").strip()
            if not line:
                break
            name, _, value = line.partition(":")
            name, value = name.lower(), value.strip()
            if name == "content-length":
                length = int(value)
            elif name == "transfer-encoding" and "chunked" in value.lower():
                chunked = True
            elif name == "connection" and value.lower() == "close":
                close = True
            elif name == "set-cookie" and value.startswith("csrftoken="):
                self.csrf = value.split(";", 1)[0].split("=", 1)[1]
        if chunked:
            parts = []
            while True:
                size = int((await self.reader.readline()).strip(), 16)
                if size == 0:
                    await self.reader.readline()
                    break
                parts.append(await self.reader.readexactly(size))
                await self.reader.readline()
            content = b"".join(parts)
        elif length is not None:
            content = await self.reader.readexactly(length)
        else:
            content = await self.reader.read()
            close = True
        if close:
            self.close()
        return status, content.decode()

    def close(self):
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


STATE = re.compile(r'<div id="game-state"[^>]*>')


def parse_state(html):
    """(ply, turn, status, legal squares) of a state fragment, or None."""
    tag = STATE.search(html)
    if tag is None:
        return None
    attributes = dict(re.findall(r'data-(turn|status|ply)="([^"]*)"', tag.group(0)))
    legal = re.findall(r'class="cell[^"]*\blegal\b[^"]*" data-square="(\w+)"', html)
    return int(attributes["ply"]), attributes["turn"], attributes["status"], legal


PING = re.compile(r'id="clock-ping"[^>]*data-ping="(\w+)"')


class Screen:
    """A player's game websocket: the newest state and when each ply first arrived."""

    def __init__(self):
        self.state = None
        self.arrived = {}
        self.changed = asyncio.Event()

    async def listen(self, socket, results):
        try:
            await self._listen(socket, results)
        except websockets.exceptions.ConnectionClosedError:
            pass
        # The server (or a keep-alive time-out) closed it while the table played on.
        results.closed.append(f"{socket.close_code} {socket.close_reason}".strip())

    async def _listen(self, socket, results):
        async for message in socket:
            now = time.perf_counter()
            if 'class="message error"' in message:  # a move sent over this socket was refused
                results.failed += 1
            ping = PING.search(message)
            if ping:  # a player's page answers the clock's ping at once (static/js/clocks.js)
                await socket.send(json.dumps({"pong": ping.group(1)}))
            state = parse_state(message)
            if state is None:
                continue
            self.arrived.setdefault(state[0], now)
            if self.state is None or state[0] >= self.state[0]:
                self.state = state
            self.changed.set()

    async def wait_for_ply(self, ply, timeout):
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self.state is None or self.state[0] < ply:
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), max(0.01, deadline - loop.time()))
        return min(t for p, t in self.arrived.items() if p >= ply)


async def connect(url, origin, session, results, attempts=5):
    """A page's websocket; like htmx's ws extension, try again when the handshake fails
    (daphne drops a handshake its consumer did not accept within 5 s). No session: a visitor."""
    headers = {"Cookie": f"sessionid={session}"} if session else {}
    for attempt in range(attempts):
        try:
            return await websockets.connect(url, origin=origin, additional_headers=headers,
                                            open_timeout=30, max_size=2 ** 22, ping_interval=None)
        except (OSError, websockets.exceptions.InvalidHandshake, asyncio.TimeoutError):
            if attempt == attempts - 1:
                raise
            results.reconnects += 1
            await asyncio.sleep(0.5 * 2 ** attempt)
