"""A game's whole state as data: the first line a program reads when the events since
its version cannot be given (games.events.since), or when it has none yet."""
from games.record import GameRecord


def iso(moment):
    return moment.isoformat() if moment is not None else None


def state_data(game, record=None):
    """{"type": "state", "v": version, ...}: everything the game page shows, in plain
    JSON values. Times are ISO 8601; a seat's `remaining` is its clock's seconds when
    its turn last began (`turn_started` for the player to move)."""
    record = record or GameRecord(game)
    return {
        "type": "state", "v": game.version, "game": game.public_id, "kind": game.kind, "variant": game.variant,
        "level": game.level, "status": game.status, "ply": game.ply, "turn": game.turn,
        "time_control": game.time_control, "time_total": game.time_total, "time_increment": game.time_increment,
        "turn_started": iso(game.turn_started_at), "deadline": iso(game.deadline),
        "seats": [{"colour": seat.colour, "name": str(seat.display_name), "computer": seat.is_computer,
                   "left": seat.left_at is not None, "remaining": seat.remaining} for seat in record.seats],
        "moves": [{"ply": move.ply, "colour": move.colour, "square": move.square, "flips": list(move.flips),
                   "made_by": move.made_by} for move in record.moves],
        "draw_offer": game.draw_offer, "takeback_request": game.takeback_request,
        "ending": game.ending, "winner": game.winner, "counts": game.counts, "score": game.score,
        "forfeited": game.forfeited, "flagged": game.flagged, "public": game.is_public,
    }
