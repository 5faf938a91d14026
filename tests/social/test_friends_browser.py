"""The Friends page in Chromium, with real daphne: Alice follows Bob, who waits at a
table he did not list; her Friends page says he is at a private table and gives her
neither its link nor its code. Once Bob sits at a listed table instead, she gets the
link to watch. Any console or page error fails."""
import pytest
from playwright.sync_api import expect

from games import Variant
from lobby import actions
from social import relations
from tests.lobby.browser_people import LAPTOP, PHONE, in_thread, person
from tests.people import make_user
from tests.social.test_challenges_browser import wait_for_pages

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def test_a_follower_sees_a_private_table_without_its_link_and_a_listed_one_with_it(live_site, browser):
    alice, bob = make_user("alice", "Alice"), make_user("bob", "Bob")
    in_thread(relations.follow, alice, bob)
    private = in_thread(actions.open_table, bob, Variant(board="8x8"), listed=False)
    errors = []
    laptop = person(browser, live_site, alice, errors, viewport=LAPTOP, locale="en-GB")
    phone = person(browser, live_site, bob, errors, viewport=PHONE, locale="en-GB", is_mobile=True)
    phone.goto(f"{live_site.url}{private.get_absolute_url()}")
    wait_for_pages(bob, [private.get_absolute_url()])

    laptop.goto(f"{live_site.url}/social/friends/")
    friend = laptop.locator('#friends .friend[data-username="bob"]')
    expect(friend).to_have_attribute("data-state", "private")
    expect(friend).to_contain_text("at a private table")
    expect(friend.locator("a.watch")).to_have_count(0)
    assert private.code not in laptop.content()

    listed = in_thread(actions.open_table, bob, Variant(board="6x6"), listed=True)
    phone.goto(f"{live_site.url}{listed.get_absolute_url()}")
    wait_for_pages(bob, [listed.get_absolute_url()])
    laptop.reload()
    expect(friend).to_have_attribute("data-state", "playing")
    expect(friend.locator("a.watch")).to_have_attribute("href", listed.get_absolute_url())
    friend.locator("a.watch").click()
    expect(laptop).to_have_url(f"{live_site.url}{listed.get_absolute_url()}")
    assert errors == []
