"""The one error of the format readers and writers."""

from __future__ import annotations

__all__ = ["FormatError"]


class FormatError(ValueError):
    """Text or bytes that cannot be read as the format says, or a game that
    cannot be written in it.

    ``code`` names the rule broken (for a translated message later);
    ``game`` and ``move`` are 1-based numbers (the game in a file, the move in a
    game) when known; ``square`` is the square named by the bad move; ``reason``
    is the rules' reason code (games.rules.IllegalMoveError.REASONS) for an
    illegal move; ``params`` holds any other values the message names.  The
    English message says all of it."""

    def __init__(self, message: str, code: str, *, game: int | None = None, move: int | None = None,
                 square: str | None = None, reason: str | None = None, **params):
        prefix = []
        if game is not None:
            prefix.append(f"game {game}")
        if move is not None:
            prefix.append(f"move {move}")
        super().__init__(f"{', '.join(prefix)}: {message}" if prefix else message)
        self.detail = message
        self.code = code
        self.game = game
        self.move = move
        self.square = square
        self.reason = reason
        self.params = params

    def in_game(self, number: int) -> "FormatError":
        """The same error, naming game ``number`` of a file."""
        return FormatError(self.detail, self.code, game=number, move=self.move, square=self.square,
                           reason=self.reason, **self.params)
