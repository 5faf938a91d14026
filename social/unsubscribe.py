"""Unsubscribe links in mail: a signed token naming the person and the kind of mail, so
the link works without signing in and cannot be made for anyone else. A link lives
LIFETIME; an older one is refused, saying where the mail is switched off instead.

The link opens a page that asks first (social.views.unsubscribe_page): mail scanners
open every link of a mail, and opening one must change nothing. Mail clients that
offer one-click unsubscribe POST to the same link (the List-Unsubscribe headers here,
RFC 8058)."""
import time
from datetime import timedelta

from django.core import signing
from django.urls import reverse
from django.utils.translation import gettext as _

from infra.site_url import absolute

SALT = "social.unsubscribe"
KINDS = {"challenges": "mail_challenges", "turn": "mail_your_turn"}
LIFETIME = timedelta(days=60)
# What an RFC 8058 one-click POST sends, and nothing else: the one answer taken without
# the page's CSRF token (the signed token authorises it).
ONE_CLICK = ("List-Unsubscribe", "One-Click")


class Refused(Exception):
    """A link that unsubscribes nobody, with why in the reader's language."""


class _Signer(signing.TimestampSigner):
    """Django's timestamped signer, its time given (a token made `issued` seconds since
    the epoch: the tests' clock) or now."""

    def __init__(self, issued=None):
        super().__init__(salt=SALT)
        self.issued = issued

    def timestamp(self):
        return signing.b62_encode(int(time.time() if self.issued is None else self.issued))


def token(user_id, kind, issued=None):
    return _Signer(issued).sign_object({"u": user_id, "k": kind})


def read(value):
    """(user id, kind) of a token made here within LIFETIME; else Refused."""
    try:
        data = _Signer().unsign_object(value, max_age=LIFETIME)
    except signing.SignatureExpired:
        raise Refused(_("This link has expired: the links in our mails work for %(days)d days. "
                        "Choose which mail you get on your profile page.") % {"days": LIFETIME.days}) from None
    except signing.BadSignature:
        raise Refused(_("This link is not valid.")) from None
    if not isinstance(data, dict) or data.get("k") not in KINDS or not isinstance(data.get("u"), int):
        raise Refused(_("This link is not valid."))
    return data["u"], data["k"]


def link(user_id, kind):
    return absolute(reverse("social:unsubscribe", args=[token(user_id, kind)]))


def footer(url):
    """The last line of a mail with the unsubscribe link `url` (link())."""
    return _("No more of these mails: %(url)s") % {"url": url}


def headers(url):
    """The headers of a mail with the unsubscribe link `url`, for mail clients' own button."""
    return {"List-Unsubscribe": f"<{url}>", "List-Unsubscribe-Post": "=".join(ONE_CLICK)}


def is_one_click(request):
    """Whether this is a mail client's one-click POST, exactly as RFC 8058 words it."""
    return request.method == "POST" and list(request.POST.lists()) == [(ONE_CLICK[0], [ONE_CLICK[1]])]
