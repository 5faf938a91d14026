"""Accounts: sign up with a display name, sign in (throttled, revealing nothing),
sign out, password change and reset, the profile page with recent games."""
import re

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

from accounts.models import Profile
from games import Variant
from games.access import Viewer
from games.creation import create_computer_game

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def alice():
    user = User.objects.create_user("alice", "alice@example.com", "correct horse battery")
    Profile.objects.create(user=user, display_name="Alice A.")
    return user


def sign_in(client, username, password, **extra):
    return client.post(reverse("login"), {"username": username, "password": password}, **extra)


def test_sign_up_creates_the_account_with_its_display_name_and_signs_in(client):
    response = client.post(reverse("signup"), {
        "username": "bob", "display_name": "  Bob   the Builder ", "email": "",
        "password1": "a long enough passphrase", "password2": "a long enough passphrase",
        "next": "/lobby/"})
    assert response.status_code == 302 and response["Location"] == "/lobby/"
    user = User.objects.get(username="bob")
    assert user.display_name == "Bob the Builder"
    page = client.get(reverse("home")).content.decode()
    assert "Bob the Builder" in page and "Sign out" in page


def test_sign_up_refuses_a_foreign_next_url(client):
    response = client.post(reverse("signup"), {
        "username": "eve", "password1": "a long enough passphrase", "password2": "a long enough passphrase",
        "next": "https://evil.example/"})
    assert response["Location"] == reverse("home")


def test_display_names_are_escaped(client):
    user = User.objects.create_user("mallory", password="a long enough passphrase")
    Profile.objects.create(user=user, display_name="<script>alert(1)</script>")
    client.force_login(user)
    page = client.get(reverse("profile")).content.decode()
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_a_user_without_a_profile_is_shown_by_username():
    user = User.objects.create_user("carol")
    assert user.display_name == "carol"


def test_sign_in_and_sign_out(client, alice):
    response = sign_in(client, "alice", "correct horse battery")
    assert response.status_code == 302
    assert "Alice A." in client.get(reverse("home")).content.decode()
    client.post(reverse("logout"))
    assert "Sign in" in client.get(reverse("home")).content.decode()


def test_a_wrong_password_and_an_unknown_user_get_the_same_message(client, alice):
    wrong = sign_in(client, "alice", "not it").content.decode()
    unknown = sign_in(client, "nobody", "not it").content.decode()
    message = re.compile(r'<div class="message error" role="alert">(.*?)</div>', re.S)
    assert message.search(wrong).group(1) == message.search(unknown).group(1)
    assert "correct username and password" in message.search(wrong).group(1)


def test_sign_in_is_limited_per_address_and_username_without_revealing_the_account(client, alice):
    for username in ("alice", "nobody"):
        for _ in range(4):
            assert sign_in(client, username, "guess").status_code == 200
        refused = sign_in(client, username, "guess")  # the fifth failure: refused from now on
        assert refused.status_code == 429
        assert "Too many failed sign-in attempts" in refused.content.decode()
    # Even the right password is not checked while refused...
    assert sign_in(client, "alice", "correct horse battery").status_code == 429
    # ...but another address is not affected, and a success clears its own count.
    assert sign_in(client, "alice", "correct horse battery", REMOTE_ADDR="10.0.0.2").status_code == 302


def test_password_change(client, alice):
    client.force_login(alice)
    response = client.post(reverse("password_change"), {
        "old_password": "correct horse battery",
        "new_password1": "another long passphrase", "new_password2": "another long passphrase"})
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password("another long passphrase")


def test_password_reset_mails_a_link_and_says_the_same_for_unknown_addresses(client, alice):
    known = client.post(reverse("password_reset"), {"email": "alice@example.com"})
    unknown = client.post(reverse("password_reset"), {"email": "nobody@example.com"})
    assert known.status_code == unknown.status_code == 302
    assert known["Location"] == unknown["Location"] == reverse("password_reset_done")
    assert len(mail.outbox) == 1
    link = re.search(re.escape(settings.SITE_URL) + r"(/accounts/password/reset/\S+/)", mail.outbox[0].body).group(1)
    form = client.get(link, follow=True)
    assert "Choose a new password" in form.content.decode()
    done = client.post(form.redirect_chain[-1][0], {"new_password1": "a brand new passphrase",
                                                    "new_password2": "a brand new passphrase"})
    assert done["Location"] == reverse("password_reset_complete")
    alice.refresh_from_db()
    assert alice.check_password("a brand new passphrase")


def test_password_reset_mails_stop_after_three_an_hour_without_saying_so(client, alice, settings):
    settings.PASSWORD_RESETS_PER_ADDRESS = 3
    answers = [client.post(reverse("password_reset"), {"email": "Alice@example.com"}) for _ in range(5)]
    assert {answer["Location"] for answer in answers} == {reverse("password_reset_done")}
    assert len(mail.outbox) == 3
    # another address from the same place still gets its mail, up to the per-IP limit
    bob = get_user_model().objects.create_user("bob", "bob@example.com", "correct horse battery")
    client.post(reverse("password_reset"), {"email": bob.email})
    assert len(mail.outbox) == 4 and mail.outbox[-1].to == ["bob@example.com"]
    settings.PASSWORD_RESETS_PER_IP = 5  # four mails sent so far from this address
    client.post(reverse("password_reset"), {"email": "nobody@example.com"})  # counts, sends nothing
    client.post(reverse("password_reset"), {"email": bob.email})
    assert len(mail.outbox) == 4


def test_profile_page_edits_the_display_name_and_lists_recent_games(client, alice):
    create_computer_game(Viewer(user=alice), Variant(board="6x6"))
    client.force_login(alice)
    page = client.get(reverse("profile")).content.decode()
    assert "Recent games" in page and "6×6" in page and "Against the computer" in page
    response = client.post(reverse("profile"), {"display_name": "Queen of Corners"})
    assert response.status_code == 302
    assert User.objects.get(pk=alice.pk).display_name == "Queen of Corners"


def test_profile_needs_sign_in(client):
    response = client.get(reverse("profile"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_another_players_page_hides_their_private_games(client, alice):
    create_computer_game(Viewer(user=alice), Variant(board="6x6"))
    page = client.get(reverse("player", args=["alice"])).content.decode()
    assert "Alice A." in page and "6×6" not in page
