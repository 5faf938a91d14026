"""A position as text, the form ``Board.render`` writes and ``Board.parse`` reads.

One line per row from the top, one character per square: ``X`` black, ``O``
white, ``R`` red, ``G`` green, ``N`` the neutral stone, ``.`` empty, ``#``
removed (octagon cut or blocked).  ``render(coordinates=True)`` adds the column
letters and row numbers; ``parse`` accepts both forms and ignores spaces.

The functions work on a geometry and bitboards (one per colour in turn order,
as :class:`games.rules.board.Board` keeps them), so the board stays the one
owner of its state.
"""

from __future__ import annotations

__all__ = ["STONE_CHARS", "parse_stones", "render_stones"]

#: colour -> character in the text format
STONE_CHARS = {"black": "X", "white": "O", "red": "R", "green": "G", "neutral": "N"}

_COLUMNS = "abcdefghij"


def render_stones(geometry, colours, bits, neutral: int, coordinates: bool = False) -> str:
    """The text of the stones ``bits`` (one bitboard per colour of ``colours``)
    and the ``neutral`` stone on ``geometry``."""
    g = geometry
    chars = {}
    for colour, b in zip(colours, bits):
        for i in g.indices(b):
            chars[i] = STONE_CHARS[colour]
    for i in g.indices(neutral):
        chars[i] = "N"
    lines = []
    if coordinates:
        lines.append("   " + " ".join(_COLUMNS[: g.width]))
    for r in range(g.height):
        row = []
        for c in range(g.width):
            i = g.cell_index(c, r)
            row.append("#" if g.removed >> i & 1 else chars.get(i, "."))
        if coordinates:
            lines.append(f"{r + 1:>2} " + " ".join(row))
        else:
            lines.append("".join(row))
    return "\n".join(lines)


def parse_stones(text: str, geometry, colours, players: int) -> tuple[tuple[int, ...], int]:
    """``(bits, neutral)`` of the position ``text`` on ``geometry``: one bitboard
    per colour of ``colours``, and the neutral stone (three players only).
    ValueError on a malformed text."""
    g = geometry
    rows = []
    header = _COLUMNS[: g.width]
    for line in text.splitlines():
        line = "".join(line.split())
        if line and line != header:
            rows.append(line.lstrip("0123456789"))
    if len(rows) != g.height:
        raise ValueError(f"expected {g.height} rows for the {g.board} board, got {len(rows)}")
    colour_of = {v: k for k, v in STONE_CHARS.items()}
    allowed = {STONE_CHARS[c] for c in colours}
    if players == 3:
        allowed.add("N")
    bits = [0] * len(colours)
    neutral = 0
    for r, row in enumerate(rows):
        if len(row) != g.width:
            raise ValueError(f"row {r + 1} has {len(row)} squares, expected {g.width}")
        for c, ch in enumerate(row.upper()):
            i = g.cell_index(c, r)
            name = g.square_name(i)
            removed = bool(g.removed >> i & 1)
            if ch == "#":
                if not removed:
                    raise ValueError(f"{name} is not a removed square in this variant")
                continue
            if removed:
                raise ValueError(f"{name} is removed in this variant; write '#'")
            if ch == ".":
                continue
            if ch not in allowed:
                raise ValueError(f"unexpected {ch!r} at {name}")
            if ch == "N":
                neutral |= 1 << i
            else:
                bits[colours.index(colour_of[ch])] |= 1 << i
    return tuple(bits), neutral
