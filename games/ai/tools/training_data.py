"""The data the learned evaluation is fitted to: self-play games and test
positions, labelled by the exact solver, in chunk files (``selfplay`` and
``testset`` of ``python -m games.ai.tools.train``; the steps are described there).

A chunk file has one position a line: the mover's and the other's stones in
hex, the empty squares, the label (the exact final margin in discs for the
mover) and a last number (self-play: 1 when the position itself was solved;
test set: the label the training would have given).  A chunk is written whole
or not at all (``_write``), so a stopped run resumes at the next chunk.
"""

from __future__ import annotations

import json
import math
import os
import random
import time
from pathlib import Path

from games import Board, Variant

from .. import core
from ..bitboard import tables_for
from ..endgame import EndgameSolver
from ..evaluation import make_evaluator
from ..learned import learned_evaluator
from ..search import Searcher

TEST_SEED = 10**6


def _variant(board: str, anti: bool) -> Variant:
    return Variant(board=board, anti=anti)


def _start(board: str, anti: bool) -> tuple[int, int]:
    b = Board(_variant(board, anti))
    return b.bits[b.turn_index], b.bits[1 - b.turn_index]


class Player:
    """Self-play: random opening moves, then a softmax over the moves' values:
    a 2-ply search with the hand-made evaluation (``evaluation="handmade"``),
    or a ``depth``-ply one with the shipped learned evaluation (``"learned"``:
    games nearer to Hard's own)."""

    def __init__(self, board: str, anti: bool, temperature: float, depth: int = 2, fast: bool = False,
                 evaluation: str = "handmade"):
        self.geo = tables_for(board)
        self.anti = anti
        if evaluation == "learned":
            evaluate = learned_evaluator(self.geo.lib, anti)
            if evaluate is None:
                raise SystemExit(f"--player learned: no weights are shipped for {board}{' Anti' if anti else ''}")
        else:
            evaluate = make_evaluator(self.geo, anti)
        # the compiled twin gives the same values (tests/ai/test_core_search.py), so the same games
        native = _core(fast).native_evaluator(self.geo, anti, evaluation) if fast else None
        self.searcher = Searcher(self.geo, evaluate, anti=anti, native=native)
        self.temperature = temperature
        self.depth = depth

    def move(self, P: int, O: int, rng: random.Random, random_move: bool) -> int:
        mv = self.geo.moves(P, O)
        squares = []
        while mv:
            b = mv & -mv
            mv ^= b
            squares.append(b.bit_length() - 1)
        if random_move or len(squares) == 1:
            return rng.choice(squares)
        self.searcher.tt.clear()
        values = self.searcher.move_values(P, O, self.depth)
        top = values[0][1]
        weights = [math.exp(max(-50.0, (v - top) / self.temperature)) for _, v in values]
        return rng.choices([sq for sq, _ in values], weights)[0]


def play(player: Player, rng: random.Random, P: int, O: int, random_plies: int, exact: int,
         stop_at: int = -1, solver: EndgameSolver | None = None):
    """Play from (P, O) (mover first); returns the list of [P, O, empties, colour,
    exact value or None] records and the first exact value as (colour, value),
    or None when the game ended before ``exact`` empties.  Stops at ``stop_at``
    empties when given (records up to there)."""
    geo = player.geo
    moves, flips, playable = geo.moves, geo.flips, geo.playable
    records = []
    colour = 0
    first_exact = None
    ply = 0
    while True:
        mv = moves(P, O)
        if not mv:
            if not moves(O, P):
                break
            P, O, colour = O, P, 1 - colour
            continue
        e = (playable & ~(P | O)).bit_count()
        if e == stop_at:
            records.append([P, O, e, colour, None])
            break
        value = None
        if e <= exact and solver is not None:
            # the last position's value, seen by this mover, is the first guess;
            # the solver's table is kept through the game (exact bounds stay true)
            guess = 0 if first_exact is None else (last if colour == last_colour else -last)
            value = solver.solve_exact(P, O, guess)[0]
            last, last_colour = value, colour
            if first_exact is None:
                first_exact = (colour, value)
        if stop_at < 0:
            records.append([P, O, e, colour, value])
        sq = player.move(P, O, rng, ply < random_plies)
        b = 1 << sq
        f = flips(b, P, O)
        P, O, colour = O ^ f, P | f | b, 1 - colour
        ply += 1
    return records, first_exact


def selfplay_chunk(args) -> str:
    board, anti, chunk, games, random_plies, exact, temperature, fast, (evaluation, depth), out = args
    rng = random.Random(chunk * 7919 + (1 if anti else 0))
    player = Player(board, anti, temperature, depth, fast=fast, evaluation=evaluation)
    lines = []
    for _ in range(games):
        P, O = _start(board, anti)
        solver = exact_solver(player.geo, anti, fast)
        records, first = play(player, rng, P, O, rng.randint(0, random_plies), exact, solver=solver)
        if first is None:
            continue
        fc, fv = first
        for P, O, e, colour, value in records:
            label = value if value is not None else (fv if colour == fc else -fv)
            lines.append(f"{P:x} {O:x} {e} {label} {1 if value is not None else 0}\n")
    _write(out, "".join(lines))
    return str(out)


def _core(fast: bool):
    """``games.ai.core``, checked to be built when ``--fast`` asks for it."""
    if fast and not core.available():
        raise SystemExit("--fast needs the compiled core (games/ai/_core.c): pip install -e . builds it")
    return core


def exact_solver(geo, anti: bool, fast: bool):
    """A fresh exact solver: the compiled core's when ``fast``; both give
    ``value(P, O)``, the same exact scores."""
    if fast:
        return _core(fast).CoreSolver(geo, anti=anti)
    return EndgameSolver(geo, anti=anti)


def testset_chunk(args) -> str:
    """Play and solve one chunk of test positions.  Each solved position is kept
    at once in ``<chunk>.part`` with the random generator's state, so a chunk
    stopped (``--minutes``, a kill) goes on where it was and gives the same
    positions as an unbroken run: at 24 empties one octagon position took the
    C solver over two hours."""
    board, anti, chunk, count, empties_list, random_plies, exact, temperature, fast, (evaluation, depth), out, \
        deadline = args
    rng = random.Random(TEST_SEED + chunk * 7919 + (1 if anti else 0))
    player = Player(board, anti, temperature, depth, fast=fast, evaluation=evaluation)
    part = out.with_suffix(".part")
    lines = []
    if part.exists():
        saved = json.loads(part.read_text())
        lines = saved["lines"]
        version, state, gauss = saved["rng"]
        rng.setstate((version, tuple(state), gauss))
    while len(lines) < count:
        target = empties_list[len(lines) % len(empties_list)]
        P, O = _start(board, anti)
        records, _ = play(player, rng, P, O, rng.randint(0, random_plies), exact, stop_at=target)
        if not records or records[-1][2] != target:
            continue
        P, O, e, _, _ = records[-1]
        value = exact_solver(player.geo, anti, fast).value(P, O)
        # the label the training would give: played on, solved at the horizon
        rest, first = play(player, rng, P, O, 0, exact, solver=exact_solver(player.geo, anti, fast))
        label = value if first is None else (first[1] if first[0] == 0 else -first[1])
        lines.append(f"{P:x} {O:x} {e} {value} {label}\n")
        if len(lines) < count:
            _write(part, json.dumps({"lines": lines, "rng": rng.getstate()}))
            if deadline is not None and time.time() > deadline:
                return f"{part}: {len(lines)} of {count} positions; run again to go on"
    _write(out, "".join(lines))
    part.unlink(missing_ok=True)
    return str(out)


def _write(path: Path, text: str) -> None:
    """Replace ``path`` whole or not at all (a kill leaves the old file)."""
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def _position(line: str) -> tuple[int, int, int, int, int]:
    a, b, e, v, x = line.split()
    return int(a, 16), int(b, 16), int(e), int(v), int(x)


def read_positions(paths):
    return [_position(line) for p in paths for line in Path(p).read_text().splitlines()]


def held_out_positions(d: Path):
    """The test set in ``d``: the finished chunks, then the positions already
    solved in unfinished ones (each exact all the same)."""
    started = [line for p in sorted(d.glob("test-*.part")) for line in json.loads(p.read_text())["lines"]]
    return read_positions(sorted(d.glob("test-*.txt"))) + [_position(line) for line in started]


def data_dir(args) -> Path:
    return Path(args.data) / f"{args.board}{'-anti' if args.anti else ''}"
