"""Accounts one address may create: SIGN_UPS_PER_ADDRESS a day (the address as the
limits on signing in take it: behind a trusted proxy, the client it vouches for).
One more is refused in the page's language; two at the same moment never pass the
limit together."""
from concurrent.futures import ThreadPoolExecutor
from threading import Barrier

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client

pytestmark = pytest.mark.django_db
ADDRESS = "203.0.113.50"
ENGLISH = "Too many accounts were made from your address today"
GERMAN = "Von deiner Adresse wurden heute zu viele Konten angelegt"


def sign_up(client, username, **headers):
    return client.post("/accounts/signup/", {"username": username, "email": "", "password1": "a long passphrase",
                                             "password2": "a long passphrase"}, headers=headers)


def accounts():
    return get_user_model().objects.count()


def test_a_sixth_account_from_one_address_is_refused_in_the_pages_language(settings):
    assert settings.SIGN_UPS_PER_ADDRESS == 5
    for n in range(5):
        assert sign_up(Client(REMOTE_ADDR=ADDRESS), f"maker{n}").status_code == 302
    refused = sign_up(Client(REMOTE_ADDR=ADDRESS), "maker5")
    assert refused.status_code == 429 and ENGLISH in refused.content.decode()
    german = sign_up(Client(REMOTE_ADDR=ADDRESS), "maker5", **{"Accept-Language": "de"})
    assert german.status_code == 429 and GERMAN in german.content.decode()
    assert accounts() == 5
    assert sign_up(Client(REMOTE_ADDR="203.0.113.51"), "elsewhere").status_code == 302  # another address


def test_a_form_with_mistakes_counts_nothing():
    for n in range(6):
        bad = Client(REMOTE_ADDR=ADDRESS).post("/accounts/signup/", {
            "username": f"typo{n}", "password1": "a long passphrase", "password2": "another one"})
        assert bad.status_code == 400
    assert sign_up(Client(REMOTE_ADDR=ADDRESS), "finally").status_code == 302


def test_behind_a_trusted_proxy_each_client_it_vouches_for_is_counted_on_its_own(settings):
    settings.TRUSTED_PROXIES = ["10.0.0.1"]
    for n in range(5):
        proxied = Client(REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="198.51.100.7")
        assert sign_up(proxied, f"first{n}").status_code == 302
    made_up = Client(REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="192.0.2.1, 198.51.100.7")
    assert sign_up(made_up, "spoofer").status_code == 429  # the left entry is the client's own word
    other = Client(REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="198.51.100.8")
    assert sign_up(other, "second").status_code == 302


@pytest.mark.django_db(transaction=True)
def test_two_sign_ups_at_the_same_moment_do_not_pass_the_limit_together():
    for n in range(4):
        assert sign_up(Client(REMOTE_ADDR=ADDRESS), f"early{n}").status_code == 302
    both = Barrier(2)

    def one(username):
        try:
            client = Client(REMOTE_ADDR=ADDRESS)
            both.wait()
            return sign_up(client, username).status_code
        finally:
            connection.close()

    with ThreadPoolExecutor(2) as pool:
        answers = sorted(pool.map(one, ["late0", "late1"]))
    assert answers == [302, 429]
    assert accounts() == 5
