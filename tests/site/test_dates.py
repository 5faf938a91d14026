"""Dates are drawn on the server in the page's language with the month's name: an
en-GB browser never reads 2 December as "12/02/2026"."""
import datetime

import pytest
from django.urls import reverse
from django.utils import formats, translation

from games.access import GUEST_TOKEN_KEY, Viewer
from games import Variant
from games.models import Game
from games.creation import create_computer_game

WHEN = datetime.datetime(2026, 12, 2, 14, 5, tzinfo=datetime.timezone.utc)


@pytest.mark.parametrize("language, date, short", [
    ("en", "2 Dec 2026", "2 Dec 2026, 14:05"), ("de", "2. Dez 2026", "2. Dez 2026, 14:05")])
def test_dates_name_the_month(language, date, short):
    with translation.override(language):
        assert formats.date_format(WHEN, "DATE_FORMAT") == date
        assert formats.date_format(WHEN, "SHORT_DATETIME_FORMAT") == short


@pytest.mark.django_db
def test_an_en_gb_browser_reads_the_month_on_the_play_page(client):
    session = client.session
    session[GUEST_TOKEN_KEY] = "token"
    session.save()
    game = create_computer_game(Viewer(guest_token="token"), Variant(), "easy")
    Game.objects.filter(pk=game.pk).update(created_at=WHEN)
    page = client.get(reverse("play"), HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.9").content.decode()
    assert "started 2 Dec 2026, 14:05" in page and "12/02/2026" not in page
