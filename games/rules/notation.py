"""Game records and transcripts (docs/rules.md §10).

A transcript is the usual Othello form: the moves concatenated, passes left
out (``f5d6c3d3c4``).  Reading is lenient about form and strict about
content: upper or lower case, with or without separators (spaces, commas,
semicolons, dots, dashes, slashes), move numbers such as ``1.``, and written
passes (``pass``) are all accepted; anything else is a :class:`NotationError`
naming the character where reading stopped.  A square is a column letter
``a``-``j`` and a row ``1``-``10``; ``j10`` is three characters, and a ``1``
followed by ``0`` is always read as row 10.
"""

from __future__ import annotations

import re

__all__ = ["NotationError", "parse_transcript", "format_transcript"]


class NotationError(ValueError):
    """A transcript that cannot be read; ``number`` is the 1-based number of
    the move where reading stopped."""

    def __init__(self, message: str, number: int | None = None):
        super().__init__(message)
        self.number = number


_TOKEN = re.compile(
    r"(?P<square>[a-j](?:10|[1-9]))|(?P<pass>pass)|(?P<sep>(?:\d+\.+|[\s,;:.\-/|_])+)",
    re.IGNORECASE,
)


def parse_transcript(text: str) -> list[str]:
    """The moves of a transcript as lower-case square names and ``"pass"``."""
    if not isinstance(text, str):
        raise NotationError(f"a transcript is text, not {type(text).__name__}")
    moves: list[str] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            number = len(moves) + 1
            raise NotationError(
                f"move {number}: cannot read {text[pos:pos + 6]!r} (character {pos + 1} of the transcript)",
                number=number,
            )
        if m.group("square"):
            moves.append(m.group("square").lower())
        elif m.group("pass"):
            moves.append("pass")
        pos = m.end()
    return moves


def format_transcript(moves) -> str:
    """Concatenate the moves, leaving passes out."""
    return "".join(m for m in moves if m != "pass")
