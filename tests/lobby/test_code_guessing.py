"""Guessing table codes: after 30 codes of no table an address is refused (429, in
the page's language) for every code it has no seat behind, so hits and misses look
alike; players at their own tables and other addresses carry on."""
import pytest
from django.test import Client

from games import Variant
from lobby import actions
from tests.people import make_user

pytestmark = pytest.mark.django_db
GUESSER = "203.0.113.66"
MESSAGE = "Too many wrong table codes came from your address"


def guess(client, code, how):
    if how == "page":
        return client.get(f"/tables/{code}/")
    if how == "move":  # a move posted straight to a table's address, as htmx would
        return client.post(f"/tables/{code}/move/", {"square": "c4", "ply": 0}, headers={"HX-Request": "true"})
    return client.post("/tables/join/", {"code": code})


@pytest.mark.parametrize("how", ["page", "form", "move"])
def test_guessing_codes_is_refused_after_thirty_misses(how):
    alice = make_user("alice")
    table = actions.open_table(alice, Variant(board="6x6"))
    guesser = Client(REMOTE_ADDR=GUESSER)
    for attempt in range(30):
        assert guess(guesser, f"ZZZZZ{attempt:05d}".translate(str.maketrans("01", "XY")), how).status_code == 404
    refused = guess(guesser, "ZZZZZZZZZZ", how)
    assert refused.status_code == 429 and MESSAGE in refused.content.decode()
    hit = guess(guesser, table.code, how)  # a real code looks just like a wrong one now
    assert hit.status_code == 429 and MESSAGE in hit.content.decode()
    german = guesser.get("/tables/ZZZZZZZZZZ/", headers={"Accept-Language": "de"})
    assert german.status_code == 429 and "Zu viele falsche Tischcodes" in german.content.decode()
    # Another address is not affected...
    assert Client(REMOTE_ADDR="203.0.113.67").get(f"/tables/{table.code}/").status_code == 200
    # ...nor is the host at their own table, on the guesser's address.
    host = Client(REMOTE_ADDR=GUESSER)
    host.force_login(alice)
    assert host.get(f"/tables/{table.code}/").status_code == 200


def test_typing_a_right_code_counts_nothing():
    alice = make_user("alice")
    table = actions.open_table(alice, Variant(board="6x6"))
    visitor = Client(REMOTE_ADDR=GUESSER)
    for _ in range(40):
        assert visitor.get(f"/tables/{table.code.lower()}/").status_code == 302
    assert visitor.get(f"/tables/{table.code}/").status_code == 200
