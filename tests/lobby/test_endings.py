"""Ending a table's game before the board does, through the game service and the
table's forms: resigning. Refusals change nothing and say why; a resign raced by a
move (threads against the real database) has one outcome."""
import threading

import pytest
from django.db import connection
from django.urls import reverse
from django.utils import translation

from accounts.models import RatingChange
from games import endings
from games.access import Viewer
from games.history import outcome_for
from games.models import Game
from games.errors import GameError, NotYourTurn
from games.services import play_move
from tests.accounts.rated_play import pick, rated_table
from tests.people import make_user, signed_in

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def fresh(game):
    return Game.objects.prefetch_related("seats__user").get(pk=game.pk)


def move(game, user):
    game = fresh(game)
    return play_move(game, pick(game.board()), expected_ply=game.ply, viewer=Viewer(user=user))


def test_a_resigning_player_loses_scored_as_decided_and_the_rated_game_is_rated_once(alice, bob):
    table = rated_table(alice, bob)
    move(table.game, alice)
    game = endings.resign(fresh(table.game), Viewer(user=bob))
    game = fresh(game)
    expected = game.board().decided("white")
    assert (game.status, game.ending, game.winner) == ("finished", "resigned", "black")
    assert game.score == expected.score and game.counts == expected.counts
    assert game.score == {"black": 36 - 1, "white": 1}  # the empty squares go to the winner
    assert game.finished_at is not None and game.turn == "" and game.deadline is None
    assert RatingChange.objects.filter(game=game).count() == 2
    assert {c.user.username: c.rank for c in RatingChange.objects.filter(game=game)} == {"alice": 1, "bob": 2}
    assert outcome_for(game, game.seat_of("white")) == "resigned"
    assert outcome_for(game, game.seat_of("black")) == "won"
    # Twice: refused, nothing changes (no second rating).
    with pytest.raises(GameError, match="This game is over."):
        endings.resign(game, Viewer(user=bob))
    assert RatingChange.objects.filter(game=game).count() == 2


def test_resigning_is_refused_to_strangers_and_before_the_start(alice, bob, carol):
    table = rated_table(alice, bob)
    with pytest.raises(NotYourTurn, match="You have no seat in this game."):
        endings.resign(fresh(table.game), Viewer(user=carol))
    waiting = rated_table(carol, players=2)
    with pytest.raises(GameError, match="This game has not started yet."):
        endings.resign(fresh(waiting.game), Viewer(user=carol))
    assert fresh(table.game).status == "playing" and fresh(waiting.game).status == "waiting"


def test_in_a_three_player_game_resigning_is_leaving(alice, bob, carol):
    table = rated_table(alice, bob, carol, board="8x8")
    game = endings.resign(fresh(table.game), Viewer(user=bob))
    game = fresh(game)
    assert game.status == "playing" and game.forfeited == ["white"]
    assert game.seat_of("white").left_at is not None


def test_the_resign_form_confirms_then_resigns_in_the_page_language(alice, bob):
    table = rated_table(alice, bob, rated=False)
    url = reverse("table_resign", args=[table.code])
    page = signed_in(bob).get(url)
    assert page.status_code == 200 and b'id="confirm-resign"' in page.content
    # Without the CSRF token: refused, nothing changes.
    from django.test import Client
    csrf_client = Client(enforce_csrf_checks=True)
    csrf_client.force_login(bob)
    assert csrf_client.post(url).status_code == 403
    assert fresh(table.game).status == "playing"
    answer = signed_in(bob).post(url, follow=True)
    assert "Black wins 34–2" in answer.content.decode() and "White resigned." in answer.content.decode()
    assert fresh(table.game).ending == "resigned"
    german = signed_in(alice).post(url, follow=True, HTTP_ACCEPT_LANGUAGE="de")
    assert "Diese Partie ist vorbei." in german.content.decode()


def test_the_seats_panel_offers_resign_to_the_players_of_a_running_game_only(alice, bob, carol):
    table = rated_table(alice, bob, rated=False)
    page = signed_in(bob).get(reverse("table", args=[table.code])).content.decode()
    assert 'id="resign"' in page
    assert 'id="resign"' not in signed_in(carol).get(reverse("table", args=[table.code])).content.decode()
    endings.resign(fresh(table.game), Viewer(user=bob))
    assert 'id="resign"' not in signed_in(bob).get(reverse("table", args=[table.code])).content.decode()


@pytest.mark.django_db(transaction=True)
def test_a_resign_racing_a_move_has_one_outcome():
    for attempt in range(4):
        alice, bob = make_user(f"a{attempt}"), make_user(f"b{attempt}")
        table = rated_table(alice, bob)
        game = fresh(table.game)
        barrier = threading.Barrier(2)
        results = {}

        def run(name, work):
            try:
                barrier.wait()
                results[name] = work()
            except GameError as error:
                results[name] = error
            finally:
                connection.close()

        threads = [
            threading.Thread(target=run, args=("move", lambda: play_move(
                game, pick(game.board()), expected_ply=0, viewer=Viewer(user=alice)))),
            threading.Thread(target=run, args=("resign", lambda: endings.resign(game, Viewer(user=bob)))),
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        final = fresh(game)
        assert (final.status, final.ending, final.winner) == ("finished", "resigned", "black")
        assert not isinstance(results["resign"], GameError)  # a resign needs no particular position
        if isinstance(results["move"], GameError):  # resigned first: the move changed nothing
            assert final.ply == 0 and final.moves.count() == 0
        else:
            assert final.ply == 1 and final.moves.count() == 1
        assert RatingChange.objects.filter(game=final).count() == 2


# -- draw offers ----------------------------------------------------------------------

def test_a_draw_offered_and_accepted_ends_the_game_drawn_half_and_half(alice, bob):
    table = rated_table(alice, bob)
    move(table.game, alice)
    game = endings.offer_draw(fresh(table.game), Viewer(user=alice))
    assert fresh(game).draw_offer == "black"
    with pytest.raises(GameError, match="You have offered a draw already"):
        endings.offer_draw(fresh(game), Viewer(user=alice))
    with pytest.raises(GameError, match="There is no draw offer of your opponent to answer."):
        endings.accept_draw(fresh(game), Viewer(user=alice))  # one's own offer
    game = fresh(endings.accept_draw(fresh(game), Viewer(user=bob)))
    assert (game.status, game.ending, game.winner, game.draw_offer) == ("finished", "agreed", "", "")
    assert game.score == {"black": 18, "white": 18}
    assert {c.user.username: c.rank for c in RatingChange.objects.filter(game=game)} == {"alice": 1, "bob": 1}
    assert outcome_for(game, game.seat_of("white")) == "draw"
    with pytest.raises(GameError, match="This game is over."):
        endings.accept_draw(game, Viewer(user=bob))


def test_a_declined_offer_is_gone_and_the_next_waits_ten_moves(alice, bob):
    table = rated_table(alice, bob)
    endings.offer_draw(fresh(table.game), Viewer(user=alice))
    with pytest.raises(GameError, match="There is no draw offer of your opponent to answer."):
        endings.decline_draw(fresh(table.game), Viewer(user=alice))
    game = fresh(endings.decline_draw(fresh(table.game), Viewer(user=bob)))
    assert (game.status, game.draw_offer) == ("playing", "")
    with pytest.raises(GameError, match="at most one draw offer every 10 moves"):
        endings.offer_draw(game, Viewer(user=alice))
    for _ply in range(10):
        seat = fresh(game).seat_of(fresh(game).turn)
        move(game, seat.user)
    endings.offer_draw(fresh(game), Viewer(user=alice))
    assert fresh(game).draw_offer == "black"


def test_an_offer_lapses_when_the_offerers_opponent_moves_not_when_the_offerer_does(alice, bob):
    table = rated_table(alice, bob)
    endings.offer_draw(fresh(table.game), Viewer(user=alice))  # Black offers, then moves
    move(table.game, alice)
    assert fresh(table.game).draw_offer == "black"
    move(table.game, bob)
    assert fresh(table.game).draw_offer == ""
    with pytest.raises(GameError, match="There is no draw offer of your opponent to answer."):
        endings.accept_draw(fresh(table.game), Viewer(user=bob))


def test_draw_offers_are_for_two_players(alice, bob, carol):
    table = rated_table(alice, bob, carol, board="8x8")
    with pytest.raises(GameError, match="Draws are offered in two-player games only."):
        endings.offer_draw(fresh(table.game), Viewer(user=alice))


def race(*works):
    """Run `works` at once in threads against the real database: {index: result or GameError}."""
    barrier = threading.Barrier(len(works))
    results = {}

    def run(index, work):
        try:
            barrier.wait()
            results[index] = work()
        except GameError as error:
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(index, work)) for index, work in enumerate(works)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


@pytest.mark.django_db(transaction=True)
def test_two_accepts_of_one_draw_offer_end_the_game_once():
    alice, bob = make_user("alice"), make_user("bob")
    table = rated_table(alice, bob)
    endings.offer_draw(fresh(table.game), Viewer(user=alice))
    game = fresh(table.game)
    results = race(lambda: endings.accept_draw(game, Viewer(user=bob)),
                   lambda: endings.accept_draw(game, Viewer(user=bob)))
    assert sorted(isinstance(result, GameError) for result in results.values()) == [False, True]
    final = fresh(game)
    assert (final.status, final.ending) == ("finished", "agreed")
    assert RatingChange.objects.filter(game=final).count() == 2


@pytest.mark.django_db(transaction=True)
def test_a_draw_accept_racing_the_accepters_own_move_has_one_outcome():
    for attempt in range(4):
        alice, bob = make_user(f"a{attempt}"), make_user(f"b{attempt}")
        table = rated_table(alice, bob)
        move(table.game, alice)  # White (Bob) to move
        endings.offer_draw(fresh(table.game), Viewer(user=alice))
        game = fresh(table.game)
        square = pick(game.board())
        results = race(lambda: play_move(game, square, expected_ply=1, viewer=Viewer(user=bob)),
                       lambda: endings.accept_draw(game, Viewer(user=bob)))
        final = fresh(game)
        moved, accepted = (not isinstance(results[i], GameError) for i in (0, 1))
        assert moved != accepted  # the move lapses the offer, or the draw ends the game
        if accepted:
            assert (final.status, final.ending, final.ply) == ("finished", "agreed", 1)
        else:
            assert (final.status, final.draw_offer, final.ply) == ("playing", "", 2)


def test_the_draw_forms_offer_show_the_offer_and_answer_it(alice, bob, carol):
    table = rated_table(alice, bob, rated=False)
    url = reverse("table_draw", args=[table.code])
    page = signed_in(alice).get(reverse("table", args=[table.code])).content.decode()
    assert 'id="offer-draw"' in page and 'id="accept-draw"' not in page
    signed_in(alice).post(url, {"answer": "offer"})
    page = signed_in(bob).get(reverse("table", args=[table.code])).content.decode()
    assert "Black offers a draw." in page and 'data-to="white"' in page and 'id="accept-draw"' in page
    stranger = signed_in(carol).post(url, {"answer": "accept"}, follow=True, HTTP_ACCEPT_LANGUAGE="de")
    assert "Du hast keinen Platz in dieser Partie." in stranger.content.decode()
    odd = signed_in(bob).post(url, {"answer": "maybe"}, follow=True)
    assert "Offer a draw, or accept or decline one." in odd.content.decode()
    assert fresh(table.game).status == "playing"
    answer = signed_in(bob).post(url, {"answer": "accept"}, follow=True).content.decode()
    assert "Draw, 18–18" in answer and "Drawn by agreement." in answer


# -- aborting -------------------------------------------------------------------------

def test_until_each_player_has_moved_either_may_abort_nobody_wins_nothing_is_rated(alice, bob):
    table = rated_table(alice, bob)
    move(table.game, alice)  # Black has moved, White not yet: White may abort
    game = fresh(endings.abort(fresh(table.game), Viewer(user=bob)))
    assert (game.status, game.ending, game.winner, game.score) == ("finished", "aborted", "", {})
    assert not RatingChange.objects.filter(game=game).exists()
    assert outcome_for(game, game.seat_of("black")) == "aborted"
    page = signed_in(alice).get(reverse("my_games") + "?result=draw").content.decode()
    assert game.public_id not in page
    assert "Aborted before every player had moved." in signed_in(alice).get(
        reverse("review", args=[game.public_id])).content.decode()
    with pytest.raises(GameError, match="This game is over."):
        endings.abort(game, Viewer(user=alice))


def test_once_each_player_has_moved_aborting_is_refused(alice, bob, carol):
    table = rated_table(alice, bob)
    with pytest.raises(NotYourTurn):
        endings.abort(fresh(table.game), Viewer(user=carol))
    move(table.game, alice)
    move(table.game, bob)
    with pytest.raises(GameError, match="Too late to abort"):
        endings.abort(fresh(table.game), Viewer(user=alice))
    assert fresh(table.game).status == "playing"
    page = signed_in(alice).get(reverse("table", args=[table.code])).content.decode()
    assert 'id="abort"' not in page


def test_the_abort_form_at_move_one(alice, bob):
    table = rated_table(alice, bob, rated=False)
    page = signed_in(alice).get(reverse("table", args=[table.code])).content.decode()
    assert 'id="abort"' in page
    answer = signed_in(alice).post(reverse("table_abort", args=[table.code]), follow=True).content.decode()
    assert "Aborted before every player had moved." in answer
    german = signed_in(bob).post(reverse("table_abort", args=[table.code]), follow=True,
                                 HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Diese Partie ist vorbei." in german


# -- takebacks ------------------------------------------------------------------------

def test_a_takeback_accepted_undoes_the_requesters_last_move_and_the_reply_once(alice, bob):
    table = rated_table(alice, bob, rated=False)
    move(table.game, alice)
    move(table.game, bob)  # Black asks to take back their move: White's reply goes too
    game = fresh(endings.request_takeback(fresh(table.game), Viewer(user=alice)))
    assert (game.takeback_request, game.ply) == ("black", 2)
    with pytest.raises(GameError, match="You have asked already"):
        endings.request_takeback(fresh(game), Viewer(user=alice))
    with pytest.raises(GameError, match="There is no takeback request of your opponent to answer."):
        endings.accept_takeback(fresh(game), Viewer(user=alice))
    game = fresh(endings.accept_takeback(fresh(game), Viewer(user=bob)))
    assert (game.ply, game.turn, game.takeback_request, game.status) == (0, "black", "", "playing")
    assert game.moves.count() == 0 and game.deadline is not None
    with pytest.raises(GameError, match="There is no takeback request of your opponent to answer."):
        endings.accept_takeback(fresh(game), Viewer(user=bob))  # twice: once
    move(game, alice)
    assert fresh(game).ply == 1


def test_a_takeback_declined_or_overtaken_by_a_move_changes_nothing(alice, bob):
    table = rated_table(alice, bob, rated=False)
    move(table.game, alice)
    endings.request_takeback(fresh(table.game), Viewer(user=alice))
    game = fresh(endings.decline_takeback(fresh(table.game), Viewer(user=bob)))
    assert (game.ply, game.takeback_request) == (1, "")
    endings.request_takeback(fresh(game), Viewer(user=alice))
    move(game, bob)  # the position changed: the request lapses
    assert fresh(game).takeback_request == ""
    with pytest.raises(GameError, match="There is no takeback request"):
        endings.accept_takeback(fresh(game), Viewer(user=bob))
    assert fresh(game).ply == 2


def test_takebacks_are_refused_at_a_rated_table_and_without_a_move(alice, bob):
    rated = rated_table(alice, bob)
    move(rated.game, alice)
    with pytest.raises(GameError, match="Moves cannot be taken back at a rated table."):
        endings.request_takeback(fresh(rated.game), Viewer(user=alice))
    casual = rated_table(alice, bob, rated=False)
    with pytest.raises(GameError, match="There is no move of yours to take back."):
        endings.request_takeback(fresh(casual.game), Viewer(user=alice))
    page = signed_in(alice).get(reverse("table", args=[rated.code])).content.decode()
    assert 'id="request-takeback"' not in page
    page = signed_in(alice).get(reverse("table", args=[casual.code])).content.decode()
    assert 'id="request-takeback"' in page


@pytest.mark.django_db(transaction=True)
def test_two_accepts_of_one_takeback_undo_once():
    alice, bob = make_user("alice"), make_user("bob")
    table = rated_table(alice, bob, rated=False)
    for user in (alice, bob, alice):
        move(table.game, user)
    endings.request_takeback(fresh(table.game), Viewer(user=bob))  # White's move at ply 2 and Black's reply
    game = fresh(table.game)
    results = race(lambda: endings.accept_takeback(game, Viewer(user=alice)),
                   lambda: endings.accept_takeback(game, Viewer(user=alice)))
    assert sorted(isinstance(result, GameError) for result in results.values()) == [False, True]
    final = fresh(game)
    assert (final.ply, final.turn) == (1, "white") and final.moves.count() == 1


# -- a gone opponent ------------------------------------------------------------------

def here(game, colour, channel):
    import asyncio
    from games.gone import seat_place
    from infra.presence import presence
    return asyncio.run(presence.enter(channel, seat_place(game.public_id, colour)))


def gone(game, colour, channel):
    import asyncio
    from games.gone import seat_place
    from infra.presence import presence
    return asyncio.run(presence.leave(channel, seat_place(game.public_id, colour)))


def test_the_player_to_move_gone_long_enough_loses_by_claim(alice, bob, carol, settings):
    import time
    from games.gone import gone_for
    settings.PLAYER_GONE_SECONDS = 0.5
    table = rated_table(alice, bob)
    game = fresh(table.game)  # Black (Alice) to move
    assert here(game, "black", "tab-1") is True  # away until now
    assert here(game, "black", "tab-2") is False  # a second tab: here already
    with pytest.raises(GameError, match="Alice is here."):
        endings.claim_win(fresh(game), Viewer(user=bob))
    assert gone(game, "black", "tab-1") is False  # one tab still open
    assert gone(game, "black", "tab-2") is True
    with pytest.raises(GameError, match="Alice has not been gone long enough yet: 1 s to wait."):
        endings.claim_win(fresh(game), Viewer(user=bob))
    deadline = time.monotonic() + 5  # Alice gone long enough, by the clock the claim reads
    while gone_for(game.public_id, "black") <= settings.PLAYER_GONE_SECONDS:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    with pytest.raises(GameError, match="Only the absence of the player to move can be claimed."):
        endings.claim_win(fresh(game), Viewer(user=alice))
    with pytest.raises(NotYourTurn):
        endings.claim_win(fresh(game), Viewer(user=carol))
    game = fresh(endings.claim_win(fresh(game), Viewer(user=bob)))
    assert (game.status, game.ending, game.winner) == ("finished", "claimed", "white")
    assert game.score == game.board().decided("black").score
    assert RatingChange.objects.filter(game=game).count() == 2
    assert outcome_for(game, game.seat_of("black")) == "claimed"


def test_a_claim_reads_the_absence_of_the_player_to_move_now_not_of_the_page_s_copy(alice, bob, settings):
    import time
    from games.gone import seat_place
    from tests.presence_marks import left_at
    table = rated_table(alice, bob)
    page_copy = fresh(table.game)  # a socket's game, read while Black (Alice) was to move
    move(table.game, alice)  # White (Bob) to move
    left_at(seat_place(page_copy.public_id, "white"), time.time() - settings.PLAYER_GONE_SECONDS - 5)
    game = fresh(endings.claim_win(page_copy, Viewer(user=alice)))
    assert (game.ending, game.winner) == ("claimed", "black")


def test_a_gone_player_who_comes_back_in_time_plays_on(alice, bob, settings):
    settings.PLAYER_GONE_SECONDS = 0
    table = rated_table(alice, bob)
    game = fresh(table.game)
    here(game, "black", "tab-1")
    gone(game, "black", "tab-1")
    page = signed_in(bob).get(reverse("table", args=[table.code])).content.decode()
    assert 'id="claim-win"' in page and 'data-here="false"' in page
    here(game, "black", "tab-3")  # back
    page = signed_in(bob).get(reverse("table", args=[table.code])).content.decode()
    assert 'id="claim-win"' not in page and 'data-here="true"' in page
    with pytest.raises(GameError, match="Alice is here."):
        endings.claim_win(fresh(game), Viewer(user=bob))
    assert fresh(game).status == "playing"


def test_in_a_three_player_game_the_computer_plays_for_the_gone_player(alice, bob, carol, settings):
    settings.PLAYER_GONE_SECONDS = 0
    table = rated_table(alice, bob, carol, board="8x8")
    game = fresh(table.game)
    here(game, "black", "tab-1")
    gone(game, "black", "tab-1")
    with pytest.raises(GameError, match="The win is claimed in two-player games only"):
        endings.claim_win(fresh(game), Viewer(user=bob))
    game = fresh(endings.computer_for_gone(fresh(game), Viewer(user=carol)))
    assert game.forfeited == ["black"] and game.seat_of("black").left_at is not None
    assert game.status == "playing"


def test_every_new_ending_is_named_in_my_games_and_on_player_pages(alice, bob, settings):
    resigned, agreed, aborted, claimed = (rated_table(alice, bob) for _ in range(4))
    move(resigned.game, alice)
    endings.resign(fresh(resigned.game), Viewer(user=bob))
    endings.offer_draw(fresh(agreed.game), Viewer(user=alice))
    endings.accept_draw(fresh(agreed.game), Viewer(user=bob))
    endings.abort(fresh(aborted.game), Viewer(user=alice))
    settings.PLAYER_GONE_SECONDS = 0
    here(fresh(claimed.game), "black", "tab")
    gone(fresh(claimed.game), "black", "tab")
    endings.claim_win(fresh(claimed.game), Viewer(user=bob))
    mine = signed_in(bob).get(reverse("my_games")).content.decode()
    theirs = signed_in(alice).get(reverse("player", args=["bob"])).content.decode()
    for page in (mine, theirs):
        for label in ("lost (resigned)", "draw", "aborted", "won"):
            assert f">{label}" in page, label
    alices = signed_in(alice).get(reverse("my_games"), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert ">verloren (war weg)" in alices and ">abgebrochen" in alices
    assert RatingChange.objects.filter(game__in=[aborted.game]).count() == 0
    assert RatingChange.objects.filter(user=bob).count() == 3


def test_takebacks_are_for_two_players(alice, bob, carol):
    table = rated_table(alice, bob, carol, board="8x8", rated=False)
    move(table.game, alice)
    with pytest.raises(GameError, match="Takebacks are asked in two-player games only."):
        endings.request_takeback(fresh(table.game), Viewer(user=alice))
