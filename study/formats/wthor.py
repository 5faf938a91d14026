"""WTHOR databases, the French federation's archive of tournament games.

A database (``WTH_2004.wtb``) is a 16-byte header, then one 68-byte record a
game; the names the records point to are in two files of the same header and
fixed-size Latin-1 names, ``WTHOR.JOU`` (players, 20 bytes) and ``WTHOR.TRN``
(tournaments, 26 bytes).  All numbers are little-endian.

Header (16 bytes)::

    0  century of the file's date     1  year    2  month    3  day
    4  number of games (4 bytes)       8  number of records of a name file (2)
    10 year of the games (2)           12 board size (0 or 8: 8x8)
    13 game type (1: solitaires)       14 depth of the theoretical score
    15 reserved

Game record (68 bytes)::

    0  tournament (2)   2  black player (2)   4  white player (2)
    6  black's discs at the end (1)   7  theoretical score (1)
    8  60 moves, one byte each: 10 x row + column (both 1-8), 0 after the end

Passes are not stored: :func:`iter_games` infers them while it checks every
move with the rules.  It is a generator reading one record at a time, so a
database of any size is read in constant memory; a bad record raises a
FormatError naming the game (1-based), the move and why.  Only 8x8 databases
exist in practice; any other board size is refused.
"""

from __future__ import annotations

import io
import struct
from dataclasses import dataclass

from games.rules import Board, IllegalMoveError, Variant

from .errors import FormatError

__all__ = ["HEADER", "RECORD", "WthorGame", "WthorHeader", "iter_games", "read_header", "read_names",
           "read_players", "read_tournaments"]

HEADER = struct.Struct("<BBBBIHHBBBB")
RECORD = struct.Struct("<HHHBB60s")
PLAYER_NAME, TOURNAMENT_NAME = 20, 26

_VARIANT = Variant()
_G = _VARIANT.geometry
# move code -> (square name, bit) for the 64 valid codes
_CODES = {10 * r + c: (f"{'abcdefgh'[c - 1]}{r}", _G.bit(f"{'abcdefgh'[c - 1]}{r}"))
          for r in range(1, 9) for c in range(1, 9)}
_START = Board(_VARIANT).bits


@dataclass(frozen=True)
class WthorHeader:
    """The 16 bytes that open a database or a name file."""

    created: tuple[int, int, int]  # (year, month, day) the file was written
    games: int
    records: int
    year: int
    board_size: int
    game_type: int
    depth: int


@dataclass(frozen=True)
class WthorGame:
    """One game of a database.  ``moves`` are the stored squares (no passes);
    ``passes`` counts the passes the replay inferred.  ``black``, ``white``
    and ``tournament`` are names when name files were given, else indices."""

    number: int
    year: int
    tournament: str | int
    black: str | int
    white: str | int
    black_discs: int
    theoretical_score: int
    moves: tuple[str, ...]
    passes: int

    @property
    def transcript(self) -> str:
        return "".join(self.moves)


def read_header(data: bytes, what: str = "database") -> WthorHeader:
    """The header of a database or name file (its first 16 bytes)."""
    if len(data) < HEADER.size:
        raise FormatError(f"a WTHOR {what} starts with a 16-byte header; the file has {len(data)} bytes",
                          "header", size=len(data))
    century, year, month, day, games, records, games_year, size, kind, depth, _ = HEADER.unpack_from(data)
    return WthorHeader((century * 100 + year, month, day), games, records, games_year, size, kind, depth)


def read_names(data: bytes, record_size: int, what: str = "name file") -> list[str]:
    """The names of a ``.JOU`` (record_size 20) or ``.TRN`` (26) file."""
    header = read_header(data, what)
    body = data[HEADER.size:]
    if len(body) < header.records * record_size:
        raise FormatError(f"the {what} announces {header.records} names of {record_size} bytes but holds "
                          f"{len(body) // record_size}", "names-truncated", expected=header.records)
    return [body[i * record_size:(i + 1) * record_size].split(b"\0", 1)[0].decode("latin-1").strip()
            for i in range(header.records)]


def read_players(data: bytes) -> list[str]:
    return read_names(data, PLAYER_NAME, "player file (.JOU)")


def read_tournaments(data: bytes) -> list[str]:
    return read_names(data, TOURNAMENT_NAME, "tournament file (.TRN)")


def _name(table, index: int, what: str, number: int):
    if table is None:
        return index
    if index >= len(table):
        raise FormatError(f"{what} {index} is not in the name file ({len(table)} names)", "unknown-name",
                          game=number, index=index, table=what)
    return table[index]


def _illegal(moves: list[str], number: int) -> FormatError:
    """The precise error for the last of ``moves``: replayed on a Board, which
    knows the rules' reason."""
    board = Board(_VARIANT)
    for i, square in enumerate(moves, 1):
        if board.must_pass():
            board.push("pass")
        try:
            board.push(square)
        except IllegalMoveError as exc:
            return FormatError(f"{square} is illegal: {exc}", "illegal-move", game=number, move=i, square=square,
                               reason=exc.reason)
    raise AssertionError("the moves replay")  # pragma: no cover - only called for an illegal move


def _replay(codes: bytes, number: int) -> tuple[tuple[str, ...], int]:
    """The squares of a record's moves and the passes they imply; bitboards
    for speed, the Board only to explain an illegal move."""
    own, opp = _START
    moves: list[str] = []
    passes = 0
    for i, code in enumerate(codes, 1):
        if code == 0:
            if any(codes[i:]):
                raise FormatError(f"a move follows the end of the game (byte {i + 8} is 0)", "move-after-end",
                                  game=number, move=i + 1)
            break
        entry = _CODES.get(code)
        if entry is None:
            raise FormatError(f"{code} is no square (10 x row + column, 11 to 88)", "move-code", game=number, move=i,
                              value=code)
        square, bit = entry
        # a move is legal when its square is empty and it flips; only when it flips
        # nothing is the full move list needed, to see whether the side to move passes
        f = 0 if bit & (own | opp) else _G.flips(bit, own, opp)
        if not f and not bit & (own | opp) and not _G.moves(own, opp) and _G.moves(opp, own):
            own, opp = opp, own  # the side to move has none: it passes
            passes += 1
            f = _G.flips(bit, own, opp)
        if not f:
            raise _illegal(moves + [square], number)
        own, opp = opp & ~f, own | bit | f
        moves.append(square)
    return tuple(moves), passes


def iter_games(stream, players: list[str] | None = None, tournaments: list[str] | None = None):
    """Yield the games of a WTHOR database (a binary file object or bytes),
    one record at a time; FormatError names the game, the move and why."""
    if isinstance(stream, (bytes, bytearray, memoryview)):
        stream = io.BytesIO(bytes(stream))
    header = read_header(stream.read(HEADER.size))
    if header.board_size not in (0, 8):
        raise FormatError(f"a {header.board_size}x{header.board_size} database is not supported (8x8 only)",
                          "board-size", size=header.board_size)
    for number in range(1, header.games + 1):
        record = stream.read(RECORD.size)
        if len(record) < RECORD.size:
            raise FormatError(f"the file ends inside game {number} of the {header.games} its header announces",
                              "truncated", game=number, expected=header.games)
        tournament, black, white, discs, theoretical, codes = RECORD.unpack(record)
        if discs > 64:
            raise FormatError(f"black's {discs} discs are more than the board holds", "discs", game=number,
                              discs=discs)
        moves, passes = _replay(codes, number)
        yield WthorGame(number, header.year, _name(tournaments, tournament, "tournament", number),
                        _name(players, black, "player", number), _name(players, white, "player", number),
                        discs, theoretical, moves, passes)
    if stream.read(1):
        raise FormatError(f"the file goes on after the {header.games} games its header announces", "trailing",
                          game=header.games + 1, expected=header.games)
