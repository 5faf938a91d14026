"""The events decide() produces: plain JSON-ready dicts (games.turn.engine lists them).
Datetimes are epoch seconds, rounded to the millisecond."""


def epoch(moment):
    return None if moment is None else round(moment.timestamp(), 3)


def clocks(state):
    """{colour: seconds} of every seat on a clock, as they stood when the turn began."""
    return {seat.colour: seat.remaining for seat in state.seats if seat.remaining is not None}


def turn(state, kind="turn"):
    """Who is to move now, since when, until when (None: no deadline), and the clocks."""
    return {"type": kind, "colour": state.turn, "started": epoch(state.turn_started_at),
            "deadline": epoch(state.deadline), "clocks": clocks(state)}


def move(played):
    kind = "pass" if played.is_pass else "move"
    return {"type": kind, "ply": played.ply, "colour": played.colour, "square": played.square,
            "flips": list(played.flips), "made_by": played.made_by}


def end(state):
    return {"type": "end", "ending": state.ending, "winner": state.winner, "counts": dict(state.counts),
            "score": dict(state.score)}


def offer(kind, by):
    return {"type": "offer", "kind": kind, "by": by}


def offer_ended(kind, by, how):
    return {"type": "offer_ended", "kind": kind, "by": by, "how": how}


def leave(colour, flagged=False):
    return {"type": "leave", "colour": colour, "flagged": flagged}


def seat(colour, taken):
    return {"type": "seat", "colour": colour, "taken": taken}
