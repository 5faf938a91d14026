"""decide(state, command, now) -> (new state, events): the rules of a turn, in one place.

The behaviour is the site's (docs/rules.md §4.1, §11); each family of commands has its
module: games.turn.moves (Play, ComputerMove, TimeOut, Undo), games.turn.endings
(Resign, Abort, ClaimWin, ComputerForGone, Leave, Abandon, Flag), games.turn.offers
(draws and takebacks), games.turn.seats (TakeSeat, GiveSeatBack, Start, ShowBoard,
RecordLag); the few left are here. decide() never sets `version`: games.writer checks
the expected ply or version, stores the difference and numbers the events.

Events, in the order they happened (plain JSON-ready dicts; instants are epoch
seconds rounded to the millisecond, games.turn.events):

* {"type": "move", "ply", "colour", "square", "flips": [...], "made_by"}
* {"type": "pass", "ply", "colour", "square": "pass", "flips": [], "made_by"}
* {"type": "turn", "colour", "started", "deadline": float|None, "clocks": {colour: seconds}}
  -- who is to move now (also after a takeback, an undo, a first showing, or when the
  computer takes over the mover's seat); "clocks" hold each clock at its turn start
* {"type": "offer", "kind": "draw"|"takeback", "by"}
* {"type": "offer_ended", "kind", "by", "how": "accepted"|"declined"|"lapsed"}
* {"type": "takeback", "ply"}, {"type": "undo", "ply"} -- the ply kept
* {"type": "leave", "colour", "flagged": bool}
* {"type": "end", "ending", "winner", "counts", "score"}
* {"type": "start"}, {"type": "seat", "colour", "taken": bool}
* {"type": "level", "level"}, {"type": "shared", "public"}, {"type": "mailed", "ply"}
* {"type": "downtime", "colour", "started", "deadline", "clocks"} -- the turn given back

Every command that changes what a page shows yields at least one event. Three yield
none: ShowBoard and RecordLag when they only note something of a seat (its first
showing, its lag), and Abandon of a game that is over or not the person's (nothing
happens, as New Game expects). A refused command raises Refused and changes nothing.
"""
from dataclasses import replace

from games.turn import commands as c
from games.turn.clock import DAYS
from games.turn import endings, events, moves, offers, seats, timing
from games.turn.refusals import NOT_YOURS, Refused, _
from games.turn.state import COMPUTER, FINISHED, LEVELS, PLAYING


def set_level(state, command, now):
    """The computer's level for its next move (against the computer)."""
    if command.level not in LEVELS:
        raise Refused(_("Choose Easy, Normal or Hard."))
    if state.kind != COMPUTER or state.seat_of(command.by) is None:
        raise Refused(_("Only the player can change the computer's level."), NOT_YOURS)
    return replace(state, level=command.level), [{"type": "level", "level": command.level}]


def share(state, command, now):
    """A player shares the finished game (anyone with the link may review it), or stops."""
    if state.seat_of(command.by) is None:
        raise Refused(_("Only the players can share this game."), NOT_YOURS)
    if state.status != FINISHED:
        raise Refused(_("A game can be shared once it is over."))
    public = bool(command.public)
    return replace(state, is_public=public), [{"type": "shared", "public": public}]


def give_back_downtime(state, command, now):
    """The site's outages during the running turn are given back (Clock.give_back);
    stale when nothing is owed."""
    given = timing.give_back(state, command.outages) if state.status == PLAYING else None
    if given is None:
        raise Refused.stale()
    return given, [events.turn(given, "downtime")]


def mark_mailed(state, command, now):
    """Correspondence: the player to move at `ply`, a person with an account, was told
    by e-mail, once a turn (stale otherwise)."""
    seat = state.seat_of(state.turn)
    if (command.ply != state.ply or state.status != PLAYING or state.clock.control != DAYS or seat is None
            or seat.played_by_computer or not seat.occupant.startswith("user:") or state.mailed_ply == state.ply):
        raise Refused.stale()
    return replace(state, mailed_ply=command.ply), [{"type": "mailed", "ply": command.ply}]


RULES = {
    c.Play: moves.play, c.ComputerMove: moves.computer_move, c.TimeOut: moves.time_out, c.Undo: moves.undo,
    c.Flag: endings.flag, c.Resign: endings.resign, c.Abort: endings.abort, c.Leave: endings.leave,
    c.ClaimWin: endings.claim_win, c.ComputerForGone: endings.computer_for_gone, c.Abandon: endings.abandon,
    c.OfferDraw: offers.offer_draw, c.AcceptDraw: offers.accept_draw, c.DeclineDraw: offers.decline_draw,
    c.RequestTakeback: offers.request_takeback, c.AcceptTakeback: offers.accept_takeback,
    c.DeclineTakeback: offers.decline_takeback,
    c.TakeSeat: seats.take_seat, c.GiveSeatBack: seats.give_seat_back, c.Start: seats.start,
    c.ShowBoard: seats.show_board, c.RecordLag: seats.record_lag,
    c.SetLevel: set_level, c.Share: share, c.GiveBackDowntime: give_back_downtime, c.MarkMailed: mark_mailed,
}


def decide(state, command, now):
    """The state after `command` at `now`, and the events it produced (a list of dicts,
    oldest first). Raises games.turn.refusals.Refused, changing nothing."""
    rule = RULES.get(type(command))
    if rule is None:
        raise TypeError(f"not a command of the turn engine: {command!r}")
    return rule(state, command, now)
