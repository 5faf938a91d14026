"""Static evaluation of two-player positions, in centi-discs for the mover.

``make_evaluator(geo, anti)`` returns ``evaluate(P, O) -> int`` for one board
shape; ``100`` is worth about one disc of final margin.  Every table is derived
from the geometry (``Geometry._classify``), so octagons and blocked boards get
their own corners (unflippable squares), X and C squares and edges:

* mobility: legal-move counts, as a ratio ``(p - o) / (p + o + 2)``,
* potential mobility: empty squares next to the opponent's stones vs next to
  ours (frontier), also as a ratio,
* corners, and the X (diagonal) and C (orthogonal) squares next to corners
  that are still empty,
* stable stones: the runs of one colour along an edge from an owned corner
  (an under-estimate of real stability, but cheap and exact on open edges),
* edges, disc count and parity (who gets the last move), weighted by the
  game phase (fraction of empty squares).

``anti`` (fewest stones wins) has its own weights, not a negated evaluation:
mobility and frontier keep their sign (you still want options and to leave
the opponent none), but corners, stable stones, edges and discs are bad for
their owner, holding X squares is mildly good (it hands corners to the
opponent), and parity is reversed (the last move gains stones).
"""

from __future__ import annotations

from typing import NamedTuple

from .bitboard import Tables

# (opening weight, endgame weight), interpolated on the fraction of empties.
NORMAL = {
    "mobility": (900, 500),    # x ratio in [-1, 1]
    "frontier": (450, 200),
    "corner": (700, 500),
    "x_square": (-280, -100),
    "c_square": (-120, -40),
    "stable": (90, 60),
    "edge": (10, 20),
    "disc": (-4, 20),
    "parity": (0, 70),
}
ANTI = {
    "mobility": (800, 500),
    "frontier": (400, 200),
    "corner": (-600, -400),
    "x_square": (80, 30),
    "c_square": (40, 10),
    "stable": (-90, -60),
    "edge": (-15, -20),
    "disc": (-5, -25),
    "parity": (0, -70),
}


def _corner_edge_rays(geo: Tables) -> list[tuple[int, list[list[int]]]]:
    """For each corner-like square, its orthogonal rays that run along an edge."""
    out = []
    w = geo.stride
    sq = geo.squares
    for c in sq:
        if not geo.corners >> c & 1:
            continue
        rays = []
        r0, c0 = divmod(c, w)
        for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            r, cc, ray = r0 + dr, c0 + dc, []
            while geo._ok(r, cc):
                i = r * w + cc
                if geo.neighbours[i].bit_count() == 8:
                    break
                ray.append(i)
                r += dr
                cc += dc
            if ray and all(geo.neighbours[i].bit_count() < 8 for i in ray):
                rays.append(ray)
        out.append((c, rays))
    return out


def stable_counter(geo: Tables):
    """``stable_count(stones)``: the corner-like squares held and the unbroken
    runs of the same stones along an edge from them (stones nobody can flip)."""
    corner_rays = _corner_edge_rays(geo)
    corners = geo.corners

    def stable_count(B: int) -> int:
        if not B & corners:
            return 0
        n = 0
        for c, rays in corner_rays:
            if B >> c & 1:
                n += 1
                for ray in rays:
                    for i in ray:
                        if B >> i & 1:
                            n += 1
                        else:
                            break
        return n

    return stable_count


class HandTables(NamedTuple):
    """What the hand-made evaluation reads besides the position (the compiled
    core's copy, ``core.native_evaluator``, reads the same)."""

    table: list  # per number of empties: the nine interpolated weights
    corner_adj: list  # per corner: (its bit, its X squares, its C squares)
    corner_rays: list  # per corner: (square, its edge rays)


def hand_tables(geo: Tables, anti: bool = False) -> HandTables:
    weights = ANTI if anti else NORMAL
    total = max(1, len(geo.squares))
    corner_rays = _corner_edge_rays(geo)
    # X/C squares next to each corner (only relevant while the corner is empty)
    corner_adj = []
    for c, _ in corner_rays:
        nb = geo.neighbours[c]
        corner_adj.append((1 << c, nb & geo.x_squares, nb & geo.c_squares))
    W = {k: v for k, v in weights.items()}

    # precompute the interpolated weights for every number of empties
    table = []
    for e in range(total + 1):
        t = e / total
        table.append({k: a * t + b * (1 - t) for k, (a, b) in W.items()})
    table = [
        (
            row["mobility"], row["frontier"], row["corner"], row["x_square"], row["c_square"],
            row["stable"], row["edge"], row["disc"], row["parity"],
        )
        for row in table
    ]
    return HandTables(table, corner_adj, corner_rays)


def make_evaluator(geo: Tables, anti: bool = False):
    """Build ``evaluate(P, O)`` (centi-discs for the player owning ``P``)."""
    moves = geo.moves
    spread = geo.spread
    playable = geo.playable
    corners = geo.corners
    edges = geo.edges
    table, corner_adj, _ = hand_tables(geo, anti)

    stable_count = stable_counter(geo)

    def evaluate(P, O):
        E = playable & ~(P | O)
        e = E.bit_count()
        wm, wf, wc, wx, wcs, ws, we, wd, wp = table[e]
        mp = moves(P, O).bit_count()
        mo = moves(O, P).bit_count()
        v = wm * (mp - mo) / (mp + mo + 2)
        fp = (spread(O) & E).bit_count()  # our potential moves
        fo = (spread(P) & E).bit_count()
        v += wf * (fp - fo) / (fp + fo + 2)
        v += wc * ((P & corners).bit_count() - (O & corners).bit_count())
        danger_x = danger_c = 0
        for cb, xm, cm in corner_adj:
            if E & cb:
                danger_x |= xm
                danger_c |= cm
        v += wx * ((P & danger_x).bit_count() - (O & danger_x).bit_count())
        v += wcs * ((P & danger_c).bit_count() - (O & danger_c).bit_count())
        if (P | O) & corners:
            v += ws * (stable_count(P) - stable_count(O))
        v += we * ((P & edges).bit_count() - (O & edges).bit_count())
        v += wd * (P.bit_count() - O.bit_count())
        if wp:
            v += wp if e & 1 else -wp
        return int(v)

    return evaluate
