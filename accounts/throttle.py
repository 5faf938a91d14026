"""Slowing down password guessing and mail bombing: failed sign-ins counted per IP
and username, password-reset mails per address and per IP.

Counters live in the database (every daphne process sees the same ones) under a
hash of the key, so neither IP addresses nor typed usernames are stored. Whether
the account exists plays no part: a made-up username is throttled exactly like a
real one, so the throttle reveals nothing either.
"""
import hashlib
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from accounts.models import LoginThrottle


def window():
    return timedelta(seconds=getattr(settings, "LOGIN_FAILURE_WINDOW", 15 * 60))


def limits():
    """(failures per IP and username, failures per IP) allowed in one window."""
    return (getattr(settings, "LOGIN_FAILURES_PER_USERNAME", 5),
            getattr(settings, "LOGIN_FAILURES_PER_IP", 50))


def client_ip(request):
    # daphne --proxy-headers (Procfile) puts the proxy's X-Forwarded-For here.
    return request.META.get("REMOTE_ADDR") or "unknown"


def _key(*parts):
    return hashlib.sha256("\x00".join(parts).encode()).hexdigest()


def _keys(request, username):
    per_user, per_ip = limits()
    ip = client_ip(request)
    return [(_key("ip-user", ip, (username or "").strip().casefold()), per_user), (_key("ip", ip), per_ip)]


def is_locked(request, username):
    since = timezone.now() - window()
    return any(
        LoginThrottle.objects.filter(key=key, window_start__gt=since, failures__gte=limit).exists()
        for key, limit in _keys(request, username)
    )


def record_failure(request, username):
    now = timezone.now()
    for key, _limit in _keys(request, username):
        _count(key, now, window())


def _count(key, now, length):
    """One more event under `key`, in a window that starts afresh once `length` is over."""
    with transaction.atomic():
        expired = LoginThrottle.objects.filter(key=key, window_start__lte=now - length)
        if expired.update(failures=1, window_start=now):
            return
        if LoginThrottle.objects.filter(key=key).update(failures=F("failures") + 1):
            return
        try:
            with transaction.atomic():
                LoginThrottle.objects.create(key=key, failures=1, window_start=now)
        except IntegrityError:  # created meanwhile by a parallel request
            LoginThrottle.objects.filter(key=key).update(failures=F("failures") + 1)


def clear(request, username):
    """A successful sign-in forgets the failures for this IP and username."""
    LoginThrottle.objects.filter(key=_keys(request, username)[0][0]).delete()


# -- password-reset mails -------------------------------------------------------

def reset_window():
    return timedelta(seconds=getattr(settings, "PASSWORD_RESET_WINDOW", 60 * 60))


def _reset_keys(request, email):
    per_address = getattr(settings, "PASSWORD_RESETS_PER_ADDRESS", 3)
    per_ip = getattr(settings, "PASSWORD_RESETS_PER_IP", 20)
    return [(_key("reset-address", (email or "").strip().casefold()), per_address),
            (_key("reset-ip", client_ip(request)), per_ip)]


def allow_reset_mail(request, email):
    """Whether a reset mail may go to `email` now; counts the request if so. Known and
    unknown addresses count alike, so the answer reveals nothing."""
    now = timezone.now()
    since = now - reset_window()
    keys = _reset_keys(request, email)
    if any(LoginThrottle.objects.filter(key=key, window_start__gt=since, failures__gte=limit).exists()
           for key, limit in keys):
        return False
    for key, _limit in keys:
        _count(key, now, reset_window())
    return True
