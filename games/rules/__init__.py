"""The rules of Reversi and its variants (docs/rules.md §1-§10), standard library only.

    from games.rules import Variant, Board, IllegalMoveError, InvalidVariantError

``Variant`` (variant.py) describes board, players and options; ``Board``
(board.py) is a position with its history; the bitboard primitives the
computer players build on live in geometry.py; transcripts in notation.py;
perft in perft.py and ``python -m games perft``.  Nothing here imports Django.
"""

from .board import Board, IllegalMoveError, Outcome
from .geometry import Geometry, get_geometry
from .notation import NotationError, format_transcript, parse_transcript
from .variant import COLOURS, InvalidVariantError, Variant, draw_blocked

__all__ = [
    "Board",
    "COLOURS",
    "Geometry",
    "IllegalMoveError",
    "InvalidVariantError",
    "NotationError",
    "Outcome",
    "Variant",
    "draw_blocked",
    "format_transcript",
    "get_geometry",
    "parse_transcript",
]
