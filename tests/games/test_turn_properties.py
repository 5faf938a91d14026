"""Properties of the turn engine (games.turn.engine.decide) over random reachable
games: every variant, kind and time control, seats of people, the computer and
leavers, and random commands at an injected clock that moves forward by random
amounts. Each step is checked by tests/games/turn_checks.py: the input is never
changed, a refusal is a Refused with a translated message, the moves replay legally,
clocks, deadlines, offers, endings and events follow docs/rules.md §4, §4.1, §8, §11."""
import copy
from datetime import timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules import Board, Variant
from games.turn import commands as c
from games.turn import state as s
from games.turn.clock import CLOCK, DAYS, MOVE, Clock
from games.turn.ranking import ranking_with_forfeits

from .turn_checks import apply, check_fold, fold, seen
from .turn_states import LEVELS, T0, Outage, computer_game, last_own_move, person, started_at_position, table_game

BOARDS = ("6x6", "8x8", "10x10", "octagon")
PROPERTY = settings(max_examples=30, deadline=None, database=None, suppress_health_check=list(HealthCheck))


@st.composite
def variants(draw, players=None):
    board = draw(st.sampled_from(BOARDS if players in (None, 2) else BOARDS[1:]))
    if players is None:
        players = 2 if board == "6x6" else draw(st.sampled_from((2, 2, 3, 4)))
    fields = dict(board=board, players=players, anti=draw(st.booleans()))
    if players == 2:
        fields["free_opening"] = draw(st.booleans())
        if board != "octagon":
            fields["handicap"] = draw(st.sampled_from((0, 0, 1, 2, 3, 4)))
            fields["handicap_colour"] = draw(st.sampled_from(("black", "white")))
    count = draw(st.sampled_from((0, 0, 2, 4, 8)))
    if count:
        return Variant.with_random_blocked(count, seed=draw(st.integers(0, 2**32 - 1)), **fields)
    return Variant(**fields)


clocks = st.one_of(
    st.builds(lambda grace: Clock(MOVE, move_limit=60, move_grace=grace), st.sampled_from((0.0, 2.0))),
    st.builds(lambda total, inc: Clock(CLOCK, total=total, increment=inc, move_limit=60),
              st.sampled_from((20.0, 90.0, 300.0)), st.sampled_from((0.0, 2.0, 5.0))),
    st.builds(lambda days: Clock(DAYS, total=days * 86400.0, move_limit=60), st.sampled_from((1, 2, 7))),
)


@st.composite
def new_games(draw, kind=None, players=None, clock=None):
    """A game as it is created: against the computer (playing), or a table waiting for
    its players, some seats taken by people or the computer, some free."""
    variant = draw(variants(players))
    kind = kind or draw(st.sampled_from((s.COMPUTER, s.TABLE, s.TABLE)))
    if kind == s.COMPUTER:
        return computer_game(variant, draw(st.sampled_from(variant.colours)), draw(st.sampled_from(LEVELS)))
    who = [draw(st.sampled_from(("person", "person", "computer", "free"))) for _ in variant.colours]
    who[draw(st.integers(0, len(who) - 1))] = "person"  # the host
    occupants = [person(i + 1) if w == "person" else "computer" if w == "computer" else "" for i, w in enumerate(who)]
    return table_game(variant, clock or draw(clocks), occupants, rated=draw(st.booleans()),
                      level=draw(st.sampled_from(LEVELS)))


def seconds_on(data, state, now):
    """How far the clock moves before the next command: often not at all or a little,
    sometimes most of a turn, sometimes just to (or past) when the mover is due."""
    allowance = state.clock.allowance(max((seat.remaining or 0) for seat in state.seats) or 60)
    how = data.draw(st.sampled_from(("none", "none", "little", "little", "little", "little", "turn", "due")))
    if how == "none":
        return now
    if how == "little":
        return now + timedelta(seconds=data.draw(st.floats(0, 5)))
    if how == "due" and state.deadline is not None:
        due = state.clock.due_at(state.deadline)
        return max(now, due + timedelta(seconds=data.draw(st.sampled_from((0.0, 0.001, 1.0)))))
    return now + timedelta(seconds=data.draw(st.floats(0, allowance * 1.1)))


def the_move(data, state, now):
    """What comes next at the position: the move of whoever is to move -- the computer,
    the person, their time-out or flag when they are due."""
    legal = state.board.legal_moves
    square = data.draw(st.sampled_from(legal))
    seat = state.seat_of(state.turn)
    if seat.played_by_computer:
        return c.ComputerMove(square=square)
    if state.clock.is_due(state.deadline, now):
        return c.TimeOut(square=square) if state.clock.control == MOVE else c.Flag()
    return c.Play(by=state.turn, square=data.draw(st.sampled_from((square, square, square.upper() + " "))))


SIMPLE = (c.Undo, c.Resign, c.OfferDraw, c.AcceptDraw, c.DeclineDraw, c.Abort, c.RequestTakeback,
          c.AcceptTakeback, c.DeclineTakeback, c.Leave, c.Abandon, c.ShowBoard)
OTHERS = (c.Play, c.ComputerMove, c.TimeOut, c.Flag, c.ClaimWin, c.ComputerForGone, c.SetLevel, c.Share,
          c.RecordLag, c.TakeSeat, c.GiveSeatBack, c.Start, c.GiveBackDowntime, c.MarkMailed)


def any_command(data, state, now, kinds=SIMPLE + OTHERS):
    """A command of any kind, mostly sensible, sometimes not (by anyone, of anything).
    (Drawn step by step: strategies built afresh at every step cost most of the run.)"""
    def pick(*values):
        return data.draw(st.sampled_from(values))

    kind = pick(*kinds)
    # games.writer resolves a person to their seat (or None): never the computer's
    people = [seat.colour for seat in state.seats if seat.occupant]
    by = pick(*people, None)
    answering = {c.AcceptDraw: state.draw_offer, c.DeclineDraw: state.draw_offer,
                 c.AcceptTakeback: state.takeback_request, c.DeclineTakeback: state.takeback_request,
                 c.ClaimWin: state.turn, c.ComputerForGone: state.turn}
    others = [colour for colour in people if colour != answering.get(kind)]
    if kind in answering and others and data.draw(st.booleans()):  # mostly the one who may
        by = pick(*others)
    if kind in SIMPLE:
        return kind(by=by)
    legal = state.board.legal_moves or ["pass"]
    square = pick(*legal) if data.draw(st.booleans()) else pick("pass", "a1", "zz", "e4")
    started = state.turn_started_at or T0
    if kind is c.Play:
        return c.Play(by=by, square=square)
    if kind in (c.ComputerMove, c.TimeOut):
        return kind(square=square)
    if kind is c.Flag:
        outages = () if data.draw(st.booleans()) else (Outage(started, started + timedelta(seconds=pick(1, 30, 90))),)
        return c.Flag(outages=outages)
    if kind in (c.ClaimWin, c.ComputerForGone):
        return kind(by=by, gone_for=pick(0.0, 10.0, 31.0), needed=30.0)
    if kind is c.SetLevel:
        return c.SetLevel(by=by, level=pick(*LEVELS, "impossible"))
    if kind is c.Share:
        return c.Share(by=by, public=data.draw(st.booleans()))
    if kind is c.RecordLag:
        return c.RecordLag(by=by, seconds=pick(0.0, 0.2, 0.9, 1.5, 30.0))
    people = [seat.occupant for seat in state.seats if seat.occupant] or [person(1)]
    if kind is c.TakeSeat:
        return c.TakeSeat(occupant=pick(*people, "user:77", "guest:new"), name="Ann",
                          colour=pick("", *state.variant.colours))
    if kind is c.GiveSeatBack:
        return c.GiveSeatBack(occupant=pick(*people))
    if kind is c.Start:
        return c.Start()
    if kind is c.GiveBackDowntime:
        a, b = sorted((pick(-30, 0, 5, 40), pick(1, 20, 70, 200)))  # the site is back by now
        start, end = (min(now, started + timedelta(seconds=x)) for x in (a, b))
        return c.GiveBackDowntime(outages=(Outage(start, end),))
    return c.MarkMailed(ply=pick(state.ply, state.ply + 1))


def next_command(data, state, now, moves_weight, kinds):
    if state.status == s.PLAYING and state.board.legal_moves and data.draw(st.integers(0, 99)) < moves_weight:
        return the_move(data, state, now)
    if state.status == s.WAITING and data.draw(st.booleans()):
        free = [seat.colour for seat in state.seats if seat.is_free]
        if free:
            return c.TakeSeat(occupant=f"user:{100 + len(free)}", name="", colour=data.draw(st.sampled_from(free)))
        return c.Start()
    return any_command(data, state, now, kinds)


def run(data, state, steps, moves_weight=70, kinds=SIMPLE + OTHERS, opening=0):
    """Random commands applied one after another, each step checked, and the events of
    them all replayed on the first state's view give the last state's; the states reached."""
    now, reached, view = T0, [state], seen(state)
    for step in range(opening + steps):
        if step < opening:  # the opening: moves (and the start) only, little time
            now += timedelta(seconds=data.draw(st.sampled_from((0.0, 1.0))))
            command = next_command(data, state, now, 100, (c.Start,))
        else:
            now = seconds_on(data, state, now)
            command = next_command(data, state, now, moves_weight, kinds)
        new, events = apply(state, command, now)
        if new is not None:
            state = new
            reached.append(state)
            fold(view, events)
            check_fold(copy.deepcopy(view), state)
    return reached


@settings(PROPERTY, max_examples=60)
@given(new_games(), st.data())
def test_random_commands_keep_every_rule(game, data):
    run(data, game, steps=data.draw(st.integers(1, 60)), moves_weight=40, opening=data.draw(st.integers(0, 40)))


OFFERS = (c.OfferDraw, c.AcceptDraw, c.DeclineDraw, c.RequestTakeback, c.AcceptTakeback, c.DeclineTakeback)
TABLE_TALK = (*OFFERS * 4, c.ClaimWin, c.ClaimWin, c.Resign, c.Abort, c.ComputerForGone, c.Leave, c.Flag,
              c.GiveBackDowntime, c.ShowBoard, c.RecordLag, c.MarkMailed)  # offers more often than endings


@settings(PROPERTY, max_examples=60)
@given(new_games(kind=s.TABLE, players=2) | new_games(kind=s.TABLE), st.data())
def test_what_players_agree_or_decide_at_a_table_keeps_every_rule(game, data):
    """Moves among offers and their answers, takebacks, claims, leaves, flags."""
    game = table_game(game.variant, game.clock, [person(i + 1) for i in range(game.variant.players)],
                      rated=game.rated)
    run(data, game, steps=data.draw(st.integers(1, 40)), moves_weight=35, kinds=TABLE_TALK,
        opening=data.draw(st.integers(0, 12)))


@settings(PROPERTY, max_examples=25)
@given(new_games(), st.data())
def test_games_played_to_the_end_keep_every_rule(game, data):
    """Mostly moves, so that games end: by the board, on time, by leaving..."""
    run(data, game, steps=130, moves_weight=93)


def started(state, squares=(), now=T0):
    return started_at_position(state, squares, now)


def random_squares(data, variant, plies):
    """Up to `plies` random moves, with the site's passes, short of the end."""
    board, squares = Board(variant), []
    for _ in range(plies):
        square = data.draw(st.sampled_from(board.legal_moves))
        board.push(square)
        passes = 0
        while board.must_pass():
            board.push("pass")
            passes += 1
        if board.is_game_over():
            break
        squares += [square] + ["pass"] * passes
    return squares


@PROPERTY
@given(new_games(kind=s.TABLE, players=2), st.data())
def test_an_accepted_takeback_removes_the_requesters_last_move_and_what_followed(game, data):
    people = tuple(person(i + 1) for i in range(2))
    game = table_game(game.variant, game.clock, people, rated=False)
    state = started(game, random_squares(data, game.variant, data.draw(st.integers(1, 30))))
    asker = data.draw(st.sampled_from(game.variant.colours))
    other = next(colour for colour in game.variant.colours if colour != asker)
    now = T0 + timedelta(seconds=data.draw(st.floats(0, 50)))
    asked, result = apply(state, c.RequestTakeback(by=asker), now)
    if last_own_move(state.moves, asker) is None or state.status != s.PLAYING:
        assert asked is None
        return
    assert asked is not None, result
    assert apply(asked, c.AcceptTakeback(by=asker), now)[0] is None  # not one's own request
    move = the_move(data, asked, now)
    if data.draw(st.booleans()) and isinstance(move, c.Play):  # any move lets it lapse
        moved, result = apply(asked, move, now)
        assert moved is not None and moved.takeback_request == "", result
        return
    done, result = apply(asked, c.AcceptTakeback(by=other), now)  # check_takeback: exactly what it removes
    assert done is not None, result


@PROPERTY
@given(new_games(kind=s.COMPUTER), st.data())
def test_undo_against_the_computer_gives_the_player_their_turn_back(game, data):
    human = next(seat.colour for seat in game.seats if not seat.is_computer)
    states = run(data, game, steps=data.draw(st.integers(0, 40)), moves_weight=100)
    state = states[-1]
    undone, result = apply(state, c.Undo(by=human), T0 + timedelta(days=1))
    own = last_own_move(state.moves, human)
    if own is None or (state.status == s.PLAYING and state.turn != human) or state.ending == s.ABANDONED:
        assert undone is None
    else:
        assert undone is not None, result
        assert undone.turn == human and undone.ply == own.ply - 1


@PROPERTY
@given(new_games(kind=s.TABLE, clock=Clock(CLOCK, total=90.0, increment=2.0, move_limit=60)) |
       new_games(kind=s.TABLE, clock=Clock(DAYS, total=86400.0, move_limit=60)), st.data())
def test_a_flag_only_when_due_and_before_ones_first_move_it_aborts(game, data):
    game = table_game(game.variant, game.clock, [person(i + 1) for i in range(game.variant.players)])
    state = run(data, game, steps=data.draw(st.integers(1, 30)), moves_weight=95)[-1]
    if state.status != s.PLAYING or state.deadline is None:  # over, or a leaver to move
        return
    due = state.clock.due_at(state.deadline)
    early, refused = apply(state, c.Flag(), due - timedelta(milliseconds=data.draw(st.integers(1, 10**6))))
    assert early is None and refused.kind == "stale"
    flagged, result = apply(state, c.Flag(), due + timedelta(seconds=data.draw(st.floats(0, 100))))
    assert flagged is not None, result  # check_flag: aborted, lost on time, or out like a leaver


@settings(PROPERTY, max_examples=20)
@given(st.integers(3, 4), st.data())
def test_leavers_rank_last_the_last_leaver_above_earlier_ones(players, data):
    variant = data.draw(variants(players))
    game = table_game(variant, Clock(MOVE, move_limit=60, move_grace=2), [person(i + 1) for i in range(players)])
    state = started(game)
    now = T0
    leavers = data.draw(st.lists(st.sampled_from(variant.colours), unique=True, max_size=players))
    for colour in leavers:  # the leaves come between random moves
        for _ in range(data.draw(st.integers(0, 8))):
            if state.status == s.PLAYING:
                state = apply(state, the_move(data, state, now), now)[0] or state
        left, result = apply(state, c.Leave(by=colour), now)
        assert (left is None) == (state.status != s.PLAYING), result
        state = left or state
        now += timedelta(seconds=1)
    while state.status == s.PLAYING:
        state = apply(state, the_move(data, state, now), now)[0]
    if state.ending in (s.NORMAL, s.FORFEIT):  # check_finished: the winner is the best who stayed
        assert state.winner not in state.forfeited
        outcome = state.board.outcome()
        ranking = [colour for group in ranking_with_forfeits(state.forfeited, outcome) for colour in group]
        stayed = [colour for group in outcome.ranking for colour in group if colour not in state.forfeited]
        assert ranking == stayed + list(reversed(state.forfeited))


@PROPERTY
@given(st.sampled_from((20.0, 90.0, 300.0)), st.floats(0, 0.9), st.floats(0, 120), st.floats(0, 120))
def test_on_a_clock_a_first_move_counts_from_the_first_showing_once(total, lag, shown, again):
    clock = Clock(CLOCK, total=total, increment=2.0, move_limit=60)
    game = started(table_game(Variant(board="6x6"), clock, (person(1), person(2))))
    game = apply(game, c.RecordLag(by="black", seconds=lag), T0)[0] or game
    first = T0 + timedelta(seconds=shown)
    restarted, result = apply(game, c.ShowBoard(by="black"), first)
    if clock.is_due(game.deadline, first):  # too late: nothing is given back
        assert restarted is None or restarted.deadline == game.deadline, result
        return
    assert restarted is not None and restarted.turn_started_at == first, result  # check_first_showing
    later = first + timedelta(seconds=again)
    once, result = apply(restarted, c.ShowBoard(by="black"), later)
    assert once is None or (once.turn_started_at, once.deadline) == (first, restarted.deadline), result
