"""The site's own 404 and 500 pages for players even while DEBUG is on.

With DEBUG off Django answers with templates/404.html and 500.html itself. With DEBUG
on (`make run` sets it) it shows everyone its technical pages instead (the URL
patterns, the traceback), which a player should never meet. This middleware answers
players with the site's pages through the same handlers Django uses with DEBUG off,
and leaves the technical pages to staff. A fault's traceback is logged (django.request)
exactly as Django logs it, so the console still shows the real error.
"""
from django.conf import settings
from django.core import signals
from django.core.exceptions import BadRequest, PermissionDenied, SuspiciousOperation
from django.http import Http404
from django.http.multipartparser import MultiPartParserError
from django.urls import Resolver404, get_resolver, resolve
from django.utils.deprecation import MiddlewareMixin
from django.utils.log import log_response

# Django answers these with their own 4xx status, not as faults: left to it.
NOT_FAULTS = (PermissionDenied, BadRequest, SuspiciousOperation, MultiPartParserError)


class SiteErrorPagesMiddleware(MiddlewareMixin):
    def process_request(self, request):
        # An address no URL matches never reaches a view (nor process_exception): it is
        # answered here, as a 404 that CommonMiddleware may still turn into the redirect
        # to the address with its slash.
        if not for_a_player(request):
            return None
        try:
            resolve(request.path_info, getattr(request, "urlconf", None))
        except Resolver404 as error:
            return error_handler(request, 404)(request, error)
        return None

    def process_exception(self, request, exception):
        if not for_a_player(request) or isinstance(exception, NOT_FAULTS):
            return None
        if isinstance(exception, Http404):
            return error_handler(request, 404)(request, exception)
        signals.got_request_exception.send(sender=None, request=request)
        response = error_handler(request, 500)(request)
        log_response("%s: %s", response.reason_phrase, request.path, response=response, request=request,
                     exception=exception)
        return response


def for_a_player(request):
    """DEBUG is on and the request is not staff's (with DEBUG off Django does all this)."""
    if not settings.DEBUG:
        return False
    user = getattr(request, "user", None)
    return not (user is not None and user.is_staff)


def error_handler(request, status):
    return get_resolver(getattr(request, "urlconf", None)).resolve_error_handler(status)
