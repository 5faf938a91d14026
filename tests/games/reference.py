"""A deliberately simple implementation of docs/rules.md §1-§8, for cross-checking.

Square by square on a dict of (col, row) -> colour, walking each of the eight
directions one step at a time; no bitboards and nothing shared with the
``games`` package except the Variant's field values.  Slow on purpose: it is
the second opinion the fast library is compared against.
"""

from __future__ import annotations

SIZES = {"6x6": 6, "8x8": 8, "10x10": 10, "octagon": 10}
OCTAGON_CUTS = {"a1", "b1", "a2", "i1", "j1", "j2", "a9", "a10", "b10", "j9", "i10", "j10"}
ALL_COLOURS = ["black", "white", "red", "green"]
DIRECTIONS = [(dc, dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1) if (dc, dr) != (0, 0)]


def name_of(c: int, r: int) -> str:
    return "abcdefghij"[c] + str(r + 1)


def cell_of(name: str) -> tuple[int, int]:
    return "abcdefghij".index(name[0]), int(name[1:]) - 1


class RefGame:
    def __init__(self, variant):
        self.n = n = SIZES[variant.board]
        self.players = variant.players
        self.colours = ALL_COLOURS[: self.players]
        self.free_opening = variant.free_opening
        self.anti = variant.anti
        removed = set(variant.blocked)
        if variant.board == "octagon":
            removed |= OCTAGON_CUTS
        # board order: row by row from the top, left to right
        self.squares = [(c, r) for r in range(n) for c in range(n) if name_of(c, r) not in removed]
        self.playable = set(self.squares)
        self.stone: dict[tuple[int, int], str] = {}
        h = n // 2
        self.centre = [(h - 1, h - 1), (h, h - 1), (h - 1, h), (h, h)]  # UL, UR, LL, LR
        ul, ur, ll, lr = self.centre
        if self.players == 2:
            if not self.free_opening:
                self.stone.update({ur: "black", ll: "black", ul: "white", lr: "white"})
            corners = [(0, 0), (n - 1, n - 1), (n - 1, 0), (0, n - 1)]
            for corner in corners[: variant.handicap]:
                self.stone[corner] = variant.handicap_colour
        else:
            self.stone.update({ur: "black", lr: "white", ll: "red"})
            self.stone[ul] = "green" if self.players == 4 else "neutral"
        self.turn = 0
        self.history: list[str] = []

    # -- rules ---------------------------------------------------------------
    def flips(self, cell, colour) -> list[tuple[int, int]]:
        """Stones flipped if ``colour`` plays on the empty ``cell``."""
        out = []
        for dc, dr in DIRECTIONS:
            line = []
            c, r = cell[0] + dc, cell[1] + dr
            while (c, r) in self.playable and (c, r) in self.stone and self.stone[(c, r)] != colour:
                line.append((c, r))
                c, r = c + dc, r + dr
            if line and (c, r) in self.playable and self.stone.get((c, r)) == colour:
                out.extend(line)
        return out

    def in_opening(self) -> bool:
        return self.free_opening and any(cell not in self.stone for cell in self.centre)

    def flipping_moves(self, colour) -> list[tuple[int, int]]:
        # a flipping move always touches a stone, so only those squares are tried
        return [
            cell
            for cell in self.squares
            if cell not in self.stone and self.touches_stone(cell) and self.flips(cell, colour)
        ]

    def touches_stone(self, cell) -> bool:
        return any((cell[0] + dc, cell[1] + dr) in self.stone for dc, dr in DIRECTIONS)

    def legal_moves(self) -> list[str]:
        colour = self.colours[self.turn]
        if self.in_opening():
            return [name_of(*cell) for cell in self.squares if cell in self.centre and cell not in self.stone]
        moves = self.flipping_moves(colour)
        if moves:
            return [name_of(*cell) for cell in moves]
        if self.players == 2:
            other = self.colours[1 - self.turn]
            return ["pass"] if self.flipping_moves(other) else []
        return [name_of(*cell) for cell in self.squares if cell not in self.stone and self.touches_stone(cell)]

    def play(self, move: str) -> None:
        assert move in self.legal_moves(), (move, self.legal_moves())
        self.apply(move)

    def apply(self, move: str) -> None:
        """Play a move known to be legal."""
        colour = self.colours[self.turn]
        if move != "pass":
            cell = cell_of(move)
            flipped = [] if self.in_opening() else self.flips(cell, colour)
            for f in flipped:
                self.stone[f] = colour
            self.stone[cell] = colour
        self.history.append(move)
        self.turn = (self.turn + 1) % self.players

    def copy(self) -> "RefGame":
        other = object.__new__(RefGame)
        other.__dict__.update(self.__dict__)
        other.stone = dict(self.stone)
        other.history = list(self.history)
        return other

    # -- views and results -------------------------------------------------------
    def stones(self) -> dict[str, str]:
        return {name_of(*cell): self.stone[cell] for cell in self.squares if cell in self.stone}

    def counts(self) -> dict[str, int]:
        return {c: sum(1 for v in self.stone.values() if v == c) for c in self.colours}

    def outcome(self):
        """None while playing; else (winner, counts, score)."""
        if self.legal_moves():
            return None
        counts = self.counts()
        pick = min if self.anti else max
        best = pick(counts.values())
        leaders = [c for c in self.colours if counts[c] == best]
        winner = leaders[0] if len(leaders) == 1 else None
        score = dict(counts)
        if self.players == 2 and not self.anti:
            empties = len(self.squares) - len(self.stone)
            if winner is None:
                score = {c: len(self.squares) // 2 for c in self.colours}
            else:
                score[winner] += empties
        return winner, counts, score


def perft(game: RefGame, depth: int) -> int:
    """Leaves at ``depth`` plies (a pass is a ply; a finished game is one leaf)."""
    if depth == 0:
        return 1
    moves = game.legal_moves()
    if not moves:
        return 1
    total = 0
    for m in moves:
        child = game.copy()
        child.apply(m)
        total += perft(child, depth - 1)
    return total
