"""Transcripts as people paste them, for every board of games.rules.

    >>> read_transcript("F5 d6 C3, pa d3").transcript()
    Traceback (most recent call last):
    ...
    study.formats.errors.FormatError: move 4: pass is illegal: white has a legal move and may not pass

The notation itself (squares ``a1``-``j10``, separators, move numbers, the word
``pass``) is games.rules.notation's; this module adds the other ways passes are
written (``PA``, ``pa``, a lone ``--``) and turns the rules' errors into a
:class:`~study.formats.errors.FormatError` that names the move number, the
square and the rules' reason.  Passes that are not written are inferred where
the rules force them (Board.from_transcript).
"""

from __future__ import annotations

import re

from games.rules import Board, IllegalMoveError, Variant
from games.rules.notation import NotationError, parse_transcript

from .errors import FormatError

__all__ = ["parse_moves", "read_transcript", "write_transcript"]

# "pa" / "PA" (GGF's and Edax's pass) or "pass", and a lone "--" (WZebra's); no square
# starts with p, and notation reads a run of dashes as a separator, so only an exact
# pair stands for a pass.
_PASS = re.compile(r"pa(?:ss)?|(?<!-)--(?!-)", re.IGNORECASE)


def parse_moves(text: str) -> list[str]:
    """The moves of ``text`` as lower-case square names and ``"pass"``;
    FormatError (code ``unreadable``) naming the move where reading stopped."""
    if not isinstance(text, str):
        raise FormatError(f"a transcript is text, not {type(text).__name__}", "unreadable")
    try:
        return parse_transcript(_PASS.sub(" pass ", text))
    except NotationError as exc:
        detail = str(exc).split(": ", 1)[-1]
        raise FormatError(detail, "unreadable", move=exc.number) from None


def read_transcript(text, variant: Variant | None = None) -> Board:
    """The game of ``text`` (or of a list of moves) replayed from the start of
    ``variant`` (8x8 by default), passes inferred where the rules force them.
    FormatError (code ``illegal-move``) names the move number, the square and
    the reason (``.reason``, one of IllegalMoveError.REASONS)."""
    moves = parse_moves(text) if isinstance(text, str) else list(text)
    try:
        return Board.from_transcript(variant, moves)
    except IllegalMoveError as exc:
        detail = str(exc).split(" is illegal: ", 1)[-1]
        square = exc.move if isinstance(exc.move, str) else None
        raise FormatError(f"{square or 'the move'} is illegal: {detail}", "illegal-move", move=exc.number,
                          square=square, reason=exc.reason) from None


def write_transcript(moves, passes: bool = False, upper: bool = False, separator: str = "") -> str:
    """``moves`` (a Board or a list of moves) as a transcript: concatenated
    lower-case squares by default; ``passes`` writes them as ``pass``;
    ``upper`` writes ``F5D6``; ``separator`` goes between the moves."""
    if isinstance(moves, Board):
        moves = moves.history
    kept = [m for m in moves if passes or m != "pass"]
    if upper:
        kept = [m.upper() for m in kept]
    return separator.join(kept)
