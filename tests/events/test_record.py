"""A game's events as data (games.events): numbered by the version, stored with the
change, read back after a version, or refused when they cannot all be given."""
import pytest
from django.db import IntegrityError, OperationalError, connection, transaction

from games import events
from games.models import Game, GameEvent
from tests.play.test_moves import new_game

pytestmark = pytest.mark.django_db


def move(ply, square):
    return {"type": "move", "ply": ply, "colour": "black", "square": square, "flips": ["d4"], "made_by": "player"}


def test_events_are_numbered_from_the_old_version_one_each():
    game = new_game()
    old = game.version
    given = [move(1, "d3"), {"type": "turn", "colour": "white", "started": 1.5, "deadline": None, "clocks": {}}]
    numbered = events.record(game, given)
    assert [event["v"] for event in numbered] == [old + 1, old + 2] and game.version == old + 2
    assert numbered[0] == {"v": old + 1, **given[0]} and "v" not in given[0]
    rows = list(GameEvent.objects.filter(game=game))
    assert [(row.version, row.type) for row in rows] == [(old + 1, "move"), (old + 2, "turn")]
    assert rows[0].data == {"ply": 1, "colour": "black", "square": "d3", "flips": ["d4"], "made_by": "player"}


def test_no_events_change_nothing():
    game = new_game()
    old = game.version
    assert events.record(game, []) == [] and game.version == old and not GameEvent.objects.filter(game=game).exists()


def test_a_version_is_numbered_once():
    game = new_game()
    old = game.version
    events.record(game, [move(1, "d3")])
    game.version = old  # a writer that did not hold the lock
    with pytest.raises(IntegrityError), transaction.atomic():
        events.record(game, [move(1, "c4")])


def test_the_events_after_a_version_come_in_order():
    game = new_game()
    old = game.version
    numbered = events.record(game, [move(ply, square) for ply, square in enumerate(["d3", "c3", "c4", "e3"], 1)])
    Game.objects.filter(pk=game.pk).update(version=game.version)
    game.refresh_from_db()
    assert events.since(game, old) == numbered
    assert events.since(game, old + 2) == numbered[2:]
    assert events.since(game, game.version) == []


def test_what_cannot_be_given_is_none():
    game = new_game()
    old = game.version
    events.record(game, [move(ply, "d3") for ply in range(1, 11)])
    Game.objects.filter(pk=game.pk).update(version=game.version)
    game.refresh_from_db()
    assert events.since(game, old, limit=9) is None  # too many: the whole state is smaller
    assert events.since(game, old, limit=10) is not None
    assert events.since(game, game.version + 1) is None  # a version the game never had
    assert events.since(game, -1) is None
    GameEvent.objects.filter(game=game, version=old + 5).delete()  # pruned
    assert events.since(game, old) is None and events.since(game, old + 5) is not None


def test_a_bare_state_is_never_given_as_an_event():
    game = new_game()
    old = game.version
    events.record(game, [move(1, "d3")])
    Game.objects.filter(pk=game.pk).update(version=game.version + 1)
    game.refresh_from_db()
    assert events.record_state(game) == [{"v": old + 2, "type": "state"}]
    assert events.record_state(game) == [{"v": old + 2, "type": "state"}]  # stored once
    assert GameEvent.objects.filter(game=game, type="state").count() == 1
    assert events.since(game, old) is None and events.since(game, old + 2) == []


def test_the_push_is_data():
    game = new_game()
    numbered = events.record(game, [move(1, "d3")])
    assert events.message(game, numbered) == {
        "type": "game.events", "group": game.group_name, "game": game.public_id, "version": game.version,
        "events": numbered, "public": game.is_public}


def test_a_state_event_the_database_is_too_busy_to_store_is_still_pushed():
    game = new_game()
    events.record(game, [move(1, "d3")])
    old = game.version
    Game.objects.filter(pk=game.pk).update(version=old + 1)
    game.refresh_from_db()

    def busy(execute, sql, params, many, context):
        if "games_gameevent" in sql and sql.lstrip().upper().startswith("INSERT"):
            raise OperationalError("database is locked")
        return execute(sql, params, many, context)

    with connection.execute_wrapper(busy):
        assert events.record_state(game) == [{"v": old + 1, "type": "state"}]
    assert not GameEvent.objects.filter(game=game, version=old + 1).exists()
    assert Game.objects.filter(pk=game.pk).exists()  # the caller's transaction goes on
    assert events.since(game, old) is None  # the gap: whoever resumes from before reads the whole state
    assert events.since(game, old - 1) is None
