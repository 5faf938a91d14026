"""The Othello world's formats, read and written without Django.

transcripts
    move lists as people paste them (``f5d6c3``, ``F5 D6 C3``, ``f5,d6,pa``...).
board_strings
    a position in one line, as in the FFO test set (``--XO...-- X``).
ggf
    the Generic Game Server's game files (Edax, Egaroucid, NBoard).
wthor
    the French federation's WTHOR databases (``.wtb``, ``.JOU``, ``.TRN``).

Every error is a :class:`FormatError` carrying what a translated message needs:
``code`` (which rule), ``game`` and ``move`` (1-based numbers, where known),
``square`` and ``params``.
"""

from .errors import FormatError

__all__ = ["FormatError"]
