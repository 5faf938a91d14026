"""The host's colour at a new table: Black, White (Red, Green) or drawn at random among
the seats that do not go to the computer."""
import pytest
from django.urls import reverse
from django.utils import translation

from lobby.models import Table
from tests.people import signed_in

pytestmark = pytest.mark.django_db


def open_with(client, **data):
    response = client.post(reverse("table_new"), {
        "board": "8x8", "players": 2, "blocked": 0, "handicap": 0, "handicap_colour": "white",
        "level": "normal", **data})
    assert response.status_code == 302, response.content.decode()[:2000]
    table = Table.objects.order_by("-pk").first()
    return next(seat.colour for seat in table.game.seats.all() if seat.user_id)


def test_the_host_sits_at_the_colour_chosen(alice):
    client = signed_in(alice)
    assert open_with(client, seat="white") == "white"
    assert open_with(client, seat="black") == "black"


def test_random_draws_the_hosts_colour_among_the_seats_left_to_people(alice, settings):
    settings.WAITING_TABLES_PER_PERSON = 30  # the draws need many tables waiting at once
    client = signed_in(alice)
    drawn = {open_with(client, seat="random") for _ in range(24)}
    assert drawn == {"black", "white"}  # both come up (a miss has odds of 2 in 2**24)
    drawn = {open_with(client, seat="random", players=3, computer=["black", "red"]) for _ in range(3)}
    assert drawn == {"white"}


def test_random_is_offered_in_both_languages(alice):
    for language, word in (("en", "Random"), ("de", "Zufällig")):
        with translation.override(language):
            page = signed_in(alice).get(reverse("table_new"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert f'<option value="random">{word}</option>' in page
