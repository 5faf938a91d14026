"""Challenges and presence in Chromium, with real daphne and Celery. Alice on a laptop
in English challenges Bob from his player page; Bob, on a phone in German and on
another page of the site, sees it arrive in the header, accepts, and both land seated
at the started game. A declined challenge is seen live on the challenger's page, and
its notice goes once seen (an accepted one never shows at its own table); a
blocked player finds no challenge button and the form refuses them. A friend's
presence goes offline when their last page closes. Any console or page error fails."""
import re
import time

import pytest
from playwright.sync_api import expect

from games import Variant
from games.access import Viewer
from games.creation import create_computer_game
from social import relations
from social.online import pages
from social.models import Challenge
from tests.lobby.browser_people import LAPTOP, PHONE, in_thread, person
from tests.people import make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def send_challenge(page, site, username, colour="black"):
    page.goto(f"{site.url}/accounts/players/{username}/")
    page.locator("#challenge").click()
    page.locator("#id_colour").select_option(colour)
    page.locator("#send-challenge").click()
    expect(page.locator("#await-challenge")).to_be_visible()


def wait_for_pages(user, paths, seconds=15):
    """Until the sockets of `user`'s pages at `paths` have said they are open: a page
    is loaded a moment before its socket connects."""
    deadline = time.monotonic() + seconds
    while sorted(pages([user.pk]).get(user.pk, [])) != sorted(paths):
        assert time.monotonic() < deadline, f"{user.username}'s pages at {paths} never connected"
        time.sleep(0.1)


def test_alice_challenges_bob_who_accepts_from_another_page_and_both_sit_at_the_started_game(live_site, browser):
    alice, bob = make_user("alice", "Alice"), make_user("bob", "Bob")
    errors = []
    laptop = person(browser, live_site, alice, errors, viewport=LAPTOP, locale="en-GB")
    phone = person(browser, live_site, bob, errors, viewport=PHONE, locale="de-DE", is_mobile=True)
    phone.goto(f"{live_site.url}/rules/")
    expect(phone.locator("#bell")).to_be_visible()
    phone.wait_for_function("() => document.querySelector('[ws-connect]') && htmx && true")

    send_challenge(laptop, live_site, "bob", colour="white")
    notice = phone.locator("#challenge-notices .challenge-notice")
    expect(notice).to_contain_text("Alice fordert dich heraus")  # live, in German, on the rules page
    expect(phone.locator("#bell .bell-count")).to_have_text("1")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    notice.locator(".accept-challenge").dblclick()  # a double click accepts once

    expect(phone).to_have_url(re.compile(r"/tables/[A-Z0-9]+/$"))
    expect(laptop).to_have_url(phone.url)  # Alice's waiting page goes to the table by itself
    for page, colour in ((laptop, "white"), (phone, "black")):
        expect(page.locator("#table-seats")).to_have_attribute("data-status", "playing")
        expect(page.locator(f'#table-seats li[data-colour="{colour}"] .you')).to_be_visible()
    assert Challenge.objects.get().status == "accepted"
    assert errors == []


def test_a_declined_challenge_shows_on_the_challengers_page_and_a_blocked_player_cannot_challenge(live_site, browser):
    alice, bob = make_user("alice", "Alice"), make_user("bob", "Bob")
    errors = []
    laptop = person(browser, live_site, alice, errors, viewport=LAPTOP, locale="en-GB")
    phone = person(browser, live_site, bob, errors, viewport=PHONE, locale="en-GB", is_mobile=True)
    phone.goto(f"{live_site.url}/lobby/")
    send_challenge(laptop, live_site, "bob")
    phone.locator("#challenge-notices .decline-challenge").click()
    expect(phone.locator("#challenge-notices .challenge-notice")).to_have_count(0)
    expect(laptop.locator(".challenge-status")).to_have_attribute("data-status", "declined")
    expect(laptop.locator(".challenge-status")).to_have_text("Declined")  # the header's notice was seen before

    phone.goto(f"{live_site.url}/accounts/players/alice/")
    phone.locator("#block").click()
    expect(phone.locator("#unblock")).to_be_visible()
    laptop.goto(f"{live_site.url}/accounts/players/bob/")
    expect(laptop.locator("#block")).to_be_visible()
    expect(laptop.locator("#challenge")).to_have_count(0)
    expect(laptop.locator(".online-state")).to_have_attribute("data-online", "false")  # hidden by the block
    laptop.goto(f"{live_site.url}/social/players/bob/challenge/")
    with laptop.expect_response(re.compile(r"/challenge/$")) as answer:
        laptop.locator("#send-challenge").click()
    assert answer.value.status == 400  # the browser logs the refusal's status: part of the story
    expect(laptop.locator("#challenge-errors")).to_contain_text("You cannot challenge Bob.")
    assert Challenge.objects.count() == 1
    assert [e for e in errors if not ("status of 400" in e and "/social/players/bob/challenge/" in e)] == []


def test_a_friend_goes_offline_when_their_last_page_closes(live_site, browser):
    alice, bob = make_user("alice", "Alice"), make_user("bob", "Bob")
    in_thread(relations.follow, alice, bob)
    errors = []
    laptop = person(browser, live_site, alice, errors, viewport=LAPTOP, locale="de-DE")
    first = person(browser, live_site, bob, errors, viewport=PHONE, is_mobile=True)
    second = first.context.new_page()
    first.goto(f"{live_site.url}/lobby/")
    second.goto(f"{live_site.url}/rules/")
    wait_for_pages(bob, ["/lobby/", "/rules/"])
    friend = laptop.locator('#friends .friend[data-username="bob"]')
    laptop.goto(f"{live_site.url}/social/friends/")
    expect(friend).to_have_attribute("data-state", "idle")
    expect(friend).to_contain_text("online")
    first.close()
    laptop.reload()
    expect(friend).to_have_attribute("data-state", "idle")
    second.close()
    for _ in range(50):  # the socket's close reaches daphne a moment later
        laptop.reload()
        if friend.get_attribute("data-state") == "offline":
            break
    expect(friend).to_have_attribute("data-state", "offline")
    expect(friend).to_contain_text("offline")
    assert errors == []


def test_a_challenge_nobody_answers_lapses_on_both_pages(live_site, browser):
    alice, bob = make_user("alice", "Alice"), make_user("bob", "Bob")
    errors = []
    laptop = person(browser, live_site, alice, errors, viewport=LAPTOP, locale="de-DE")
    phone = person(browser, live_site, bob, errors, viewport=PHONE, locale="en-GB", is_mobile=True)
    phone.goto(f"{live_site.url}/lobby/")
    send_challenge(laptop, live_site, "bob")
    expect(phone.locator("#challenge-notices .challenge-notice")).to_have_count(1)

    def ten_minutes_pass():
        from datetime import timedelta

        from django.utils import timezone

        from social import challenges
        Challenge.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
        return challenges.lapse_due()  # what Celery beat runs every 30 s
    assert in_thread(ten_minutes_pass) == 1
    expect(phone.locator("#challenge-notices .challenge-notice")).to_have_count(0)
    expect(laptop.locator(".challenge-status")).to_have_attribute("data-status", "lapsed")
    expect(laptop.locator(".challenge-status")).to_have_text("Verfallen")
    expect(laptop.locator("#bell .bell-count")).to_have_text("1")
    assert errors == []


def test_a_challenges_answer_goes_once_seen_and_never_shows_at_its_own_table(live_site, browser):
    alice, bob = make_user("alice", "Alice"), make_user("bob", "Bob")
    errors = []
    laptop = person(browser, live_site, alice, errors, viewport=LAPTOP, locale="en-GB")
    phone = person(browser, live_site, bob, errors, viewport=PHONE, locale="en-GB", is_mobile=True)
    phone.goto(f"{live_site.url}/lobby/")
    send_challenge(laptop, live_site, "bob")
    laptop.goto(f"{live_site.url}/lobby/")  # Alice goes on while Bob thinks
    with laptop.expect_response(re.compile(r"/seen/$")) as seen:  # the notice says it was shown
        phone.locator("#challenge-notices .decline-challenge").click()
        expect(laptop.locator("#challenge-notices")).to_contain_text("Bob declined your challenge.")  # live
    assert seen.value.status == 204
    game = in_thread(create_computer_game, Viewer(user=alice), Variant(board="6x6"), colour="black")
    laptop.goto(f"{live_site.url}/play/{game.public_id}/")  # a later, unrelated game page
    expect(laptop.locator(".board")).to_be_visible()
    expect(laptop.locator("#challenge-notices [data-answered]")).to_have_count(0)

    send_challenge(phone, live_site, "alice")  # Bob waits on his challenge's page
    laptop.locator("#challenge-notices .accept-challenge").click()
    expect(phone).to_have_url(re.compile(r"/tables/[A-Z0-9]+/$"))  # at the table by itself
    expect(phone.locator("#table-seats")).to_have_attribute("data-status", "playing")
    phone.wait_for_function("() => document.querySelector('body[data-socket=open]')")
    expect(phone.locator("#challenge-notices [data-answered]")).to_have_count(0)  # not at the table it names
    phone.goto(f"{live_site.url}/lobby/")
    expect(phone.locator("#lobby-counts")).to_be_visible()
    expect(phone.locator("#challenge-notices [data-answered]")).to_have_count(0)  # he has been there
    assert errors == []


@pytest.mark.parametrize("viewport,locale", [(LAPTOP, "en-GB"), (PHONE, "de-DE")], ids=["laptop-en", "phone-de"])
def test_each_checkbox_of_the_challenge_form_sits_on_one_line_with_its_label(live_site, browser, viewport, locale):
    alice, _bob = make_user("alice", "Alice"), make_user("bob", "Bob")
    errors = []
    page = person(browser, live_site, alice, errors, viewport=viewport, locale=locale,
                  is_mobile=viewport == PHONE)
    for path, names in (("/social/players/bob/challenge/", ("anti", "rated")),
                        ("/accounts/profile/", ("mail_challenges", "mail_your_turn"))):  # and the mail settings
        page.goto(live_site.url + path)
        for name in names:
            box = page.locator(f"#id_{name}").bounding_box()
            label = page.locator(f"label[for=id_{name}]").bounding_box()
            assert label["x"] >= box["x"] + box["width"], (name, box, label)  # beside it, not below
            middle = box["y"] + box["height"] / 2
            assert label["y"] <= middle <= label["y"] + label["height"], (name, box, label)  # on its line
            assert box["width"] < 40, (name, box)  # a box, not a row stretched across the form
    page.context.close()
    assert errors == []
