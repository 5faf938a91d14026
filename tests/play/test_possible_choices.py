"""The play and table forms offer only combinations the rules allow, given what is
chosen now, and the server still refuses an impossible one that is sent anyway."""
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from games.models import Game
from lobby.models import Table
from tests.people import make_user

pytestmark = pytest.mark.django_db


class Choices(HTMLParser):
    """{field name: {value: "selected" / "disabled" / "offered"}} of the selects and checkboxes."""

    def __init__(self, html):
        super().__init__()
        self.fields, self.select = {}, None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "select":
            self.select = attrs["name"]
        elif tag == "option" and self.select:
            self.fields.setdefault(self.select, {})[attrs["value"]] = self.state(attrs, "selected")
        elif tag == "input" and attrs.get("type") == "checkbox":
            self.fields.setdefault(attrs["name"], {})[attrs.get("value", "on")] = self.state(attrs, "checked")

    def handle_endtag(self, tag):
        if tag == "select":
            self.select = None

    @staticmethod
    def state(attrs, chosen):
        return "disabled" if "disabled" in attrs else chosen if chosen in attrs else "offered"


def choices(client, url):
    response = client.get(url)
    assert response.status_code == 200
    return Choices(response.content.decode()).fields


def disabled(field):
    return sorted(value for value, state in field.items() if state == "disabled")


def test_the_play_form_offers_everything_for_the_default_game(client):
    fields = choices(client, reverse("play"))
    assert all(not disabled(fields[name]) for name in ("board", "players", "handicap", "free_opening", "anti"))


@pytest.mark.parametrize("query, name, refused", [
    ("board=6x6", "players", ["3", "4"]),
    ("players=3", "board", ["6x6"]),
    ("players=4", "handicap", ["1", "2", "3", "4"]),
    ("players=3", "free_opening", ["on"]),
    ("board=octagon", "handicap", ["1", "2", "3", "4"]),
    ("handicap=2", "players", ["3", "4"]),
    ("handicap=2", "board", ["octagon"]),
    ("free_opening=1", "players", ["3", "4"]),
])
def test_the_play_form_disables_what_cannot_go_with_the_choice(client, query, name, refused):
    assert disabled(choices(client, f"{reverse('play')}?{query}")[name]) == refused


def test_a_refused_combination_sent_anyway_stays_visible_and_is_refused(client):
    fields = choices(client, f"{reverse('play')}?board=6x6&players=3")
    assert fields["board"]["6x6"] == "selected" and fields["players"]["3"] == "selected"
    assert disabled(fields["players"]) == ["4"]
    for data, message in (({"board": "6x6", "players": 3}, "The 6×6 board is for 2 players only."),
                          ({"players": 3, "handicap": 2}, "The corner handicap is for 2 players only."),
                          ({"players": 4, "free_opening": "on"}, "The free opening is for 2 players only.")):
        response = client.post(reverse("play"), {"board": "8x8", "blocked": 0, "handicap": 0,
                                                 "handicap_colour": "white", "level": "easy", **data})
        assert response.status_code == 400 and message in response.content.decode()
    assert not Game.objects.exists()


def test_the_table_form_offers_only_the_seats_of_its_players(client):
    client.force_login(make_user("alice"))
    fields = choices(client, reverse("table_new"))
    assert disabled(fields["seat"]) == ["green", "red"]
    assert disabled(fields["computer"]) == ["black", "green", "red"]  # black: your own seat
    fields = choices(client, f"{reverse('table_new')}?players=4&seat=white")
    assert disabled(fields["seat"]) == [] and disabled(fields["computer"]) == ["white"]
    assert disabled(choices(client, f"{reverse('table_new')}?players=3")["board"]) == ["6x6"]


def test_the_table_form_refuses_seats_and_computers_the_table_has_not(client):
    client.force_login(make_user("alice"))
    base = {"board": "8x8", "players": 2, "blocked": 0, "handicap": 0, "handicap_colour": "white",
            "seat": "black", "level": "normal"}
    for data, message in (({"seat": "green"}, "A table for 2 players has no Green seat."),
                          ({"computer": ["red"]}, "A table for 2 players has no Red seat."),
                          ({"computer": ["black"]}, "Your own seat cannot go to the computer.")):
        response = client.post(reverse("table_new"), {**base, **data})
        assert response.status_code == 400 and message in response.content.decode()
    assert not Table.objects.exists()


def test_the_form_is_redrawn_with_the_choices_made(client):
    response = client.get(f"{reverse('play')}?board=6x6&players=2&level=hard")
    html = response.content.decode()
    assert 'id="play-form"' in html and 'data-redraw="/play/"' in html
    assert disabled(Choices(html).fields["players"]) == ["3", "4"]
    assert Choices(html).fields["level"]["hard"] == "selected"
