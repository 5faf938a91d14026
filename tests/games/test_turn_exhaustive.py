"""Every command of every kind, by each colour and by nobody, at every position of the
6x6 board up to ply 4, in every kind of game (against the computer, at a table on
each time control, with offers standing, finished, waiting): decide() either gives
events (and every rule of its step holds: tests/games/turn_checks.py) or refuses
with a Refused of the right kind whose message is in the German catalogue, so no
refusal goes untranslated."""
from dataclasses import replace
from datetime import timedelta

import pytest

from games.rules import Board, Variant
from games.turn import commands as c
from games.turn import state as s
from games.turn.clock import CLOCK, DAYS, MOVE, Clock
from games.turn.refusals import Refused

from .turn_checks import apply, snapshot, unchanged
from .turn_states import LEVELS, T0, Outage, computer_game, msgids, person, started_at_position, table_game

SIX = Variant(board="6x6")
PLIES = 4
MINUTE = Clock(MOVE, move_limit=60, move_grace=2)
BLITZ = Clock(CLOCK, total=180, increment=2, move_limit=60)
POST = Clock(DAYS, total=86400, move_limit=60)
PEOPLE = (person(1), person(2))


def positions(plies=PLIES):
    """Every move sequence from the start of 6x6 up to `plies` (passes included) that
    opens with c2: the other three first moves are its mirror images."""
    found, frontier = [(), ("c2",)], [("c2",)]
    for _ in range(plies - 1):
        nxt = []
        for squares in frontier:
            board = Board(SIX)
            for square in squares:
                board.push(square)
            nxt.extend((*squares, move) for move in board.legal_moves)
        found.extend(nxt)
        frontier = nxt
    return found


def games(squares):
    """The kinds of game at the position `squares` reach."""
    computer_black = started_at_position(computer_game(SIX, "black"), squares, T0)
    computer_white = started_at_position(computer_game(SIX, "white"), squares, T0)
    minute = started_at_position(table_game(SIX, MINUTE, PEOPLE), squares, T0)
    blitz = started_at_position(table_game(SIX, BLITZ, PEOPLE), squares, T0)
    post = started_at_position(table_game(SIX, POST, PEOPLE, rated=True), squares, T0)
    bot = started_at_position(table_game(SIX, BLITZ, (person(1), "computer")), squares, T0)
    found = [computer_black, computer_white, minute, blitz, post, bot]
    for colour in SIX.colours:  # offers standing
        found.append(replace(blitz, draw_offer=colour, draw_offers={colour: len(squares)},
                             takeback_request=colour if len(squares) > 1 else ""))
    gone = T0 - timedelta(seconds=5)
    found.append(replace(minute.with_seat("white", left_at=gone), forfeited=("white",),
                         deadline=None if minute.turn == "white" else minute.deadline))
    board = Board(SIX)
    for square in squares:
        board.push(square)
    decided = board.decided("white")
    found.append(replace(blitz, status=s.FINISHED, turn="", deadline=None, ending=s.RESIGNED, winner="black",
                         counts=decided.counts, score=decided.score, finished_at=T0))
    if not squares:  # waiting for a player, or full and not started
        found += [table_game(SIX, BLITZ, (person(1), "")), table_game(SIX, MINUTE, (person(1), "computer"))]
    return found


def people(state):
    return [seat.colour for seat in state.seats if seat.occupant]


def every_command(state):
    """Every command of every kind: every legal square, and one of each way a square is
    wrong (taken, not touching, bracketing nothing, not a square, a pass not allowed)."""
    colours = state.variant.colours
    board = Board(SIX)
    for move in state.moves:
        board.push(move.square)
    squares = [*board.legal_moves, "c3", "a1", "b2", "k9", "pass", "C2 "]
    commands = []
    for by in (*people(state), None):  # games.writer resolves a person to their seat: never the computer's
        commands += [c.Play(by=by, square=square) for square in squares]
        commands += [kind(by=by) for kind in (c.Undo, c.Resign, c.OfferDraw, c.AcceptDraw, c.DeclineDraw, c.Abort,
                                              c.RequestTakeback, c.AcceptTakeback, c.DeclineTakeback, c.Leave,
                                              c.Abandon, c.ShowBoard)]
        commands += [c.ClaimWin(by=by, gone_for=gone, needed=30.0) for gone in (0.0, 12.0, 31.0)]
        commands += [c.ComputerForGone(by=by, gone_for=gone, needed=30.0) for gone in (0.0, 31.0)]
        commands += [c.SetLevel(by=by, level=level) for level in (*LEVELS, "impossible")]
        commands += [c.Share(by=by, public=True), c.RecordLag(by=by, seconds=0.4)]
    for occupant in (*PEOPLE, "user:9"):
        commands += [c.TakeSeat(occupant=occupant, name="Ann", colour=colour) for colour in ("", *colours)]
        commands.append(c.GiveSeatBack(occupant=occupant))
    for square in squares:
        commands += [c.ComputerMove(square=square), c.TimeOut(square=square)]
    outage = Outage(T0 + timedelta(seconds=5), T0 + timedelta(seconds=20))
    commands += [c.Start(), c.Flag(), c.GiveBackDowntime(outages=(outage,)), c.GiveBackDowntime(outages=()),
                 c.MarkMailed(ply=state.ply), c.MarkMailed(ply=state.ply + 1)]
    return commands


def instants(state):
    """A moment in the mover's time, and one when they are due (if they ever are)."""
    found = [T0 + timedelta(seconds=7)]
    if state.deadline is not None:
        found.append(state.clock.due_at(state.deadline) + timedelta(seconds=1))
    return found


@pytest.mark.parametrize("plies", range(PLIES + 1))
def test_every_command_at_every_position_is_decided_or_refused_in_words_we_translate(plies):
    catalogue = msgids()
    tried = decided = 0
    for squares in positions(plies):
        if len(squares) != plies:
            continue
        for state in games(squares):
            before = snapshot(state)
            for now in instants(state):
                for command in every_command(state):
                    new, result = apply(state, command, now, untouched=False)
                    tried += 1
                    if new is not None:
                        decided += 1
                    else:
                        assert isinstance(result, Refused) and result.message in catalogue
            unchanged(state, before)  # no command changed it
    assert decided and tried > decided
