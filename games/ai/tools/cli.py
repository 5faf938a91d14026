"""Command line for the computer players: ``play`` (a match) and ``solve`` (exact
endgames in the ``ffo.txt`` format).

    python -m games play --board 8x8 --a hard --b normal --games 100 --time 2
    python -m games play --board 8x8 --players 3 --a hard --b normal --games 30
    python -m games play --a normal --b normal-previous --previous var/old-weights   # a new fit against the last
    python -m games play --a hard --b hard-python --time 2 --games 200 --record var/match.jsonl
    python -m games solve tests/data/ffo.txt --ids 1-19

(``python -m games.ai play|solve`` does the same.)
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path


def add_play_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--board", default="8x8", choices=["6x6", "8x8", "10x10", "octagon"])
    p.add_argument("--players", type=int, default=2, choices=[2, 3, 4])
    p.add_argument("--anti", action="store_true", help="Anti-Reversi: fewest stones wins")
    p.add_argument("--free-opening", action="store_true")
    p.add_argument("--blocked", type=int, default=0, metavar="N",
                   help="draw N (2, 4, 6, 8) blocked squares from --seed")
    p.add_argument("--handicap", type=int, default=0, metavar="N")
    p.add_argument("--handicap-colour", default="white", choices=["black", "white"])
    p.add_argument("--a", default="hard", help="player A: random, easy, normal or hard (normal-handmade, "
                   "hard-handmade: those levels with the hand-made evaluation, as before the learned one)")
    p.add_argument("--b", default="normal", help="player B (every other seat)")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--time", type=float, default=None,
                   help="Hard's time per move in seconds (default 2)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--random-plies", type=int, default=None,
                   help="random opening plies (default 4; the player count in 3-4 player games)")
    p.add_argument("--jobs", type=int, default=1, help="games in parallel (processes)")
    p.add_argument("--skip", type=int, default=0, metavar="N",
                   help="leave out the first N of the --games (the others keep their openings: a match in parts)")
    p.add_argument("--quiet", action="store_true", help="print only the summary")
    p.add_argument("--record", default=None, metavar="FILE",
                   help="append each game to FILE as it ends, a JSON line with its moves (to replay it)")
    p.add_argument("--previous", default=None, metavar="DIR",
                   help="the weights files normal-previous, hard-previous and hard-python-previous play with")
    p.add_argument("--cpu-clock", action="store_true",
                   help="measure Hard's time in process CPU time (benchmarks on a busy machine)")


def variant_from_args(args):
    from games import Variant

    fields = dict(board=args.board, players=args.players, anti=args.anti,
                  free_opening=args.free_opening, handicap=args.handicap,
                  handicap_colour=args.handicap_colour)
    if args.blocked:
        return Variant.with_random_blocked(args.blocked, seed=args.seed, **fields)
    return Variant(**fields)


def play(args) -> int:
    from games import InvalidVariantError

    from .match import run_match

    try:
        variant = variant_from_args(args)
    except InvalidVariantError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2

    if not 0 <= args.skip < args.games:
        print(f"error: --skip must leave some of the {args.games} games to play", file=sys.stderr)
        return 2

    if args.previous:  # read in every process of the match
        os.environ["GAMES_AI_PREVIOUS_WEIGHTS"] = str(Path(args.previous).resolve())

    def progress(result, game):
        outcome = "win" if game.winner_is_a else "draw" if game.draw else "loss"
        number = args.skip + result.n
        if args.record:
            record_game(args, number, game, outcome)
        if not args.quiet:
            print(f"game {number:3d}: opening {game.opening}, A in seat {game.seat_a + 1}: "
                  f"{outcome} ({game.margin_a:+d})  running {result.score:g}/{result.n}", flush=True)

    t0 = time.monotonic()
    result = run_match(variant, args.a, args.b, args.games, time_limit=args.time, seed=args.seed,
                       random_plies=args.random_plies, jobs=args.jobs, progress=progress,
                       cpu_clock=args.cpu_clock, skip=args.skip)
    print(result.summary())
    print(f"  ({time.monotonic() - t0:.0f} s)")
    return 0


def record_game(args, number: int, game, outcome: str) -> None:
    """Append one game of a match to ``args.record``: a JSON object a line, with
    what replays it (the variant's options and the moves from the start, the
    random opening included).  Appended as each game ends, so a match stopped
    halfway, or played in parts with ``--skip``, keeps its games in one file."""
    line = {
        "game": number, "opening": game.opening, "a": args.a, "b": args.b, "seat_a": game.seat_a + 1,
        "result": outcome, "margin_a": game.margin_a, "seed": args.seed, "time": args.time,
        "variant": {key: getattr(args, key) for key in
                    ("board", "players", "anti", "free_opening", "blocked", "handicap", "handicap_colour")},
        "moves": game.moves,
    }
    with open(args.record, "a", encoding="utf-8") as out:
        out.write(json.dumps(line) + "\n")


# ---------------------------------------------------------------- solve
def parse_ffo_line(line: str):
    """(id, black, white, to_move, best moves, score, empties) on the 8x8 board
    in the ``games.rules.geometry`` bit layout, or None for a comment/blank line."""
    line = line.strip()
    if not line or line.startswith("#"):
        return None
    f = line.split()
    ident, diagram, side = f[0], f[1], f[2]
    best = f[3].split(",") if len(f) > 3 else []
    score = int(f[4]) if len(f) > 4 else None
    if len(diagram) != 64 or side not in ("X", "O"):
        raise ValueError(f"bad position line: {line[:60]}")
    black = white = 0
    for i, ch in enumerate(diagram):
        bit = 1 << ((i // 8) * 9 + i % 8)  # games.rules.geometry: stride 9 on 8x8
        if ch == "X":
            black |= bit
        elif ch == "O":
            white |= bit
    return ident, black, white, side, best, score


def parse_ids(spec: str | None):
    if not spec:
        return None
    out = set()
    for part in spec.split(","):
        if "-" in part:
            a, b = part.split("-")
            out.update(str(i) for i in range(int(a), int(b) + 1))
        else:
            out.add(part.strip())
    return out


def solve(args) -> int:
    from games.rules.geometry import get_geometry

    from ..bitboard import tables
    from ..core import engine_name, make_solver

    geo = tables(get_geometry("8x8"))
    wanted = parse_ids(args.ids)
    rows = []
    with open(args.file) as fh:
        positions = [p for p in (parse_ffo_line(l) for l in fh) if p]
    print(f"engine: {engine_name()}")
    print(f"{'id':>4} {'move':>5} {'score':>6} {'expected':>14} {'ok':>3} {'wall s':>7} {'cpu s':>7} {'nodes':>9}")
    bad = 0
    for ident, black, white, side, best, score in positions:
        if wanted is not None and ident not in wanted:
            continue
        P, O = (black, white) if side == "X" else (white, black)
        solver = make_solver(geo)
        t0, c0 = time.monotonic(), time.process_time()
        value, sq = solver.solve(P, O)
        wall, cpu = time.monotonic() - t0, time.process_time() - c0
        move = geo.name(sq) if sq is not None else "pass"
        ok = (not best or move in best) and (score is None or value == score)
        bad += not ok
        expected = f"{','.join(best)} {score:+d}" if score is not None else ""
        rows.append((wall, cpu))
        print(f"{ident:>4} {move:>5} {value:+6d} {expected:>14} {'yes' if ok else 'NO':>3} "
              f"{wall:7.2f} {cpu:7.2f} {solver.nodes:9d}", flush=True)
    if rows:
        walls = [r[0] for r in rows]
        cpus = [r[1] for r in rows]
        print(f"{len(rows)} positions, {len(rows) - bad} correct; wall median {statistics.median(walls):.2f}s "
              f"max {max(walls):.2f}s total {sum(walls):.1f}s; cpu median {statistics.median(cpus):.2f}s "
              f"max {max(cpus):.2f}s")
    return 1 if bad else 0


def add_solve_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="positions in the ffo.txt format")
    p.add_argument("--ids", default=None, help="only these ids, e.g. 1-19 or 1,5,7-9")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.ai")
    sub = parser.add_subparsers(dest="command", required=True)
    add_play_arguments(sub.add_parser("play", help="play a match between computer levels"))
    add_solve_arguments(sub.add_parser("solve", help="solve endgame positions exactly"))
    args = parser.parse_args(argv)
    return play(args) if args.command == "play" else solve(args)
