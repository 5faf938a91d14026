"""The move service: every move applied exactly once, every bad request refused
with a clear message and nothing changed."""
import pytest

from games import Board, Variant
from games.access import Viewer
from games.models import Game, Move
from games.creation import build_variant, create_computer_game
from games.errors import GameError, NotYourTurn, StaleMove
from games.services import play_move, undo
from games.record import GameRecord
from tests.play.helpers import FirstChoice

pytestmark = pytest.mark.django_db

visitor = Viewer(guest_token="visitor-token")
stranger = Viewer(guest_token="someone-else")


def new_game(variant=None, level="easy"):
    """A game in which the visitor plays Black (so it is their move first)."""
    return create_computer_game(visitor, variant or Variant(), level, rng=FirstChoice())


def snapshot(game):
    game.refresh_from_db()
    return game.ply, game.turn, game.version, list(game.moves.values_list("ply", "square"))


def test_a_legal_move_is_recorded_with_its_flips_and_the_turn_passes():
    game = new_game()
    game = play_move(game, "d3", expected_ply=0, viewer=visitor)
    assert (game.ply, game.turn) == (1, "white")
    move = game.moves.get()
    assert (move.ply, move.colour, move.square, move.flips, move.made_by) == (1, "black", "d3", ["d4"], "player")
    assert game.board().stones()["d4"] == "black"


@pytest.mark.parametrize("square", ["a1", "d4", "z9", "", "pass", "d3; DROP TABLE"])
def test_an_illegal_square_is_refused_and_changes_nothing(square):
    game = new_game()
    before = snapshot(game)
    with pytest.raises(GameError) as refused:
        play_move(game, square, expected_ply=0, viewer=visitor)
    assert "not a legal move" in str(refused.value)
    assert snapshot(game) == before


def test_a_move_out_of_turn_is_refused():
    game = play_move(new_game(), "d3", expected_ply=0, viewer=visitor)  # now White (computer) to move
    before = snapshot(game)
    with pytest.raises(NotYourTurn, match="not your turn"):
        play_move(game, "c3", expected_ply=1, viewer=visitor)
    assert snapshot(game) == before


def test_a_stale_or_repeated_submit_applies_once():
    game = new_game()
    play_move(game, "d3", expected_ply=0, viewer=visitor)
    before = snapshot(game)
    with pytest.raises(StaleMove, match="moved on"):
        play_move(game, "d3", expected_ply=0, viewer=visitor)  # the double click
    with pytest.raises(StaleMove):
        play_move(game, "c4", expected_ply=0, viewer=visitor)  # another tab, older position
    assert snapshot(game) == before
    assert Move.objects.filter(game=game).count() == 1


def test_another_session_cannot_move_in_my_game():
    game = new_game()
    before = snapshot(game)
    with pytest.raises(NotYourTurn):
        play_move(game, "d3", expected_ply=0, viewer=stranger)
    assert snapshot(game) == before


def test_a_game_played_to_the_end_stores_the_result_and_takes_no_more_moves():
    board = Board(Variant(board="6x6"))  # the same game, played alongside in the rules library
    game = new_game(Variant(board="6x6"))
    for _ in range(200):
        if board.is_game_over():
            break
        colour = board.turn
        square = board.legal_moves[0]
        board.push(square)
        if square == "pass":
            continue
        game.refresh_from_db()
        seat = game.seat_of(colour)
        play_move(game, square, expected_ply=game.ply, viewer=visitor if not seat.is_computer else None)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.turn == ""
    assert game.score == board.outcome().score and game.counts == board.outcome().counts
    assert game.winner == (board.outcome().winner or "")
    with pytest.raises(GameError, match="over"):
        play_move(game, "a1", expected_ply=game.ply, viewer=visitor)


def test_passes_are_recorded_automatically():
    variant = Variant(board="6x6")
    board = Board(variant)
    line = find_line_with_pass(board)
    game = new_game(variant)
    for square in line:
        game.refresh_from_db()
        seat = game.seat_of(game.turn)
        play_move(game, square, expected_ply=game.ply, viewer=None if seat.is_computer else visitor)
    game.refresh_from_db()
    passes = game.moves.filter(square="pass")
    assert passes.exists()
    assert all(move.made_by == Move.MadeBy.AUTO for move in passes)
    assert game.board().transcript() == "".join(line)


def find_line_with_pass(board, depth=0, line=()):
    """The first line of moves (depth-first, board order) that forces a pass."""
    if depth > 14 or board.is_game_over():
        return None
    for move in board.legal_moves:
        board.push(move)
        found = None
        if board.legal_moves == ["pass"]:
            found = list(line) + [move]
        else:
            found = find_line_with_pass(board, depth + 1, line + (move,))
        board.pop()
        if found:
            return found
    return None


def test_undo_takes_back_my_move_and_the_answer_after_it():
    game = new_game()
    game = play_move(game, "d3", expected_ply=0, viewer=visitor)
    game = play_move(game, "c3", expected_ply=1)  # the computer's answer
    game = play_move(game, "c4", expected_ply=2, viewer=visitor)
    game = play_move(game, "c5", expected_ply=3)
    game = undo(game, visitor, expected_ply=4)
    assert (game.ply, game.turn) == (2, "black")
    assert list(game.moves.values_list("square", flat=True)) == ["d3", "c3"]
    game = undo(game, visitor, expected_ply=2)
    assert (game.ply, game.turn) == (0, "black") and not game.moves.exists()
    with pytest.raises(GameError, match="no move of yours"):
        undo(game, visitor, expected_ply=0)


def test_the_moves_kept_after_a_move_are_never_used_after_an_undo(django_capture_on_commit_callbacks):
    """A move's record is kept under the game's version for the next move (GameRecord.keep,
    after commit); Undo changes the version, so moves made after it start from the
    database, and every record matches the stored moves."""
    game = new_game()
    steps = [lambda: play_move(game, "d3", expected_ply=0, viewer=visitor),
             lambda: play_move(game, "c3", expected_ply=1),  # the computer's answer, from the kept record
             lambda: undo(game, visitor, expected_ply=2),
             lambda: play_move(game, "f5", expected_ply=0, viewer=visitor),
             lambda: play_move(game, "f6", expected_ply=1)]
    for step in steps:
        with django_capture_on_commit_callbacks(execute=True):  # the push runs, and keeps its record
            step()
        stored = list(game.moves.order_by("ply").values_list("square", flat=True))
        record = GameRecord(Game.objects.get(pk=game.pk))
        assert [move.square for move in record.moves] == stored
        assert record.board == Game.objects.get(pk=game.pk).board()
    assert stored == ["f5", "f6"]


def test_undo_waits_for_the_computer_and_is_refused_to_others():
    game = play_move(new_game(), "d3", expected_ply=0, viewer=visitor)  # White (computer) thinks
    with pytest.raises(GameError, match="Wait for the computer"):
        undo(game, visitor, expected_ply=1)
    with pytest.raises(NotYourTurn):
        undo(game, stranger, expected_ply=1)
    with pytest.raises(StaleMove):
        undo(game, visitor, expected_ply=0)
    assert snapshot(game)[0] == 1


@pytest.mark.parametrize("options, rule", [
    ({"board": "6x6", "players": 3}, "docs/rules.md §9"),
    ({"board": "8x8", "players": 4, "free_opening": True}, "docs/rules.md §9"),
    ({"board": "octagon", "handicap": 2}, "docs/rules.md §9"),
    ({"board": "8x8", "players": 3, "handicap": 1}, "docs/rules.md §9"),
    ({"board": "8x8", "blocked": 3}, "docs/rules.md §6"),
])
def test_an_impossible_variant_is_refused_with_the_rule(options, rule):
    from games import InvalidVariantError

    with pytest.raises(InvalidVariantError, match=rule):
        build_variant(**options)


def test_blocked_squares_are_drawn_when_the_game_is_created_and_kept():
    variant = build_variant(board="10x10", blocked=6, handicap=2, handicap_colour="black")
    assert len(variant.blocked) == 6
    assert not {"a1", "j10", "j1", "a10"} & set(variant.blocked)  # never on corners with a handicap
    game = new_game(variant)
    assert Game.objects.get(pk=game.pk).variant_obj == variant
