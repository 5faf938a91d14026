"""A player's display name, and the counters of accounts.throttle.

The user model stays Django's own `auth.User`; the display name lives in a
one-to-one Profile and is read everywhere as `user.display_name` (added to User
in AccountsConfig.ready), falling back to the username.
"""
from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.db import models
from django.utils.translation import gettext_lazy as _

DISPLAY_NAME_MAX = 40


class Profile(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    display_name = models.CharField(_("display name"), max_length=DISPLAY_NAME_MAX, blank=True,
                                    help_text=_("The name other players see. Your username if empty."))

    def __str__(self):
        return self.display_name or self.user.get_username()


def display_name_of(user):
    """The name shown for `user`: their display name, else their username."""
    try:
        name = user.profile.display_name
    except ObjectDoesNotExist:
        name = ""
    return name or user.get_username()


class LoginThrottle(models.Model):
    """Events in the current window per hashed key: password-reset mails (per mail
    address, per client address) and wrong table codes; see accounts.throttle.
    (Failed sign-ins are counted by django-axes.)"""

    key = models.CharField(max_length=64, unique=True, help_text="sha256 of the kind and its parts")
    failures = models.PositiveIntegerField(default=0)
    window_start = models.DateTimeField()

    def __str__(self):
        return f"{self.key[:12]}…: {self.failures}"
