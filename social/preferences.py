"""Each person's choices (mail per kind, boards taken in challenges): the only writer of
Preferences rows. A person without a row has the defaults."""
from django.db import IntegrityError, transaction

from social.models import Preferences
from social.unsubscribe import KINDS


def of(user):
    found = Preferences.objects.filter(user_id=getattr(user, "pk", user)).first()
    return found or Preferences(user_id=getattr(user, "pk", user))


def save(user, **values):
    """Set these fields (one update, or the row made once)."""
    if Preferences.objects.filter(user=user).update(**values):
        return
    try:
        with transaction.atomic():
            Preferences.objects.create(user=user, **values)
    except IntegrityError:  # made meanwhile by a second click
        Preferences.objects.filter(user=user).update(**values)


def unsubscribe(user_id, kind):
    """No more mail of `kind` (a KINDS key) for this person."""
    save_id(user_id, **{KINDS[kind]: False})


def save_id(user_id, **values):
    from django.contrib.auth import get_user_model  # noqa: PLC0415
    user = get_user_model().objects.filter(pk=user_id).first()
    if user is not None:
        save(user, **values)
    return user
