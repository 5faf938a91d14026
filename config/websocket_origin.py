"""The websocket Origin check's second half: the scheme.

Channels' AllowedHostsOriginValidator compares the Origin's host only, so on an
HTTPS site a page served over plain HTTP on the same host (which anyone on the path
can write) could open a socket with the visitor's cookies. Here, once the socket
arrived over TLS (wss, or a proxy's SECURE_PROXY_SSL_HEADER says https), only an
https:// Origin passes. A plain-HTTP site (development) is left as it was.
"""
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings


def header(scope, name):
    return next((value.decode("latin-1") for key, value in scope.get("headers", ()) if key.lower() == name), None)


def arrived_over_tls(scope):
    if scope.get("scheme") == "wss":
        return True
    proxy_header = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy_header:
        name, secure_value = proxy_header
        value = header(scope, name.removeprefix("HTTP_").lower().replace("_", "-").encode())
        return value is not None and value.split(",")[0].strip() == secure_value
    return False


class SecureOriginScheme:
    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and arrived_over_tls(scope):
            origin = header(scope, b"origin") or ""
            if urlsplit(origin).scheme != "https":
                return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
