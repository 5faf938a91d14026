"""Names of the classic 8x8 Othello openings, matched along a game.

    >>> from study.openings import name_of
    >>> [o.english if o else None for o in name_of("f5d6c3d3c4b3")][-2:]
    ['Tiger', 'Aubrey']

The named lines are in ``study/data/openings.txt``, written from the first move
f5.  They are kept in a trie of moves; walking a game down it costs one dict
look-up a ply.  The start position is symmetric, and so are some positions
later on (after f5 f6 e6 the replies d6 and f4 are one move seen in a mirror):
each trie node knows the symmetries that keep its position, and when the game's
move is not a child of the node, the walk tries it through those symmetries and
from then on maps every move of the game the same way.  So a game that starts
d3, c4 or e6, or takes the mirrored branch of a symmetric position, finds the
same names without replaying the game on a board.

Standard library and games.rules only (no Django): it runs in a bare python3 and
in a worker.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from games.rules import Board, IllegalMoveError, Variant
from games.rules.geometry import SYMMETRIES
from games.rules.notation import NotationError, parse_transcript

__all__ = ["DATA", "Opening", "OpeningBook", "book", "name_of", "opening_of"]

DATA = Path(__file__).resolve().parent / "data" / "openings.txt"

_VARIANT = Variant()


@dataclass(frozen=True)
class Opening:
    """One named line: its moves from f5, its English and German names, and
    other names it goes by."""

    moves: tuple[str, ...]
    english: str
    german: str
    aliases: tuple[str, ...] = ()

    def name(self, language: str = "en") -> str:
        """The name in ``language`` ("de" gives the German one)."""
        return self.german if language.split("-")[0].lower() == "de" else self.english

    @property
    def transcript(self) -> str:
        return "".join(self.moves)


class _Node:
    __slots__ = ("children", "opening", "stabiliser")

    def __init__(self, board: Board):
        self.children: dict[str, _Node] = {}
        self.opening: Opening | None = None
        # square maps of the symmetries (other than the identity) that keep this position
        self.stabiliser = tuple(_SQUARE_MAPS[k] for k in range(1, len(SYMMETRIES)) if board.transform(k) == board)


def _square_maps() -> tuple[dict[str, str], ...]:
    g = _VARIANT.geometry
    names = g.names(g.playable)
    return tuple({n: g.transform_name(n, k) for n in names} for k in range(len(SYMMETRIES)))


_SQUARE_MAPS = _square_maps()
_IDENTITY = _SQUARE_MAPS[0]


class OpeningBook:
    """The named openings as a trie; see the module docstring."""

    def __init__(self, openings):
        self.openings: list[Opening] = []
        start = Board(_VARIANT)
        self._root = _Node(start)
        boards = {self._root: start}  # each node's position, needed only while building
        for opening in openings:
            self._insert(opening, boards)

    def _insert(self, opening: Opening, boards: dict) -> None:
        node, mapping = self._root, _IDENTITY
        board = boards[node]
        for number, move in enumerate(opening.moves, 1):
            found = self._step(node, mapping, move)
            if found is not None:
                node, mapping = found
                board = boards[node]
                continue
            square = mapping.get(move, move)
            child_board = board.copy(history=False)
            try:
                child_board.push(square)
            except IllegalMoveError as exc:
                raise ValueError(f"{opening.english}: move {number} ({move}) is illegal: {exc}") from None
            child = node.children[square] = _Node(child_board)
            boards[child] = child_board
            node, board = child, child_board
        if node.opening is not None:
            raise ValueError(f"{opening.english} repeats the line of {node.opening.english}")
        node.opening = opening
        self.openings.append(opening)

    @staticmethod
    def _step(node: _Node, mapping: dict, move: str):
        """(child, mapping) for ``move`` of the game at ``node``, or None."""
        square = mapping.get(move)
        child = node.children.get(square)
        if child is not None:
            return child, mapping
        for symmetry in node.stabiliser:
            other = symmetry.get(square)
            child = node.children.get(other)
            if child is not None:
                return child, {m: symmetry[s] for m, s in mapping.items()}
        return None

    def names_along(self, moves) -> list[Opening | None]:
        """The opening at each ply of ``moves`` (a transcript or a list of
        moves): the longest named line followed so far, ``None`` before the
        first.  Once the game leaves the book the last name stays."""
        if isinstance(moves, str):
            moves = parse_transcript(moves)
        names: list[Opening | None] = []
        node, mapping, current = self._root, _IDENTITY, None
        for move in moves:
            if node is not None:
                found = self._step(node, mapping, move.lower()) if isinstance(move, str) else None
                if found is None:
                    node = None
                else:
                    node, mapping = found
                    current = node.opening or current
            names.append(current)
        return names

    def opening_of(self, moves) -> Opening | None:
        """The opening of the whole game (the last of :meth:`names_along`)."""
        names = self.names_along(moves)
        return names[-1] if names else None


def read_openings(path: Path = DATA) -> list[Opening]:
    """The openings of the data file (``moves | English | German | other names``)."""
    openings = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        fields = [f.strip() for f in line.split("|")]
        if len(fields) != 4 or not fields[1]:
            raise ValueError(f"{path.name} line {number}: expected 'moves | English | German | other names'")
        try:
            moves = tuple(parse_transcript(fields[0]))
        except NotationError as exc:
            raise ValueError(f"{path.name} line {number}: {exc}") from None
        aliases = tuple(a.strip() for a in fields[3].split(",") if a.strip())
        openings.append(Opening(moves, fields[1], fields[2] or fields[1], aliases))
    return openings


@lru_cache(maxsize=1)
def book() -> OpeningBook:
    """The book of the shipped data file, built once a process."""
    return OpeningBook(read_openings())


def name_of(moves) -> list[Opening | None]:
    """The opening at each ply of a game (see :meth:`OpeningBook.names_along`)."""
    return book().names_along(moves)


def opening_of(moves) -> Opening | None:
    """The opening of a whole game, or None."""
    return book().opening_of(moves)
