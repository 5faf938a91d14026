"""Exact endgame benchmark on the FFO positions (tests/data/ffo.txt).

    .venv/bin/python benchmarks/solve.py                 # ids 1-19 (the target set)
    .venv/bin/python benchmarks/solve.py --ids 20-30
    .venv/bin/python benchmarks/solve.py other.txt       # every position of another file

Prints, per position, the move, exact score, expected values, wall and CPU
time and nodes, then the median and maximum (targets: each within 5 s,
median under 2 s, right move and score).  Same as ``python -m games solve``.
"""

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.ai.tools.cli import add_solve_arguments, solve  # noqa: E402

if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_solve_arguments(p)
    default = ROOT / "tests" / "data" / "ffo.txt"
    argv = sys.argv[1:]
    if not argv or argv[0].startswith("--"):
        argv = [str(default)] + (argv if argv else ["--ids", "1-19"])
    sys.exit(solve(p.parse_args(argv)))
