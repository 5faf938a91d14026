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
