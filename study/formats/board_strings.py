"""A position in one line: the squares row by row from a1, then the side to move.

    >>> text = "-" * 27 + "OX------XO" + "-" * 27 + " X"
    >>> read_board_string(text).board.render().splitlines()[3]
    '...OX...'

Two alphabets are in use: ``-XO`` (the FFO test set, Edax) and ``.*O`` (GGF,
WZebra); upper or lower case, spaces anywhere.  ``#`` is a removed square (the
octagon's cuts, blocked squares).  The side to move follows the squares: ``X``,
``*``, ``B`` or ``black`` for black, ``O``, ``W`` or ``white`` for white; left
out, it is black.  The board is told by the length (36, 64 or 100 squares; a
100-square string whose cut corners are ``#`` is the octagon) unless a variant
is given.  The position itself is games.rules.Board.parse's.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.rules import Board, Variant
from games.rules.geometry import octagon_cut_names

from .errors import FormatError

__all__ = ["STYLES", "BoardString", "board_from_squares", "read_board_string", "write_board_string"]

#: style -> (empty, black, white)
STYLES = {"-XO": ("-", "X", "O"), ".*O": (".", "*", "O")}

_CHARS = {"-": ".", ".": ".", "x": "X", "*": "X", "o": "O", "0": "O", "#": "#"}
_SIDES = {"x": "black", "*": "black", "b": "black", "black": "black",
          "o": "white", "w": "white", "white": "white", "0": "white"}
_BOARDS = {36: "6x6", 64: "8x8", 100: "10x10"}


@dataclass(frozen=True)
class BoardString:
    """A read board string: the position (a Board with no history) and the
    alphabet it was written in, so it can be written back the same way."""

    board: Board
    style: str

    def __str__(self) -> str:
        return write_board_string(self.board, self.style)


def _variant_for(squares: str) -> Variant:
    board = _BOARDS.get(len(squares))
    if board is None:
        raise FormatError(f"a board string has 36, 64 or 100 squares, not {len(squares)}", "length",
                          length=len(squares))
    if board == "10x10":
        if all(squares[(int(n[1:]) - 1) * 10 + "abcdefghij".index(n[0])] == "#" for n in octagon_cut_names()):
            return Variant(board="octagon")
    return Variant(board=board)


def board_from_squares(squares: str, variant: Variant, turn: str) -> Board:
    """A Board with ``squares`` (one character a square, row by row from a1, in
    either alphabet) and ``turn`` to move; FormatError naming the square."""
    g = variant.geometry
    if len(squares) != g.width * g.height:
        raise FormatError(f"the {g.board} board has {g.width * g.height} squares, the string {len(squares)}",
                          "length", length=len(squares))
    rows = []
    for r in range(g.height):
        row = []
        for c in range(g.width):
            ch = squares[r * g.width + c]
            mapped = _CHARS.get(ch.lower())
            if mapped is None:
                name = g.square_name(g.cell_index(c, r))
                raise FormatError(f"{ch!r} at {name} is no stone (use - . X * O)", "character", square=name,
                                  character=ch)
            row.append(mapped)
        rows.append("".join(row))
    try:
        return Board.parse("\n".join(rows), variant, turn=turn)
    except ValueError as exc:
        raise FormatError(str(exc), "position") from None


def read_board_string(text: str, variant: Variant | None = None) -> BoardString:
    """The position of a board string; FormatError on a malformed one."""
    if not isinstance(text, str):
        raise FormatError(f"a board string is text, not {type(text).__name__}", "unreadable")
    compact = "".join(text.split())
    size = variant.geometry.width * variant.geometry.height if variant else None
    if size is None:
        # the squares, then at most a word ("white") for the side
        size = next((n for n in (100, 64, 36) if n <= len(compact) <= n + 5), len(compact))
    squares, side = compact[:size], compact[size:]
    turn = _SIDES.get(side.lower()) if side else "black"
    if turn is None:
        raise FormatError(f"the side to move is X, *, O, black or white, not {side!r}", "side", side=side)
    variant = variant or _variant_for(squares)
    style = ".*O" if any(ch in ".*" for ch in squares) else "-XO"
    return BoardString(board_from_squares(squares, variant, turn), style)


def write_board_string(board: Board, style: str = "-XO", side: bool = True) -> str:
    """The position of ``board`` as a board string in ``style`` (``-XO`` or
    ``.*O``), with the side to move unless ``side`` is false."""
    if style not in STYLES:
        raise ValueError(f"style is one of {', '.join(STYLES)}")
    if len(board.colours) != 2:
        raise FormatError("a board string holds a two-player position", "players")
    empty, black, white = STYLES[style]
    table = str.maketrans({".": empty, "X": black, "O": white})
    squares = "".join(board.render().split()).translate(table)
    if not side:
        return squares
    return f"{squares} {black if board.turn == 'black' else white}"
