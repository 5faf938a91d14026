"""A stored game as the turn engine sees it, and back: its Game, Seat and Move rows
to a GameState (games.turn.state), and a new GameState to the rows' changes.

Pure mapping, no queries of its own: the rows are those games.writer.apply read under
the game row's lock (the seats prefetched, the moves from the kept GameRecord, so a
move reads and replays no move again), and what it returns is what apply writes.
"""
from dataclasses import dataclass

from games import deadlines
from games.models import Move, Seat
from games.turn.state import GameState, PlayedMove, SeatState

# The Game fields a GameState holds, by the same name (ply and version are the writer's).
GAME_FIELDS = ("kind", "status", "level", "rated", "is_public", "turn", "turn_started_at", "deadline",
               "draw_offer", "draw_offers", "takeback_request", "forfeited", "flagged", "ending", "winner",
               "counts", "score", "finished_at", "mailed_ply")
# Stored as JSON lists; tuples in the state.
LISTS = ("forfeited", "flagged")
SEAT_FIELDS = ("is_computer", "left_at", "remaining", "lag", "board_shown_at")


def occupant_of(seat):
    """A Seat's occupant as the state names it: "user:<pk>", "guest:<token>" or ""."""
    if seat.is_computer:
        return ""
    if seat.user_id is not None:
        return f"user:{seat.user_id}"
    return f"guest:{seat.guest_token}" if seat.guest_token else ""


def occupant_fields(occupant):
    """The Seat fields of an occupant ("" frees the seat)."""
    kind, _sep, who = occupant.partition(":")
    if kind == "user":
        return {"user_id": int(who), "guest_token": ""}
    if kind == "guest":
        return {"user_id": None, "guest_token": who}
    return {"user_id": None, "guest_token": ""}


def occupant_of_viewer(viewer):
    """A games.access.Viewer as an occupant: their account, else their guest session."""
    if viewer.user is not None:
        return f"user:{viewer.user.pk}"
    return f"guest:{viewer.guest_token}" if viewer.guest_token else ""


def seat_state(seat, names=False):
    """`names`: with the name the seat shows (its account's: read now), for refusals that name it."""
    return SeatState(colour=seat.colour, occupant=occupant_of(seat), is_computer=seat.is_computer,
                     name=seat.guest_name, left_at=seat.left_at, remaining=seat.remaining, lag=seat.lag,
                     board_shown_at=seat.board_shown_at, display_name=str(seat.display_name) if names else "")


def played(move):
    return PlayedMove(ply=move.ply, colour=move.colour, square=move.square, flips=tuple(move.flips or ()),
                      made_by=move.made_by)


def state_of(game, record, names=False):
    """The GameState of `game` (a Game row) with `record`'s seats, moves and position
    (games.record.GameRecord); the position is given, not replayed. `names`: seat_state's."""
    fields = {name: getattr(game, name) for name in GAME_FIELDS}
    for name in LISTS:
        fields[name] = tuple(fields[name] or ())
    fields["draw_offers"] = dict(fields["draw_offers"] or {})
    fields["counts"], fields["score"] = dict(fields["counts"] or {}), dict(fields["score"] or {})
    state = GameState(variant=game.variant_obj, clock=deadlines.clock_of(game),
                      seats=tuple(seat_state(seat, names) for seat in record.seats),
                      moves=tuple(played(move) for move in record.moves), version=game.version, **fields)
    state.__dict__["board"] = record.board.copy()  # GameState.board, cached: not replayed
    return state


@dataclass
class Difference:
    """What `new` changes in the rows of `old`: Game fields, Seat fields by colour (seat_fields),
    the moves after `kept` plies deleted, the Move rows to insert."""
    game: dict
    seat_fields: dict
    kept: int
    removed: bool
    added: list

    def __bool__(self):
        return bool(self.game or self.seat_fields or self.removed or self.added)


def difference(old, new, game):
    """The Difference from `old` to `new` (GameStates) of the stored `game`."""
    changes = {}
    for name in GAME_FIELDS:
        value = getattr(new, name)
        if value != getattr(old, name):
            changes[name] = list(value) if name in LISTS else value
    seats = {}
    before = {seat.colour: seat for seat in old.seats}
    for seat in new.seats:
        was, fields = before[seat.colour], {}
        for name in SEAT_FIELDS:
            if getattr(seat, name) != getattr(was, name):
                fields[name] = getattr(seat, name)
        if seat.occupant != was.occupant:
            fields.update(occupant_fields(seat.occupant))
        if seat.name != was.name:
            fields["guest_name"] = seat.name
        if fields:
            seats[seat.colour] = fields
    kept = 0
    for mine, theirs in zip(old.moves, new.moves):
        if mine != theirs:
            break
        kept += 1
    added = [Move(game=game, ply=move.ply, colour=move.colour, square=move.square, flips=list(move.flips),
                  made_by=move.made_by) for move in new.moves[kept:]]
    return Difference(changes, seats, kept, kept < len(old.moves), added)


def seat_row(game, colour):
    return next((seat for seat in game.seats.all() if seat.colour == colour), None)


def apply_in_memory(game, record, difference, new):
    """The rows `game` and `record` (prefetched seats, kept moves) as they are once
    `difference` is written, so the push after commit reads nothing again."""
    for name, value in difference.game.items():
        setattr(game, name, value)
    game.ply = new.ply
    for colour, fields in difference.seat_fields.items():
        seat = seat_row(game, colour)
        for name, value in fields.items():
            setattr(seat, name, value)
        if "user_id" in fields and Seat.user.is_cached(seat):  # the account is read again if asked for
            Seat.user.field.delete_cached_value(seat)
    record.seats = list(game.seats.all())
    if difference.removed:
        record.board = new.board.copy()  # replayed: moves were taken back
    else:  # the kept position and the moves added, not a replay of the game
        for move in difference.added:
            record.board.push(move.square)
    new.__dict__.setdefault("board", record.board)
    record.moves = record.moves[:difference.kept] + difference.added
