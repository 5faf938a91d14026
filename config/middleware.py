"""Middleware of our own."""
from django.http import HttpResponseBadRequest
from django.utils.deprecation import MiddlewareMixin


class FormEncodingMiddleware(MiddlewareMixin):
    """A form post that declares a charset other than UTF-8 gets a plain 400 here.

    Django raises BadRequest for it when the body is first read, but leaves the body
    unparsed, so with DEBUG on its error page reads it again and answers 500."""

    def process_request(self, request):
        if (request.content_type == "application/x-www-form-urlencoded"
                and (request.encoding or "utf-8").lower() != "utf-8"):
            return HttpResponseBadRequest("A form must be sent in UTF-8.", content_type="text/plain")
        return None


class ContentLengthMiddleware:
    """Every whole (not streamed) answer states its length, refusals included.

    CommonMiddleware sets Content-Length, but only on answers that pass back through
    it: a foreign Host raises inside it, and that 400 went out with no length. To a
    GET daphne then sends chunks, but to a HEAD neither a length nor chunks, which
    leaves a client or proxy unsure where the answer ends on a kept-alive
    connection. A HEAD gets the length and no body. First in MIDDLEWARE, so every
    answer passes here."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if not response.streaming and not response.has_header("Content-Length"):
            response.headers["Content-Length"] = str(len(response.content))
        if request.method == "HEAD" and not response.streaming:
            # The length stays; the body goes here, since daphne let the tail of a
            # large one through after the headers, read as the next answer.
            response.content = b""
        return response


class ContentSecurityPolicyMiddleware:
    """Scripts, styles and everything else from the site only: no inline script or
    style, no eval (htmx is told so in base.html), sockets to the site itself, no
    framing. A page of someone else's text that slipped past escaping runs nothing."""

    POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
              "connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; "
              "frame-ancestors 'none'")

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", self.POLICY)
        return response
