"""Match runner: computer against computer (or against a uniformly random mover).

Games are played on ``games.Board`` (the rules library checks every move).
Openings are varied and fair: for each opening the first ``random_plies``
moves are drawn uniformly at random from a seed, and the same opening is then
played once with player A in every seat (two games with colours swapped in a
two-player match, three or four in a multi-player one).  Player A takes one
seat, player B all the others (``--a hard --b normal`` with 3 players is Hard
against two Normals).

A game scores 1 for a win, 1/2 for a draw in a two-player game, and in a
multi-player game 1 for a sole first place, 0 otherwise (a shared first place
is a draw for the whole table, docs/rules.md §8; it is counted apart).  The "fair
share" of a player among ``n`` equals is ``1/n`` of the games.
"""

from __future__ import annotations

import random
import statistics
import time
from contextlib import nullcontext
from dataclasses import dataclass, field

from games import Board, Variant

from .. import choose_move, clock
from ..core import python_engine
from ..probcut import full_width

# "normal-handmade" and "hard-handmade": the levels with the hand-made evaluation
# even where learned weights are shipped (today's levels, to measure against);
# "hard-python": Hard on the pure-Python engine though the compiled core is built
# (Hard as it was before the core); "normal-previous" and "hard-previous": the
# levels with the weights in GAMES_AI_PREVIOUS_WEIGHTS (a fit to measure a new one against);
# "hard-fullwidth": Hard on the compiled core without its probability cut-offs (probcut.py);
# "hard-python-previous": the pure-Python Hard with those earlier weights (Hard as it was
# before the core and a refit, to measure both together)
PLAYER_KINDS = ("random", "easy", "normal", "hard", "normal-handmade", "hard-handmade", "hard-python",
                "normal-previous", "hard-previous", "hard-fullwidth", "hard-python-previous")


@dataclass
class GameResult:
    opening: int
    seat_a: int
    winner_is_a: bool
    draw: bool
    margin_a: int          # A's stones minus the best other seat's stones
    moves: list[str]


@dataclass
class MatchResult:
    a: str
    b: str
    variant: Variant
    games: list[GameResult] = field(default_factory=list)
    times: dict = field(default_factory=dict)   # kind -> [seconds per move]
    cpu_times: dict = field(default_factory=dict)

    @property
    def n(self) -> int:
        return len(self.games)

    @property
    def wins(self) -> int:
        return sum(g.winner_is_a for g in self.games)

    @property
    def draws(self) -> int:
        return sum(g.draw for g in self.games)

    @property
    def losses(self) -> int:
        return self.n - self.wins - self.draws

    @property
    def score(self) -> float:
        """A's points: wins + half the draws (two players) or sole wins (more)."""
        if self.variant.players == 2:
            return self.wins + 0.5 * self.draws
        return float(self.wins)

    @property
    def percent(self) -> float:
        return 100.0 * self.score / self.n if self.n else 0.0

    def summary(self) -> str:
        v = self.variant
        lines = [
            f"{self.a} vs {self.b} on {v.label}: {self.n} games, "
            f"A wins {self.wins}, draws {self.draws}, losses {self.losses}; "
            f"A scores {self.score:g}/{self.n} = {self.percent:.1f}%"
            + (f" (fair share {100 / v.players:.1f}%)" if v.players > 2 else ""),
        ]
        margins = [g.margin_a for g in self.games]
        if margins:
            lines.append(f"  mean stone margin for A: {statistics.mean(margins):+.1f}")
        for kind in sorted(self.times):
            ts = sorted(self.times[kind])
            cpu = sorted(self.cpu_times.get(kind, [0]))
            if ts:
                lines.append(
                    f"  {kind:6s} {len(ts)} moves: wall median {statistics.median(ts):.3f}s "
                    f"max {ts[-1]:.3f}s; cpu median {statistics.median(cpu):.3f}s max {cpu[-1]:.3f}s"
                )
        return "\n".join(lines)


def random_opening(variant: Variant, plies: int, rng: random.Random) -> list[str]:
    board = Board(variant)
    moves = []
    for _ in range(plies):
        legal = board.legal_moves
        if not legal or board.is_game_over():
            break
        m = rng.choice(legal)
        board.push(m)
        moves.append(m)
    return moves


def player(kind: str):
    """(level, the engine's context, evaluation) of a kind of PLAYER_KINDS but "random"."""
    level, *options = kind.split("-")
    engine = python_engine() if "python" in options else full_width() if "fullwidth" in options else nullcontext()
    evaluation = next((o for o in options if o in ("handmade", "previous")), "learned")
    return level, engine, evaluation


def play_game(variant: Variant, kinds: list[str], opening: list[str], *, time_limit: float | None,
              seed: int, times: dict | None = None, cpu_times: dict | None = None) -> Board:
    """Play one game; ``kinds[i]`` plays seat ``i``.  Returns the final board."""
    board = Board(variant)
    for m in opening:
        board.push(m)
    rng = random.Random(seed)
    while not board.is_game_over():
        kind = kinds[board.turn_index]
        legal = board.legal_moves
        if kind == "random":
            move = rng.choice(legal)
        else:
            t0, c0 = time.monotonic(), time.process_time()
            level, engine, evaluation = player(kind)
            tl = time_limit if level == "hard" else None
            with engine:
                move = choose_move(board, level, time_limit=tl, seed=rng.randrange(1 << 30), evaluation=evaluation)
            if times is not None and legal != ["pass"] and len(legal) > 1:
                times.setdefault(kind, []).append(time.monotonic() - t0)
                cpu_times.setdefault(kind, []).append(time.process_time() - c0)
        board.push(move)
    return board


def _result(board: Board, seat_a: int, opening_no: int) -> GameResult:
    out = board.outcome()
    colours = board.colours
    a = colours[seat_a]
    counts = out.counts
    others = [counts[c] for c in colours if c != a]
    if board.variant.anti:
        margin = min(others) - counts[a]
    else:
        margin = counts[a] - max(others)
    return GameResult(
        opening=opening_no, seat_a=seat_a, winner_is_a=out.winner == a, draw=out.winner is None,
        margin_a=margin, moves=list(board.history),
    )


def _one(args):
    variant, kinds, opening, time_limit, seed, seat_a, opening_no, cpu_clock = args
    clock.use_cpu_clock(cpu_clock)
    times: dict = {}
    cpu: dict = {}
    board = play_game(variant, kinds, opening, time_limit=time_limit, seed=seed, times=times, cpu_times=cpu)
    return _result(board, seat_a, opening_no), times, cpu


def run_match(variant: Variant, a: str, b: str, games: int, *, time_limit: float | None = None,
              seed: int = 0, random_plies: int | None = None, jobs: int = 1,
              progress=None, cpu_clock: bool = False, skip: int = 0) -> MatchResult:
    """Play ``games`` games of A against B (B takes every seat A does not).

    ``cpu_clock`` measures Hard's time limit in process CPU time (see clock.py),
    for benchmarks on a busy machine.  ``skip`` leaves out the match's first
    games: the rest are played with the openings and seeds they have in the
    whole match, so a long match can be played in parts.
    """
    for kind in (a, b):
        if kind not in PLAYER_KINDS:
            raise ValueError(f"player must be one of {', '.join(PLAYER_KINDS)}, not {kind!r}")
    n = variant.players
    if random_plies is None:
        random_plies = 4 if n == 2 else n
    if variant.free_opening:
        random_plies = max(random_plies, 4)
    rng = random.Random(seed)
    tasks = []
    opening_no = 0
    while len(tasks) < games:
        opening = random_opening(variant, random_plies, rng)
        for seat in range(n):
            if len(tasks) >= games:
                break
            kinds = [b] * n
            kinds[seat] = a
            tasks.append((variant, kinds, opening, time_limit, seed * 100003 + len(tasks), seat, opening_no,
                          cpu_clock))
        opening_no += 1
    tasks = tasks[skip:]
    result = MatchResult(a=a, b=b, variant=variant)
    if jobs > 1:
        from multiprocessing import get_context

        with get_context("spawn").Pool(jobs) as pool:
            it = pool.imap(_one, tasks)
            for res in it:
                _collect(result, res, progress)
    else:
        before = clock.cpu_clock()
        try:
            for task in tasks:
                _collect(result, _one(task), progress)
        finally:
            clock.use_cpu_clock(before)
    return result


def _collect(result: MatchResult, res, progress) -> None:
    game, times, cpu = res
    result.games.append(game)
    for k, v in times.items():
        result.times.setdefault(k, []).extend(v)
    for k, v in cpu.items():
        result.cpu_times.setdefault(k, []).extend(v)
    if progress:
        progress(result, game)
