"""Stored games for the review tests, written straight to the database from a
transcript (the rules library replays it), so every test knows its game exactly."""
import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games import Board, Variant
from games.models import Game, Move, Seat

# A 9-move wipeout on 8x8: White's 8th move, e3, lets Black take every stone with f4.
# The computer's analysis finds the blunder: c7 (or c5) keeps the game going.
WIPEOUT = "d3c3b3d2e1d6d7e3f4"
WIPEOUT_BLUNDER_PLY = 8

# A whole 8x8 game (60 moves, no pass, the board full; Black wins 39-25), and a 6x6
# game in which White has to pass at ply 32 (the transcript leaves the pass out).
FULL_GAME = ("d3c5b6e3f3b5f5e2a5g3f4c6c7e6d6b8d8a7f7c3g2e7h2h3a6a4b2d7c8e8b4a1c2d2f8h1"
             "a8g5g4h4a3b7d1e1f1b3a2c4f6g7b1c1h8g1f2h7g8g6h6h5")
PASS_GAME_6X6 = "c2b4b5d2a4b1e1b2c1d1a1a6d5e4b3e2c5c6b6a2d6e6a3e3f1a5f4f2f3f5f6e5"
PASS_PLY_6X6 = 32


def store_game(transcript, variant=None, *, players=(), public=False, kind=Game.Kind.COMPUTER,
               made_by=None, finished=True):
    """A stored game replaying `transcript`; `players` are users or guest tokens for the
    first colours (the rest are computer seats); `made_by` maps plies to Move.MadeBy."""
    variant = variant or Variant()
    board = Board.from_transcript(variant, transcript)
    if not finished:
        board = Board.from_transcript(variant, list(board.history)[:-1])
    game = Game.objects.create(kind=kind, variant=variant.to_dict(), status=Game.Status.PLAYING,
                               turn=board.turn, ply=board.ply, is_public=public)
    for index, colour in enumerate(variant.colours):
        who = players[index] if index < len(players) else None
        Seat.objects.create(
            game=game, colour=colour, is_computer=who is None,
            user=who if who is not None and not isinstance(who, str) else None,
            guest_token=who if isinstance(who, str) else "")
    replay = Board(variant)
    rows = []
    for ply, square in enumerate(board.history, 1):
        colour = replay.turn
        replay.push(square)
        default = Move.MadeBy.AUTO if square == "pass" else Move.MadeBy.PLAYER
        rows.append(Move(game=game, ply=ply, colour=colour, square=square, flips=replay.last_flips,
                         made_by=(made_by or {}).get(ply, default)))
    Move.objects.bulk_create(rows)
    outcome = board.outcome()
    if outcome is not None:
        Game.objects.filter(pk=game.pk).update(
            status=Game.Status.FINISHED, turn="", ending=Game.Ending.NORMAL, winner=outcome.winner or "",
            counts=outcome.counts, score=outcome.score, finished_at=timezone.now())
    game.refresh_from_db()
    return game


@pytest.fixture
def make_user(db):
    def make(name, password="a-long-pass-phrase"):
        return get_user_model().objects.create_user(username=name, password=password)
    return make
