"""The address a request came from, for the limits on guessing (sign-in, reset mails,
table codes).

The socket's peer is the client unless it is one of TRUSTED_PROXIES (settings, from
the environment; none by default). A trusted proxy appends the address it saw to
X-Forwarded-For, so the client is the rightmost entry that is not itself a trusted
proxy; everything to its left was written by the client and proves nothing.
(daphne's --proxy-headers takes the leftmost entry, which any client chooses, so
the Procfile does not use it.)
"""
import ipaddress

from django.conf import settings


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
    peer = parse(request.META.get("REMOTE_ADDR") or "") or ipaddress.ip_address("0.0.0.0")
    networks = trusted_networks()

    def trusted(address):
        return any(address in network for network in networks)

    client = peer
    if trusted(peer):
        hops = (request.META.get("HTTP_X_FORWARDED_FOR") or "").split(",")
        for hop in reversed(hops):
            address = parse(hop)
            if address is None:
                break  # a malformed entry: keep the last address a trusted proxy vouched for
            client = address
            if not trusted(address):
                break
    return str(client)
