"""The address a request came from, for the limits on guessing (sign-in, reset mails,
table codes).

The socket's peer is the client unless it is one of TRUSTED_PROXIES (settings, from
the environment; none by default). A trusted proxy appends the address it saw to
X-Forwarded-For, so the client is the rightmost entry that is not itself a trusted
proxy; everything to its left was written by the client and proves nothing.
(daphne's --proxy-headers takes the leftmost entry, which any client chooses, so
the Procfile does not use it.)

A proxy that is not in TRUSTED_PROXIES makes every client look like the proxy: one
guesser then locks everybody out of signing in. untrusted_proxy notices requests that
came through one; the first is logged as a warning and /healthz says so from then on.
"""
import ipaddress
import logging

from django.conf import settings

logger = logging.getLogger(__name__)


def trusted_networks():
    return [ipaddress.ip_network(entry, strict=False) for entry in settings.TRUSTED_PROXIES]


def parse(text):
    try:
        return ipaddress.ip_address(text.strip().removeprefix("[").split("]")[0])
    except ValueError:
        return None


def client_address(request):
    """The client's IP address as text; always a valid address (axes stores it in a
    GenericIPAddressField)."""
    return address_of(request.META.get("REMOTE_ADDR") or "", request.META.get("HTTP_X_FORWARDED_FOR") or "")


def socket_client_address(scope):
    """The same for a websocket's ASGI scope."""
    peer = (scope.get("client") or ("",))[0] or ""
    forwarded = b",".join(value for name, value in scope.get("headers", ()) if name.lower() == b"x-forwarded-for")
    return address_of(peer, forwarded.decode("latin-1"))


def address_of(peer_text, forwarded_for):
    peer = parse(peer_text) or ipaddress.ip_address("0.0.0.0")
    networks = trusted_networks()

    def trusted(address):
        return any(address in network for network in networks)

    client = peer
    if trusted(peer):
        hops = forwarded_for.split(",")
        for hop in reversed(hops):
            address = parse(hop)
            if address is None:
                break  # a malformed entry: keep the last address a trusted proxy vouched for
            client = address
            if not trusted(address):
                break
    return str(client)


# -- a proxy nobody told us about ----------------------------------------------------

_seen = False  # this process has had a forwarded request while TRUSTED_PROXIES was empty

PROXY_WARNING = ("Requests arrive through a proxy (X-Forwarded-For) but TRUSTED_PROXIES is empty: "
                 "every client looks like the proxy, so the limits on guessing lock everybody out "
                 "at once. Set TRUSTED_PROXIES to the proxy's addresses.")


def came_through_a_proxy(request):
    """X-Forwarded-For, or a private or loopback peer that forwards for another client."""
    if request.META.get("HTTP_X_FORWARDED_FOR"):
        return True
    peer = parse(request.META.get("REMOTE_ADDR") or "")
    forwarding = request.META.get("HTTP_FORWARDED") or request.META.get("HTTP_X_REAL_IP")
    return bool(forwarding) and peer is not None and (peer.is_private or peer.is_loopback)


def untrusted_proxy(request):
    """Whether this process has seen a request through a proxy that is not trusted
    (this one included); the first such request is logged."""
    global _seen
    if settings.TRUSTED_PROXIES:
        return False
    if not _seen and came_through_a_proxy(request):
        _seen = True
        logger.warning(PROXY_WARNING)
    return _seen


class UntrustedProxyMiddleware:
    """Looks at every request, so the warning is logged with the first forwarded one."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        untrusted_proxy(request)
        return self.get_response(request)
