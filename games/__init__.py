"""The rules of Reversi and its variants (RULES §1-§10), standard library only.

    from games import Variant, Board, IllegalMoveError, InvalidVariantError

``Variant`` (games.variant) describes board, players and options; ``Board``
(games.board) is a position with its history; the bitboard primitives the
computer players build on live in games.geometry; perft in games.perft and
``python -m games perft``.  Nothing here imports Django.
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
