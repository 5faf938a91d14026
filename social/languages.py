"""The language each person reads the site in, kept for what reaches them away from it
(their mail: social.mail, and games.turn_mail through social.receivers).

Written after a POST of a signed-in person (signing in, switching the language, any
action) when it differs from what their session last wrote: never on a plain page
view, which must not wait for the database's write lock."""
import logging

from django.conf import settings
from django.db import DatabaseError

from social import preferences

log = logging.getLogger(__name__)

SESSION_KEY = "social_language"


class RememberLanguageMiddleware:
    """Between django.middleware.locale.LocaleMiddleware and the views."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if request.method == "POST" and request.user.is_authenticated:
            switched = response.cookies.get(settings.LANGUAGE_COOKIE_NAME)  # django.views.i18n.set_language
            remember(request, switched.value if switched is not None else getattr(request, "LANGUAGE_CODE", None))
        return response


def remember(request, language):
    if language not in dict(settings.LANGUAGES) or request.session.get(SESSION_KEY) == language:
        return
    try:
        preferences.save(request.user, language=language)
    except DatabaseError as error:  # the write lock held for long: next time
        log.warning("language of %s not kept (%s)", request.user.pk, error)
        return
    request.session[SESSION_KEY] = language


def of(user):
    """The language of `user`'s mail: the one they last read the site in, else the site's."""
    return preferences.of(user).language or settings.LANGUAGE_CODE
