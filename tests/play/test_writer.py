"""games.writer.apply: one locked writer. The expected ply or version is checked under
the lock, the version moves by one an event, the events are kept with the change, and a
game that finishes with a ranking is announced once (an aborted one is not)."""
import pytest

from games import Variant, signals, writer
from games.access import Viewer
from games.creation import create_computer_game, create_table_game
from games.errors import GameError, NotYourTurn, StaleMove
from games.models import Game
from games.turn import commands
from tests.play.helpers import FirstChoice

pytestmark = pytest.mark.django_db

visitor = Viewer(guest_token="visitor-token")


@pytest.fixture
def finished():
    heard = []

    def receiver(sender, game, ranking, **kwargs):
        heard.append((game.pk, ranking))

    signals.game_finished.connect(receiver, dispatch_uid="test_writer")
    yield heard
    signals.game_finished.disconnect(dispatch_uid="test_writer")


def test_a_move_bumps_the_version_by_its_events_and_keeps_them():
    game = create_computer_game(visitor, Variant(), "easy", rng=FirstChoice())
    game = writer.apply(game, commands.Play(square="d3"), expected_ply=0, expected_version=0, viewer=visitor)
    kept = list(game.events.order_by("version").values_list("version", "type"))
    assert kept == [(1, "move"), (2, "turn")] and game.version == 2 == Game.objects.get(pk=game.pk).version


def test_a_stale_version_or_ply_is_refused_and_changes_nothing():
    game = create_computer_game(visitor, Variant(), "easy", rng=FirstChoice())
    with pytest.raises(StaleMove):
        writer.apply(game, commands.Play(square="d3"), expected_version=3, viewer=visitor)
    with pytest.raises(StaleMove):
        writer.apply(game, commands.Play(square="d3"), expected_ply=1, viewer=visitor)
    stored = Game.objects.get(pk=game.pk)
    assert (stored.ply, stored.version, stored.events.count()) == (0, 0, 0)


def test_the_viewer_is_resolved_to_their_seat_under_the_lock():
    game = create_computer_game(visitor, Variant(), "easy", rng=FirstChoice())
    with pytest.raises(NotYourTurn, match="not your turn"):
        writer.apply(game, commands.Play(square="d3"), viewer=Viewer(guest_token="someone-else"))


def test_a_refusal_is_translated_with_its_params():
    game = create_computer_game(visitor, Variant(), "easy", rng=FirstChoice())
    with pytest.raises(GameError, match="^a1 is not a legal move.$"):
        writer.apply(game, commands.Play(square="a1"), viewer=visitor)


def test_a_finish_with_a_ranking_is_announced_once_and_an_abort_never(alice, bob, finished):
    def table():
        game = create_table_game(Variant(), level="easy", is_public=False, host=alice, host_colour="black",
                                 computer_colours=())
        return writer.apply(game, commands.TakeSeat(occupant=f"user:{bob.pk}"))

    aborted = writer.apply(table(), commands.Abort(), viewer=Viewer(user=alice))
    assert aborted.ending == "aborted" and finished == []
    game = table()
    game = writer.apply(game, commands.Play(square="d3"), viewer=Viewer(user=alice))
    game = writer.apply(game, commands.Resign(), viewer=Viewer(user=bob))
    assert game.ending == "resigned" and finished == [(game.pk, (("black",), ("white",)))]
    with pytest.raises(GameError):
        writer.apply(game, commands.Resign(), viewer=Viewer(user=bob))
    assert len(finished) == 1
