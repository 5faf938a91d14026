"""Where the games of a match were decided: before the endgame, or in it.

    .venv/bin/python -m games play --board 8x8 --a hard --b hard-python --games 200 --time 2 --record var/match.jsonl
    .venv/bin/python benchmarks/decided.py var/match.jsonl --empties 20

Reads a match's games (``python -m games play --record``, two players) and
solves each exactly, on the compiled core, from its first position with at most
``--empties`` empty squares to the end.  Prints, for player A, how the exact
result at that point compares with the game's result: a game A lost though it
was a win or a draw there was thrown away in the endgame; one already lost
there was decided in the midgame.  For every game A did not win, the moves
after that point that changed the exact result, with the discs each gave away
(A's moves lower A's value, B's raise it).
"""

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games import Board  # noqa: E402
from games.ai import core  # noqa: E402
from games.ai.bitboard import tables  # noqa: E402
from games.ai.tools.cli import variant_from_args  # noqa: E402


def outcome(value: int) -> str:
    return "win" if value > 0 else "draw" if value == 0 else "loss"


def exact_line(game: dict, empties: int) -> list[tuple[int, str, str, int]]:
    """(ply, mover "A"/"B", move, A's exact value before the move) from the first
    position with at most ``empties`` empty squares; the last entry, move None,
    is the final position, with A's result (the only one for a game that ended
    with more empty squares)."""
    variant = variant_from_args(SimpleNamespace(seed=game["seed"], **game["variant"]))
    board = Board(variant)
    seat_a = game["seat_a"] - 1
    line = []
    for ply, move in enumerate([*game["moves"], None], 1):
        geo = tables(board.geometry)
        P, O = board.bits[board.turn_index], board.bits[1 - board.turn_index]
        if move is None or (geo.playable & ~(P | O)).bit_count() <= empties:
            # the final position always (a game may end before): its value is the
            # result with the empties to the winner
            value = core.make_solver(geo, anti=variant.anti).solve(P, O)[0]
            a_moves = board.turn_index == seat_a
            line.append((ply, "A" if a_moves else "B", move, value if a_moves else -value))
        if move is not None:
            board.push(move)
    return line


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("record", help="a match's games, from python -m games play --record")
    p.add_argument("--empties", type=int, default=20, help="solve from the first position with at most this many")
    args = p.parse_args()
    if not core.available():
        print("the compiled core is not built (pip install -e .)", file=sys.stderr)
        return 2
    try:
        games = [json.loads(line) for line in Path(args.record).read_text(encoding="utf-8").splitlines() if line]
        two_players = all(g["variant"]["players"] == 2 for g in games)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        print(f"{args.record}: not a match record ({exc!r})", file=sys.stderr)
        return 2
    if not two_players:
        print("only two-player matches are solved", file=sys.stderr)
        return 2
    table = Counter()
    details = []
    for game in games:
        line = exact_line(game, args.empties)
        at_start = outcome(line[0][3])
        table[at_start, game["result"]] += 1
        if game["result"] != "win":
            # each move's change of A's exact value: the value after it minus before
            changes = [f"ply {ply} {who} {move} {after[3] - v:+d}"
                       for (ply, who, move, v), after in zip(line, line[1:]) if after[3] != v]
            details.append(f"game {game['game']}: {game['result']} ({line[-1][3]:+d}); "
                           f"at {args.empties} empties A's exact value {line[0][3]:+d}"
                           + (f"; {', '.join(changes)}" if changes else ""))
    print(f"{len(games)} games; A's exact result at the first position with at most {args.empties} empties "
          f"(rows) against the game's result (columns)")
    print(f"{'':>6} {'win':>5} {'draw':>5} {'loss':>5}")
    for start in ("win", "draw", "loss"):
        print(f"{start:>6} " + " ".join(f"{table[start, end]:5d}" for end in ("win", "draw", "loss")))
    for detail in details:
        print(detail)
    return 0


if __name__ == "__main__":
    sys.exit(main())
