"""WTHOR files written from the published layout, independently of the reader
(study/formats/wthor.py): a 16-byte header, then 68-byte game records or 20-
and 26-byte Latin-1 names, all little-endian."""

import struct


def header(games=0, records=0, year=2004, board_size=8, game_type=0, depth=22, created=(2026, 12, 7)):
    century, yy = divmod(created[0], 100)
    return bytes([century, yy, created[1], created[2]]) + struct.pack("<IHHBBBB", games, records, year, board_size,
                                                                       game_type, depth, 0)


def move_code(square):
    """'f5' -> 56: 10 x row + column."""
    return 10 * int(square[1:]) + "abcdefgh".index(square[0]) + 1


def record(moves, tournament=0, black=0, white=0, black_discs=32, theoretical=32, codes=None):
    """One 68-byte game record; ``moves`` are squares (passes left out, as WTHOR does)."""
    body = bytes(codes) if codes is not None else bytes(move_code(m) for m in moves if m != "pass")
    return struct.pack("<HHHBB", tournament, black, white, black_discs, theoretical) + body.ljust(60, b"\0")


def database(games, year=2004, **fields):
    """A database of ``games``: dicts of record()'s arguments, or move lists."""
    records = [record(g) if isinstance(g, (list, tuple)) else record(**g) for g in games]
    return header(games=len(records), year=year, **fields) + b"".join(records)


def names(items, size):
    """A .JOU (size 20) or .TRN (size 26) file."""
    return header(records=len(items), board_size=0, depth=0) + b"".join(
        n.encode("latin-1")[:size - 1].ljust(size, b"\0") for n in items)
