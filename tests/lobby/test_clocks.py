"""Clocks and correspondence at tables (games.deadlines, games.services), with no worker
running: each seat's clock is charged the time since its turn began and given the
increment, once per move; a move is counted only when it comes in time (with the
player's lag credit); a player out of time loses on time (two players, scored by
Board.decided) or is replaced by the computer and ranks last (three or four)."""
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games import Variant, deadlines
from games.access import Viewer
from games.turn.clock import MAX_LAG_CREDIT, Clock
from games.models import Game, Move, Seat
from games.errors import OutOfTime
from games.services import play_move
from games.tasks import timeout_move as timeout_task
from lobby import actions

pytestmark = pytest.mark.django_db

CLOCK_3_2 = (Game.TimeControl.CLOCK, 180, 2)


def clock_table(host, *others, board="6x6", players=2, time_control=CLOCK_3_2):
    table = actions.open_table(host, Variant(board=board, players=players), time_control=time_control)
    for other in others:
        actions.join(table, Viewer(user=other))
    return Game.objects.get(pk=table.game_id)


def turn_began(game, seconds_ago):
    """Pretend the player to move began `seconds_ago`: their deadline moves with it."""
    shift = timedelta(seconds=seconds_ago)
    Game.objects.filter(pk=game.pk).update(turn_started_at=game.turn_started_at - shift,
                                           deadline=game.deadline - shift)
    return Game.objects.get(pk=game.pk)


def remaining(game, colour):
    return Seat.objects.get(game=game, colour=colour).remaining


def first_move(game, user):
    return play_move(game, game.board().legal_moves[0], expected_ply=game.ply, viewer=Viewer(user=user))


def both_moved(game, black, white):
    """Black and White make their first moves at once: Black is to move on her whole clock
    (a first move that runs out aborts the game: tests/lobby/test_first_moves.py)."""
    return first_move(first_move(game, black), white)


def test_a_clock_starts_full_and_its_deadline_is_the_remaining_time(alice, bob):
    game = clock_table(alice, bob)
    assert (game.time_control, game.time_total, game.time_increment) == ("clock", 180, 2)
    assert remaining(game, "black") == remaining(game, "white") == 180
    assert abs((game.deadline - game.turn_started_at).total_seconds() - 60) < 0.01  # a first move: a minute
    game = both_moved(game, alice, bob)
    assert abs((game.deadline - game.turn_started_at).total_seconds() - remaining(game, "black")) < 0.01
    assert deadlines.clock_of(game).grace == timedelta(0)


def test_a_move_is_charged_its_time_and_given_the_increment_once(alice, bob):
    game = turn_began(clock_table(alice, bob), 10)
    game = first_move(game, alice)
    assert 171.5 < remaining(game, "black") < 172.1  # 180 - 10 + 2
    assert remaining(game, "white") == 180  # White's clock starts now
    assert abs((game.deadline - game.turn_started_at).total_seconds() - 60) < 0.01  # his first move: a minute
    with pytest.raises(Exception):  # the same move again is stale: nothing charged twice
        play_move(game, game.board().legal_moves[0], expected_ply=0, viewer=Viewer(user=alice))
    assert 171.5 < remaining(game, "black") < 172.1


def test_a_move_that_arrives_just_in_time_counts_and_the_increment_is_added(alice, bob):
    game = turn_began(clock_table(alice, bob, time_control=(Game.TimeControl.CLOCK, 60, 5)), 59.7)
    game = first_move(game, alice)
    assert Move.objects.get(game=game).made_by == "player"
    assert 5.0 < remaining(game, "black") < 5.3  # 0.3 s left, plus 5
    assert deadlines.queue_due_time_outs() == 0


def test_a_late_move_is_refused_and_the_worker_scores_a_loss_on_time(alice, bob):
    game = both_moved(clock_table(alice, bob), alice, bob)
    game = turn_began(game, remaining(game, "black") + 1)
    with pytest.raises(OutOfTime, match="Your time ran out."):
        first_move(game, alice)
    assert Move.objects.filter(game=game).count() == 2
    assert deadlines.queue_due_time_outs() == 0  # the late move claimed it
    assert timeout_task(game.pk, 2) == 2  # what the worker does
    game.refresh_from_db()
    assert (game.status, game.ending, game.winner, game.flagged) == ("finished", "time", "white", ["black"])
    assert game.score == {"black": 3, "white": 33}  # the empty squares go to the winner (docs/rules.md §4.1)
    assert remaining(game, "black") == 0
    assert Move.objects.filter(game=game).count() == 2  # nobody moved for the loser
    assert timeout_task(game.pk, 2) is None  # a second delivery changes nothing


def test_the_lag_credit_is_the_round_trip_at_most_a_second(alice, bob):
    game = clock_table(alice, bob)
    Seat.objects.filter(game=game, colour="black").update(lag=0.4)
    black = Seat.objects.get(game=game, colour="black")
    assert Clock.lag_credit(black.lag) == 0.4
    black.lag = 7
    assert Clock.lag_credit(black.lag) == MAX_LAG_CREDIT == 1.0


@pytest.mark.django_db(transaction=True)  # the two run on threads of their own, each with its connection
def test_a_move_racing_the_time_out_has_one_outcome(alice, bob):
    for _ in range(4):
        game = clock_table(alice, bob, time_control=(Game.TimeControl.CLOCK, 60, 0))
        game = turn_began(game, 60)  # due now: whichever comes first wins
        square = game.board().legal_moves[0]

        def move():
            try:
                return play_move(game, square, expected_ply=0, viewer=Viewer(user=alice))
            except Exception:
                return None
            finally:
                connection.close()

        def time_out():
            try:
                return timeout_task(game.pk, 0)
            finally:
                connection.close()

        with ThreadPoolExecutor(2) as pool:
            list(pool.map(lambda job: job(), [move, time_out]))
        game.refresh_from_db()
        moved = Move.objects.filter(game=game).exists()
        assert moved != (game.ending == "aborted")  # her first move: its time-out aborts the game
        assert game.status == ("playing" if moved else "finished")


def test_three_players_one_flags_and_the_computer_plays_on(alice, bob, carol):
    game = clock_table(alice, bob, carol, board="8x8", players=3)
    game = first_move(both_moved(game, alice, bob), carol)
    game = turn_began(game, remaining(game, "black") + 1)
    assert timeout_task(game.pk, 3) == 3
    game.refresh_from_db()
    assert game.status == "playing" and game.forfeited == ["black"] and game.flagged == ["black"]
    black = Seat.objects.get(game=game, colour="black")
    assert black.played_by_computer and black.remaining == 0
    assert game.deadline is None  # the computer moves for Black at once


def test_correspondence_days_run_out_and_the_player_loses(alice, bob):
    game = clock_table(alice, bob, time_control=(Game.TimeControl.DAYS, 2 * 86400, 0))
    assert abs((game.deadline - timezone.now()).total_seconds() - 2 * 86400) < 5
    assert remaining(game, "black") is None
    game = both_moved(game, alice, bob)  # no clock: nothing charged
    assert remaining(game, "black") is None
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert deadlines.queue_due_time_outs() == 1
    assert timeout_task(game.pk, game.ply) == game.ply
    game.refresh_from_db()
    assert (game.ending, game.winner) == ("time", "white")


def test_a_rematch_keeps_the_time_control(alice, bob):
    from games.seating import rematch_game
    game = both_moved(clock_table(alice, bob), alice, bob)
    game = turn_began(game, remaining(game, "black") + 1)
    timeout_task(game.pk, 2)
    game.refresh_from_db()
    new = rematch_game(game, list(game.seats.all()), is_public=False)
    assert (new.time_control, new.time_total, new.time_increment) == ("clock", 180, 2)
    assert set(Seat.objects.filter(game=new).values_list("remaining", flat=True)) == {180}


def test_the_result_my_games_and_the_review_say_lost_on_time(alice, bob):
    from django.urls import reverse

    from games.history import outcome_for
    from games.presentation import result_sentence
    from tests.people import signed_in

    game = both_moved(clock_table(alice, bob), alice, bob)
    game = turn_began(game, remaining(game, "black") + 1)
    timeout_task(game.pk, 2)
    game.refresh_from_db()
    assert result_sentence(game) == ("White wins 33–3: White (Bob) 33, Black (Alice) 3. "
                                     "30 empty squares count for the winner. Black ran out of time.")
    black, white = Seat.objects.get(game=game, colour="black"), Seat.objects.get(game=game, colour="white")
    assert (outcome_for(game, black), outcome_for(game, white)) == ("lost_on_time", "won")
    assert "lost on time" in signed_in(alice).get(reverse("my_games")).content.decode()
    review = signed_in(alice).get(reverse("review", args=[game.public_id]), HTTP_ACCEPT_LANGUAGE="de")
    assert "Schwarz hat die Zeit überschritten." in review.content.decode()


# -- the table form ----------------------------------------------------------------

TABLE_FORM = {"board": "6x6", "players": 2, "blocked": 0, "handicap": 0, "handicap_colour": "white",
              "seat": "black", "level": "normal"}


@pytest.mark.parametrize("fields, expected", [
    ({}, ("move", 0, 0)),
    ({"time_control": "clock", "clock": "5+3"}, ("clock", 300, 3)),
    ({"time_control": "clock", "clock": "custom", "minutes": 7, "increment": 0}, ("clock", 420, 0)),
    ({"time_control": "days", "days": 7}, ("days", 7 * 86400, 0)),
])
def test_the_table_form_opens_the_time_control_chosen(alice, fields, expected):
    from django.urls import reverse

    from lobby.models import Table
    from tests.people import signed_in

    response = signed_in(alice).post(reverse("table_new"), {**TABLE_FORM, **fields})
    assert response.status_code == 302
    game = Table.objects.get().game
    assert (game.time_control, game.time_total, game.time_increment) == expected
    page = signed_in(alice).get(response["Location"], HTTP_ACCEPT_LANGUAGE="de").content.decode()
    shown = {"move": "Sekunden pro Zug: 60", "clock": f"Schachuhr {expected[1] // 60}+{expected[2]}",
             "days": "Tage pro Zug: 7"}[expected[0]]
    assert f'<span class="time-control">{shown}</span>' in page


@pytest.mark.parametrize("language, fields, message", [
    ("en", {"minutes": 0, "increment": 5}, "Choose from 1 to 60 minutes."),
    ("en", {"minutes": 61, "increment": 5}, "Choose from 1 to 60 minutes."),
    ("en", {"minutes": 5, "increment": 61}, "Choose from 0 to 60 seconds added a move."),
    ("en", {"minutes": "", "increment": 2}, "Choose from 1 to 60 minutes."),
    ("de", {"minutes": "x", "increment": 2}, "Wähle 1 bis 60 Minuten."),
    ("de", {"minutes": 3, "increment": -1}, "Wähle 0 bis 60 Sekunden Zugabe pro Zug."),
])
def test_a_custom_clock_out_of_bounds_is_refused_in_the_pages_language(alice, language, fields, message):
    from django.urls import reverse

    from lobby.models import Table
    from tests.people import signed_in

    response = signed_in(alice).post(reverse("table_new"), {
        **TABLE_FORM, "time_control": "clock", "clock": "custom", **fields}, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Table.objects.exists()


# -- correspondence games waiting on a player -------------------------------------

def test_the_header_and_my_games_show_the_correspondence_games_waiting_on_the_player(alice, bob):
    from django.urls import reverse

    from tests.people import signed_in

    days = (Game.TimeControl.DAYS, 86400, 0)
    first = clock_table(alice, bob, time_control=days)
    first_move(first, alice)  # Bob (White) to move, a day left
    second = clock_table(alice, bob, time_control=(Game.TimeControl.DAYS, 3 * 86400, 0))
    first_move(second, alice)  # Bob to move, three days left
    clock_table(alice, bob, time_control=days)  # Alice to move: not Bob's turn
    clock_table(alice, bob)  # a clock game: no link
    page = signed_in(bob).get(reverse("my_games")).content.decode()
    assert 'id="your-turn-link"' in page and "Your turn (2)" in page
    waiting = page[page.index('class="your-turn-games"'):page.index("</ul>", page.index('class="your-turn-games"'))]
    assert waiting.index(first.public_id) < waiting.index(second.public_id)  # the one due soonest first
    assert "23\xa0hours" in waiting and "2\xa0days" in waiting and "left" in waiting
    german = signed_in(bob).get(reverse("home"), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Du bist am Zug (2)" in german
    assert "Your turn (1)" in signed_in(alice).get(reverse("home")).content.decode()  # the third table


def test_a_rated_game_lost_on_time_is_rated_once_as_its_result(alice, bob):
    from accounts.models import Rating

    table = actions.open_table(alice, Variant(board="6x6"), rated=True, time_control=CLOCK_3_2)
    actions.join(table, Viewer(user=bob))
    game = both_moved(Game.objects.get(pk=table.game_id), alice, bob)
    game = turn_began(game, remaining(game, "black") + 1)
    assert timeout_task(game.pk, 2) == 2
    assert timeout_task(game.pk, 2) is None  # delivered twice: rated once
    ratings = {r.user_id: r for r in Rating.objects.all()}
    assert (ratings[bob.pk].games, ratings[bob.pk].wins) == (1, 1)
    assert (ratings[alice.pk].games, ratings[alice.pk].wins) == (1, 0)


# -- takebacks on a clock ----------------------------------------------------------------

def test_after_a_takeback_the_requesters_clock_runs_from_the_acceptance(alice, bob):
    from games import endings
    from games.drawing import render_state

    game = clock_table(alice, bob)  # a casual table: takebacks allowed
    game = first_move(game, alice)
    game = first_move(game, bob)
    game = first_move(game, alice)
    game = endings.request_takeback(game, Viewer(user=alice))  # asked during Bob's turn
    game = turn_began(game, 30)  # Bob thought 30 s before granting it
    white_before, black_before = remaining(game, "white"), remaining(game, "black")
    game = endings.accept_takeback(game, Viewer(user=bob))
    accepted = timezone.now()
    assert (game.ply, game.turn) == (2, "black")
    # Alice's clock runs from the acceptance, and her flag is at that start plus her time.
    assert abs((accepted - game.turn_started_at).total_seconds()) < 0.5
    assert abs((game.deadline - game.turn_started_at).total_seconds() - black_before) < 0.01
    # Bob's 30 s ran on his clock: they stay spent, with no increment (he did not move).
    assert 29.5 < white_before - remaining(game, "white") < 30.5
    # Both pages count Alice's clock from the acceptance.
    state = render_state(Game.objects.get(pk=game.pk))
    assert (f'data-colour="black" data-remaining="{black_before:.3f}" data-running="1" '
            f'data-started="{game.turn_started_at.timestamp():.3f}"') in state
    # Her move is charged the time since the acceptance, not since Bob's turn began.
    game = first_move(Game.objects.get(pk=game.pk), alice)
    charged = black_before + 2 - remaining(game, "black")
    assert 0 <= charged <= (timezone.now() - accepted).total_seconds() + 0.1


def test_a_takeback_granted_during_the_requesters_own_turn_keeps_their_time_spent(alice, bob):
    from games import endings

    game = first_move(first_move(clock_table(alice, bob), alice), bob)
    game = endings.request_takeback(game, Viewer(user=alice))  # Alice to move, asking
    game = turn_began(game, 20)
    before = remaining(game, "black")
    game = endings.accept_takeback(game, Viewer(user=bob))
    assert (game.ply, game.turn) == (0, "black")
    # Her 20 s ran on her clock; her new turn starts from now, back to her first move's minute.
    assert 19.5 < before - remaining(game, "black") < 20.5
    assert abs((game.deadline - game.turn_started_at).total_seconds() - 60) < 0.01
    assert abs((timezone.now() - game.turn_started_at).total_seconds()) < 0.5


def test_a_game_ending_early_stops_the_clocks_as_they_stand(alice, bob):
    from games import endings
    from games.drawing import render_state

    game = first_move(first_move(clock_table(alice, bob), alice), bob)
    game = turn_began(game, 20)
    before = remaining(game, "black")
    game = endings.resign(game, Viewer(user=alice))  # after 20 s of her turn
    assert 19.5 < before - remaining(game, "black") < 20.5  # spent, with no increment
    state = render_state(Game.objects.get(pk=game.pk))
    assert 'data-running' not in state
    assert f'data-colour="black" data-remaining="{remaining(game, "black"):.3f}"' in state
