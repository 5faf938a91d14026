"""One-click unsubscribe links in mail: a signed token naming the person and the kind of
mail, so the link works without signing in and cannot be made for anyone else."""
from django.core import signing
from django.urls import reverse
from django.utils.translation import gettext as _

from config.site_url import absolute

SALT = "social.unsubscribe"
KINDS = {"challenges": "mail_challenges", "turn": "mail_your_turn"}


def token(user_id, kind):
    return signing.dumps({"u": user_id, "k": kind}, salt=SALT)


def read(value):
    """(user id, kind) of a token made here, else None."""
    try:
        data = signing.loads(value, salt=SALT)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or data.get("k") not in KINDS or not isinstance(data.get("u"), int):
        return None
    return data["u"], data["k"]


def link(user_id, kind):
    return absolute(reverse("social:unsubscribe", args=[token(user_id, kind)]))


def footer(user_id, kind):
    return _("No more of these mails: %(url)s") % {"url": link(user_id, kind)}
