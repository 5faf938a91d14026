"""After the game, in Chromium: two players finish a rated 6x6 table, both see their
new ratings, rematch with the colours swapped, and one declines the next rematch.
Alice on a laptop in English, Bob on a phone in German. The moves go through the
real move path (games.services, in a thread outside Playwright's loop); what a
person clicks (Rematch, Decline) is clicked. Any console or page error fails."""
import pytest
from playwright.sync_api import expect

from accounts.models import RatingChange
from lobby.models import Table
from tests.accounts.rated_play import finishing_square, play, rated_table
from tests.lobby.browser_people import LAPTOP, PHONE, in_thread, person
from tests.people import make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def finish(game):
    """Play to the last move, then the finishing move, through the services."""
    from games.access import Viewer
    from games.services import play_move

    game = play(game, until_last=True)
    mover = game.seat_of(game.turn)
    play_move(game, finishing_square(game), expected_ply=game.ply, viewer=Viewer(user=mover.user))
    return play(game)


def seat_name(page, colour):
    return page.locator(f'#table-seats li[data-colour="{colour}"] a').first


def test_a_rated_table_finishes_both_see_ratings_rematch_swaps_colours_and_one_declines(live_site, browser):
    alice, bob = make_user("alice", "Alice"), make_user("bob", "Bob")
    errors = []
    table = in_thread(rated_table, alice, bob)
    first_game = table.game
    laptop = person(browser, live_site, alice, errors, viewport=LAPTOP, locale="en-GB")
    phone = person(browser, live_site, bob, errors, viewport=PHONE, locale="de-DE", is_mobile=True)
    for page in (laptop, phone):
        page.goto(f"{live_site.url}/tables/{table.code}/")
        expect(page.locator("#table-seats .rated-mark")).to_be_visible()
        expect(page.locator("#table-seats .rating").first).to_contain_text("1500")
    assert seat_name(laptop, "black").inner_text() == "Alice"

    in_thread(finish, first_game)
    changes = {c.user.username: c for c in RatingChange.objects.filter(game=first_game)}
    assert set(changes) == {"alice", "bob"}
    for page in (laptop, phone):  # the new ratings arrive over the websocket
        for colour, name in (("black", "alice"), ("white", "bob")):
            shown = page.locator(f'#table-seats li[data-colour="{colour}"] .rating-change')
            expect(shown).to_have_attribute("data-after", str(changes[name].after))
        expect(page.locator("#game-state")).to_have_attribute("data-status", "finished")

    laptop.locator("#rematch-accept").click()
    expect(laptop.locator(".rematch-mine")).to_be_visible()
    expect(phone.locator(".rematch-accepted")).to_contain_text("Alice")  # live, in German
    expect(phone.locator(".rematch-accepted")).to_contain_text("Revanche angenommen")
    phone.locator("#rematch-accept").click()

    for page in (laptop, phone):  # both pages move to the new game at the same link
        expect(page.locator("#game-state")).to_have_attribute("data-status", "playing")
        expect(seat_name(page, "black")).to_have_text("Bob")  # colours swapped: Bob moves first
        expect(seat_name(page, "white")).to_have_text("Alice")
        new_game_id = Table.objects.get(pk=table.pk).game.public_id
        expect(page.locator("#table-seats")).to_have_attribute("data-game", new_game_id)
    assert page.url.endswith(f"/tables/{table.code}/")
    second_game = Table.objects.get(pk=table.pk).game
    assert second_game.pk != first_game.pk and second_game.rated

    in_thread(finish, second_game)
    for page in (laptop, phone):
        expect(page.locator("#game-state")).to_have_attribute("data-status", "finished")
        expect(page.locator("#rematch-accept")).to_be_visible()
    phone.locator("#rematch-accept").click()
    expect(laptop.locator(".rematch-accepted")).to_contain_text("Bob")
    laptop.locator("#rematch-decline").click()
    expect(phone.locator(".rematch-declined")).to_have_text("Alice hat die Revanche abgelehnt.")
    expect(laptop.locator(".rematch-declined")).to_have_text("Alice declined the rematch.")
    for page in (laptop, phone):
        expect(page.locator("#rematch-accept")).to_have_count(0)
    assert Table.objects.get(pk=table.pk).game_id == second_game.pk
    assert RatingChange.objects.filter(game=second_game).count() == 2

    # Bob's player page shows both rated games in the 6x6 category, in German.
    phone.goto(f"{live_site.url}/accounts/players/alice/")
    card = phone.locator('.rating-card[data-category="other"]')
    expect(card).to_contain_text("2 gewertete Partien")
    expect(card.locator("svg.rating-chart circle")).to_have_count(3)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # nothing runs off the phone
    assert errors == []


def test_a_three_player_rated_game_finished_with_a_leaver_rates_all_three(live_site, browser):
    alice, bob, carol = make_user("alice", "Alice"), make_user("bob", "Bob"), make_user("carol", "Carol")
    errors = []
    table = in_thread(rated_table, alice, bob, carol, board="8x8", players=3, level="easy")
    host = person(browser, live_site, alice, errors, viewport=LAPTOP)
    leaver = person(browser, live_site, carol, errors, viewport=PHONE, is_mobile=True)
    host.goto(f"{live_site.url}/tables/{table.code}/")
    leaver.goto(f"{live_site.url}/tables/{table.code}/")
    leaver.locator("#leave-table").click()
    leaver.locator("#confirm-leave").click()
    expect(host.locator('#table-seats li[data-colour="red"]')).to_have_attribute("data-kind", "left")

    game = in_thread(play, table.game)  # Alice and Bob play on; the computer plays Carol's seat
    assert game.forfeited == ["red"]
    ranks = dict(RatingChange.objects.filter(game=game).values_list("user__username", "rank"))
    # The leaver ranks below both (a draw between Alice and Bob makes Carol second of two places).
    assert set(ranks) == {"alice", "bob", "carol"} and ranks["carol"] > max(ranks["alice"], ranks["bob"])
    for colour, name in (("black", "alice"), ("white", "bob"), ("red", "carol")):
        after = RatingChange.objects.get(game=game, user__username=name).after
        expect(host.locator(f'#table-seats li[data-colour="{colour}"] .rating-change')).to_have_attribute(
            "data-after", str(after))
    assert RatingChange.objects.get(game=game, user__username="carol").after < 1500  # leaving loses
    leaver.goto(f"{live_site.url}/accounts/profile/")
    expect(leaver.locator('.rating-card[data-category="multi"]')).to_contain_text("1 rated game: 0 won, 1 lost")
    assert errors == []
