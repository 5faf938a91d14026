"""A cap on request bodies, before Django reads them (settings.MAX_REQUEST_BODY).

Django reads a whole body before a view can say it is too large, so a 30 MB upload
to the import page was read (and held) completely before its "too large" answer.
Here a body whose Content-Length is over the cap is refused before any of it is
read, and one without a length is read only up to the cap. Django then answers the
refusal (BodyTooLargeMiddleware), so the 413 page comes in the visitor's language.

daphne itself queues every body it has received for the application at once
(daphne.http_protocol.WebRequest.process), so it also stops keeping a body past the
cap while it arrives (limit_daphne).
"""
from django.conf import settings
from django.shortcuts import render

TOO_LARGE = "reversi.body_too_large"  # set in the scope of a refused request


def declared_length(scope):
    for name, value in scope.get("headers", ()):
        if name.lower() == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


class BodyLimit:
    """ASGI middleware in front of Django's HTTP application."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        limit = settings.MAX_REQUEST_BODY
        length = declared_length(scope)
        if length is not None and length > limit:
            return await self.refuse(scope, receive, send)
        received, size = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client left before its body was in
            size += len(message.get("body", b""))
            if size > limit:
                return await self.refuse(scope, receive, send)
            received.append(message)
            if not message.get("more_body", False):
                break
        body = {"type": "http.request", "body": b"".join(part.get("body", b"") for part in received),
                "more_body": False}
        await self.app(scope, replay(body, receive), send)

    async def refuse(self, scope, receive, send):
        # Django answers with no body at all; the rest of the upload is never read.
        await self.app({**scope, TOO_LARGE: True}, replay({"type": "http.request", "body": b""}, receive), send)


def replay(first, receive):
    """A receive that gives `first`, then what the server sends after the body (a
    disconnect); the rest of a refused body is dropped unread."""
    pending = [first]

    async def receive_again():
        if pending:
            return pending.pop()
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return message

    return receive_again


class BodyTooLargeMiddleware:
    """Answers a request BodyLimit refused, after the language is chosen."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if getattr(request, "scope", {}).get(TOO_LARGE):
            return render(request, "413.html", {"limit_kb": settings.MAX_REQUEST_BODY // 1024}, status=413)
        return self.get_response(request)


def limit_daphne():
    """daphne (twisted) keeps the whole body it receives, then queues all of it for the
    application before the application runs: past the cap (and one byte, so BodyLimit
    sees it is over) the rest is read off the socket and dropped."""
    from daphne.http_protocol import WebRequest

    if getattr(WebRequest, "body_limited", False):
        return
    keep = WebRequest.handleContentChunk

    def handleContentChunk(self, data):
        room = settings.MAX_REQUEST_BODY + 1 - getattr(self, "body_kept", 0)
        if room > 0:
            keep(self, data[:room])
            self.body_kept = getattr(self, "body_kept", 0) + min(len(data), room)

    WebRequest.handleContentChunk = handleContentChunk
    WebRequest.body_limited = True
