"""Game records: replaying moves, the JSON record of a stored game (export), and
reading a pasted or uploaded JSON record (import; transcripts are read by the
rules core's parse_transcript)."""
import json
import unicodedata
from dataclasses import dataclass, field
from urllib.parse import urlencode

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from games import Board, InvalidVariantError, Variant
from games.variant_errors import variant_error_message

# The largest record accepted for import (a 4-player 10x10 game is about 300 characters;
# a JSON record with every flip listed stays well below this).
MAX_RECORD_BYTES = 64 * 1024
# A record nests four deep (moves > move > flips); Python's json module recurses
# once per level and fails with RecursionError near a thousand.
MAX_RECORD_DEPTH = 8
# A player's name, as a seat keeps a guest's (Seat.guest_name).
MAX_NAME_LENGTH = 40


@dataclass
class Ply:
    """One move of a record, stored or imported (what move_sentence needs and more)."""

    ply: int
    colour: str
    square: str
    flips: list = field(default_factory=list)
    made_by: str = ""

    @property
    def is_pass(self):
        return self.square == "pass"


@dataclass
class Replay:
    variant: Variant
    plies: list          # [Ply], ply 1 first
    series: list         # stones per colour after every ply, ply 0 first
    final: Board         # the position after the last ply

    @property
    def last(self):
        return len(self.plies)

    def board_at(self, ply):
        board = Board(self.variant)
        for item in self.plies[:ply]:
            board.push(item.square)
        return board

    @property
    def history(self):
        return " ".join(item.square for item in self.plies)


def replay_moves(variant, moves, stored=None):
    """Replay `moves` (square names and 'pass') from the start of `variant`.

    `stored` are the Move rows the moves came from, whose colour, flips and
    made_by are kept; IllegalMoveError if the record breaks the rules.
    """
    board = Board(variant)
    plies, series = [], [board.counts()]
    for number, square in enumerate(moves, 1):
        colour = board.turn
        board.push(square)
        made_by = stored[number - 1].made_by if stored else ""
        plies.append(Ply(number, colour, square, board.last_flips, made_by))
        series.append(board.counts())
    return Replay(variant, plies, series, board)


def replay_game(game):
    moves = list(game.moves.order_by("ply"))
    return replay_moves(game.variant_obj, [m.square for m in moves], stored=moves)


# -- export ----------------------------------------------------------------------------

def game_record(game, url):
    """The JSON record of a stored game (docs/rules.md §10 plus who played and how it ended);
    `url` is the absolute URL of its review."""
    replay = replay_game(game)
    seats = list(game.seats.select_related("user"))
    return {
        "format": "reversi-record",
        "version": 1,
        "id": game.public_id,
        "url": url,
        "kind": game.kind,
        "variant": game.variant_obj.to_dict(),
        "variant_label": game.variant_obj.label,
        "players": [{"colour": seat.colour, "name": str(seat.display_name), "computer": seat.is_computer,
                     "left": seat.left_at is not None} for seat in seats],
        "moves": [{"ply": item.ply, "colour": item.colour, "square": item.square, "flips": item.flips,
                   "made_by": item.made_by} for item in replay.plies],
        "transcript": replay.final.transcript(),
        "status": game.status,
        "result": {
            "winner": game.winner or None,
            "counts": game.counts,
            "score": game.score,
            "ending": game.ending,
            "forfeited": game.forfeited,
        } if game.is_over else None,
        "created_at": game.created_at.isoformat(),
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
    }


# -- import ----------------------------------------------------------------------------

def clean_name(value):
    """A player's name from a record or an address: text only, control characters and
    runs of spaces made one space, at most MAX_NAME_LENGTH characters ('' for none).
    Pages escape it like every name."""
    if not isinstance(value, str):
        return ""
    text = "".join(" " if unicodedata.category(char)[0] == "C" else char for char in value[:10 * MAX_NAME_LENGTH])
    return " ".join(text.split())[:MAX_NAME_LENGTH].strip()


@dataclass(frozen=True)
class Players:
    """Who played an imported game, as far as its record says: names by colour, and
    the colours the computer played (whose moves the analysis does not judge)."""

    names: dict = field(default_factory=dict)
    computers: frozenset = frozenset()


def record_players(record, variant):
    """The Players of a JSON record (a record without them names nobody)."""
    players = record.get("players")
    names, computers = {}, set()
    for player in players if isinstance(players, list) else ():
        if isinstance(player, dict) and player.get("colour") in variant.colours:
            name = clean_name(player.get("name"))
            if name:
                names[player["colour"]] = name
            if player.get("computer") is True:
                computers.add(player["colour"])
    return Players(names, frozenset(computers))


def parse_record(text):
    """The variant, the moves (a list of squares, or a transcript) and the Players of a
    JSON record; ValidationError, translated, if it is not one."""
    if json_depth(text) > MAX_RECORD_DEPTH:
        raise ValidationError(_("This JSON record is nested too deeply to be a game record."), code="too_deep")
    try:
        record = json.loads(text)
    except ValueError:
        raise ValidationError(_("This is not a valid JSON record."), code="bad_json") from None
    if not isinstance(record, dict) or not isinstance(record.get("variant"), dict):
        raise ValidationError(_("A JSON record needs its variant and its moves."), code="bad_record")
    try:
        variant = Variant.from_dict(record["variant"])
    except InvalidVariantError as error:
        raise ValidationError(variant_error_message(error), code="invalid_variant") from None
    except TypeError:  # a value of the wrong kind
        raise ValidationError(_("The record's variant cannot be read."), code="invalid_variant") from None
    moves = record.get("moves")
    if isinstance(moves, list):
        squares = []
        for item in moves:
            square = item.get("square") if isinstance(item, dict) else item
            if not isinstance(square, str):
                raise ValidationError(_("A JSON record needs its variant and its moves."), code="bad_record")
            squares.append(square)
        return variant, squares, record_players(record, variant)
    if isinstance(record.get("transcript"), str):
        return variant, record["transcript"], record_players(record, variant)
    raise ValidationError(_("A JSON record needs its variant and its moves."), code="bad_record")


def json_depth(text):
    """How deeply arrays and objects nest in `text` (JSON or not), without parsing it."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def import_query(variant, transcript_text, players=None):
    """The query string of the review of an imported game (with its Players, if known)."""
    params = {"board": variant.board}
    if variant.players != 2:
        params["players"] = variant.players
    for flag in ("anti", "free_opening"):
        if getattr(variant, flag):
            params[flag] = 1
    if variant.blocked:
        params["blocked"] = " ".join(variant.blocked)
    if variant.handicap:
        params["handicap"] = variant.handicap
        params["handicap_colour"] = variant.handicap_colour
    params["moves"] = transcript_text
    if players is not None:
        for colour in variant.colours:
            if players.names.get(colour):
                params[f"name_{colour}"] = players.names[colour]
        if players.computers:
            params["computers"] = " ".join(c for c in variant.colours if c in players.computers)
    return urlencode(params)


def players_in_query(query, variant):
    """The Players from the review address of an import (names cleaned like a record's)."""
    names = {colour: clean_name(query.get(f"name_{colour}")) for colour in variant.colours}
    computers = str(query.get("computers", "")).split()
    return Players({colour: name for colour, name in names.items() if name},
                   frozenset(colour for colour in variant.colours if colour in computers))
