"""Counters for the limits django-axes does not cover: password-reset mails (per
address and per client address), wrong table codes (per client address, used by
lobby.views and the table socket), usernames looked up in vain (per client
address: player pages of nobody, failed sign-ups) and accounts made (per client
address). Failed sign-ins are axes' (accounts.signin_limits).

Counters live in the database (every daphne process sees the same ones) under a
hash of the key, so neither client addresses nor typed mail addresses are stored.
Known and unknown mail addresses count alike, so a limit reveals nothing.
"""
import hashlib
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from accounts.models import LoginThrottle
from infra.client_address import client_address


def _key(*parts):
    return hashlib.sha256("\x00".join(parts).encode()).hexdigest()


def reached(parts, limit, window):
    """Whether the events counted under `parts` in the current window reached `limit`."""
    since = timezone.now() - window
    return LoginThrottle.objects.filter(key=_key(*parts), window_start__gt=since, failures__gte=limit).exists()


def count(parts, window):
    """One more event under `parts`, in a window that starts afresh once `window` is over."""
    key, now = _key(*parts), timezone.now()
    with transaction.atomic():
        expired = LoginThrottle.objects.filter(key=key, window_start__lte=now - window)
        if expired.update(failures=1, window_start=now):
            return
        if LoginThrottle.objects.filter(key=key).update(failures=F("failures") + 1):
            return
        try:
            with transaction.atomic():
                LoginThrottle.objects.create(key=key, failures=1, window_start=now)
        except IntegrityError:  # created meanwhile by a parallel request
            LoginThrottle.objects.filter(key=key).update(failures=F("failures") + 1)


def take(parts, limit, window):
    """One more event under `parts` if fewer than `limit` were counted in the current
    window: whether it was counted. Each step is one conditional UPDATE, so two requests
    at the same moment never both take the last one."""
    key, now = _key(*parts), timezone.now()
    with transaction.atomic():
        if LoginThrottle.objects.filter(key=key, window_start__lte=now - window).update(failures=1, window_start=now):
            return True
        if LoginThrottle.objects.filter(key=key, failures__lt=limit).update(failures=F("failures") + 1):
            return True
        if LoginThrottle.objects.filter(key=key).exists():
            return False
        try:
            with transaction.atomic():
                LoginThrottle.objects.create(key=key, failures=1, window_start=now)
            return True
        except IntegrityError:  # created meanwhile by a parallel request
            return bool(LoginThrottle.objects.filter(key=key, failures__lt=limit).update(failures=F("failures") + 1))


# -- password-reset mails -------------------------------------------------------

def allow_reset_mail(request, email):
    """Whether a reset mail may go to `email` now; counts the request if so."""
    window = timedelta(seconds=getattr(settings, "PASSWORD_RESET_WINDOW", 60 * 60))
    limits = [(("reset-address", (email or "").strip().casefold()), getattr(settings, "PASSWORD_RESETS_PER_ADDRESS", 3)),
              (("reset-ip", client_address(request)), getattr(settings, "PASSWORD_RESETS_PER_IP", 20))]
    if any(reached(parts, limit, window) for parts, limit in limits):
        return False
    for parts, _limit in limits:
        count(parts, window)
    return True


# -- table codes ------------------------------------------------------------------

def _code_window():
    return timedelta(seconds=getattr(settings, "TABLE_CODE_MISS_WINDOW", 10 * 60))


def table_code_guessing(request):
    """Whether this client typed too many codes of no table lately (then every code
    lookup of theirs is refused for a while, so hits and misses look alike)."""
    return table_code_guessing_at(client_address(request))


def count_table_code_miss(request):
    count_table_code_miss_at(client_address(request))


# The table socket (lobby.consumers) has a scope, not a request: it counts by address.

def table_code_guessing_at(address):
    return reached(("table-code-miss", address), getattr(settings, "TABLE_CODE_MISSES_PER_ADDRESS", 30),
                   _code_window())


def count_table_code_miss_at(address):
    count(("table-code-miss", address), _code_window())


# -- usernames --------------------------------------------------------------------
# A player page answers whether a username exists, and so does a failed sign-up.

def _username_window():
    return timedelta(seconds=getattr(settings, "USERNAME_MISS_WINDOW", 10 * 60))


def username_guessing(request):
    """Whether this client looked up too many usernames in vain lately (then every
    player page but its own, and every sign-up, is refused for a while)."""
    return reached(("username-miss", client_address(request)),
                   getattr(settings, "USERNAME_MISSES_PER_ADDRESS", 30), _username_window())


def count_username_miss(request):
    count(("username-miss", client_address(request)), _username_window())


# -- accounts made ------------------------------------------------------------------
# Each account multiplies every per-account limit (chat, challenges, tables).

def take_sign_up(request):
    """Whether this client may make one more account today; counts it if so (call it in
    the transaction that makes the account, so a failed one gives the place back)."""
    return take(("sign-up", client_address(request)), settings.SIGN_UPS_PER_ADDRESS,
                timedelta(seconds=getattr(settings, "SIGN_UP_WINDOW", 24 * 60 * 60)))
