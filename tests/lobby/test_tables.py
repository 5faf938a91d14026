"""Tables through the service and the views: opening, codes, joining (code, link,
seat choice, guests), starting, moving only for your own seat, leaving."""
import asyncio
import math
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from games import Board, Variant
from games.access import Viewer
from games.models import Game, Move
from games.errors import GameError, NotYourTurn
from games.services import computer_move, play_move, timeout_move
from lobby import actions, broadcast, listing
from lobby.models import CODE_ALPHABET, CODE_LENGTH, Table, normalise_code
from tests.people import signed_in

pytestmark = pytest.mark.django_db


def open_table(host, players=2, board="6x6", **options):
    return actions.open_table(host, Variant(board=board, players=players), **options)


def snapshot(game):
    game.refresh_from_db()
    return (game.status, game.ply, game.turn, game.version,
            list(game.seats.values_list("colour", "user_id", "guest_token", "left_at")),
            list(game.moves.values_list("ply", "square")))


# -- opening ------------------------------------------------------------------------

def test_a_new_table_waits_with_one_seat_per_colour_and_the_host_seated(alice):
    table = open_table(alice, players=3, board="8x8", computer_colours=["red"], listed=True, level="easy")
    game = table.game
    assert (game.kind, game.status, game.turn, game.level, game.is_public) == ("table", "waiting", "", "easy", True)
    seats = {s.colour: s for s in game.seats.all()}
    assert list(seats) == ["black", "white", "red"]  # seat i is colour i, the turn order
    assert seats["black"].user == alice and seats["red"].is_computer
    assert seats["white"].user is None and not seats["white"].guest_token


def test_a_table_whose_other_seats_are_all_computers_starts_at_once(alice):
    table = open_table(alice, players=4, board="8x8", computer_colours=["white", "red", "green"])
    game = Game.objects.get(pk=table.game_id)
    assert (game.status, game.turn) == ("playing", "black") and game.deadline is not None


def test_codes_are_long_random_and_free_of_look_alikes(alice, settings):
    settings.WAITING_TABLES_PER_PERSON = 20  # twenty codes, all of tables waiting at once
    codes = {open_table(alice).code for _ in range(20)}
    assert len(codes) == 20
    for code in codes:
        assert len(code) == CODE_LENGTH and set(code) <= set(CODE_ALPHABET)
    assert not set("01IOL") & set(CODE_ALPHABET)
    assert CODE_LENGTH * math.log2(len(CODE_ALPHABET)) >= 40


def test_what_people_type_is_normalised_to_the_code():
    assert normalise_code(" abcde-fghjk ") == "ABCDEFGHJK"
    assert normalise_code("https://reversi.example/tables/ABCDEFGHJK/") == "ABCDEFGHJK"


def test_the_table_form_opens_a_table_and_is_prefilled_from_the_query(client, alice):
    client.force_login(alice)
    form = client.get(reverse("table_new") + "?board=octagon&players=3&anti=1&blocked=4&computer=red").context["form"]
    assert form.initial == {"board": "octagon", "players": "3", "anti": True, "blocked": "4", "computer": ["red"]}
    response = client.post(reverse("table_new"), {
        "board": "8x8", "players": 4, "blocked": 0, "handicap": 0, "handicap_colour": "white",
        "seat": "white", "computer": ["green", "red"], "level": "hard", "listed": "on"})
    table = Table.objects.get()
    assert response["Location"] == reverse("table", args=[table.code])
    assert (table.host, table.listed, table.game.level) == (alice, True, "hard")
    assert "level" not in {field.name for field in Table._meta.get_fields()}  # the game's level is the one
    assert {s.colour: (s.user_id, s.is_computer) for s in table.game.seats.all()} == {
        "black": (None, False), "white": (alice.pk, False), "red": (None, True), "green": (None, True)}


@pytest.mark.parametrize("data, message", [
    ({"board": "6x6", "players": 3}, "The 6×6 board is for 2 players only."),
    ({"board": "8x8", "players": 2, "seat": "red"}, "A table for 2 players has no Red seat."),
    ({"board": "8x8", "players": 2, "computer": ["black"]}, "Your own seat cannot go to the computer"),
])
def test_impossible_tables_are_refused_with_the_rule(client, alice, data, message):
    client.force_login(alice)
    response = client.post(reverse("table_new"), {
        "blocked": 0, "handicap": 0, "handicap_colour": "white", "seat": "black", "level": "normal", **data})
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Table.objects.exists()


def test_guests_cannot_open_tables_but_see_the_lobby(client, alice):
    table = open_table(alice)
    client.post(reverse("table_guest", args=[table.code]), {"name": "Zoe"})  # a guest with a seat
    response = client.get(reverse("table_new"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    lobby = client.get(reverse("lobby"))
    assert lobby.status_code == 200
    assert f'href="{reverse("login")}?next=%2Ftables%2Fnew%2F"' in lobby.content.decode()  # "Sign in to open a table"
    response = client.post(reverse("table_new"), {"board": "6x6", "players": 2})
    assert response.status_code == 302 and Table.objects.count() == 1


# -- joining ------------------------------------------------------------------------

def test_joining_with_the_code_takes_the_first_free_seat_and_starts_the_game(alice, bob, settings,
                                                                           django_capture_on_commit_callbacks):
    table = open_table(alice, players=2, board="6x6")
    with django_capture_on_commit_callbacks() as callbacks:
        response = signed_in(bob).post(reverse("table_join"), {"code": table.code.lower()})
    assert response["Location"] == reverse("table", args=[table.code])
    game = Game.objects.get(pk=table.game_id)
    assert game.seat_of("white").user == bob
    assert (game.status, game.turn, game.ply) == ("playing", "black", 0)
    expected = timezone.now() + timedelta(seconds=settings.MOVE_TIME_LIMIT)
    assert abs((game.deadline - expected).total_seconds()) < 5
    assert callbacks  # the first push and the first time-out are scheduled after commit


def test_a_wrong_code_gets_a_clear_error_and_changes_nothing(alice, bob):
    table = open_table(alice)
    before = snapshot(table.game)
    response = signed_in(bob).post(reverse("table_join"), {"code": "ZZZZZ-ZZZZZ"})
    assert response.status_code == 404
    page = response.content.decode()
    assert "No table has the code “ZZZZZ-ZZZZZ”. Check the code and try again." in page
    assert snapshot(table.game) == before
    assert signed_in(bob).get(reverse("table", args=["ZZZZZZZZZZ"])).status_code == 404


def test_a_seat_can_be_chosen_and_a_taken_seat_is_refused(alice, bob, carol):
    table = open_table(alice, players=3, board="8x8")
    actions.join(table, Viewer(user=bob), colour="red")
    assert table.game.seat_of("red").user == bob
    before = snapshot(table.game)
    with pytest.raises(GameError, match="Red seat is taken"):
        actions.join(table, Viewer(user=carol), colour="red")
    with pytest.raises(GameError, match="already have a seat"):
        actions.join(table, Viewer(user=bob), colour="white")
    assert snapshot(table.game) == before
    response = signed_in(carol).post(reverse("table_sit", args=[table.code]), {"seat": "red"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 400 and "Red seat is taken" in response.content.decode()
    actions.join(table, Viewer(user=carol))
    assert Game.objects.get(pk=table.game_id).status == "playing"


def test_a_visitor_with_the_link_sits_as_a_guest_under_an_escaped_name(client, alice):
    table = open_table(alice)
    page = client.get(reverse("table", args=[table.code])).content.decode()
    assert "Play as a guest" in page and "Sign in" in page and table.code in page
    response = client.post(reverse("table_guest", args=[table.code]), {"name": "  <b>Zoe</b> "})
    assert response.status_code == 302
    seat = Game.objects.get(pk=table.game_id).seat_of("white")
    assert (seat.user, seat.guest_name) == (None, "<b>Zoe</b>")
    assert seat.guest_token == client.session["guest_token"]
    page = client.get(reverse("table", args=[table.code])).content.decode()
    assert "&lt;b&gt;Zoe&lt;/b&gt;" in page and "<b>Zoe</b>" not in page
    # The guest's game stays with their session: it is theirs to move in.
    play_move(table.game, Board(Variant(board="6x6")).legal_moves[0], expected_ply=0,
              viewer=Viewer(user=alice))
    game = Game.objects.get(pk=table.game_id)
    square = game.board().legal_moves[0]
    assert client.post(reverse("table_move", args=[table.code]), {"square": square, "ply": 1}).status_code == 302
    assert Game.objects.get(pk=table.game_id).ply == 2


def test_a_guest_needs_a_name(client, alice):
    table = open_table(alice)
    before = snapshot(table.game)
    response = client.post(reverse("table_guest", args=[table.code]), {"name": "   "}, HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert snapshot(table.game) == before


def test_a_full_private_table_is_shown_only_to_its_players(client, alice, bob, carol):
    table = open_table(alice)
    actions.join(table, Viewer(user=bob))
    assert signed_in(bob).get(reverse("table", args=[table.code])).status_code == 200
    refused = signed_in(carol).get(reverse("table", args=[table.code]))
    assert refused.status_code == 403 and "Only its players can watch it" in refused.content.decode()
    public = open_table(alice, listed=True)
    actions.join(public, Viewer(user=bob))
    assert client.get(reverse("table", args=[public.code])).status_code == 200  # anyone watches


# -- moving -------------------------------------------------------------------------

@pytest.fixture
def running(alice, bob):
    """A running 6x6 table: Alice plays Black (to move), Bob White."""
    table = open_table(alice, listed=True)
    actions.join(table, Viewer(user=bob))
    table.refresh_from_db()
    return table


def test_a_player_moves_for_their_own_seat_over_http(running, alice):
    square = running.game.board().legal_moves[0]
    response = signed_in(alice).post(reverse("table_move", args=[running.code]), {"square": square, "ply": 0},
                                     HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and 'id="game-state"' in response.content.decode()
    game = Game.objects.get(pk=running.game_id)
    assert (game.ply, game.turn) == (1, "white")
    assert game.deadline is not None  # the next player's clock runs


def test_a_user_cannot_move_for_another_seat(running, bob, carol):
    square = running.game.board().legal_moves[0]
    before = snapshot(running.game)
    for client in (signed_in(bob), signed_in(carol)):  # the other player, and a watcher
        response = client.post(reverse("table_move", args=[running.code]), {"square": square, "ply": 0},
                               HTTP_HX_REQUEST="true")
        assert response.status_code == 403 and "not your turn" in response.content.decode()
    with pytest.raises(NotYourTurn):
        play_move(running.game, square, expected_ply=0, viewer=Viewer(user=bob))
    assert snapshot(running.game) == before


def test_a_stranger_moving_at_a_private_table_sees_nothing_of_it(alice, bob, carol):
    table = open_table(alice)  # private
    actions.join(table, Viewer(user=bob))
    square = table.game.board().legal_moves[0]
    before = snapshot(table.game)
    response = signed_in(carol).post(reverse("table_move", args=[table.code]), {"square": square, "ply": 0},
                                     HTTP_HX_REQUEST="true")
    page = response.content.decode()
    assert response.status_code == 403 and "Only its players can watch it" in page
    assert 'id="game-state"' not in page and 'data-square="' not in page  # not the position
    assert snapshot(table.game) == before


def test_stale_repeated_and_finished_moves_change_nothing(running, alice):
    client = signed_in(alice)
    square = running.game.board().legal_moves[0]
    plain = client.post(reverse("table_move", args=[running.code]), {"square": square, "ply": 0})
    assert plain.status_code == 302 and plain["Location"] == reverse("table", args=[running.code])  # back to the table
    before = snapshot(running.game)
    repeat = client.post(reverse("table_move", args=[running.code]), {"square": square, "ply": 0},
                         HTTP_HX_REQUEST="true")
    assert repeat.status_code == 409
    assert snapshot(running.game) == before
    Game.objects.filter(pk=running.game_id).update(status="finished", turn="")
    before = snapshot(running.game)
    with pytest.raises(GameError, match="over"):
        play_move(running.game, "a1", expected_ply=before[1], viewer=Viewer(user=alice))
    assert snapshot(running.game) == before


def test_a_move_before_the_start_changes_nothing(alice):
    table = open_table(alice)
    before = snapshot(table.game)
    with pytest.raises(GameError, match="not started"):
        play_move(table.game, "c3", expected_ply=0, viewer=Viewer(user=alice))
    assert snapshot(table.game) == before


# -- time-outs ------------------------------------------------------------------------

def test_a_time_out_is_played_by_the_computer_and_marked_so(running):
    game = Game.objects.get(pk=running.game_id)
    assert timeout_move(game.pk, 0) is None  # not overdue yet: nothing happens
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=settings.MOVE_TIME_GRACE / 2))
    assert timeout_move(game.pk, 0) is None  # within the grace: nothing happens
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=settings.MOVE_TIME_GRACE + 1))
    assert timeout_move(game.pk, 5) is None  # another ply: nothing happens
    timeout_move(game.pk, 0)
    move = Move.objects.get(game=game)
    assert (move.ply, move.colour, move.made_by) == (1, "black", "timeout")
    game.refresh_from_db()
    assert game.turn == "white" and game.deadline > timezone.now()


# -- leaving ------------------------------------------------------------------------------

def test_leaving_before_the_start_frees_the_seat_and_the_last_one_out_closes_the_table(alice, bob):
    table = open_table(alice, players=3, board="8x8")
    actions.join(table, Viewer(user=bob))
    assert actions.leave(table, Viewer(user=alice)) == "freed"
    table.refresh_from_db()
    assert table.host == bob and table.game.seat_of("black").user is None
    assert actions.leave(table, Viewer(user=bob)) == "closed"
    assert not Table.objects.exists() and not Game.objects.exists()


def test_leaving_needs_confirmation_then_forfeits_and_the_computer_plays_the_seat(running, alice, bob):
    client = signed_in(alice)
    confirm = client.get(reverse("table_leave", args=[running.code]))
    assert "you lose this game" in confirm.content.decode() and Game.objects.get(pk=running.game_id).forfeited == []
    response = client.post(reverse("table_leave", args=[running.code]))
    assert response.status_code == 302
    game = Game.objects.get(pk=running.game_id)
    seat = game.seat_of("black")
    assert seat.left_at is not None and seat.played_by_computer and game.forfeited == ["black"]
    assert game.deadline is None  # it was her turn: the computer moves now, no time-out
    with pytest.raises(NotYourTurn, match="computer plays this seat"):
        play_move(game, game.board().legal_moves[0], expected_ply=0, viewer=Viewer(user=alice))
    with pytest.raises(GameError, match="already left"):
        actions.leave(running, Viewer(user=alice))
    # Play it out: the computer for Black, Bob for White.
    for _ in range(100):
        game.refresh_from_db()
        if game.is_over:
            break
        if game.turn == "black":
            computer_move(game.pk, game.ply)
        else:
            play_move(game, game.board().legal_moves[0], expected_ply=game.ply, viewer=Viewer(user=bob))
    assert (game.status, game.ending, game.winner) == ("finished", "forfeit", "white")
    assert set(game.moves.filter(colour="black").values_list("made_by", flat=True)) == {"leaver"}
    page = signed_in(bob).get(reverse("table", args=[running.code])).content.decode()
    assert "Forfeit: Black left the table." in page


def test_in_a_three_player_game_the_leaver_ranks_last(alice, bob, carol):
    table = open_table(alice, players=3, board="8x8", level="easy")
    actions.join(table, Viewer(user=bob))
    actions.join(table, Viewer(user=carol))
    game = Game.objects.get(pk=table.game_id)
    viewers = {"black": Viewer(user=alice), "white": Viewer(user=bob), "red": Viewer(user=carol)}
    actions.leave(table, viewers["white"])
    game.refresh_from_db()
    assert game.deadline is not None and game.turn == "black"  # Black's clock runs on
    for _ in range(200):
        game.refresh_from_db()
        if game.is_over:
            break
        if game.turn == "white":
            computer_move(game.pk, game.ply)
        else:
            play_move(game, game.board().legal_moves[0], expected_ply=game.ply, viewer=viewers[game.turn])
    assert game.ending == "forfeit" and game.forfeited == ["white"]
    assert game.winner != "white"
    best_stayer = max(("black", "red"), key=lambda c: game.counts[c])
    if game.counts["black"] != game.counts["red"]:
        assert game.winner == best_stayer


def test_only_a_seated_player_can_leave(running, carol):
    before = snapshot(running.game)
    response = signed_in(carol).post(reverse("table_leave", args=[running.code]))
    assert response.status_code == 302
    assert snapshot(running.game) == before


# -- the lobby list ----------------------------------------------------------------

def test_the_lobby_lists_open_and_running_public_tables(alice, bob, carol):
    waiting = open_table(alice, players=3, board="8x8", listed=True, computer_colours=["red"])
    open_table(alice)  # private: never listed
    running = open_table(bob, listed=True)
    actions.join(running, Viewer(user=alice))
    page = signed_in(carol).get(reverse("lobby")).content.decode()
    assert page.count('data-code="') == 2
    open_part, playing_part = page.split('id="playing-tables"')
    assert waiting.code in open_part and "2 of 3" in open_part and "Alice" in open_part
    assert running.code in playing_part


def test_the_sweep_queues_the_time_out_of_a_player_whose_task_was_lost(running):
    from games.tasks import sweep_overdue, timeout_move as timeout_task

    Game.objects.filter(pk=running.game_id).update(deadline=timezone.now() - timedelta(seconds=5))
    assert sweep_overdue() == 1
    assert not Move.objects.filter(game_id=running.game_id).exists()  # queued for a worker, not made here
    assert sweep_overdue() == 0  # claimed: a second sweep (another worker's) leaves it
    timeout_task(running.game_id, 0)
    assert Move.objects.get(game_id=running.game_id).made_by == "timeout"


def lobby_messages(action):
    """What a lobby page hears (over the real channel layer) while `action` runs (in
    this thread, as the page's listening shares one event loop with it: a pub/sub
    layer's subscriptions belong to their loop)."""
    layer = get_channel_layer()

    async def listen():
        channel = await layer.new_channel()
        await layer.group_add(broadcast.LOBBY_GROUP, channel)
        await sync_to_async(action)()
        # A sentinel sent last to the same group: once it arrives, everything the action
        # sent has arrived too (a channel's messages keep their order), however slow the machine.
        await layer.group_send(broadcast.LOBBY_GROUP, {"type": "test.sentinel"})
        heard = []
        while (message := await asyncio.wait_for(layer.receive(channel), timeout=10))["type"] != "test.sentinel":
            heard.append(message)
        await layer.group_discard(broadcast.LOBBY_GROUP, channel)
        return heard

    heard = async_to_sync(listen)()
    return [message["type"] for message in heard]


def test_a_finished_table_leaves_the_lobby(running):
    game = Game.objects.get(pk=running.game_id)
    # Still playing: the lobby does not change with every move.
    assert lobby_messages(lambda: broadcast.on_state_pushed(sender=Game, game=game)) == []
    Game.objects.filter(pk=game.pk).update(status="finished", turn="")
    finished = Game.objects.get(pk=game.pk)
    assert lobby_messages(lambda: broadcast.on_state_pushed(sender=Game, game=finished)) == ["lobby.changes"]
    assert listing.lobby_tables()["playing_tables"] == []
    assert listing.row_of(running.pk) is None  # pushed as removed
