"""The formats' throughput (a benchmark, not a test).

    .venv/bin/python benchmarks/formats.py                       # 100,000-game WTHOR file, 10,000 GGF games
    .venv/bin/python benchmarks/formats.py --wthor 20000 --ggf 2000

WTHOR: a database of ``--wthor`` records (``--distinct`` random legal 8x8 games,
repeated) written to a temporary file from the published layout, then read with
study.formats.wthor.iter_games, every move checked and the passes inferred.
GGF: ``--ggf`` finished games turned into GGF (game_from_board) and written as
one file, then read back (every move checked).  Wall and process CPU time; rates
in games per second.  Standard library only: runs in a bare python3 too.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.rules import Board, Variant  # noqa: E402
from study.formats.ggf import game_from_board, read_ggf, write_ggf  # noqa: E402
from study.formats.wthor import iter_games  # noqa: E402
from tests.study import wthor_files  # noqa: E402


def random_games(count: int, seed: int) -> list[Board]:
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        board = Board(Variant())
        while not board.is_game_over():
            board.push(rng.choice(board.legal_moves))
        games.append(board)
    return games


def timed(fn):
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--wthor", type=int, default=100_000, help="games in the WTHOR file")
    parser.add_argument("--ggf", type=int, default=10_000, help="games exported to GGF")
    parser.add_argument("--distinct", type=int, default=1000, help="distinct random games the files repeat")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    games = random_games(args.distinct, args.seed)
    records = [wthor_files.record([m for m in g.history if m != "pass"], black_discs=g.counts()["black"])
               for g in games]
    with tempfile.NamedTemporaryFile(suffix=".wtb", delete=False) as f:
        f.write(wthor_files.header(games=args.wthor))
        for i in range(args.wthor):
            f.write(records[i % len(records)])
        path = f.name
    try:
        size = os.path.getsize(path)

        def read_all():
            with open(path, "rb") as stream:
                return sum(1 for _ in iter_games(stream))

        count, wall, cpu = timed(read_all)
    finally:
        os.unlink(path)
    print(f"WTHOR read    {count:>7,} games  {size / 1e6:6.1f} MB  wall {wall:6.2f} s  cpu {cpu:6.2f} s  "
          f"{count / cpu:>8,.0f} games/s (cpu)")

    boards = [games[i % len(games)] for i in range(args.ggf)]

    def export():
        return write_ggf(game_from_board(b, black="black player", white="white player", black_rating=1500.0,
                                         white_rating=1500.0, time_control="05:00//00:00",
                                         date="2026.12.07_12:00:00.UTC", place="reversi") for b in boards)

    text, wall, cpu = timed(export)
    print(f"GGF export    {len(boards):>7,} games  {len(text) / 1e6:6.1f} MB  wall {wall:6.2f} s  cpu {cpu:6.2f} s  "
          f"{len(boards) / cpu:>8,.0f} games/s (cpu)")
    read, wall, cpu = timed(lambda: read_ggf(text))
    assert [g.moves for g in read[:len(games)]] == [list(g.history) for g in games[:len(read)]]
    print(f"GGF read      {len(read):>7,} games  {len(text) / 1e6:6.1f} MB  wall {wall:6.2f} s  cpu {cpu:6.2f} s  "
          f"{len(read) / cpu:>8,.0f} games/s (cpu)")


if __name__ == "__main__":
    main()
