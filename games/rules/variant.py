"""The variant of a game: board, players and options (docs/rules.md §1, §5-§9).

``Variant`` is a frozen, hashable dataclass.  Every combination docs/rules.md §9 (and
§6/§7 for blocked squares and the handicap) forbids raises
:class:`InvalidVariantError` whose message starts with the rule it breaks,
e.g. ``"docs/rules.md §9: the 6x6 board is offered for 2 players only"``.  Nothing is
silently adjusted, with one exception that changes no game: ``handicap_colour``
means nothing without a handicap and is stored as ``"white"`` when
``handicap == 0``, so that equal games compare (and hash) equal.

Blocked squares (docs/rules.md §6)
--------------------------
Explicit blocked squares obey exactly the rules of drawn ones: 2, 4, 6 or 8
distinct squares of the board, closed under a 180° turn (every square comes
with its twin), none in the central 4x4 block, none on an octagon cut, and no
corner when a handicap is set.  Keeping the two paths identical means an
imported or hand-written game can never hold a layout the site could not
have drawn.  The tuple is stored in board order (a1, b1, ..., a2, ...),
whatever order it was given in.  ``Variant.with_random_blocked`` /
:func:`draw_blocked` draw a layout from a seed.

Because the central 4x4 block is never blocked, every variant can start: the
first moves of the two-player start (and the 3-4 player placements) lie in
that block.  Blocked squares may cut off empty regions; such squares simply
stay empty at the end (a 2-player game ends when nobody can move, a 3-4 player
game when no empty square touches a stone).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, fields

from .geometry import BOARDS, get_geometry, octagon_cut_names

__all__ = ["Variant", "InvalidVariantError", "draw_blocked", "COLOURS"]

#: colours in turn order
COLOURS = ("black", "white", "red", "green")

_BOARD_LABELS = {"6x6": "6×6", "8x8": "8×8", "10x10": "10×10", "octagon": "Octagon"}


class InvalidVariantError(ValueError):
    """A variant breaks RULES; the message names the rule (``docs/rules.md §n: ...``).

    ``code`` says which check failed and ``params`` hold its values (square names,
    counts), so a user interface can say the same in its own words and language."""

    def __init__(self, message: str, code: str = "invalid", **params) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


def _blocked_candidates(board: str, avoid_corners: bool) -> list[str]:
    """Squares that may be blocked on ``board`` (docs/rules.md §6), in board order."""
    g = get_geometry(board)
    forbidden = g.centre_block | g.cuts
    if avoid_corners:
        forbidden |= g.mask_of_cells(g.corner_cells)
    return g.names(g.grid & ~forbidden)


def draw_blocked(board: str, count: int, rng: random.Random | None = None, avoid_corners: bool = False) -> tuple[str, ...]:
    """Draw ``count`` (2, 4, 6 or 8) blocked squares for ``board`` at random
    under docs/rules.md §6: in pairs symmetric under a 180° turn, never in the central
    4x4 block, never on an octagon cut, and never on a corner when
    ``avoid_corners`` (a handicap is set).  Returns names in board order."""
    if board not in BOARDS:
        raise InvalidVariantError(f"docs/rules.md §1: unknown board {board!r}; choose 6x6, 8x8, 10x10 or octagon",
                                  "unknown_board")
    if count not in (2, 4, 6, 8):
        raise InvalidVariantError("docs/rules.md §6: the number of blocked squares is 2, 4, 6 or 8", "blocked_count")
    rng = rng if rng is not None else random.Random()
    g = get_geometry(board)
    candidates = _blocked_candidates(board, avoid_corners)
    # one representative per 180° pair: the square that comes first in board order
    pairs = [name for name in candidates if g.square_index(name) < g.square_index(g.twin(name))]
    chosen = rng.sample(pairs, count // 2)
    names = set(chosen) | {g.twin(n) for n in chosen}
    return tuple(sorted(names, key=g.square_index))


@dataclass(frozen=True)
class Variant:
    """Board, players and options of a game; see the module docstring."""

    board: str = "8x8"
    players: int = 2
    anti: bool = False
    free_opening: bool = False
    blocked: tuple[str, ...] = ()
    handicap: int = 0
    handicap_colour: str = "white"

    def __post_init__(self) -> None:
        set_ = lambda name, value: object.__setattr__(self, name, value)  # noqa: E731

        if not isinstance(self.board, str) or self.board not in BOARDS:
            raise InvalidVariantError(
                f"docs/rules.md §1: unknown board {self.board!r}; choose 6x6, 8x8, 10x10 or octagon", "unknown_board"
            )
        if isinstance(self.players, bool) or not isinstance(self.players, int) or self.players not in (2, 3, 4):
            raise InvalidVariantError(f"docs/rules.md §8: a game has 2, 3 or 4 players, not {self.players!r}", "players")
        for name in ("anti", "free_opening"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidVariantError(f"docs/rules.md §9: {name} is true or false, not {getattr(self, name)!r}",
                                          "not_boolean", option=name)
        if isinstance(self.handicap, bool) or not isinstance(self.handicap, int) or not 0 <= self.handicap <= 4:
            raise InvalidVariantError(
                f"docs/rules.md §7: the handicap is 1 to 4 corner stones (0 for none), not {self.handicap!r}",
                "handicap_count",
            )
        if self.handicap_colour not in ("black", "white"):
            raise InvalidVariantError(
                f"docs/rules.md §7: the handicap goes to black or white, not {self.handicap_colour!r}", "handicap_colour"
            )
        if self.handicap == 0 and self.handicap_colour != "white":
            set_("handicap_colour", "white")

        # docs/rules.md §9: which options go together
        if self.players > 2:
            if self.board == "6x6":
                raise InvalidVariantError("docs/rules.md §9: the 6x6 board is offered for 2 players only",
                                          "small_board_players")
            if self.free_opening:
                raise InvalidVariantError("docs/rules.md §9: free opening is offered for 2 players only",
                                          "free_opening_players")
            if self.handicap:
                raise InvalidVariantError("docs/rules.md §9: a corner handicap is offered for 2 players only",
                                          "handicap_players")
        if self.handicap and self.board == "octagon":
            raise InvalidVariantError("docs/rules.md §9: no corner handicap on the octagon, which has no corners",
                                      "handicap_octagon")

        set_("blocked", self._checked_blocked(self.blocked))

    def _checked_blocked(self, blocked) -> tuple[str, ...]:
        if isinstance(blocked, str):
            blocked = blocked.replace(",", " ").split()
        try:
            raw = [str(name).strip().lower() for name in blocked]
        except TypeError:
            raise InvalidVariantError(f"docs/rules.md §6: blocked squares are a list of square names, not {blocked!r}",
                                      "blocked_not_list") from None
        if not raw:
            return ()
        g = get_geometry(self.board)
        for name in raw:
            try:
                g.square_index(name)
            except ValueError:
                raise InvalidVariantError(f"docs/rules.md §6: blocked square {name!r} is not on the {self.board} board",
                                          "blocked_off_board", square=name[:12]) from None
        if len(set(raw)) != len(raw):
            dup = sorted({n for n in raw if raw.count(n) > 1})
            raise InvalidVariantError(f"docs/rules.md §6: blocked square {dup[0]} is given twice", "blocked_twice",
                                      square=dup[0])
        if len(raw) not in (2, 4, 6, 8):
            raise InvalidVariantError(f"docs/rules.md §6: the number of blocked squares is 2, 4, 6 or 8, not {len(raw)}",
                                      "blocked_count")
        cuts = set(octagon_cut_names()) if self.board == "octagon" else set()
        centre = set(g.names(g.centre_block))
        corners = set(g.names(g.mask_of_cells(g.corner_cells)))
        for name in raw:
            if name in centre:
                raise InvalidVariantError(f"docs/rules.md §6: blocked square {name} lies in the central 4x4 block",
                                          "blocked_centre", square=name)
            if name in cuts:
                raise InvalidVariantError(f"docs/rules.md §6: blocked square {name} is an octagon cut", "blocked_cut",
                                          square=name)
            if self.handicap and name in corners:
                raise InvalidVariantError(
                    f"docs/rules.md §7: with a corner handicap no blocked square stands on a corner ({name})",
                    "blocked_corner", square=name,
                )
        names = set(raw)
        for name in raw:
            if g.twin(name) not in names:
                raise InvalidVariantError(
                    f"docs/rules.md §6: blocked squares are symmetric under a 180° turn; {name} needs {g.twin(name)} too",
                    "blocked_symmetry", square=name, twin=g.twin(name),
                )
        return tuple(sorted(raw, key=g.square_index))

    # -- construction helpers ----------------------------------------------
    @classmethod
    def with_random_blocked(cls, count: int, seed=None, rng: random.Random | None = None, **fields_) -> "Variant":
        """A variant with ``count`` blocked squares drawn under docs/rules.md §6 from
        ``seed`` (or from ``rng``); ``fields_`` are the other fields."""
        probe = cls(**fields_)  # validates the rest first
        if rng is None:
            rng = random.Random(seed)
        blocked = draw_blocked(probe.board, count, rng, avoid_corners=probe.handicap > 0)
        return cls(**{**fields_, "blocked": blocked})

    def to_dict(self) -> dict:
        """JSON-safe dict; ``Variant.from_dict(v.to_dict()) == v``."""
        return {
            "board": self.board,
            "players": self.players,
            "anti": self.anti,
            "free_opening": self.free_opening,
            "blocked": list(self.blocked),
            "handicap": self.handicap,
            "handicap_colour": self.handicap_colour,
        }

    @classmethod
    def from_dict(cls, data: dict) -> "Variant":
        """Inverse of :meth:`to_dict`; missing keys take their defaults."""
        if not isinstance(data, dict):
            raise InvalidVariantError(f"docs/rules.md §10: a variant is a mapping, not {type(data).__name__}", "record")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise InvalidVariantError(f"docs/rules.md §10: unknown variant field {unknown[0]!r}", "record")
        values = dict(data)
        if "blocked" in values and isinstance(values["blocked"], list):
            values["blocked"] = tuple(values["blocked"])
        return cls(**values)

    # -- derived ------------------------------------------------------------
    @property
    def geometry(self):
        return get_geometry(self.board, self.blocked)

    @property
    def colours(self) -> tuple[str, ...]:
        """The player colours in turn order."""
        return COLOURS[: self.players]

    @property
    def label(self) -> str:
        """Short human description, e.g. ``"Octagon · 3 players · Anti"``."""
        parts = [_BOARD_LABELS[self.board], f"{self.players} players"]
        if self.anti:
            parts.append("Anti")
        if self.free_opening:
            parts.append("Free opening")
        if self.blocked:
            parts.append(f"{len(self.blocked)} blocked squares")
        if self.handicap:
            s = "" if self.handicap == 1 else "s"
            parts.append(f"Handicap {self.handicap} corner{s} to {self.handicap_colour.capitalize()}")
        return " · ".join(parts)

    def __str__(self) -> str:
        return self.label
