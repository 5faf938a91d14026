"""Guessing passwords: every sign-in path (ours and the admin's) is limited per address,
per address and account, and per account, by django-axes; the client's address is
the socket's unless a configured proxy vouches for X-Forwarded-For; a stranger
locks a player out for minutes, not days."""
from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client, RequestFactory

from accounts.models import Profile
from infra.client_address import client_address

pytestmark = pytest.mark.django_db
User = get_user_model()
PASSWORD = "correct horse battery"


@pytest.fixture
def alice():
    user = User.objects.create_user("alice", "alice@example.com", PASSWORD)
    Profile.objects.create(user=user)
    return user


def sign_in(username, password, address="203.0.113.7", path="/accounts/login/", **headers):
    client = Client(REMOTE_ADDR=address)
    response = client.post(path, {"username": username, "password": password}, headers=headers)
    return response, client


def signed_in(client):
    return "_auth_user_id" in client.session


def test_the_admin_sign_in_is_limited_like_ours():
    User.objects.create_superuser("root", "root@example.com", PASSWORD)
    for attempt in range(30):
        response, _client = sign_in("root", f"guess {attempt}", path="/admin/login/")
        assert response.status_code in (200, 429)
    response, client = sign_in("root", PASSWORD, path="/admin/login/")
    assert response.status_code == 429 and not signed_in(client)
    assert "Too many failed sign-in attempts" in response.content.decode()
    # An address our sign-in page refuses is refused by the admin too, and the other way round.
    for attempt in range(50):
        sign_in(f"user{attempt}", "guess", address="198.51.100.1")
    response, client = sign_in("root", PASSWORD, address="198.51.100.1", path="/admin/login/")
    assert response.status_code == 429 and not signed_in(client)
    response, client = sign_in("root", PASSWORD, address="198.51.100.2", path="/admin/login/")
    assert response.status_code == 302 and signed_in(client)


def test_fifty_guesses_from_ten_addresses_lock_the_account_for_minutes_only(alice):
    for attempt in range(50):
        response, _client = sign_in("alice", f"guess {attempt}", address=f"192.0.2.{attempt % 10 + 1}")
        assert response.status_code in (200, 429)
    response, client = sign_in("alice", PASSWORD, address="192.0.2.200")
    assert response.status_code == 429 and not signed_in(client)
    # Guessing on while refused is not counted, so it does not make the lock last longer...
    latest = AccessAttempt.objects.latest("attempt_time").attempt_time
    for attempt in range(10):
        sign_in("alice", f"more {attempt}", address="192.0.2.1")
    assert AccessAttempt.objects.latest("attempt_time").attempt_time == latest
    # ...and fifteen minutes after the last counted failure alice is back in.
    AccessAttempt.objects.update(attempt_time=latest - timedelta(minutes=15, seconds=1))
    response, client = sign_in("alice", PASSWORD, address="192.0.2.200")
    assert response.status_code == 302 and signed_in(client)


def test_a_few_wrong_passwords_from_elsewhere_do_not_keep_alice_out(alice):
    for attempt in range(4):
        sign_in("alice", f"guess {attempt}", address=f"192.0.2.{attempt + 1}")
    response, client = sign_in("alice", PASSWORD, address="192.0.2.100")
    assert response.status_code == 302 and signed_in(client)


def test_signing_in_to_ones_own_account_does_not_wipe_the_count_of_ones_address(alice):
    User.objects.create_user("mallory", password=PASSWORD)
    for attempt in range(49):
        sign_in(f"victim{attempt}", "guess")
    response, client = sign_in("mallory", PASSWORD)
    assert response.status_code == 302
    response, client = sign_in("alice", PASSWORD)
    assert response.status_code == 302  # 49 failures: one to go
    sign_in("victim", "guess")
    response, client = sign_in("alice", PASSWORD)
    assert response.status_code == 429 and not signed_in(client)


def test_a_made_up_x_forwarded_for_does_not_make_a_new_client(alice):
    for attempt in range(4):
        response, _client = sign_in("alice", "guess", X_FORWARDED_FOR=f"10.9.8.{attempt}")
        assert response.status_code == 200
    response, _client = sign_in("alice", "guess", X_FORWARDED_FOR="10.9.8.99")
    assert response.status_code == 429  # the fifth failure from this socket address, whatever the header says
    response, client = sign_in("alice", PASSWORD, X_FORWARDED_FOR="10.9.8.100")
    assert response.status_code == 429 and not signed_in(client)


@pytest.mark.parametrize("peer, forwarded, expected", [
    ("203.0.113.7", "", "203.0.113.7"),
    ("203.0.113.7", "1.2.3.4", "203.0.113.7"),                  # not from a trusted proxy: ignored
    ("10.0.0.5", "", "10.0.0.5"),                               # the proxy itself
    ("10.0.0.5", "198.51.100.9", "198.51.100.9"),
    ("10.0.0.5", "1.2.3.4, 198.51.100.9", "198.51.100.9"),      # the client wrote 1.2.3.4 itself
    ("10.0.0.5", "1.2.3.4, 198.51.100.9, 10.0.0.6", "198.51.100.9"),  # two proxies
    ("10.0.0.5", "garbage, 10.0.0.6", "10.0.0.6"),              # nothing believable past the proxies
    ("10.0.0.5", "198.51.100.9, \x00", "10.0.0.5"),
    ("10.0.0.5", "[2001:db8::1]", "2001:db8::1"),
    ("", "1.2.3.4", "0.0.0.0"),
])
def test_the_client_address_is_taken_from_trusted_proxies_only(settings, peer, forwarded, expected):
    settings.TRUSTED_PROXIES = ["10.0.0.0/8"]
    request = RequestFactory().get("/", REMOTE_ADDR=peer, HTTP_X_FORWARDED_FOR=forwarded)
    assert client_address(request) == expected


def test_behind_a_trusted_proxy_each_forwarded_client_is_counted_on_its_own(alice, settings):
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    for attempt in range(5):
        response, _client = sign_in("alice", "guess", address="127.0.0.1", X_FORWARDED_FOR="198.51.100.1")
    assert response.status_code == 429
    response, client = sign_in("alice", PASSWORD, address="127.0.0.1", X_FORWARDED_FOR="198.51.100.2")
    assert response.status_code == 302 and signed_in(client)


@pytest.mark.parametrize("path", ["/accounts/login/", "/admin/login/"])
def test_a_username_of_five_thousand_characters_is_just_a_wrong_one(path):
    # Django's sign-in forms leave its length unchecked; axes keeps 255 characters of it.
    response, client = sign_in("9" * 5000, "guess", path=path)
    assert response.status_code == 200 and not signed_in(client)
    assert [len(attempt.username) for attempt in AccessAttempt.objects.all()] == [255]


def test_a_password_reset_through_the_mail_lifts_the_lock_on_the_account(alice):
    import re

    from django.core import mail

    for attempt in range(5):
        response, _client = sign_in("alice", f"guess {attempt}")
    response, client = sign_in("alice", PASSWORD)
    assert response.status_code == 429 and not signed_in(client)

    client = Client(REMOTE_ADDR="203.0.113.7")
    client.post("/accounts/password/reset/", {"email": "alice@example.com"})
    link = re.search(re.escape(settings.SITE_URL) + r"(/accounts/password/reset/\S+/)",
                     mail.outbox[-1].body).group(1)
    form = client.get(link, follow=True)
    new_password = "a brand new passphrase"
    done = client.post(form.redirect_chain[-1][0], {"new_password1": new_password, "new_password2": new_password})
    assert done.status_code == 302
    assert "Password set" in client.get(done["Location"]).content.decode()

    # Whoever proved they own the mailbox is in at once, from the address that was locked.
    response, client = sign_in("alice", new_password)
    assert response.status_code == 302 and signed_in(client)


def test_a_password_reset_leaves_the_count_of_a_guessing_address_alone(alice):
    from django.contrib.auth.tokens import default_token_generator
    from django.utils.encoding import force_bytes
    from django.utils.http import urlsafe_base64_encode

    for attempt in range(50):
        sign_in(f"victim{attempt}", "guess", address="198.51.100.1")
    link = "/accounts/password/reset/{}/{}/".format(urlsafe_base64_encode(force_bytes(alice.pk)),
                                                   default_token_generator.make_token(alice))
    client = Client(REMOTE_ADDR="198.51.100.1")
    form = client.get(link, follow=True)
    client.post(form.redirect_chain[-1][0], {"new_password1": "another passphrase", "new_password2": "another passphrase"})
    response, client = sign_in("alice", "another passphrase", address="198.51.100.1")
    assert response.status_code == 429 and not signed_in(client)
