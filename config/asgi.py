"""ASGI entry point: HTTP through Django, websockets through Channels.

Websockets are bounded per client address (config.socket_limit), pass the allowed-hosts Origin check (a foreign page cannot open one with
the visitor's cookies; on HTTPS, nor a plain-HTTP page: config.websocket_origin) and
carry the session user via AuthMiddlewareStack. HTTP requests run on a fixed pool of request threads (config.request_threads), behind a
cap on their bodies (config.body_limit). Their writes, and the sockets', wait briefly for the database's
locks (infra.write_waits). daphne checks its open connections only when a
check can be due (config.daphne_checks), and beats in Redis while it listens
(games.web_heartbeat: the workers' clocks stop while no daphne runs).
"""
import gc
import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from config.request_threads import get_asgi_application  # noqa: E402

django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402  (needs Django set up)
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from config.body_limit import BodyLimit, limit_daphne  # noqa: E402
from config.daphne_checks import schedule_daphne_checks  # noqa: E402
from config.routing import websocket_urlpatterns  # noqa: E402
from config.socket_limit import SocketsPerAddress  # noqa: E402
from config.websocket_origin import SecureOriginScheme  # noqa: E402
from games.web_heartbeat import beat_while_listening  # noqa: E402
from infra.frames import KnowsDaphneProtocol  # noqa: E402
from infra.write_waits import bound_request_writes  # noqa: E402

limit_daphne()
schedule_daphne_checks()
beat_while_listening()
if not settings.TESTING:  # a test process drives this application in-process, its connections its own
    bound_request_writes()
application = ProtocolTypeRouter(
    {
        "http": BodyLimit(django_asgi_app),
        "websocket": KnowsDaphneProtocol(SocketsPerAddress(SecureOriginScheme(AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        )))),
    }
)

# A request allocates many short-lived objects (ORM rows, template nodes): with
# the default threshold (700 allocations) the cyclic collector runs often and, now
# and then, walks everything loaded at start-up. That is frozen out of its reach,
# and young objects are collected in batches of 10,000: in a process holding
# thousands of open pages a batch costs about 0.35 ms per 1,000 objects (the objects
# they point to are scattered over its heap), so larger batches stall every socket
# for tens of milliseconds at a time. benchmarks/roundtrip.py measures the daphne
# CPU a move and the p99 with and without idle pages; the figures are in
# benchmarks/README.md, "A move at an online table" and "Idle pages".
gc.freeze()
gc.set_threshold(10_000, 20, 20)
