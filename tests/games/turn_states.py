"""The games the turn engine tests start from, built by hand as today's code stores
them (games.services, games.seating), and what follows from the rules alone (whose
last move, whether abortable, the deadline a turn begins with, the winner once
leavers rank last): shared by tests/games/turn_checks.py and the turn tests."""
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from functools import cache
from pathlib import Path

from games.rules import Board
from games.turn import state as s
from games.turn.clock import MOVE, Clock

T0 = datetime(2026, 1, 5, 12, 0, tzinfo=timezone.utc)
LEVELS = ("easy", "normal", "hard")


@dataclass(frozen=True)
class Outage:
    start: datetime
    end: datetime


@cache
def msgids():
    """Every msgid of the German catalogue: a refusal's message must be one of them."""
    from babel.messages.pofile import read_po

    path = Path(__file__).resolve().parents[2] / "locale/de/LC_MESSAGES/django.po"
    with path.open("rb") as po:
        catalog = read_po(po)
    return {message.id if isinstance(message.id, str) else message.id[0] for message in catalog if message.id}


# -- states to start from ------------------------------------------------------

def person(index):
    return f"user:{index}" if index % 2 else f"guest:g{index}"


def computer_game(variant, human, level="normal", clock=Clock(MOVE, move_limit=60, move_grace=2)):
    """A new game against the computer (games.creation.create_computer_game)."""
    seats = tuple(s.SeatState(colour, occupant=person(1) if colour == human else "", is_computer=colour != human)
                  for colour in variant.colours)
    return s.GameState(variant=variant, clock=clock, seats=seats, kind=s.COMPUTER, status=s.PLAYING,
                       level=level, turn=Board(variant).turn, turn_started_at=T0)


def table_game(variant, clock, occupants, rated=False, level="normal"):
    """A table's game waiting for its players (games.creation.create_waiting_game):
    `occupants` per colour: an occupant, "computer", or "" (free)."""
    seats = tuple(s.SeatState(colour, occupant="" if who == "computer" else who, is_computer=who == "computer",
                              name=who.split(":")[1] if who.startswith("guest:") else "")
                  for colour, who in zip(variant.colours, occupants))
    return s.GameState(variant=variant, clock=clock, seats=seats, kind=s.TABLE, status=s.WAITING, rated=rated,
                       level=level)


def started_at_position(state, squares, now):
    """`state` (a full table, or a computer game) playing at the position `squares`
    reach, built by hand as today's code stores it: every clock full (no time spent),
    the turn of the player to move begun at `now`."""
    board = Board(state.variant)
    moves = []
    for square in squares:
        colour, auto = board.turn, square == "pass"
        board.push(square)
        moves.append(s.PlayedMove(len(moves) + 1, colour, square, tuple(board.last_flips),
                                  s.BY_AUTO if auto else made_by_of(state.seat_of(colour))))
    full = state.clock.starting_remaining()
    new = replace(state, seats=tuple(replace(seat, remaining=full) for seat in state.seats), moves=tuple(moves),
                  status=s.PLAYING, turn=board.turn, turn_started_at=now)
    return replace(new, deadline=expected_deadline(new, now))


def made_by_of(seat):
    if seat.left_at is not None:
        return s.BY_LEAVER
    return s.BY_COMPUTER if seat.is_computer else s.BY_PLAYER


# -- what follows from the rules -------------------------------------------------

def last_own_move(moves, colour):
    return next((m for m in reversed(moves) if m.colour == colour and m.made_by != s.BY_AUTO), None)


def abortable(state):
    return any(last_own_move(state.moves, colour) is None for colour in state.variant.colours)


_REPLAYED = {}  # (variant, moves) -> Board: the moves already checked, so a step checks only its new ones


def replay_checked(variant, moves):
    """The position `moves` reach, each checked to be the legal move of the colour to
    move with the flips it makes; a copy of the board, from the longest prefix seen."""
    if len(_REPLAYED) > 5000:
        _REPLAYED.clear()
    done = next((k for k in range(len(moves), max(-1, len(moves) - 8), -1) if (variant, moves[:k]) in _REPLAYED), None)
    board = _REPLAYED[variant, moves[:done]].copy() if done is not None else Board(variant)
    for index in range(done or 0, len(moves)):
        move = moves[index]
        assert move.ply == index + 1 and move.colour == board.turn, move
        board.push(move.square)  # the moves replay legally
        assert tuple(move.flips) == tuple(board.last_flips), move
        assert move.made_by in (s.BY_PLAYER, s.BY_COMPUTER, s.BY_TIMEOUT, s.BY_LEAVER, s.BY_AUTO)
        assert (move.square == "pass") == (move.made_by == s.BY_AUTO), move  # passes are the site's
    _REPLAYED[variant, moves] = board.copy()
    return board


def _replay(state):
    return replay_checked(state.variant, tuple(state.moves))


def expected_deadline(state, now):
    """Where a turn begins at `now` (a move, the start, a takeback): the deadline of the
    player to move (games.deadlines.deadline_for) -- at a table, for a person only."""
    if state.status != s.PLAYING or state.kind != s.TABLE:
        return None
    seat = state.seat_of(state.turn)
    if seat is None or seat.played_by_computer:
        return None
    first = last_own_move(state.moves, state.turn) is None
    return state.clock.start_turn(now, seat.remaining, seat.lag, first).deadline


def winner_with_forfeits(state, outcome):
    if not state.forfeited:
        return outcome.winner or ""
    for group in outcome.ranking:
        stayed = [x for x in group if x not in state.forfeited]
        if stayed:
            return stayed[0] if len(stayed) == 1 else ""
    return ""


def gone_enough(cmd):
    return cmd.gone_for > 0 and cmd.gone_for >= cmd.needed


def person_seat(state, colour):
    seat = state.seat_of(colour) if colour else None
    return seat if seat is not None and not seat.is_computer and seat.occupant else None
