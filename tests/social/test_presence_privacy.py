"""Who sees whether a person is online: signed-in people only, and never across a
block. A visitor without an account sees no online state at all, so a blocked person
who signs out (the same browser, a new anonymous session) learns nothing either."""
import pytest
import redis as redis_py
from django.conf import settings
from django.test import Client
from django.urls import reverse

from social import relations
from tests.people import signed_in
from tests.presence_marks import page_open

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def nobody_online():
    """Presence lives in Redis, outside the test database's rollback."""
    yield
    client = redis_py.Redis.from_url(settings.REDIS_URL)
    keys = list(client.scan_iter("reversi:online:*"))
    if keys:
        client.delete(*keys)
    client.close()


def online_state(client):
    page = client.get(reverse("player", args=["bob"])).content.decode()
    if 'class="online-state"' not in page:
        return None
    return "Online now" in page


def test_a_blocked_person_signed_out_still_does_not_see_the_blocker_online(alice, bob, carol):
    page_open(bob.pk, "/lobby/")
    relations.block(bob, alice)
    assert online_state(signed_in(carol)) is True
    assert online_state(signed_in(alice)) is False  # hidden by the block

    browser = signed_in(alice)
    browser.post(reverse("logout"))
    assert online_state(browser) is None  # signed out: nothing about presence at all
    assert online_state(Client()) is None
    assert "Online now" not in Client().get(reverse("player", args=["bob"]), HTTP_ACCEPT_LANGUAGE="de").content.decode()
