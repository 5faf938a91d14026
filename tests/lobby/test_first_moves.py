"""Each player's first move on a clock (docs/rules.md §11.3), with no worker running:
it has at most MOVE_TIME_LIMIT (or the clock, if less), counted from when the player's
page first shows the running game, once, and never later than that time from the
turn's start for a player whose page never shows it; a player who does not make it in
time has the game aborted (nobody wins, nothing is rated), not lost. Correspondence
days that run out before a player's first move abort the game too."""
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import Rating, RatingChange
from games import Variant, deadlines
from games.access import Viewer
from games.models import Game, Move, Seat
from games.presentation import result_sentence
from games.services import board_shown, play_move
from games.tasks import timeout_move as timeout_task
from lobby import actions

pytestmark = pytest.mark.django_db

CLOCK_5_3 = (Game.TimeControl.CLOCK, 300, 3)


def clock_table(host, *others, players=2, time_control=CLOCK_5_3, rated=False):
    table = actions.open_table(host, Variant(board="8x8" if players > 2 else "6x6", players=players),
                               time_control=time_control, rated=rated)
    for other in others:
        actions.join(table, Viewer(user=other))
    return Game.objects.get(pk=table.game_id)


def turn_began(game, seconds_ago):
    """Pretend the player to move began `seconds_ago`: their deadline moves with it."""
    shift = timedelta(seconds=seconds_ago)
    Game.objects.filter(pk=game.pk).update(turn_started_at=game.turn_started_at - shift,
                                           deadline=game.deadline - shift)
    return Game.objects.get(pk=game.pk)


def seat(game, colour):
    return Seat.objects.get(game=game, colour=colour)


def move(game, user):
    game = Game.objects.get(pk=game.pk)
    return play_move(game, game.board().legal_moves[0], expected_ply=game.ply, viewer=Viewer(user=user))


def allowed(game):
    """The seconds the player to move has from their turn's start to their deadline."""
    return (game.deadline - game.turn_started_at).total_seconds()


def test_a_first_move_has_a_minute_at_most_and_later_moves_the_whole_clock(alice, bob, settings):
    assert settings.MOVE_TIME_LIMIT == 60
    game = clock_table(alice, bob)
    assert allowed(game) == pytest.approx(60, abs=0.01)  # Black's first move
    game = move(game, alice)
    assert allowed(game) == pytest.approx(60, abs=0.01)  # White's first move
    game = move(game, bob)
    assert allowed(game) == pytest.approx(seat(game, "black").remaining, abs=0.01)  # her whole clock now
    assert seat(game, "black").remaining > 300  # the first move was charged and given the increment
    short = clock_table(alice, bob, time_control=(Game.TimeControl.CLOCK, 30, 0))
    assert allowed(short) == pytest.approx(30, abs=0.01)  # a clock shorter than a minute is the limit


def test_a_player_who_does_not_make_the_first_move_in_time_has_the_game_aborted(alice, bob):
    game = turn_began(clock_table(alice, bob, rated=True), 61)
    assert deadlines.queue_due_time_outs() == 1
    assert timeout_task(game.pk, 0) == 0  # what the worker does
    game.refresh_from_db()
    assert (game.status, game.ending, game.winner, game.flagged, game.score) == ("finished", "aborted", "", [], {})
    assert result_sentence(game) == "Aborted before every player had moved."
    assert not RatingChange.objects.exists() and not Rating.objects.filter(games__gt=0).exists()
    assert 234 < seat(game, "black").remaining <= 239  # her minute is spent; her clock shows the rest
    assert timeout_task(game.pk, 0) is None  # a second delivery changes nothing


def test_the_second_player_missing_their_first_move_aborts_it_too(alice, bob):
    game = move(clock_table(alice, bob, rated=True), alice)
    game = turn_began(game, 61)
    assert timeout_task(game.pk, 1) == 1
    game.refresh_from_db()
    assert (game.status, game.ending, game.winner) == ("finished", "aborted", "")
    assert not RatingChange.objects.exists()


def test_once_both_moved_running_out_is_a_loss(alice, bob):
    game = move(move(clock_table(alice, bob, time_control=(Game.TimeControl.CLOCK, 60, 0)), alice), bob)
    game = turn_began(game, 61)
    timeout_task(game.pk, 2)
    game.refresh_from_db()
    assert (game.ending, game.winner, game.flagged) == ("time", "white", ["black"])


def test_of_three_one_missing_their_first_move_aborts_the_game(alice, bob, carol):
    game = move(clock_table(alice, bob, carol, players=3), alice)
    game = turn_began(game, 61)  # White (Bob) never moves
    timeout_task(game.pk, 1)
    game.refresh_from_db()
    assert (game.status, game.ending, game.forfeited, game.flagged) == ("finished", "aborted", [], [])


def test_correspondence_days_that_run_out_before_a_first_move_abort_the_game(alice, bob):
    game = clock_table(alice, bob, time_control=(Game.TimeControl.DAYS, 86400, 0))
    assert allowed(game) == pytest.approx(86400, abs=0.01)  # the days themselves
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    timeout_task(game.pk, 0)
    game.refresh_from_db()
    assert (game.ending, game.winner) == ("aborted", "")


def test_the_first_move_starts_when_the_players_page_shows_the_game_once(alice, bob):
    game = turn_began(clock_table(alice, bob), 40)  # accepted 40 s ago, nobody looking
    bob_seat, alice_seat = seat(game, "white"), seat(game, "black")
    board_shown(game, bob_seat)  # not his turn: his page is remembered, nothing moves
    assert Game.objects.get(pk=game.pk).deadline == game.deadline
    shown = timezone.now()
    board_shown(game, alice_seat, now=shown)
    game = Game.objects.get(pk=game.pk)
    assert game.turn_started_at == shown and allowed(game) == pytest.approx(60, abs=0.01)
    board_shown(game, seat(game, "black"), now=shown + timedelta(seconds=30))  # reloaded: no new start
    assert Game.objects.get(pk=game.pk).turn_started_at == shown
    # Her move is charged from when her page showed it, not from the acceptance.
    game = move(game, alice)
    assert seat(game, "black").remaining > 300 + 3 - 5
    # Bob's page showed the game before his turn: his first move's time started with it.
    assert abs((timezone.now() - game.turn_started_at).total_seconds()) < 1
    board_shown(game, seat(game, "white"), now=timezone.now() + timedelta(seconds=20))
    assert Game.objects.get(pk=game.pk).turn_started_at == game.turn_started_at


def test_a_page_that_shows_the_game_after_the_first_moves_time_ran_out_gives_none_back(alice, bob):
    game = turn_began(clock_table(alice, bob), 61)  # due: the worker aborts it
    board_shown(game, seat(game, "black"))
    assert Game.objects.get(pk=game.pk).deadline == game.deadline
    timeout_task(game.pk, 0)
    assert Game.objects.get(pk=game.pk).ending == "aborted"


def test_a_page_showing_the_game_changes_no_later_move(alice, bob):
    game = move(move(clock_table(alice, bob), alice), bob)
    Seat.objects.filter(game=game).update(board_shown_at=None)  # as if Alice's page opens only now
    board_shown(game, seat(game, "black"), now=timezone.now() + timedelta(seconds=20))
    assert Game.objects.get(pk=game.pk).turn_started_at == game.turn_started_at
    assert not Move.objects.filter(game=game, made_by="timeout").exists()


def test_the_page_counts_the_first_move_down_in_the_readers_language(alice, bob):
    from django.utils import translation

    from games.drawing import render_state

    game = clock_table(alice, bob)
    due = game.turn_started_at.timestamp() + 60
    with translation.override("de"):
        state = render_state(game, language="de")
    assert f'id="first-move" data-due="{due:.3f}"' in state
    assert "Zeit für den ersten Zug von Schwarz:" in state and "(sonst wird die Partie abgebrochen)" in state
    assert "Time for Black's first move:" in render_state(game, language="en")
    game = move(move(game, alice), bob)
    assert 'id="first-move"' not in render_state(game, language="en")  # both moved: the clocks alone
