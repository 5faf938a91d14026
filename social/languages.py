"""The language each person reads the site in, kept for what reaches them away from it
(their mail: social.mail, and games.turn_mail through social.receivers).

Written when they sign in (the language their browser asked for) and when they switch
the site's language: rare moments. Never after other requests, which must not wait
for the database's write lock to note a language (tests/site/test_database_busy.py)."""
import logging

from django.conf import settings
from django.db import DatabaseError

from social import preferences

log = logging.getLogger(__name__)


class RememberLanguageMiddleware:
    """A signed-in person switched the language (django.views.i18n.set_language sets
    its cookie): their mail follows."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        switched = response.cookies.get(settings.LANGUAGE_COOKIE_NAME)
        if switched is not None and request.user.is_authenticated:
            remember(request.user, switched.value)
        return response


def remember(user, language):
    if language not in dict(settings.LANGUAGES):
        return
    try:
        preferences.save(user, language=language)
    except DatabaseError as error:  # the write lock held for long: the next sign-in
        log.warning("language of %s not kept (%s)", user.pk, error)


def of(user):
    """The language of `user`'s mail: the one they last read the site in, else the site's."""
    return preferences.of(user).language or settings.LANGUAGE_CODE
