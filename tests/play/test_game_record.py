"""The records of games kept in each process (games.record, games.drawing): a move
reads no moves when the previous one was made here, and what is kept is never served
for a game whose moves changed."""
import pytest

from games.drawing import render_state
from games.models import Game, GameEvent, Move
from games.record import GameRecord
from games.services import computer_move, play_move
from infra.lru import LRU
from tests.play.test_moves import new_game, visitor

pytestmark = pytest.mark.django_db


def test_the_least_recently_used_entry_goes_first():
    kept = LRU(2)
    kept.put("busy", 1)
    kept.put("quiet", 2)
    assert kept.get("busy") == 1  # used again: now the quiet one is the oldest
    kept.put("new", 3)
    assert "busy" in kept and "quiet" not in kept and kept.get("new") == 3 and len(kept) == 2


def test_a_move_written_past_the_service_is_read_not_served_from_what_was_kept(
        django_capture_on_commit_callbacks):
    game = new_game()
    with django_capture_on_commit_callbacks(execute=True):  # the push keeps the record and the drawing
        game = play_move(game, "d3", expected_ply=0, viewer=visitor)
    # White's answer written straight to the tables, the version left as it was.
    Move.objects.create(game=game, ply=2, colour="white", square="c3", flips=["d4"])
    Game.objects.filter(pk=game.pk).update(ply=2, turn="black")
    stored = Game.objects.prefetch_related("seats").get(pk=game.pk)
    assert stored.version == game.version
    record = GameRecord(stored)
    assert [m.square for m in record.moves] == ["d3", "c3"] and record.board == stored.board()
    html = render_state(stored, language="en")
    assert 'class="cell last" data-square="c3"' in html


def test_the_next_move_reads_no_moves_when_the_last_one_was_made_here(django_capture_on_commit_callbacks,
                                                                     django_assert_num_queries):
    game = new_game()
    with django_capture_on_commit_callbacks(execute=True):
        game = play_move(game, "d3", expected_ply=0, viewer=visitor)
    # The computer's answer (the worker's call): a savepoint around locking the game,
    # reading its seats, updating it, inserting the move and inserting its events.
    with django_assert_num_queries(7) as queries:
        play_move(game, "c3", expected_ply=1)
    moves_read = [q["sql"] for q in queries if q["sql"].startswith("SELECT") and '"games_move"' in q["sql"]]
    assert moves_read == []
    assert Game.objects.get(pk=game.pk).ply == 2


def test_a_game_read_just_before_a_move_keeps_that_version_and_the_move_s_push_follows_on(
        django_capture_on_commit_callbacks):
    """A daphne draws a push by reading the game row, then its moves: a move committed
    in between must not be kept as that version's, or the next push would play it again."""
    game = new_game()
    with django_capture_on_commit_callbacks(execute=True):
        game = play_move(game, "d3", expected_ply=0, viewer=visitor)
    read_before = Game.objects.prefetch_related("seats").get(pk=game.pk)  # this daphne's read of the game row
    GameRecord._kept.put(game.public_id, (None, None, None, None))  # nothing kept here yet
    with django_capture_on_commit_callbacks(execute=False):  # the computer's answer, elsewhere
        answered = computer_move(game.pk, game.ply)
    GameRecord._kept.put(game.public_id, (None, None, None, None))
    record = GameRecord(read_before)  # ... and then its moves, one more than its ply
    assert len(record.moves) == read_before.ply and record.board == read_before.board(upto=read_before.ply)
    record.keep()
    pushed = list(GameEvent.objects.filter(game=game, version__gt=read_before.version).order_by("version"))
    GameRecord.follow(game.pk, game.public_id, [{"v": e.version, "type": e.type, **e.data} for e in pushed])
    followed = GameRecord(Game.objects.prefetch_related("seats").get(pk=game.pk))
    assert [m.square for m in followed.moves] == [m.square for m in answered.moves.order_by("ply")]
    assert followed.board == answered.board()
