"""Looking up usernames: player pages of nobody and failed sign-ups count per address;
past the limit every player page (but one's own) and every sign-up from there is
refused (429, in the page's language), so hits and misses look alike."""
import pytest
from django.test import Client

from tests.people import make_user

pytestmark = pytest.mark.django_db
GUESSER = "203.0.113.77"
MESSAGE = "Too many look-ups of player names came from your address"


def failed_sign_up(client, username):
    return client.post("/accounts/signup/", {"username": username, "email": "",
                                             "password1": "a long passphrase", "password2": "another one"})


def test_player_pages_of_nobody_are_refused_after_thirty():
    alice = make_user("alice")
    guesser = Client(REMOTE_ADDR=GUESSER)
    for attempt in range(30):
        assert guesser.get(f"/accounts/players/nobody{attempt}/").status_code == 404
    refused = guesser.get("/accounts/players/nobody/")
    assert refused.status_code == 429 and MESSAGE in refused.content.decode()
    hit = guesser.get("/accounts/players/alice/")  # a real name looks like a wrong one now
    assert hit.status_code == 429 and MESSAGE in hit.content.decode()
    german = guesser.get("/accounts/players/alice/", headers={"Accept-Language": "de"})
    assert german.status_code == 429 and "Zu viele Abfragen von Spielernamen" in german.content.decode()
    # Another address is not affected, nor alice on her own page from the guesser's address.
    assert Client(REMOTE_ADDR="203.0.113.78").get("/accounts/players/alice/").status_code == 200
    own = Client(REMOTE_ADDR=GUESSER)
    own.force_login(alice)
    assert own.get("/accounts/players/alice/").status_code == 302


def test_visiting_real_players_counts_nothing():
    make_user("alice")
    visitor = Client(REMOTE_ADDR=GUESSER)
    for _ in range(40):
        assert visitor.get("/accounts/players/alice/").status_code == 200


def test_failed_sign_ups_count_with_player_pages_and_are_then_refused():
    make_user("alice")
    guesser = Client(REMOTE_ADDR=GUESSER)
    for attempt in range(20):
        assert guesser.get(f"/accounts/players/nobody{attempt}/").status_code == 404
    for attempt in range(10):
        answer = failed_sign_up(guesser, "alice" if attempt % 2 else f"free{attempt}")
        assert answer.status_code == 400
    refused = failed_sign_up(guesser, "alice")
    assert refused.status_code == 429 and MESSAGE in refused.content.decode()
    assert "already exists" not in refused.content.decode()
    assert guesser.get("/accounts/players/alice/").status_code == 429
    # Elsewhere signing up works as before.
    other = Client(REMOTE_ADDR="203.0.113.78")
    assert other.post("/accounts/signup/", {"username": "bob", "email": "", "password1": "a long passphrase",
                                            "password2": "a long passphrase"}).status_code == 302


def test_the_challenge_and_follow_pages_of_nobody_count_as_look_ups_too():
    make_user("alice")
    guesser = Client(REMOTE_ADDR=GUESSER)
    guesser.force_login(make_user("mallory"))
    for attempt in range(15):
        assert guesser.get(f"/social/players/nobody{attempt}/challenge/").status_code == 404
        assert guesser.post(f"/social/players/nobody{attempt}/follow/").status_code == 404
    refused = guesser.post("/social/players/alice/follow/")  # a real name looks like a wrong one now
    assert refused.status_code == 429 and MESSAGE in refused.content.decode()
    assert guesser.get("/social/players/alice/challenge/").status_code == 429
