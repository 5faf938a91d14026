"""Command line: ``python -m games perft --board 8x8 --depth 9``.

The computer players add ``python -m games play ...`` (a match between
levels) and ``python -m games solve FILE`` (exact endgames); see games.ai.tools.cli.

Prints the leaf count for each depth 1..D with the wall time, the leaves per
second of wall time and of process CPU time (the machine may be shared).
A variant that breaks RULES is reported with the rule, exit status 2.
"""

from __future__ import annotations

import argparse
import sys

from .ai.tools import cli as ai_cli
from .rules.perft import perft, perft_plain, timed
from .rules.variant import InvalidVariantError, Variant


def _variant(args) -> Variant:
    fields = dict(
        board=args.board,
        players=args.players,
        anti=args.anti,
        free_opening=args.free_opening,
        handicap=args.handicap,
        handicap_colour=args.handicap_colour,
    )
    if args.random_blocked:
        return Variant.with_random_blocked(args.random_blocked, seed=args.seed, **fields)
    blocked = tuple(s for s in args.blocked.replace(",", " ").split()) if args.blocked else ()
    return Variant(blocked=blocked, **fields)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games", description="Reversi rules tools")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("perft", help="count the leaves of the game tree to each depth")
    p.add_argument("--board", default="8x8", help="6x6, 8x8, 10x10 or octagon")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--anti", action="store_true")
    p.add_argument("--free-opening", action="store_true")
    p.add_argument("--blocked", default="", help="blocked squares, e.g. b3,g6")
    p.add_argument("--random-blocked", type=int, default=0, metavar="N", help="draw N blocked squares (2, 4, 6, 8)")
    p.add_argument("--seed", type=int, default=0, help="seed for --random-blocked")
    p.add_argument("--handicap", type=int, default=0)
    p.add_argument("--handicap-colour", default="white", choices=("black", "white"))
    p.add_argument("--depth", type=int, required=True)
    p.add_argument("--plain", action="store_true", help="use the plain one-position-at-a-time perft")
    ai_cli.add_play_arguments(sub.add_parser("play", help="play a match between computer levels"))
    ai_cli.add_solve_arguments(sub.add_parser("solve", help="solve endgame positions (ffo.txt format) exactly"))
    args = parser.parse_args(argv)
    if args.command == "play":
        return ai_cli.play(args)
    if args.command == "solve":
        return ai_cli.solve(args)

    try:
        variant = _variant(args)
    except InvalidVariantError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.depth < 1:
        print("error: --depth must be at least 1", file=sys.stderr)
        return 2
    fn = perft_plain if args.plain else perft
    print(f"perft {variant.label}" + (f" (blocked {','.join(variant.blocked)})" if variant.blocked else ""))
    print(f"{'depth':>5} {'leaves':>14} {'seconds':>9} {'leaves/s':>12} {'leaves/s CPU':>13}")
    for depth in range(1, args.depth + 1):
        leaves, wall, cpu = timed(fn, variant, depth)
        rate = f"{leaves / wall:12,.0f}" if wall > 0 else f"{'-':>12}"
        crate = f"{leaves / cpu:13,.0f}" if cpu > 0 else f"{'-':>13}"
        print(f"{depth:>5} {leaves:>14,} {wall:>9.3f} {rate} {crate}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
