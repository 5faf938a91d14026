"""What every result of games.turn.engine.decide must satisfy, written from the rules
(docs/rules.md §4, §4.1, §8, §11) and today's Django behaviour (games.services,
games.endings, games.seating, games.deadlines), not from the engine: the checks of a
state, of one command's step, and of the events a page folds. Shared by
test_turn_properties.py and test_turn_exhaustive.py."""
import copy
import json
from dataclasses import replace
from datetime import timedelta

from games.rules import Board
from games.turn import commands as c
from games.turn import state as s
from games.turn.clock import CLOCK, DAYS, MAX_LAG_CREDIT, MOVE
from games.turn.engine import decide
from games.turn.refusals import BUSY, LATE, NOT_YOURS, REFUSED, STALE, Refused

from .turn_states import (
    LEVELS, T0, _replay, abortable, expected_deadline, gone_enough, last_own_move, msgids, person_seat,
    replay_checked, winner_with_forfeits,
)

DRAW_OFFER_EVERY = 10  # games.endings: one offer every this many plies
EPS = timedelta(microseconds=2)
MOVE_COMMANDS = (c.Play, c.ComputerMove, c.TimeOut)


# -- the checks ------------------------------------------------------------------

def check_state(state):
    """What holds of every state the engine gives."""
    v = state.variant
    assert state.ply == len(state.moves)
    board = replay_checked(v, tuple(state.moves))
    assert [seat.colour for seat in state.seats] == list(v.colours)
    assert len(set(state.forfeited)) == len(state.forfeited) and set(state.forfeited) <= set(v.colours)
    assert {seat.colour for seat in state.seats if seat.left_at is not None} == set(state.forfeited)
    assert set(state.flagged) <= set(v.colours)
    if v.players != 2:  # §11: offers only in two-player games
        assert not state.draw_offer and not state.takeback_request
    assert state.draw_offer in ("", *v.colours) and state.takeback_request in ("", *v.colours)
    for seat in state.seats:
        if state.clock.control == CLOCK and state.status != s.WAITING:
            assert seat.remaining is not None and seat.remaining >= 0, seat
        elif state.clock.control != CLOCK:
            assert seat.remaining is None, seat
    if state.status == s.WAITING:
        assert not state.moves and state.turn == "" and state.deadline is None and state.ending == ""
    elif state.status == s.PLAYING:
        assert state.turn == board.turn and state.ending == "" and state.winner == ""
        assert board.outcome() is None and not board.must_pass()
        assert not any(seat.is_free for seat in state.seats)
        assert (state.deadline is not None) == (expected_deadline(state, T0) is not None), \
            "a deadline exactly when a person is to move at a table"
        if state.deadline is not None:
            assert state.turn_started_at is not None
            seat = state.seat_of(state.turn)
            first = last_own_move(state.moves, state.turn) is None
            most = state.clock.allowance(seat.remaining, first)
            credit = MAX_LAG_CREDIT if state.clock.control == CLOCK else 0
            assert state.deadline - state.turn_started_at <= timedelta(seconds=most + credit) + EPS, \
                "never more time than the allowance and a lag credit of at most 1 s"
    else:
        assert state.status == s.FINISHED
        check_finished(state, board)


def check_finished(state, board):
    assert state.turn == "" and state.deadline is None and state.ending
    outcome = board.outcome()
    if state.ending in (s.NORMAL, s.FORFEIT):
        assert outcome is not None, "ended by the board only when it is over"
        assert state.counts == outcome.counts and state.score == outcome.score
        assert state.winner == winner_with_forfeits(state, outcome)
        assert (state.ending == s.FORFEIT) == bool(state.forfeited)
    elif state.ending in (s.RESIGNED, s.TIME, s.CLAIMED):
        assert state.variant.players == 2 and state.winner in state.variant.colours
        loser = next(x for x in state.variant.colours if x != state.winner)
        decided = board.decided(loser)
        assert state.counts == decided.counts and state.score == decided.score
    elif state.ending == s.AGREED:
        decided = board.decided(None)
        assert state.winner == "" and state.counts == decided.counts and state.score == decided.score
    elif state.ending in (s.ABORTED, s.ABANDONED):
        assert state.winner == "" and state.counts == board.counts()
        assert state.ending == s.ABORTED or state.kind == s.COMPUTER
    else:
        raise AssertionError(f"unknown ending {state.ending!r}")


def snapshot(state):
    """All a state holds: its fields are frozen values but for three dicts, and its cached board."""
    dicts = {name: dict(getattr(state, name)) for name in ("draw_offers", "counts", "score")}
    return copy.copy(state), dicts, ("board" in state.__dict__ and state.board.position_key())


def unchanged(state, before):
    """decide() changed nothing of its input, its cached board included."""
    copied, dicts, key = before
    assert state == copied and state.moves == copied.moves and state.seats == copied.seats
    for name, value in dicts.items():
        assert getattr(state, name) == value
    if key is not False:
        assert state.board.position_key() == key == _replay(state).position_key()


def apply(state, cmd, now, untouched=True):
    """decide() with every check of its step: the new state and events, or the Refused.
    `untouched`: check here that the input is unchanged (else the caller does, once)."""
    before = snapshot(state) if untouched else None
    try:
        new, events = decide(state, cmd, now)
    except Refused as refused:
        if untouched:
            unchanged(state, before)
        check_refusal(state, cmd, now, refused)
        return None, refused
    if untouched:
        unchanged(state, before)
    try:
        check_step(state, cmd, now, new, events)
    except AssertionError as failed:
        raise AssertionError(f"{cmd!r} at +{(now - T0).total_seconds()} s: {failed} -> {events}") from failed
    return new, events


def check_refusal(state, cmd, now, refused):
    assert refused.kind in (REFUSED, STALE, NOT_YOURS, LATE, BUSY)
    assert refused.message in msgids(), f"untranslated refusal {refused.message!r}"
    str(refused)  # the params fill the message
    clock = state.clock
    if isinstance(cmd, (c.Flag, c.TimeOut)) and state.status == s.PLAYING and not clock.is_due(state.deadline, now):
        assert refused.kind == STALE, "a flag or time-out before it is due is stale"
    playing = state.status == s.PLAYING
    if isinstance(cmd, c.Play) and playing:
        mover = person_seat(state, state.turn)
        if cmd.by is None or cmd.by != state.turn:
            assert refused.kind == NOT_YOURS, (cmd, refused.message)
        elif mover is not None and not mover.played_by_computer and clock.is_due(state.deadline, now):
            assert refused.kind == LATE, (cmd, refused.message)
        elif mover is not None and not mover.played_by_computer and Board.is_legal(state.board, cmd.square):
            raise AssertionError(f"a legal move of the player to move refused: {refused.message}")
    if isinstance(cmd, c.ComputerMove) and playing and state.seat_of(state.turn).played_by_computer:
        assert not Board.is_legal(state.board, cmd.square), f"the computer's legal move refused: {refused.message}"
    if isinstance(cmd, c.TimeOut) and playing and clock.control == MOVE and clock.is_due(state.deadline, now):
        assert not Board.is_legal(state.board, cmd.square), f"a due time-out refused: {refused.message}"
    if (isinstance(cmd, (c.Resign, c.OfferDraw, c.AcceptDraw, c.DeclineDraw, c.Abort, c.RequestTakeback,
                         c.AcceptTakeback, c.DeclineTakeback, c.Leave)) and playing and cmd.by is None):
        assert refused.kind == NOT_YOURS, (cmd, refused.message)


def check_step(old, cmd, now, new, events):
    """One command applied: what the rules say of its result."""
    assert isinstance(new, s.GameState) and isinstance(events, list)
    if not events:  # engine docstring: only these note nothing a page shows
        assert isinstance(cmd, (c.ShowBoard, c.RecordLag, c.Abandon)), f"{type(cmd).__name__} gave no event"
        if isinstance(cmd, c.Abandon):
            assert new == old
        else:
            assert replace(new, seats=old.seats) == old and [replace(x, lag=0, board_shown_at=None) for x in new.seats] \
                == [replace(x, lag=0, board_shown_at=None) for x in old.seats], "a change shown without an event"
    assert all(isinstance(event, dict) and isinstance(event.get("type"), str) for event in events), events
    json.dumps(events)
    check_state(new)
    assert (new.variant, new.clock, new.kind) == (old.variant, old.clock, old.kind)
    assert [seat.colour for seat in new.seats] == [seat.colour for seat in old.seats]
    move_events = [event for event in events if event["type"] in ("move", "pass")]
    colour = old.turn
    clock = old.clock
    if isinstance(cmd, c.TimeOut) and old.clock.control != MOVE:  # a Flag by another name
        assert new.moves == old.moves and not move_events
    elif isinstance(cmd, MOVE_COMMANDS):
        check_move(old, cmd, now, new, move_events)
    elif isinstance(cmd, c.Undo):
        check_undo(old, cmd, new)
    elif isinstance(cmd, c.AcceptTakeback):
        check_takeback(old, cmd, now, new)
    else:
        assert new.moves == old.moves, f"{type(cmd).__name__} changed the moves"
        assert not move_events
    for before, after in zip(old.seats, new.seats):  # only the seat to move's clock changes
        if before.colour != colour and not isinstance(cmd, (c.Start, c.TakeSeat)):
            assert after.remaining == before.remaining, (type(cmd).__name__, before, after)
    if old.status == s.PLAYING and new.status == s.FINISHED:
        assert new.finished_at == now
        seat = old.seat_of(colour)
        if clock.control == CLOCK and not seat.played_by_computer and not isinstance(cmd, (c.Play, c.ComputerMove)):
            stopped = clock.stop(seat.remaining, seat.lag, old.turn_started_at, now)
            flagged = isinstance(cmd, (c.Flag, c.TimeOut)) and new.ending == s.TIME
            assert new.seat_of(colour).remaining == (0.0 if flagged else stopped), "the clock stops as it stands"
    check_events(old, cmd, new, events)
    check_command(old, cmd, now, new)


def check_events(old, cmd, new, events):
    """The events tell what changed (games.turn.engine's list): the turn, the end."""
    turns = [event for event in events if event["type"] in ("turn", "downtime")]
    ends = [event for event in events if event["type"] == "end"]
    if new.status == s.PLAYING and (new.turn, new.turn_started_at, new.deadline) != \
            (old.turn, old.turn_started_at, old.deadline):
        assert turns, "a new turn is told"
    if turns:
        last = turns[-1]
        assert new.status == s.PLAYING and last["colour"] == new.turn
        assert last["deadline"] == epoch(new.deadline)
        assert last["started"] == epoch(new.turn_started_at)
        assert last["clocks"] == {seat.colour: seat.remaining for seat in new.seats if seat.remaining is not None}
    assert (len(ends) == 1) == (new.status == s.FINISHED and old.status != s.FINISHED) and len(ends) <= 1
    for end in ends:
        assert (end["ending"], end["winner"], end["counts"], end["score"]) == \
               (new.ending, new.winner, new.counts, new.score)


def epoch(moment):
    return None if moment is None else round(moment.timestamp(), 3)


def fold(view, events):
    """What a page that saw only the events knows: the moves, who is to move, the
    offers, the leavers, the end."""
    for event in events:
        kind = event["type"]
        if kind in ("move", "pass"):
            assert event["ply"] == len(view["moves"]) + 1
            view["moves"].append(event["square"])
        elif kind in ("takeback", "undo"):
            del view["moves"][event["ply"]:]
            view.update(ending="", winner="")
            if kind == "undo":  # a game reopened is private again (sharing is for finished games)
                view["public"] = False
        elif kind in ("turn", "downtime"):
            view["turn"] = event["colour"]
        elif kind == "end":
            view.update(ending=event["ending"], winner=event["winner"], turn="")
        elif kind == "offer":
            view[event["kind"]] = event["by"]
        elif kind == "offer_ended":
            view[event["kind"]] = ""
        elif kind == "leave":
            view["forfeited"].append(event["colour"])
        elif kind == "level":
            view["level"] = event["level"]
        elif kind == "shared":
            view["public"] = event["public"]
    return view


def seen(state):
    """The view of `state` as fold() builds it."""
    return {"moves": [move.square for move in state.moves], "turn": state.turn, "ending": state.ending,
            "winner": state.winner, "draw": state.draw_offer, "takeback": state.takeback_request,
            "forfeited": list(state.forfeited), "level": state.level, "public": state.is_public}


def check_fold(view, state):
    """The events of a sequence, replayed on the first state's view, give the last one's."""
    expected = seen(state)
    if state.status != s.PLAYING:  # a standing offer is moot once over
        for key in ("draw", "takeback", "turn"):
            view[key] = expected[key]
    assert view == expected, {key: (view[key], expected[key]) for key in view if view[key] != expected[key]}


def check_move(old, cmd, now, new, move_events):
    assert old.status == s.PLAYING
    seat = old.seat_of(old.turn)
    if isinstance(cmd, c.Play):
        assert cmd.by == old.turn and person_seat(old, cmd.by) is not None and not seat.played_by_computer
        if not cmd.outages:
            assert not old.clock.is_due(old.deadline, now), "a move after the deadline (and grace) counts not"
        made_by = s.BY_PLAYER
    elif isinstance(cmd, c.ComputerMove):
        assert seat.played_by_computer, "the computer moves only for its seats and leavers'"
        made_by = s.BY_LEAVER if seat.left_at is not None else s.BY_COMPUTER
    else:
        assert cmd.outages or old.clock.is_due(old.deadline, now)
        assert not seat.played_by_computer
        made_by = s.BY_TIMEOUT
    assert new.moves[:old.ply] == old.moves
    added = new.moves[old.ply:]
    assert added and added[0].colour == old.turn and added[0].made_by == made_by
    assert added[0].square == cmd.square.strip().lower()
    assert all(move.made_by == s.BY_AUTO for move in added[1:])
    assert len(move_events) == len(added), "one move event per move, the site's passes too"
    for event, move in zip(move_events, added):
        assert event == {"type": "pass" if move.is_pass else "move", "ply": move.ply, "colour": move.colour,
                         "square": move.square, "flips": list(move.flips), "made_by": move.made_by}
    # the clock: the mover's only, charged only for a person's move
    before, after = seat, new.seat_of(old.turn)
    if old.clock.control == CLOCK and made_by == s.BY_PLAYER:
        assert after.remaining == old.clock.charge(before.remaining, before.lag, old.turn_started_at, now)
    else:
        assert after.remaining == before.remaining
    # offers: a draw offer lapses when the offerer's opponent moves, a takeback request on any move
    assert new.takeback_request == ""
    if old.draw_offer and old.draw_offer != old.turn:
        assert new.draw_offer == ""
    elif new.status == s.PLAYING:
        assert new.draw_offer == old.draw_offer
    if new.status == s.PLAYING:
        assert new.turn_started_at == now
        assert new.deadline == expected_deadline(new, now)


def check_undo(old, cmd, new):
    """§11.1: the player's last move and every computer answer after it; their turn again."""
    assert old.kind == s.COMPUTER and person_seat(old, cmd.by) is not None
    own = last_own_move(old.moves, cmd.by)
    assert own is not None
    assert old.status == s.FINISHED or old.turn == cmd.by
    assert old.ending != s.ABANDONED
    assert new.moves == old.moves[:own.ply - 1]
    assert new.status == s.PLAYING and new.turn == cmd.by and new.deadline is None
    assert (new.ending, new.winner, new.counts, new.score, new.is_public) == ("", "", {}, {}, False)


def check_takeback(old, cmd, now, new):
    """The requester's last move and everything after it are undone; their turn begins now."""
    asker = old.takeback_request
    assert old.status == s.PLAYING and old.variant.players == 2 and asker and cmd.by and cmd.by != asker
    own = last_own_move(old.moves, asker)
    assert new.moves == old.moves[:own.ply - 1]
    assert new.turn == asker and new.takeback_request == "" and new.turn_started_at == now
    seat = old.seat_of(old.turn)
    if old.clock.control == CLOCK and not seat.played_by_computer:
        assert new.seat_of(old.turn).remaining == old.clock.stop(seat.remaining, seat.lag, old.turn_started_at, now)
    assert new.deadline == expected_deadline(new, now)


def check_command(old, cmd, now, new):  # noqa: C901 -- one rule a command
    players = old.variant.players
    by_seat = old.seat_of(cmd.by) if cmd.by else None
    if isinstance(cmd, (c.OfferDraw, c.AcceptDraw, c.DeclineDraw, c.RequestTakeback, c.AcceptTakeback,
                        c.DeclineTakeback, c.ClaimWin)):
        assert players == 2, "offers, takebacks and claims only in two-player games"
        assert person_seat(old, cmd.by) is not None and by_seat.left_at is None
    if isinstance(cmd, (c.Resign, c.Abort, c.ComputerForGone, c.Leave)):  # games.endings.running_seat
        assert person_seat(old, cmd.by) is not None and by_seat.left_at is None, "one who left acts no more"
    if isinstance(cmd, (c.OfferDraw, c.RequestTakeback)) or isinstance(cmd, c.Resign) and players == 2:
        assert not any(seat.left_at for seat in old.seats if seat.colour != cmd.by), \
            "an opponent who left: the game is the stayer's whatever happens"
    if isinstance(cmd, c.OfferDraw):
        last = old.draw_offers.get(cmd.by)
        assert not old.draw_offer and (last is None or old.ply - last >= DRAW_OFFER_EVERY)
        assert new.draw_offer == cmd.by and new.draw_offers.get(cmd.by) == old.ply
    elif isinstance(cmd, c.AcceptDraw):
        assert old.draw_offer not in ("", cmd.by) and new.ending == s.AGREED
    elif isinstance(cmd, c.DeclineDraw):
        assert old.draw_offer not in ("", cmd.by) and new.draw_offer == "" and new.status == s.PLAYING
    elif isinstance(cmd, c.RequestTakeback):
        assert not old.rated and not old.takeback_request and last_own_move(old.moves, cmd.by) is not None
        assert new.takeback_request == cmd.by
    elif isinstance(cmd, c.DeclineTakeback):
        assert old.takeback_request not in ("", cmd.by) and new.takeback_request == "" and new.moves == old.moves
    elif isinstance(cmd, c.Resign):
        assert person_seat(old, cmd.by) is not None and old.status == s.PLAYING
        if players == 2:
            assert new.ending == s.RESIGNED and new.winner != cmd.by
        else:
            check_left(old, cmd.by, now, new)
    elif isinstance(cmd, c.Leave):
        assert person_seat(old, cmd.by) is not None and old.status == s.PLAYING
        check_left(old, cmd.by, now, new)
    elif isinstance(cmd, c.Abort):
        assert person_seat(old, cmd.by) is not None and abortable(old) and new.ending == s.ABORTED
    elif isinstance(cmd, c.ClaimWin):
        gone = old.seat_of(old.turn)
        assert gone_enough(cmd) and cmd.by != old.turn and not gone.played_by_computer
        assert new.ending == s.CLAIMED and new.winner == cmd.by
    elif isinstance(cmd, c.ComputerForGone):
        gone = old.seat_of(old.turn)
        assert gone_enough(cmd) and person_seat(old, cmd.by) is not None and cmd.by != old.turn
        assert not gone.played_by_computer
        check_left(old, old.turn, now, new)
    elif isinstance(cmd, c.Flag) or isinstance(cmd, c.TimeOut) and old.clock.control != MOVE:
        check_flag(old, cmd, now, new)
    elif isinstance(cmd, c.Abandon) and new != old:  # else nothing happens (New Game from anywhere)
        assert old.kind == s.COMPUTER and old.status == s.PLAYING and new.ending == s.ABANDONED
        assert person_seat(old, cmd.by) is not None
    elif isinstance(cmd, c.SetLevel):
        assert old.kind == s.COMPUTER and cmd.level in LEVELS and new.level == cmd.level
        assert person_seat(old, cmd.by) is not None
    elif isinstance(cmd, c.Share):
        assert old.status == s.FINISHED and person_seat(old, cmd.by) is not None and new.is_public == cmd.public
    elif isinstance(cmd, (c.TakeSeat, c.Start)):
        check_seating(old, cmd, now, new)
    elif isinstance(cmd, c.GiveSeatBack):
        assert old.status == s.WAITING and old.seat_of_occupant(cmd.occupant) is not None
        assert new.seat_of_occupant(cmd.occupant) is None
    elif isinstance(cmd, c.MarkMailed):
        assert old.clock.control == DAYS and old.status == s.PLAYING and cmd.ply == old.ply
        assert new.mailed_ply == cmd.ply
    elif isinstance(cmd, (c.RecordLag, c.ShowBoard)) and new != old:  # else only noted, or nothing
        assert person_seat(old, cmd.by) is not None
        if isinstance(cmd, c.ShowBoard) and new.turn_started_at != old.turn_started_at:
            check_first_showing(old, cmd, now, new)


def check_first_showing(old, cmd, now, new):
    """§11.3: on a clock a first move's time counts from when the player's page first
    shows the running game, once, and only while it has not run out."""
    seat = old.seat_of(cmd.by)
    assert old.clock.control == CLOCK and old.status == s.PLAYING and old.turn == cmd.by
    assert seat.board_shown_at is None and last_own_move(old.moves, cmd.by) is None
    assert not old.clock.is_due(old.deadline, now)
    assert new.turn_started_at == now and new.deadline == old.clock.start_turn(now, seat.remaining, seat.lag, True).deadline
    assert new.seat_of(cmd.by).board_shown_at == now


def check_left(old, colour, now, new):
    """§11.4: out for good, ranked last; the computer plays on for them."""
    seat = old.seat_of(colour)
    assert seat.left_at is None and not seat.is_computer
    assert new.seat_of(colour).left_at == now and new.forfeited == (*old.forfeited, colour)
    assert new.status == s.PLAYING
    if old.turn == colour:
        assert new.deadline is None, "the computer moves for them now"
    else:
        assert new.deadline == old.deadline and new.turn_started_at == old.turn_started_at


def check_flag(old, cmd, now, new):
    """§11.3: due at `now`; before one's first own move the game is aborted; of two one
    loses on time, of three or four one is out like a leaver."""
    colour = old.turn
    assert old.status == s.PLAYING and (cmd.outages or old.clock.is_due(old.deadline, now))
    assert old.clock.control != MOVE, "at 60 s a move the computer moves for them (TimeOut)"
    if last_own_move(old.moves, colour) is None:
        assert new.ending == s.ABORTED
    elif old.variant.players == 2:
        assert new.ending == s.TIME and new.winner != colour and colour in new.flagged
    else:
        check_left(old, colour, now, new)
        assert new.flagged == (*old.flagged, colour)
        if old.clock.control == CLOCK:
            assert new.seat_of(colour).remaining == 0.0


def check_seating(old, cmd, now, new):
    assert old.status == s.WAITING and old.kind == s.TABLE
    if isinstance(cmd, c.TakeSeat):
        assert cmd.occupant and old.seat_of_occupant(cmd.occupant) is None
        taken = new.seat_of_occupant(cmd.occupant)
        assert taken is not None and old.seat_of(taken.colour).is_free
        assert not cmd.colour or taken.colour == cmd.colour
        started = sum(seat.is_free for seat in old.seats) == 1
        assert (new.status == s.PLAYING) == started, "the last seat taken starts the game"
    else:
        assert not any(seat.is_free for seat in old.seats)
    if new.status == s.PLAYING:
        assert new.turn == Board(old.variant).turn and new.turn_started_at == now
        for seat in new.seats:
            assert seat.remaining == old.clock.starting_remaining(), "every clock starts full"
        assert new.deadline == expected_deadline(new, now)
