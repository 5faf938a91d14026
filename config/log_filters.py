"""Filters of the site's log (settings.LOGGING)."""
import logging


class WithoutTraceback(logging.Filter):
    """Keeps a record's message and drops its traceback.

    For refusals that are the client's doing, not a fault of ours: a request naming a
    host the site does not serve (django.security.DisallowedHost) is a probe or a
    misconfigured client, and its fifteen-line traceback said nothing the message
    does not ("Invalid HTTP_HOST header: 'evil.example'...")."""

    def filter(self, record):
        record.exc_info = None
        record.exc_text = None
        return True
