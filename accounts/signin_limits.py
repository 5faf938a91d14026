"""Limits on failed sign-ins, kept by django-axes on every authentication path.

Axes counts failures per lockout parameter (settings.SIGN_IN_LIMITS: per address and
account, per account, per address) but compares them all with one limit. Here each
parameter has its own, and a success forgets only what that address got wrong for
that account: a guesser who signs in to an account of their own must not wipe the
count of their address.
"""
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Sum


def username_of(request, credentials=None):
    """AXES_USERNAME_CALLABLE: the username axes counts and stores, as typed but cut to
    the 255 characters of its column. (Django's sign-in forms, ours and the admin's, do
    not check the length; no account has a longer name.)"""
    username = (credentials or {}).get("username") if credentials else request.POST.get("username")
    return username[:255] if isinstance(username, str) else username


def lockout_parameters(request_or_attempt=None, credentials=None):
    """AXES_LOCKOUT_PARAMETERS, in the order of settings.SIGN_IN_LIMITS."""
    return [parameters for parameters, _limit in settings.SIGN_IN_LIMITS]


class SignInLimits(AxesDatabaseHandler):
    def get_failures(self, request, credentials=None):
        """Axes refuses once this reaches AXES_FAILURE_LIMIT: the limit less the
        fewest failures any parameter may still have before its own limit."""
        headroom = min(
            limit - (attempts.aggregate(total=Sum("failures_since_start"))["total"] or 0)
            for attempts, (_parameters, limit) in zip(self.get_user_attempts(request, credentials),
                                                      settings.SIGN_IN_LIMITS)
        )
        return settings.AXES_FAILURE_LIMIT - headroom

    def reset_user_attempts(self, request, credentials=None):
        deleted, _ = AccessAttempt.objects.filter(
            ip_address=request.axes_ip_address, username=get_client_username(request, credentials)).delete()
        return deleted
