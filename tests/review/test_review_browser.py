"""The review in Chromium against the real site (daphne + Celery worker): a stored
game replayed by buttons and by keys, checked against the rules library; export
then import gives the same game, with its players' names, and its importer can have it
analysed; analysis of a short game marks its blunder."""
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from games import Board, Variant
from games.models import Move, Seat
from tests.review.conftest import (
    FULL_GAME, PASS_GAME_6X6, WIPEOUT, WIPEOUT_BLUNDER_PLY, store_game,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def sign_in(page, live_site, user):
    """The browser gets a session of `user` (made the way the sign-in page makes it)."""
    client = Client()
    client.force_login(user)
    page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME,
                               "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                               "url": live_site.url}])


def position(variant, transcript, ply):
    full = Board.from_transcript(variant, transcript)
    board = Board(variant)
    for move in full.history[:ply]:
        board.push(move)
    return board


def expect_position(page, variant, transcript, ply, in_url=True):
    """The page shows `ply`: in the URL, the heading, and every square as the rules library has it."""
    expect(page.locator(f'#review[data-ply="{ply}"]')).to_be_attached()
    if in_url:
        expect(page).to_have_url(re.compile(rf"[?&]ply={ply}$"))
    board = position(variant, transcript, ply)
    drawn = page.eval_on_selector_all(
        "#review .board .cell",
        "cells => cells.map(c => [c.dataset.square, c.dataset.stone, c.classList.contains('flipped')])")
    assert {square: stone for square, stone, _f in drawn if stone} == board.stones()
    assert sorted(square for square, _s, flipped in drawn if flipped) == sorted(board.last_flips)
    heading = page.locator("#position-heading")
    expect(heading).to_have_text(f"Move {ply} of {len(Board.from_transcript(variant, transcript).history)}"
                                 if ply else "Start")


def test_a_stored_game_replayed_by_buttons_and_by_keys(live_site, page, make_user):
    owner = make_user("replayer")
    game = store_game(FULL_GAME, players=[owner])
    variant = Variant()
    sign_in(page, live_site, owner)
    page.goto(f"{live_site.url}/games/{game.public_id}/?ply=0")
    expect_position(page, variant, FULL_GAME, 0)
    page.evaluate("window.sameDocument = true")  # htmx swaps the region; the page itself stays

    for ply in (1, 2, 3):
        page.get_by_role("link", name="Next").click()
        expect_position(page, variant, FULL_GAME, ply)
    page.get_by_role("link", name="Previous").click()
    expect_position(page, variant, FULL_GAME, 2)
    page.get_by_role("link", name="Last").click()
    expect_position(page, variant, FULL_GAME, 60)
    expect(page.get_by_text("Black wins 39–25: Black")).to_be_visible()
    page.get_by_role("link", name="First").click()
    expect_position(page, variant, FULL_GAME, 0)

    page.keyboard.press("End")
    expect_position(page, variant, FULL_GAME, 60)
    page.keyboard.press("ArrowLeft")
    expect_position(page, variant, FULL_GAME, 59)
    page.keyboard.press("Home")
    expect_position(page, variant, FULL_GAME, 0)
    for ply in range(1, 6):
        page.keyboard.press("ArrowRight")
        expect_position(page, variant, FULL_GAME, ply)
    page.keyboard.press("ArrowLeft")
    expect_position(page, variant, FULL_GAME, 4)

    # a move in the list links to its position; the current one is marked
    page.locator('#review .move-table a[data-focus-key="ply-30"]').click()
    expect_position(page, variant, FULL_GAME, 30)
    expect(page.locator('#review tr.current')).to_have_attribute("data-ply", "30")
    expect(page.locator('#review a[aria-current="step"]')).to_be_focused()  # focus stays on the list
    assert page.evaluate("window.sameDocument") is True

    # the browser's Back goes to the previous position
    page.go_back()
    expect_position(page, variant, FULL_GAME, 4)


def test_without_javascript_the_links_step_through_the_game(live_site, browser):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    game = store_game(FULL_GAME, public=True)
    page.goto(f"{live_site.url}/games/{game.public_id}/?ply=10")
    page.get_by_role("link", name="Next").click()
    expect_position(page, Variant(), FULL_GAME, 11)
    page.get_by_role("link", name="First").click()
    expect_position(page, Variant(), FULL_GAME, 0)
    context.close()


def test_export_then_import_gives_the_same_game(live_site, page, tmp_path):
    variant = Variant(board="6x6")
    game = store_game(PASS_GAME_6X6, variant, public=True)
    full = Board.from_transcript(variant, PASS_GAME_6X6)
    page.goto(f"{live_site.url}/games/{game.public_id}/")

    with page.expect_download() as transcript_download:
        page.locator("#download-transcript").click()
    transcript = Path(transcript_download.value.path()).read_text()
    assert transcript.strip() == PASS_GAME_6X6
    with page.expect_download() as record_download:
        page.locator("#download-record").click()
    record_path = tmp_path / transcript_download.value.suggested_filename.replace(".txt", ".json")
    record_download.value.save_as(record_path)

    def check_imported():
        expect(page.locator("h1")).to_contain_text("Imported game")
        moves = page.eval_on_selector_all("#review .move-table tbody tr a", "links => links.map(a => a.textContent)")
        assert moves == list(full.history)
        assert page.locator("#transcript-text").input_value() == PASS_GAME_6X6
        expect_position(page, variant, PASS_GAME_6X6, full.ply, in_url=False)  # the end by default
        page.get_by_role("link", name="First").click()
        expect_position(page, variant, PASS_GAME_6X6, 0)
        expect(page.get_by_text("Black wins 24–12: Black 24, White 12.")).to_be_visible()

    # the transcript, pasted, with its variant chosen in the form
    page.goto(f"{live_site.url}/games/import/")
    page.get_by_label("Transcript").fill(transcript)
    page.get_by_label("Board").select_option("6x6")
    page.get_by_role("button", name="Show the game").click()
    page.wait_for_url(re.compile(r"/games/import/\?board=6x6&moves="))
    check_imported()

    # the JSON record, uploaded: it brings its variant
    page.goto(f"{live_site.url}/games/import/")
    page.locator("#id_file").set_input_files(record_path)
    page.get_by_role("button", name="Show the game").click()
    page.wait_for_url(re.compile(r"/games/import/\?board=6x6&moves="))
    check_imported()

    # an illegal move is named
    page.goto(f"{live_site.url}/games/import/")
    page.get_by_label("Transcript").fill("f5 d6 c3 d3 c3")
    page.get_by_role("button", name="Show the game").click()
    expect(page.locator("#import-errors")).to_contain_text("Move 5 (c3) is not legal: that square is already taken.")


def test_analysis_of_a_short_game_completes_and_marks_the_blunder(live_site, page, make_user):
    owner = make_user("analyst")  # White; Black is the computer, whose moves are not judged
    game = store_game(WIPEOUT, players=[None, owner], made_by={ply: Move.MadeBy.COMPUTER for ply in range(1, 10, 2)})
    sign_in(page, live_site, owner)
    page.goto(f"{live_site.url}/games/{game.public_id}/?ply=2")
    page.get_by_role("button", name="Analyse this game").click()
    # "Analysing… n/9" while the worker runs, then the page updates by itself
    blunder = page.locator(f'#review tr[data-ply="{WIPEOUT_BLUNDER_PLY}"]')
    expect(blunder.locator(".mistake-label")).to_be_visible(timeout=60_000)
    expect(blunder.locator("td.best")).to_have_text(re.compile(r"^c[57]$"))
    expect(page.locator("#review tr.mistake")).to_have_count(3)  # and White's two weak opening moves (WORST_SHOWN)
    expect(page.locator("#review")).to_have_attribute("data-ply", "2")  # still where the player was
    expect(page).to_have_url(re.compile(r"\?ply=2$"))
    expect(page.locator('#review .mistake-mark[data-ply="8"]')).to_be_attached()  # on the chart too
    averages = page.locator("#review .analysis-averages .average")
    expect(averages).to_have_count(1)
    expect(averages).to_contain_text("White: ")
    expect(page.locator("#review .analysis-note")).to_contain_text("The computer's own moves are not judged")
    expect(page.locator('#review tr[data-ply="1"] td.loss')).to_have_text("")
    page.locator(f'#review a[data-focus-key="ply-{WIPEOUT_BLUNDER_PLY}"]').click()
    expect(page.locator("#position-analysis")).to_contain_text("Mistake")
    expect(page.locator("#position-analysis")).to_contain_text(re.compile(r"best was c[57]"))


def test_an_imported_record_keeps_its_names_and_its_importer_can_analyse_it(live_site, page, make_user, tmp_path):
    owner = make_user("importer")
    game = store_game(WIPEOUT, players=[owner, "a guest"])
    Seat.objects.filter(game=game, colour="white").update(guest_name="<i>Wanda</i>")
    sign_in(page, live_site, owner)
    page.goto(f"{live_site.url}/games/{game.public_id}/")
    with page.expect_download() as record_download:
        page.locator("#download-record").click()
    record_path = tmp_path / "record.json"
    record_download.value.save_as(record_path)

    page.goto(f"{live_site.url}/games/import/")
    page.locator("#id_file").set_input_files(record_path)
    page.get_by_role("button", name="Show the game").click()
    players = page.locator("ul.players")
    expect(players.locator('li[data-colour="black"]')).to_have_text("Black: importer")
    expect(players.locator('li[data-colour="white"]')).to_have_text("White: <i>Wanda</i>")  # as text
    expect(page.locator('#review tr[data-ply="2"] td.player')).to_contain_text("<i>Wanda</i>")

    page.get_by_role("button", name="Analyse this game").click()
    expect(page).to_have_url(re.compile(r"/games/[\w-]+/$"))
    expect(page.locator("h1")).to_contain_text("8×8")
    expect(page.locator(".review-meta")).to_contain_text("Imported game")
    expect(players.locator('li[data-colour="white"]')).to_have_text("White: <i>Wanda</i>")
    blunder = page.locator(f'#review tr[data-ply="{WIPEOUT_BLUNDER_PLY}"]')
    expect(blunder.locator(".mistake-label")).to_be_visible(timeout=60_000)
    expect(page.locator("#review .analysis-averages")).to_contain_text("White: ")
