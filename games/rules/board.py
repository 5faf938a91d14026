"""A game position with its history: docs/rules.md §2-§5, §7, §8.

>>> b = Board(Variant())
>>> b.legal_moves
['d3', 'c4', 'f5', 'e6']
>>> b.push("d3"); b.turn
'white'

``Board`` keeps one bitboard per colour (turn order), one for the neutral
stone, the index of the colour to move and a stack of snapshots, so ``pop``
restores a position exactly.  The bit layout and the primitives are those of
:mod:`games.rules.geometry`.

The text form of a position (``render`` / ``parse``) is
:mod:`games.rules.position_text`'s.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .geometry import SYMMETRIES
from .notation import NotationError, format_transcript, parse_transcript
from .position_text import parse_stones, render_stones
from .variant import COLOURS, Variant

__all__ = ["Board", "IllegalMoveError", "Outcome"]

# kinds of the side to move's situation
_PLACE, _OPENING, _PASS, _OVER = 0, 1, 2, 3


class IllegalMoveError(ValueError):
    """A move that the rules do not allow.  ``reason`` is which rule, one of the
    codes of ``REASONS`` (set where the rules decide it; the message says it in
    English); ``number`` (1-based position in an imported transcript) and
    ``move`` are set when known."""

    REASONS = {
        "unreadable": "not a square name or 'pass' (or transcript text that cannot be read)",
        "not-a-square": "no square of this board has that name",
        "removed": "the square is blocked or cut off (octagon)",
        "game-over": "the game is over",
        "must-pass": "the side to move has no legal move and must pass",
        "may-not-pass": "a pass while the side to move has a legal move",
        "occupied": "the square is already taken",
        "not-centre": "free opening: the first four moves go on the central squares",
        "no-flips": "the square brackets no line of stones, and a move that does exists",
        "not-adjacent": "3-4 players, no flipping move: the square touches no stone",
    }

    def __init__(self, message: str, move: str | None = None, number: int | None = None, *,
                 reason: str):
        assert reason in self.REASONS, reason
        super().__init__(message)
        self.reason = reason
        self.move = move
        self.number = number


@dataclass(frozen=True)
class Outcome:
    """The result of a finished game.

    ``winner`` is a colour, or ``None`` for a draw (in 3-4 player games a
    shared top is a draw for the whole table).  ``counts`` are the stones of
    each colour as they stand (the neutral stone counts for nobody).  ``score``
    is the official score: in a two-player Reversi game the empty squares go to
    the winner, and a draw is half of the playable squares each; in Anti and
    in 3-4 player games it equals ``counts``.  ``ranking`` groups the colours
    from best to worst (tied colours share a group).  ``termination`` is
    ``"board_full"``, ``"no_moves"`` (two players, neither can move) or
    ``"cut_off"`` (3-4 players, no empty square touches a stone); a two-player
    game ended early (Board.decided) has ``"decided"`` or ``"agreement"``.
    """

    winner: str | None
    counts: dict
    score: dict
    ranking: tuple = ()
    termination: str = "board_full"

    @property
    def is_draw(self) -> bool:
        return self.winner is None

    def to_dict(self) -> dict:
        return {
            "winner": self.winner,
            "counts": dict(self.counts),
            "score": dict(self.score),
            "ranking": [list(g) for g in self.ranking],
            "termination": self.termination,
        }


class Board:
    """A position of ``variant`` together with the moves that led to it."""

    __slots__ = ("variant", "geometry", "colours", "_bits", "_neutral", "_turn", "_stack", "_cache")

    def __init__(self, variant: Variant | None = None):
        variant = Variant() if variant is None else variant
        if not isinstance(variant, Variant):
            raise TypeError(f"Board needs a Variant, not {type(variant).__name__}")
        self.variant = variant
        g = self.geometry = variant.geometry
        self.colours = variant.colours
        w, h = g.width, g.height
        ul = 1 << g.cell_index(w // 2 - 1, h // 2 - 1)
        ur = 1 << g.cell_index(w // 2, h // 2 - 1)
        ll = 1 << g.cell_index(w // 2 - 1, h // 2)
        lr = 1 << g.cell_index(w // 2, h // 2)
        bits = [0] * variant.players
        neutral = 0
        if variant.players == 2:
            if not variant.free_opening:
                bits[0] = ur | ll
                bits[1] = ul | lr
            if variant.handicap:
                who = COLOURS.index(variant.handicap_colour)
                for c, r in g.corner_cells[: variant.handicap]:
                    bits[who] |= 1 << g.cell_index(c, r)
        else:
            bits[0], bits[1], bits[2] = ur, lr, ll
            if variant.players == 4:
                bits[3] = ul
            else:
                neutral = ul
        self._bits = tuple(bits)
        self._neutral = neutral
        self._turn = 0
        self._stack: list = []
        self._cache = None

    # -- state ------------------------------------------------------------
    @property
    def turn(self) -> str:
        """The colour to move."""
        return self.colours[self._turn]

    @property
    def turn_index(self) -> int:
        return self._turn

    @property
    def bits(self) -> tuple[int, ...]:
        """One bitboard per colour, in turn order (see games.rules.geometry)."""
        return self._bits

    @property
    def neutral(self) -> int:
        return self._neutral

    @property
    def occupied(self) -> int:
        occ = self._neutral
        for b in self._bits:
            occ |= b
        return occ

    @property
    def ply(self) -> int:
        """Plies pushed since the start (passes included)."""
        return len(self._stack)

    @property
    def history(self) -> tuple[str, ...]:
        """The moves pushed since the start, ``"pass"`` included."""
        return tuple(entry[3] for entry in self._stack)

    def _situation(self) -> tuple[int, int]:
        """(kind, mask of legal squares) for the side to move, cached."""
        c = self._cache
        if c is None:
            c = self._cache = self._compute_situation()
        return c

    def _compute_situation(self) -> tuple[int, int]:
        g = self.geometry
        own = self._bits[self._turn]
        occ = self.occupied
        if self.variant.free_opening and g.centre & ~occ:
            return _OPENING, g.centre & ~occ
        opp = occ ^ own
        m = g.moves(own, opp)
        if m:
            return _PLACE, m
        if len(self._bits) == 2:
            return (_PASS if g.moves(opp, own) else _OVER), 0
        fallback = g.neighbours(occ) & ~occ
        return (_PLACE if fallback else _OVER), fallback

    @property
    def legal_bits(self) -> int:
        """Mask of the squares the side to move may play (0 for a pass or at the end)."""
        return self._situation()[1]

    @property
    def legal_moves(self) -> list[str]:
        """Square names in board order; ``["pass"]`` when a two-player side must
        pass; ``[]`` when the game is over."""
        kind, mask = self._situation()
        if kind == _PASS:
            return ["pass"]
        return self.geometry.names(mask)

    def is_legal(self, move: str) -> bool:
        try:
            self._check(move)
        except IllegalMoveError:
            return False
        return True

    def is_game_over(self) -> bool:
        return self._situation()[0] == _OVER

    def must_pass(self) -> bool:
        return self._situation()[0] == _PASS

    # -- moves ------------------------------------------------------------
    def _check(self, move: str) -> tuple[int, int]:
        """Validate ``move``; return (bit, flips), bit 0 for a pass."""
        kind, mask = self._situation()
        if not isinstance(move, str):
            raise IllegalMoveError(f"a move is a square name or 'pass', not {move!r}", move=None,
                                   reason="unreadable")
        name = move.strip().lower()
        colour = self.turn
        if name == "pass":
            if kind == _PASS:
                return 0, 0
            if kind == _OVER:
                raise IllegalMoveError("the game is over", move=name, reason="game-over")
            raise IllegalMoveError(f"{colour} has a legal move and may not pass", move=name,
                                   reason="may-not-pass")
        g = self.geometry
        try:
            bit = g.bit(name)
        except ValueError:
            raise IllegalMoveError(f"{move!r} is not a square of the {g.board} board", move=name,
                                   reason="not-a-square") from None
        if kind == _OVER:
            raise IllegalMoveError("the game is over", move=name, reason="game-over")
        if kind == _PASS:
            raise IllegalMoveError(f"{colour} has no legal move and must pass", move=name, reason="must-pass")
        if not bit & g.playable:
            raise IllegalMoveError(f"{name} is removed from the board", move=name, reason="removed")
        if bit & self.occupied:
            raise IllegalMoveError(f"{name} is already taken", move=name, reason="occupied")
        if not bit & mask:
            if kind == _OPENING:
                reason, why = "not-centre", "the first four moves go on the central squares"
            elif len(self._bits) == 2 or g.moves(self._bits[self._turn], self.occupied ^ self._bits[self._turn]):
                reason, why = "no-flips", "it brackets no line of stones"
            else:
                reason, why = "not-adjacent", "it touches no stone"
            raise IllegalMoveError(f"{name} is not a legal move for {colour}: {why}", move=name, reason=reason)
        if kind == _OPENING:
            return bit, 0
        own = self._bits[self._turn]
        return bit, g.flips(bit, own, self.occupied ^ own)

    def flips(self, move: str) -> list[str]:
        """Names of the stones ``move`` would flip (IllegalMoveError if illegal)."""
        return self.geometry.names(self._check(move)[1])

    def push(self, move: str) -> None:
        """Play ``move`` (a square name or ``"pass"``) for the side to move.
        Raises IllegalMoveError, leaving the board unchanged, if it is illegal."""
        bit, f = self._check(move)
        name = "pass" if not bit else self.geometry.square_name(bit.bit_length() - 1)
        self._stack.append((self._bits, self._neutral, self._turn, name, f, self._cache))
        if bit:
            t = self._turn
            keep = ~f
            self._bits = tuple((b | bit | f) if i == t else (b & keep) for i, b in enumerate(self._bits))
            self._neutral &= keep
        self._turn = (self._turn + 1) % len(self._bits)
        self._cache = None

    def pop(self) -> str:
        """Undo the last ply and return its move; IndexError at the start."""
        if not self._stack:
            raise IndexError("pop from a board with no moves")
        self._bits, self._neutral, self._turn, name, _f, self._cache = self._stack.pop()
        return name

    @property
    def last_flips(self) -> list[str]:
        """Stones flipped by the last ply (empty after a pass or at the start)."""
        return self.geometry.names(self._stack[-1][4]) if self._stack else []

    # -- results ------------------------------------------------------------
    def counts(self) -> dict[str, int]:
        """Stones of each colour as they stand."""
        return {c: b.bit_count() for c, b in zip(self.colours, self._bits)}

    def outcome(self) -> Outcome | None:
        """``None`` while the game goes on; else the Outcome (docs/rules.md §4, §8)."""
        if not self.is_game_over():
            return None
        anti = self.variant.anti
        counts = self.counts()
        g = self.geometry
        empties = g.playable_count - self.occupied.bit_count()
        values = sorted(set(counts.values()), reverse=not anti)
        ranking = tuple(tuple(c for c in self.colours if counts[c] == v) for v in values)
        winner = ranking[0][0] if len(ranking[0]) == 1 else None
        score = dict(counts)
        if len(self.colours) == 2 and not anti:
            if winner is None:
                score = {c: g.playable_count // 2 for c in self.colours}
            else:
                score[winner] += empties
        if empties == 0:
            termination = "board_full"
        else:
            termination = "no_moves" if len(self.colours) == 2 else "cut_off"
        return Outcome(winner=winner, counts=counts, score=score, ranking=ranking, termination=termination)

    def decided(self, loser: str | None) -> Outcome:
        """The Outcome of a two-player game that ends before the board does
        (docs/rules.md §4.1): ``loser`` ran out of time, resigned or had the win
        claimed against them; ``None`` is a draw by agreement.

        The stones stand as they are. Reversi: the winner takes the empty squares,
        and if that still would not put them ahead, the score is the smallest win
        (33-31 on 8x8). Anti: the winner needs fewer stones; if they have not, the
        loser is given one stone more than the winner. A draw is half of the
        playable squares each (Anti: the stones as they stand).
        """
        if len(self.colours) != 2:
            raise ValueError("only a two-player game is decided this way; with more, the leaver ranks last")
        if loser is not None and loser not in self.colours:
            raise ValueError(f"no such colour: {loser!r}")
        counts = self.counts()
        anti = self.variant.anti
        playable = self.geometry.playable_count
        termination = "agreement" if loser is None else "decided"
        if loser is None:
            score = dict(counts) if anti else {c: playable // 2 for c in self.colours}
            return Outcome(winner=None, counts=counts, score=score,
                           ranking=(tuple(self.colours),), termination=termination)
        winner = next(c for c in self.colours if c != loser)
        score = dict(counts)
        if anti:
            if score[winner] >= score[loser]:
                score[loser] = score[winner] + 1
        else:
            score[winner] = playable - score[loser]  # the empty squares go to the winner
            if score[winner] <= score[loser]:
                score = {winner: playable // 2 + 1, loser: playable - playable // 2 - 1}
        return Outcome(winner=winner, counts=counts, score=score,
                       ranking=((winner,), (loser,)), termination=termination)

    # -- views --------------------------------------------------------------
    def stones(self) -> dict[str, str]:
        """``{square: colour}`` for every stone, in board order; the neutral
        stone is ``"neutral"``."""
        owner = {}
        g = self.geometry
        for colour, b in zip(self.colours, self._bits):
            for i in g.indices(b):
                owner[i] = colour
        for i in g.indices(self._neutral):
            owner[i] = "neutral"
        return {g.square_name(i): owner[i] for i in sorted(owner)}

    def render(self, coordinates: bool = False) -> str:
        """The position as text (games.rules.position_text)."""
        return render_stones(self.geometry, self.colours, self._bits, self._neutral, coordinates)

    def __str__(self) -> str:
        return self.render(coordinates=True)

    def __repr__(self) -> str:
        return f"<Board {self.variant.label}, {self.turn} to move, ply {self.ply}>"

    @classmethod
    def parse(cls, text: str, variant: Variant | None = None, turn: str = "black") -> "Board":
        """A board holding the position ``text`` (as written by ``render``)
        with ``turn`` to move and no history.  ValueError on a malformed text."""
        board = cls(variant)
        bits, neutral = parse_stones(text, board.geometry, board.colours, board.variant.players)
        if turn not in board.colours:
            raise ValueError(f"turn must be one of {', '.join(board.colours)}, not {turn!r}")
        board._bits = bits
        board._neutral = neutral
        board._turn = board.colours.index(turn)
        return board

    # -- records ------------------------------------------------------------
    def transcript(self) -> str:
        """The moves so far, concatenated without passes (docs/rules.md §10)."""
        return format_transcript(self.history)

    @classmethod
    def from_transcript(cls, variant: Variant | None, transcript) -> "Board":
        """Replay a transcript (a string, or a list of moves) from the start of
        ``variant``.  Automatic two-player passes are re-inserted, also after
        the last move; written passes are accepted where a pass is due.  The
        first illegal move raises IllegalMoveError naming its 1-based number
        and square (also as ``.number`` and ``.move``); so does unreadable text."""
        board = cls(variant)
        try:
            moves = parse_transcript(transcript) if isinstance(transcript, str) else list(transcript)
        except NotationError as exc:
            raise IllegalMoveError(str(exc), number=exc.number, reason="unreadable") from None
        for number, move in enumerate(moves, 1):
            name = move.strip().lower() if isinstance(move, str) else move
            if name != "pass" and board.must_pass():
                board.push("pass")
            try:
                board.push(name)
            except IllegalMoveError as exc:
                raise IllegalMoveError(f"move {number} ({name}) is illegal: {exc}", move=name, number=number,
                                       reason=exc.reason) from None
        if board.must_pass():
            board.push("pass")
        return board

    # -- copying, equality, symmetry ----------------------------------------
    def copy(self, history: bool = True) -> "Board":
        """An independent copy; with ``history=False`` the copy starts at this
        position (pop cannot go further back)."""
        other = object.__new__(Board)
        other.variant = self.variant
        other.geometry = self.geometry
        other.colours = self.colours
        other._bits = self._bits
        other._neutral = self._neutral
        other._turn = self._turn
        other._stack = list(self._stack) if history else []
        other._cache = self._cache
        return other

    def position_key(self) -> tuple:
        """Hashable key of the position (variant, stones, side to move)."""
        return (self.variant, self._bits, self._neutral, self._turn)

    def __eq__(self, other) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return self.position_key() == other.position_key()

    def __hash__(self) -> int:
        return hash(self.position_key())

    def transform(self, k: int) -> "Board":
        """The position mapped by symmetry ``k`` (0-7, games.rules.geometry.SYMMETRIES)
        of the square board, with no history.  Blocked squares are mapped too,
        so the variant may differ when they are not symmetric under ``k``."""
        g = self.geometry
        if g.width != g.height:
            raise ValueError("symmetries are defined for square boards")
        if not 0 <= k < len(SYMMETRIES):
            raise ValueError("k is 0 to 7")
        blocked = tuple(g.transform_name(n, k) for n in self.variant.blocked)
        variant = replace(self.variant, blocked=blocked)
        other = Board(variant)
        other._bits = tuple(g.transform_bits(b, k) for b in self._bits)
        other._neutral = g.transform_bits(self._neutral, k)
        other._turn = self._turn
        return other
