"""GGF, the Generic Game Server's game format (read and written by Edax,
Egaroucid and NBoard): one game is

    (;GM[Othello]PC[GGS/os]DT[2003.12.15_13:24:03.MST]PB[alice]PW[bob]RB[1800.0]
    RW[1750.5]TI[15:00//02:00]TY[8]RE[+12.000]BO[8 -------- -------- --------
    ---O*--- ---*O--- -------- -------- -------- *]B[f5//1.2]W[d6]...;)

and a file is any number of them.  Properties: ``GM`` game, ``PC`` place, ``DT``
date, ``PB``/``PW`` players, ``RB``/``RW`` their ratings, ``TI`` (or ``TB``/``TW``)
the time control ``time/increment/extension``, ``TY`` the type, ``RE`` the
result for black (``+12.000``, ``-3.00:r``; ``:r`` resigned, ``:t`` out of time,
``:s`` agreed score; ``?`` unknown), ``BO`` the starting position (size, squares
row by row in ``-*O``, side to move), then the moves ``B[sq/eval/time]`` and
``W[...]``, a pass being ``PA``.

The type (``TY``) follows the server's game-type syntax, ``[s]<size>[k][r<n>][a][b|w]``
in either case: the board size; ``k`` komi; ``r<n>`` a random start of n discs
(the position is in ``BO``); ``a`` anti; ``b``/``w`` the asker's colour (no
matter here); a leading ``s`` a synchro match of two games.  The site plays 6x6, 8x8 and 10x10 two-player games, Reversi or
Anti; komi and synchro games are refused, and so is writing an octagon, 3-4
player, free-opening or blocked-square game, for which GGF has no type.

Every property is kept as read, in its order, so a game is written back as it
was read (whitespace between properties aside): ``write_ggf(read_ggf(t)) == t``
for a file written by ``write_ggf``.  Reading checks every move with the rules
(passes a file leaves out are inferred where forced) and raises a FormatError
naming the game, the move and the reason.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from games.rules import Board, IllegalMoveError, Variant

from .board_strings import board_from_squares, write_board_string
from .errors import FormatError

__all__ = ["GgfGame", "GgfResult", "game_from_board", "iter_ggf", "read_ggf", "write_ggf"]

_PROPERTY = re.compile(r"\s*([A-Z]{1,2})\[((?:\\.|[^\]\\])*)\]", re.DOTALL)
_TYPE = re.compile(r"^(?P<synchro>s)?(?P<size>\d+)(?P<flags>(?:[akbw]|r\d*)*)$", re.IGNORECASE)
_RESULT = re.compile(r"^\s*(?P<score>[+-]?\d+(?:\.\d*)?)\s*(?::(?P<flag>[rts]))?\s*$")
_SIZES = {6: "6x6", 8: "8x8", 10: "10x10"}
_PASSES = {"pa", "pass", "ps"}


@dataclass(frozen=True)
class GgfResult:
    """``RE``: black's score (disc difference) and how the game ended
    (``"r"`` resigned, ``"t"`` out of time, ``"s"`` agreed score, None
    played out); ``score`` is None for an unknown result (``RE[?]``)."""

    score: float | None
    flag: str | None = None

    @classmethod
    def parse(cls, text: str, game: int | None = None) -> "GgfResult":
        if text.strip() in ("", "?"):
            return cls(None)
        m = _RESULT.match(text)
        if not m:
            raise FormatError(f"RE[{text}] is no result (e.g. +12.000 or -3.00:r)", "result", game=game, value=text)
        return cls(float(m.group("score")), m.group("flag"))

    def __str__(self) -> str:
        if self.score is None:
            return "?"
        return f"{self.score:+.3f}" + (f":{self.flag}" if self.flag else "")


@dataclass
class GgfGame:
    """One game: its properties in file order (``(name, raw value)``, moves
    included) and what they mean.  ``start`` is the position of ``BO`` and
    ``board`` the position after the last move (with the moves, passes
    included, as its history from ``start``)."""

    properties: list[tuple[str, str]]
    variant: Variant
    start: Board
    board: Board
    moves: list[str] = field(default_factory=list)

    def get(self, name: str, default: str | None = None) -> str | None:
        """The first value of property ``name`` (unescaped)."""
        return next((_unescape(v) for k, v in self.properties if k == name), default)

    @property
    def black(self) -> str | None:
        return self.get("PB")

    @property
    def white(self) -> str | None:
        return self.get("PW")

    def rating(self, colour: str) -> float | None:
        value = self.get("RB" if colour == "black" else "RW")
        try:
            return float(value) if value is not None else None
        except ValueError:
            return None

    @property
    def date(self) -> str | None:
        return self.get("DT")

    @property
    def place(self) -> str | None:
        return self.get("PC")

    @property
    def time_control(self) -> str | None:
        """``TI``, or ``TB`` for black when the players' times differ."""
        return self.get("TI") or self.get("TB")

    @property
    def result(self) -> GgfResult:
        return GgfResult.parse(self.get("RE", "?"))

    @property
    def standard_start(self) -> bool:
        """True when ``BO`` holds the variant's usual start (not a random start)."""
        return self.start == Board(self.variant)

    @property
    def transcript(self) -> str:
        return "".join(m for m in self.moves if m != "pass")


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value, flags=re.DOTALL)


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


def _variant_of(type_text: str, game: int | None) -> Variant:
    m = _TYPE.match(type_text.strip())
    if not m:
        raise FormatError(f"TY[{type_text}] is no Othello game type", "type", game=game, value=type_text)
    if m.group("synchro"):
        raise FormatError(f"TY[{type_text}]: synchro games (two games at once) are not supported", "type-synchro",
                          game=game, value=type_text)
    flags = m.group("flags").lower()
    if "k" in flags:
        raise FormatError(f"TY[{type_text}]: komi games are not supported", "type-komi", game=game, value=type_text)
    size = int(m.group("size"))
    if size not in _SIZES:
        raise FormatError(f"TY[{type_text}]: a {size}x{size} board is not played here (6, 8 or 10)", "board-size",
                          game=game, size=size)
    return Variant(board=_SIZES[size], anti="a" in flags)


def _start_of(bo: str, variant: Variant, game: int | None) -> Board:
    compact = "".join(bo.split())  # writers differ in the spaces they put in
    size = variant.geometry.width
    if not compact.startswith(str(size)) or compact[len(str(size)):len(str(size)) + 1].isdigit():
        raise FormatError(f"BO[{bo[:20]}...] does not start with the board size {size} of TY", "board", game=game)
    squares, side = compact[len(str(size)):-1], compact[-1:]
    if side not in ("*", "O"):
        raise FormatError(f"BO: the side to move is * or O, not {side!r}", "board", game=game)
    if any(ch not in "-*O" for ch in squares):
        raise FormatError("BO: squares are -, * or O", "board", game=game)
    try:
        return board_from_squares(squares, variant, "black" if side == "*" else "white")
    except FormatError as exc:
        raise exc.in_game(game) if game else exc


def _properties(text: str, pos: int, number: int) -> tuple[list[tuple[str, str]], int]:
    """The properties of the game whose ``(;`` is at ``pos``, and where it ends.
    Values may hold ``;)`` or an escaped ``]``, so the game is read property by
    property, not cut at the first ``;)``."""
    properties: list[tuple[str, str]] = []
    pos += 2
    while True:
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if text.startswith(";)", pos):
            return properties, pos + 2
        m = _PROPERTY.match(text, pos)
        if not m:
            what = repr(text[pos:pos + 12]) if pos < len(text) else "the end of the file"
            raise FormatError(f"cannot read a property at {what} (a game ends with ';)')", "syntax", game=number)
        properties.append((m.group(1), m.group(2)))
        pos = m.end()


def _read_game(properties: list[tuple[str, str]], number: int | None) -> GgfGame:
    values = dict(reversed(properties))  # the first of each name
    if values.get("GM", "Othello").strip().lower() != "othello":
        raise FormatError(f"GM[{values['GM']}] is not an Othello game", "not-othello", game=number)
    variant = _variant_of(values.get("TY", "8"), number)
    GgfResult.parse(_unescape(values.get("RE", "?")), number)  # a bad result is a bad file
    if "BO" in values:
        start = _start_of(_unescape(values["BO"]), variant, number)
    else:
        start = Board(variant)
    board = start.copy(history=False)
    move_number = 0
    for name, raw in properties:
        if name not in ("B", "W"):
            continue
        move_number += 1
        colour = "black" if name == "B" else "white"
        square = raw.split("/", 1)[0].strip().lower()
        if square in _PASSES:
            square = "pass"
        if board.turn != colour and square != "pass" and board.must_pass():
            board.push("pass")  # a pass the file leaves out
        if board.turn != colour:
            raise FormatError(f"{name}[{raw}]: it is {board.turn}'s move", "wrong-colour", game=number,
                              move=move_number, square=square)
        try:
            board.push(square)
        except IllegalMoveError as exc:
            raise FormatError(f"{square} is illegal: {exc}", "illegal-move", game=number, move=move_number,
                              square=square, reason=exc.reason) from None
    return GgfGame(properties, variant, start, board, list(board.history))


def iter_ggf(text: str):
    """Yield the games of a GGF file one by one; FormatError names the game."""
    if not isinstance(text, str):
        raise FormatError(f"a GGF file is text, not {type(text).__name__}", "unreadable")
    number, pos = 0, 0
    while True:
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos >= len(text):
            return
        number += 1
        if not text.startswith("(;", pos):
            raise FormatError(f"text outside a game: {text[pos:pos + 20]!r}", "syntax", game=number)
        properties, pos = _properties(text, pos, number)
        yield _read_game(properties, number)


def read_ggf(text: str) -> list[GgfGame]:
    """All the games of a GGF file, or FormatError and none."""
    return list(iter_ggf(text))


def write_ggf(games) -> str:
    """A GGF file of ``games`` (GgfGame), one a line."""
    if isinstance(games, GgfGame):
        games = [games]
    lines = []
    for game in games:
        lines.append("(;" + "".join(f"{k}[{v}]" for k, v in game.properties) + ";)")
    return "\n".join(lines) + ("\n" if lines else "")


def game_from_board(board: Board, *, black: str = "", white: str = "", black_rating: float | None = None,
                    white_rating: float | None = None, place: str = "", date: str = "", time_control: str = "",
                    result: GgfResult | None = None, start: Board | None = None) -> GgfGame:
    """A GgfGame of a game played on ``board`` (its history from the start of
    its variant, or from ``start``).  ``result`` defaults to the final disc
    difference of a finished game and ``?`` otherwise.  FormatError for a
    variant GGF cannot hold (octagon, 3-4 players, free opening, blocked squares)."""
    v = board.variant
    if v.board == "octagon":
        raise FormatError("the octagon has no GGF board type", "octagon")
    if v.players != 2 or v.free_opening or v.blocked:
        raise FormatError(f"GGF cannot hold a {v.label} game", "variant", variant=v.label)
    given_start = start is not None
    if start is None:
        start = Board(v)  # a handicap's corner stones are part of it, and so of BO
    size = v.geometry.width
    if result is None:
        counts = board.counts()
        result = GgfResult(float(counts["black"] - counts["white"])) if board.is_game_over() else GgfResult(None)
    squares = write_board_string(start, style=".*O", side=False).replace(".", "-")
    rows = " ".join(squares[i:i + size] for i in range(0, len(squares), size))
    bo = f"{size} {rows} {'*' if start.turn == 'black' else 'O'}"
    props = [("GM", "Othello"), ("PC", place), ("DT", date), ("PB", black), ("PW", white)]
    if black_rating is not None:
        props.append(("RB", f"{black_rating:.2f}"))
    if white_rating is not None:
        props.append(("RW", f"{white_rating:.2f}"))
    props += [("TI", time_control), ("TY", f"{size}{'a' if v.anti else ''}"), ("RE", str(result)), ("BO", bo)]
    props = [(k, _escape(val)) for k, val in props if val != "" or k in ("PB", "PW")]
    for colour, move in zip(_colours_of(start, board.history), board.history):
        props.append(("B" if colour == "black" else "W", "PA" if move == "pass" else move))
    if given_start:  # the history must be a game from that position
        replay = start.copy(history=False)
        for move in board.history:
            replay.push(move)
    else:
        replay = board.copy()
    return GgfGame(props, v, start.copy(history=False), replay, list(board.history))


def _colours_of(start: Board, moves) -> list[str]:
    colours = start.colours
    first = colours.index(start.turn)
    return [colours[(first + i) % len(colours)] for i in range(len(moves))]
