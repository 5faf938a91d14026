"""Middleware of our own."""
from django.http import HttpResponseBadRequest
from django.utils.decorators import sync_only_middleware
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


@sync_only_middleware
def synchronous_chain(get_response):
    """The last middleware, and synchronous only, so that Django runs the whole chain
    in the request's thread. Without it, every middleware below WhiteNoise (which is
    synchronous) ran in async mode, and each of their process_request and
    process_response hopped from the event loop into the thread and back: about
    twenty thread switches per request."""
    return get_response
