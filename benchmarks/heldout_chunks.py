"""Held-out error of a fit on the self-play chunks the fit held back.

    .venv/bin/python benchmarks/heldout_chunks.py --board 8x8 [--anti] [--weights var/anti.bin]

``python -m games.ai.tools.train fit`` holds back every tenth chunk (``files[::10]``)
to choose the damping.  This prints, per group of empties, the mean absolute
error in discs on those chunks' positions of the learned evaluation, of the
hand-made evaluation scaled per group (a scale and a constant, least squares
on the training chunks) and of predicting 0.  The labels are exact from the
``--exact`` horizon (14 empties) down; above it they are the game's first
exact value, far from the position, so those rows say little.
"""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.ai.bitboard import tables_for  # noqa: E402
from games.ai.evaluation import make_evaluator  # noqa: E402
from games.ai.learned import evaluator_from, read_weights, weights_path  # noqa: E402
from games.ai.tools.training_data import read_positions  # noqa: E402

GROUPS = [(0, 3), (4, 7), (8, 11), (12, 15), (16, 19), (20, 35), (36, 63)]


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--board", default="8x8")
    p.add_argument("--anti", action="store_true")
    p.add_argument("--data", default="var/ai-train")
    p.add_argument("--weights", default=None, help="default: the shipped file")
    args = p.parse_args()
    d = Path(args.data) / f"{args.board}{'-anti' if args.anti else ''}"
    files = sorted(d.glob("selfplay-*.txt"))
    valid_files = files[::10] if len(files) >= 10 else []
    if not valid_files:
        sys.exit(f"fewer than 10 chunks in {d}: the fit held none back")
    train = read_positions([f for f in files if f not in valid_files])
    valid = read_positions(valid_files)
    geo = tables_for(args.board)
    hand = make_evaluator(geo, args.anti)
    path = Path(args.weights) if args.weights else weights_path(args.board, args.anti)
    learned = evaluator_from(geo.lib, read_weights(path).stages, args.anti)
    print(f"{len(train)} training, {len(valid)} held-out positions "
          f"({', '.join(f.name for f in valid_files)})")
    print("| empties | positions | learned | hand-made, scaled | predicting 0 |")
    print("| --- | --- | --- | --- | --- |")
    for lo, hi in GROUPS:
        tr = [r for r in train if lo <= r[2] <= hi]
        va = [r for r in valid if lo <= r[2] <= hi]
        if not tr or not va:
            continue
        h = [hand(P, O) / 100 for P, O, *_ in tr]
        y = [r[3] for r in tr]
        mh, my = sum(h) / len(h), sum(y) / len(y)
        a = sum((x - mh) * (v - my) for x, v in zip(h, y)) / (sum((x - mh) ** 2 for x in h) or 1)
        b = my - a * mh
        le = sum(abs(learned(P, O) / 100 - v) for P, O, _, v, _ in va) / len(va)
        he = sum(abs(a * hand(P, O) / 100 + b - v) for P, O, _, v, _ in va) / len(va)
        ze = sum(abs(v) for _, _, _, v, _ in va) / len(va)
        print(f"| {lo}-{hi} | {len(va)} | {le:.2f} | {he:.2f} | {ze:.2f} |")


if __name__ == "__main__":
    main()
